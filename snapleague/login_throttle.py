"""Login throttling with django-axes, on the login page and on the API's password authentication.

Axes counts failed log-ins per account and per client address (``AXES_LOCKOUT_PARAMETERS``): after
``LOGIN_FAILURE_LIMIT`` failures for one username, or from one address, further attempts are
refused for ``LOGIN_COOLOFF_MINUTES``, even with the right password. Failures during the cool-off
are not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False``), so someone hammering
an account cannot keep its owner out for longer than one cool-off at a time (docs/security.md).

Axes answers the page itself (its middleware turns the flagged request into ``lockout_response``);
DRF's Basic authentication only sees "no user", so ``ThrottledBasicAuthentication`` turns a
throttled attempt into a 429 with ``Retry-After`` instead of an ordinary 401.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions

from snapleague.authentication import BasicAuthentication  # refuses NUL before the database

THROTTLED = _(
    "Too many failed log-ins for this account or from this network. Try again in %(minutes)s minutes."
)


def client_ip(request: Any) -> str:
    """The address attempts are counted against: the proxy's ``X-Forwarded-For`` (its last entry,
    the one the trusted proxy added) when ``TRUST_PROXY_HEADERS`` is on, ``REMOTE_ADDR`` otherwise.
    Without a trusted proxy the header is the client's to invent, so it is ignored."""
    meta = request.META
    if settings.TRUST_PROXY_HEADERS:
        forwarded = [part.strip() for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return str(meta.get("REMOTE_ADDR") or "")


def attempted_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """What failures are counted against: the name or e-mail address typed in the log-in form
    (allauth hands the backends ``email=`` or ``username=``), or Basic authentication's user id."""
    for key in ("username", "email", "login"):
        value = (credentials or {}).get(key)
        if value:
            return str(value)
    post = getattr(request, "POST", None) or {}
    return str(post.get("username") or post.get("login") or "") or None


def locked_until(request: Any, credentials: dict[str, Any] | None) -> datetime:
    """When the cool-off ends: the newest counted failure of this account or this address, plus
    the cool-off (failures during the cool-off are not counted, so this does not move)."""
    cool_off = get_cool_off(request) or timedelta(0)
    username = get_client_username(request, credentials)
    matching = Q(ip_address=client_ip(request))
    if username:
        matching |= Q(username=username)
    newest = AccessAttempt.objects.filter(matching).aggregate(newest=Max("attempt_time"))["newest"]
    return (newest or timezone.now()) + cool_off


def minutes_left(until: datetime) -> int:
    return max(1, math.ceil((until - timezone.now()).total_seconds() / 60))


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """The login page's answer during a cool-off: 429, what happened and when to try again.

    (Axes calls this with ``(request, credentials)`` from its async path, hence the tolerance.)"""
    if credentials is None and isinstance(original_response, dict):
        credentials = original_response
    until = locked_until(request, credentials)
    response = render(
        request,
        "registration/locked_out.html",
        {"until": until, "message": THROTTLED % {"minutes": minutes_left(until)}},
        status=429,
    )
    response["Retry-After"] = str(max(1, math.ceil((until - timezone.now()).total_seconds())))
    return response


RATE_LIMITED = _("Too many attempts from this network or for this address. Try again in a minute.")


def rate_limited(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """allauth's answer when one of its limits is reached (ACCOUNT_RATE_LIMITS: sign-ups, password
    resets, mails resent): 429 with Retry-After, the same for any address (no enumeration)."""
    response = render(request, "429.html", {"message": RATE_LIMITED}, status=429)
    response["Retry-After"] = str(settings.RATE_LIMIT_RETRY_AFTER_SECONDS)
    return response


class ThrottledBasicAuthentication(BasicAuthentication):
    """DRF's Basic authentication that says "throttled, try again in N s" (429, ``Retry-After``)
    during an axes cool-off rather than "invalid username/password"."""

    def authenticate_credentials(self, userid: str, password: str, request: Any = None) -> Any:
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            if request is not None and getattr(request, "axes_locked_out", False):
                until = locked_until(request, {"username": userid})
                wait = max(1, math.ceil((until - timezone.now()).total_seconds()))
                raise exceptions.Throttled(
                    wait=wait, detail=str(THROTTLED % {"minutes": minutes_left(until)})
                ) from None
            raise


class ThrottledBasicScheme(OpenApiAuthenticationExtension):
    """The OpenAPI schema's name for it: HTTP Basic, as for DRF's own class."""

    target_class = ThrottledBasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "basic"}
