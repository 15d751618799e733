"""An account's personal API tokens. Imported by ``tournaments/models.py`` (the app's models module)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """A credential for scripts: a name, a scope, an expiry. The token itself is shown once, when
    made; the row keeps its SHA-256 (``digest``) and its first 12 characters (``prefix``)."""

    class Scope(models.TextChoices):
        READ = "read", _("Read")
        WRITE = "write", _("Read and write")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100)
    scope = models.CharField(_("scope"), max_length=8, choices=Scope.choices, default=Scope.READ)
    prefix = models.CharField(max_length=12, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    # Written at most once a minute per token (services.api_token_authenticate), not per request.
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def usable(self) -> bool:
        return not self.revoked and not self.expired
