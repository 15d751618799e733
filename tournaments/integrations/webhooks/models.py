"""Webhook endpoints, the outbox of their deliveries, and every attempt to send one.

Imported by ``tournaments/models.py`` (the app's models module); foreign keys name the app's
models by string, so this module imports none of them.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class WebhookEvent(models.TextChoices):
    """What an endpoint may subscribe to (``ping`` is the test event, sent on request only)."""

    RESULT_CONFIRMED = "result.confirmed", _("Result confirmed")
    ROUND_PUBLISHED = "round.published", _("Round published")
    TOURNAMENT_FINISHED = "tournament.finished", _("Tournament finished")
    PING = "ping", _("Test event")


SUBSCRIBABLE_EVENTS: tuple[str, ...] = (
    WebhookEvent.RESULT_CONFIRMED,
    WebhookEvent.ROUND_PUBLISHED,
    WebhookEvent.TOURNAMENT_FINISHED,
)


class WebhookEndpoint(models.Model):
    """A URL of a club's that receives the events it chose, signed with its secret."""

    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(_("URL"), max_length=500)
    description = models.CharField(_("description"), max_length=200, blank=True)
    # The event types (WebhookEvent values, ping excluded) it receives.
    events = models.JSONField(_("events"), default=list)
    # The HMAC key. Shown to the organiser once, when made (services.webhook_endpoint_create and
    # webhook_endpoint_secret_regenerate); stored as is because every delivery is signed with it.
    secret = models.CharField(max_length=80)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    secret_created_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "created_at", "pk"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event for one endpoint: the outbox row. Written in the transaction of the change the
    event tells of (so it exists exactly when the change does) and sent by Celery after the commit.
    ``body`` is the JSON exactly as posted; the signature is made at each attempt (its timestamp)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    # The event's id (the ``Snapleague-Event-Id`` header): the same for every endpoint the event goes
    # to and for every attempt and redelivery, so that a receiver can drop what it has seen.
    event_id = models.UUIDField(default=uuid.uuid4)
    event = models.CharField(max_length=32, choices=WebhookEvent.choices)
    body = models.TextField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    # Attempts since it was queued (or queued again by a redelivery); at WEBHOOK_MAX_ATTEMPTS it fails.
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # A sender holds the delivery until then (services.webhook_delivery_attempt): two runs of the task
    # at once do not both post it.
    claimed_until = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = _("webhook deliveries")
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event_id"], name="webhook_event_once_per_endpoint"),
            models.CheckConstraint(
                condition=~Q(status="pending") | Q(next_attempt_at__isnull=False),
                name="webhook_pending_has_next_attempt",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.event_id} → {self.endpoint_id}"


class WebhookAttempt(models.Model):
    """One POST of a delivery: what the endpoint answered (or why it did not), and when the next
    attempt is due if this one failed."""

    class Failure(models.TextChoices):
        NONE = "", _("Delivered")
        TIMEOUT = "timeout", _("The endpoint did not answer in time.")
        CONNECTION = "connection", _("The connection was refused or cut.")
        TLS = "tls", _("The endpoint’s TLS certificate was not accepted.")
        ADDRESS = "address", _("The URL or its address is not allowed.")
        STATUS = "status", _("The endpoint answered with a status other than 2xx.")
        INACTIVE = "inactive", _("The endpoint is switched off: nothing was sent.")

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    # Why it failed: a kind the page names in the reader's language, and the technical detail.
    failure = models.CharField(max_length=12, choices=Failure.choices, blank=True, default="")
    error = models.CharField(max_length=500, blank=True)
    response_excerpt = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # Sent again at an organiser's request (after it had been delivered or had failed).
    manual = models.BooleanField(default=False)

    class Meta:
        ordering = ["delivery", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="webhook_attempt_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.delivery_id} #{self.number}: {self.status_code or self.error}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300
