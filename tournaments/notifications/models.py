"""What people are told: a notification per (user, event, subject), its push deliveries, the
browsers a person asked to be pushed to, and what each person wants by which channel. Loaded by
``tournaments/models.py``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Event(models.TextChoices):
    ROUND_PUBLISHED = "round_published", _("A round is published with your table")
    CHECK_IN_OPEN = "check_in_open", _("Check-in opens for a session you play in")
    YOUR_MOVE = "your_move", _("It is your move in an online game and you are away")
    REGISTRATION_ACCEPTED = "registration_accepted", _("Your registration is accepted")
    MOVED_UP = "moved_up", _("You moved up from a waiting list")
    JOIN_DECIDED = "join_decided", _("A club answered your request to join")
    RESULT_TO_CONFIRM = "result_to_confirm", _("A result of yours needs your confirmation")
    RESULT_DISPUTED = "result_disputed", _("A result is disputed in a tournament you run")
    DISPUTE_DECIDED = "dispute_decided", _("A disputed result of yours is decided")
    REPORT_OVERDUE = "report_overdue", _("A series is not reported by its deadline")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Push")


class Notification(models.Model):
    """One thing one person is told, once: ``(user, event, key)`` is unique (``key`` names the
    event's subject: ``round:12``, ``game:7``). ``params`` are plain values the text is made from in
    the reader's language; ``dispatched``: its e-mail and pushes have been queued (by the dispatch
    task, once)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    event = models.CharField(max_length=32, choices=Event.choices)
    key = models.CharField(max_length=80)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    dispatched = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "event", "key"], name="notification_once"),
        ]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notification_unread"),
            models.Index(
                fields=["event", "key"], condition=Q(dispatched=False), name="notification_undispatched"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.key} → {self.user_id}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its endpoint and keys, RFC 8291), dropped when the push
    service answers 404 or 410 (the browser revoked it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push {self.pk} of {self.user_id}"


class PushDelivery(models.Model):
    """One notification pushed to one subscription, at most once (unique pair; the send task locks
    the row and sends only while it is queued)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        GONE = "gone", _("subscription gone")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="pushes")
    subscription = models.ForeignKey(
        PushSubscription, null=True, on_delete=models.SET_NULL, related_name="deliveries"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["notification", "subscription"], name="push_once"),
        ]

    def __str__(self) -> str:
        return f"push of {self.notification_id} to {self.subscription_id} ({self.status})"


class NotificationPreferences(models.Model):
    """What a person does not want, as ``"event:channel"`` strings (everything else is on, except
    :data:`OFF_BY_DEFAULT`, which a person turns on with ``on``). In-app notifications are always
    kept: the list is where every channel's notification can be read again."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    off = models.JSONField(default=list, blank=True)
    on = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"notification preferences of {self.user_id}"
