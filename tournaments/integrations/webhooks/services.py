"""Every webhook write: endpoints (create, change, new secret, delete, test event), redelivery,
and one attempt to send a delivery (what the Celery task runs)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser
from tournaments.integrations.webhooks import sender, signing
from tournaments.integrations.webhooks.events import (
    body_json,
    deliveries_enqueue_on_commit,
    envelope,
    ping_data,
)
from tournaments.integrations.webhooks.models import (
    SUBSCRIBABLE_EVENTS,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from tournaments.integrations.webhooks.schedule import retry_delay
from tournaments.integrations.webhooks.selectors import webhook_delivery_by_id, webhook_endpoint_by_id
from tournaments.integrations.webhooks.targets import TargetRefused, url_check
from tournaments.models import Club

MAX_ENDPOINTS_PER_CLUB = 10
USER_AGENT = "snapleague-webhooks/1"


# --- Endpoints ------------------------------------------------------------------------------------


def _checked(*, url: str | None, events: Sequence[str] | None, description: str | None) -> dict[str, object]:
    """The fields given, checked; ApplicationError naming every field at fault."""
    fields: dict[str, list[object]] = {}
    clean: dict[str, object] = {}
    if url is not None:
        try:
            clean["url"] = url_check(str(url))
        except TargetRefused as exc:
            fields["url"] = [exc.message]
    if events is not None:
        chosen = [str(e) for e in events] if not isinstance(events, str) else [events]
        wrong = [e for e in chosen if e not in SUBSCRIBABLE_EVENTS]
        if wrong:
            fields["events"] = [
                _("These are not events an endpoint can receive: %(wrong)s.") % {"wrong": ", ".join(wrong)}
            ]
        elif not chosen:
            fields["events"] = [_("Choose at least one event.")]
        else:
            clean["events"] = [e for e in SUBSCRIBABLE_EVENTS if e in chosen]
    if description is not None:
        if len(str(description)) > 200:
            fields["description"] = [_("Keep the description under 200 characters.")]
        clean["description"] = str(description).strip()
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The webhook endpoint cannot be saved as it is."), fields=fields
        )
    return clean


@transaction.atomic
def webhook_endpoint_create(
    *,
    user: AnyUser,
    club: Club,
    url: str,
    events: Sequence[str],
    description: str = "",
    active: bool = True,
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint of ``club`` and its secret (shown to the organiser this once). Raises
    PermissionDenied, ApplicationError (the fields at fault; nothing is saved then)."""
    require_organiser(user, club)
    clean = _checked(url=url, events=events, description=description)
    if WebhookEndpoint.objects.filter(club=club).count() >= MAX_ENDPOINTS_PER_CLUB:
        raise ApplicationError(
            code="too_many_webhooks",
            message=_("A club has at most %(n)s webhook endpoints: delete one first.")
            % {"n": MAX_ENDPOINTS_PER_CLUB},
        )
    secret = signing.new_secret()
    endpoint = WebhookEndpoint.objects.create(
        club=club,
        secret=secret,
        secret_created_at=timezone.now(),
        active=bool(active),
        created_by=user if signed_in(user) else None,
        **clean,
    )
    return endpoint, secret


