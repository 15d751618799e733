"""Reads: a club's endpoints, an endpoint or a delivery its organisers manage, the delivery log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.clubs.selectors import club_get
from tournaments.integrations.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from tournaments.models import Club
from tournaments.rows import row_by_id

# How many deliveries the log shows (newest first).
LOG_SIZE = 50


def webhook_endpoint_by_id(*, user: AnyUser, endpoint_id: int, lock: bool = False) -> WebhookEndpoint:
    """An endpoint ``user`` manages (an organiser of its club). Raises NotFound, PermissionDenied."""
    endpoint = row_by_id(
        WebhookEndpoint.objects.select_related("club"),
        endpoint_id,
        lock=lock,
        missing=NotFound(code="webhook_not_found", message=_("No such webhook endpoint.")),
    )
    require_organiser(user, endpoint.club)
    return endpoint


def webhook_delivery_by_id(*, user: AnyUser, delivery_id: int) -> WebhookDelivery:
    """A delivery ``user`` manages. Raises NotFound, PermissionDenied."""
    delivery = WebhookDelivery.objects.select_related("endpoint__club").filter(pk=delivery_id).first()
    if delivery is None:
        raise NotFound(code="webhook_delivery_not_found", message=_("No such webhook delivery."))
    require_organiser(user, delivery.endpoint.club)
    return delivery


def club_webhooks_get(*, user: AnyUser, slug: str) -> tuple[Club, list[WebhookEndpoint]]:
    """A club its organisers manage, with its endpoints. Raises NotFound, PermissionDenied."""
    club = club_get(slug=slug)
    require_organiser(user, club)
    return club, webhook_endpoints_list(club=club)


def webhook_endpoints_list(*, club: Club) -> list[WebhookEndpoint]:
    return list(WebhookEndpoint.objects.filter(club=club).order_by("created_at", "pk"))


def webhook_deliveries_list(*, endpoint: WebhookEndpoint, limit: int = LOG_SIZE) -> list[WebhookDelivery]:
    """The endpoint's newest deliveries, each with its attempts (newest first)."""
    attempts = WebhookAttempt.objects.order_by("-number")
    return list(
        WebhookDelivery.objects.filter(endpoint=endpoint)
        .prefetch_related(Prefetch("attempt_log", queryset=attempts))
        .order_by("-created_at", "-pk")[:limit]
    )


@dataclass(frozen=True)
class EndpointPage:
    endpoint: WebhookEndpoint
    deliveries: list[WebhookDelivery]


def webhook_endpoint_page_get(*, user: AnyUser, endpoint_id: int) -> EndpointPage:
    endpoint = webhook_endpoint_by_id(user=user, endpoint_id=endpoint_id)
    return EndpointPage(endpoint=endpoint, deliveries=webhook_deliveries_list(endpoint=endpoint))


def webhook_deliveries_lost(*, grace_seconds: float) -> QuerySet[WebhookDelivery]:
    """Pending deliveries overdue by more than ``grace_seconds`` and held by no sender: their Celery
    message was lost (a broker down at the commit, a worker that died). Beat sends them again."""
    now = timezone.now()
    return WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING,
        next_attempt_at__lte=now - timedelta(seconds=grace_seconds),
    ).filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
