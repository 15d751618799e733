"""Sign-ins and failed sign-ins into the audit log (pages and API alike: both authenticate through
Django's ``authenticate``, which sends these signals)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

from tournaments.audit import audit
from tournaments.models import AuditEntry


@receiver(user_logged_in, dispatch_uid="audit-signed-in")
def _signed_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    audit(AuditEntry.Action.SIGNED_IN, user=user, ip=_ip(request))


@receiver(user_login_failed, dispatch_uid="audit-sign-in-failed")
def _sign_in_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    username = str(credentials.get("username") or credentials.get("email") or "")[:150]
    audit(AuditEntry.Action.SIGN_IN_FAILED, user=None, username=username, ip=_ip(request))


def _ip(request: Any) -> str:
    return str(getattr(request, "META", {}).get("REMOTE_ADDR", "")) if request is not None else ""