@transaction.atomic
def webhook_endpoint_update(
    *,
    user: AnyUser,
    endpoint_id: int,
    url: str | None = None,
    events: Sequence[str] | None = None,
    description: str | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    """Change what is given. Switching an endpoint off stops its pending deliveries (each is
    marked failed at its next attempt); redeliver them once it is on again."""
    endpoint = webhook_endpoint_by_id(user=user, endpoint_id=endpoint_id, lock=True)
    clean = _checked(url=url, events=events, description=description)
    for name, value in clean.items():
        setattr(endpoint, name, value)
    if active is not None:
        endpoint.active = bool(active)
    endpoint.save()
    return endpoint


@transaction.atomic
def webhook_endpoint_secret_regenerate(*, user: AnyUser, endpoint_id: int) -> tuple[WebhookEndpoint, str]:
    """A new secret, at once: every attempt from now on is signed with it (those still waiting too)."""
    endpoint = webhook_endpoint_by_id(user=user, endpoint_id=endpoint_id, lock=True)
    endpoint.secret = signing.new_secret()
    endpoint.secret_created_at = timezone.now()
    endpoint.save(update_fields=["secret", "secret_created_at"])
    return endpoint, endpoint.secret


@transaction.atomic
def webhook_endpoint_delete(*, user: AnyUser, endpoint_id: int) -> None:
    """Delete the endpoint with its delivery log."""
    endpoint = webhook_endpoint_by_id(user=user, endpoint_id=endpoint_id, lock=True)
    endpoint.delete()


@transaction.atomic
def webhook_endpoint_test(*, user: AnyUser, endpoint_id: int) -> WebhookDelivery:
    """Queue a ``ping`` event for this endpoint alone (also when it is switched off: a test)."""
    endpoint = webhook_endpoint_by_id(user=user, endpoint_id=endpoint_id, lock=True)
    delivery = WebhookDelivery(endpoint=endpoint, event=WebhookEvent.PING, next_attempt_at=timezone.now())
    delivery.body = body_json(
        envelope(event_id=delivery.event_id, event=WebhookEvent.PING, club=endpoint.club, data=ping_data())
    )
    delivery.save()
    deliveries_enqueue_on_commit([delivery.pk])
    return delivery


@transaction.atomic
def webhook_delivery_redeliver(*, user: AnyUser, delivery_id: int) -> WebhookDelivery:
    """Send a delivered or failed delivery again: the same event id and body, a new run of
    attempts. Raises Conflict while it is still waiting to be sent."""
    found = webhook_delivery_by_id(user=user, delivery_id=delivery_id)
    delivery = WebhookDelivery.objects.select_for_update().get(pk=found.pk)
    if delivery.status == WebhookDelivery.Status.PENDING:
        raise Conflict(
            code="delivery_pending",
            message=_("This delivery is still waiting to be sent: it cannot be sent again yet."),
        )
    delivery.status = WebhookDelivery.Status.PENDING
    delivery.attempts = 0
    delivery.next_attempt_at = timezone.now()
    delivery.claimed_until = None
    delivery.save(update_fields=["status", "attempts", "next_attempt_at", "claimed_until"])
    deliveries_enqueue_on_commit([delivery.pk])
    delivery.endpoint = found.endpoint
    return delivery


# --- Sending --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttemptOutcome:
    """What :func:`webhook_delivery_attempt` did. ``retry_in``: seconds until the next attempt is
    due (the task asks Celery to run it again then); None when there is none to schedule."""

    status: str  # delivered, failed, retry, not_due, skipped
    retry_in: float | None = None
    attempt: WebhookAttempt | None = None


def _claim_seconds() -> float:
    # Longer than one attempt can take (connect + read timeouts, and the time to record it).
    return 2 * float(settings.WEBHOOK_TIMEOUT_SECONDS) + 30


def webhook_delivery_attempt(*, delivery_id: int, rng: random.Random | None = None) -> AttemptOutcome:
    """Post a pending delivery once, if it is due and no other sender holds it, and record the
    attempt: delivered on a 2xx answer; otherwise the next attempt is scheduled (backoff with jitter)
    or, after ``WEBHOOK_MAX_ATTEMPTS``, the delivery is failed.

    Safe to run twice or at once: a sender first claims the delivery with a conditional UPDATE
    (pending, due, unclaimed or its claim expired), so two runs never post it together, and a
    delivered or failed one is never posted by the task again. A sender that dies between posting
    and recording leaves a claim that expires: the delivery is posted again (at least once; the
    event id lets a receiver see it twice). No HTTP request is made inside a transaction.
    """
    now = timezone.now()
    claimed = (
        WebhookDelivery.objects.filter(
            pk=delivery_id, status=WebhookDelivery.Status.PENDING, next_attempt_at__lte=now
        )
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=now + timedelta(seconds=_claim_seconds()))
    )
    if not claimed:
        return AttemptOutcome("skipped")
    delivery = WebhookDelivery.objects.select_related("endpoint").get(pk=delivery_id)
    endpoint = delivery.endpoint
    started = timezone.now()
    if endpoint.active or delivery.event == WebhookEvent.PING:
        body = delivery.body.encode("utf-8")
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": USER_AGENT,
            signing.HEADER: signing.signature_header(endpoint.secret, timestamp, body),
            "Snapleague-Event": delivery.event,
            "Snapleague-Event-Id": str(delivery.event_id),
            "Snapleague-Delivery": str(delivery.pk),
        }
        answer = sender.post(endpoint.url, body, headers, timeout=float(settings.WEBHOOK_TIMEOUT_SECONDS))
    else:
        answer = sender.Answer(None, WebhookAttempt.Failure.INACTIVE, "", "", 0)
    return _attempt_record(delivery.pk, answer, started=started, rng=rng or random.Random())


@transaction.atomic
def _attempt_record(
    delivery_id: int, answer: sender.Answer, *, started: datetime, rng: random.Random
) -> AttemptOutcome:
    delivery = WebhookDelivery.objects.select_for_update().get(pk=delivery_id)
    number = (delivery.attempt_log.aggregate(n=Max("number"))["n"] or 0) + 1
    delivery.attempts += 1
    now = timezone.now()
    retry_in: float | None = None
    if answer.ok:
        delivery.status = WebhookDelivery.Status.DELIVERED
        delivery.delivered_at = now
        delivery.next_attempt_at = None
    elif (
        delivery.attempts >= int(settings.WEBHOOK_MAX_ATTEMPTS)
        or answer.failure == WebhookAttempt.Failure.INACTIVE
    ):
        delivery.status = WebhookDelivery.Status.FAILED
        delivery.next_attempt_at = None
    else:
        retry_in = retry_delay(
            delivery.attempts,
            base=float(settings.WEBHOOK_RETRY_BASE_SECONDS),
            cap=float(settings.WEBHOOK_RETRY_MAX_SECONDS),
            rng=rng,
        )
        delivery.next_attempt_at = now + timedelta(seconds=retry_in)
    delivery.claimed_until = None
    delivery.save(update_fields=["status", "attempts", "delivered_at", "next_attempt_at", "claimed_until"])
    attempt = WebhookAttempt.objects.create(
        delivery=delivery,
        number=number,
        started_at=started,
        duration_ms=answer.duration_ms,
        status_code=answer.status_code,
        failure=answer.failure,
        error=answer.error,
        response_excerpt=answer.excerpt,
        next_attempt_at=delivery.next_attempt_at,
        manual=delivery.attempts == 1 and number > 1,
    )
    status = "retry" if retry_in is not None else delivery.status
    return AttemptOutcome(status, retry_in, attempt)


def webhook_deliveries_reconcile() -> list[int]:
    """Beat: send again the deliveries whose Celery message was lost. Returns their ids."""
    from tournaments.integrations.webhooks.selectors import webhook_deliveries_lost

    ids = list(
        webhook_deliveries_lost(grace_seconds=float(settings.WEBHOOK_RECONCILE_SECONDS)).values_list(
            "pk", flat=True
        )[:500]
    )
    if ids:
        from snapleague.celery import enqueue
        from tournaments.tasks import webhook_delivery_send_task

        for delivery_id in ids:
            enqueue(webhook_delivery_send_task, delivery_id)
    return ids
