"""A person's profile and the mails sent to people. Imported by ``tournaments/models.py`` (the app's
models module)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AccountProfile(models.Model):
    """What a person says about themselves: the name others see, the language of their mails, and
    the claim link they signed up from (so the claim survives confirming in another browser)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=80, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    pending_next = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("account profile")

    def __str__(self) -> str:
        return self.display_name or str(self.user)


class OutgoingMail(models.Model):
    """One mail, queued in the transaction that wanted it sent and sent by a Celery task. The key
    makes it once only: queueing the same mail again, or running its task twice, sends nothing more."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    key = models.CharField(max_length=64, unique=True)
    to = models.EmailField()
    subject = models.CharField(max_length=250)
    text = models.TextField()
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("outgoing mail")

    def __str__(self) -> str:
        return f"{self.subject} → {self.to} ({self.status})"
