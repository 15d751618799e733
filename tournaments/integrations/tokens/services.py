"""Every API token write: create, revoke, and the check of a token presented to the API (which
records when it was last used, and audits and throttles the refusals). docs/api-tokens.md."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import NoReturn

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.users import AnyUser
from tournaments.audit import audit
from tournaments.integrations.tokens import keys
from tournaments.integrations.tokens.models import ApiToken
from tournaments.integrations.tokens.selectors import account_required, api_token_by_id
from tournaments.models import AuditEntry

# A token's last use is written when the stored one is older than this: one UPDATE a minute at
# most, whatever the request rate.
LAST_USED_EVERY = timedelta(minutes=1)


class TokenRefused(ApplicationError):
    """A presented token that does not authenticate (the API answers 403 ``authentication_failed``,
    as for wrong Basic credentials: session authentication comes first and sends no challenge)."""

    status = 403


class TokenThrottled(ApplicationError):
    """Too many refused tokens from one address lately: 429, and how long to wait."""

    status = 429


def _expiry(*, now: datetime, expires_in_days: int | None, expires_on: date | None) -> datetime:
    """When a new token expires: in N days (1 to 365) or at the end of a date up to a year ahead.
    Neither given: ``API_TOKEN_DEFAULT_DAYS``. Raises ApplicationError naming the field."""
    if expires_in_days is not None and expires_on is not None:
        raise ApplicationError(
            code="invalid",
            message=_("Some fields need correcting."),
            fields={"expires_on": [_("Give either a number of days or a date, not both.")]},
        )
    if expires_on is not None:
        today = timezone.localdate(now)
        last = keys.last_date_allowed(today)
        if not today <= expires_on <= last:
            raise ApplicationError(
                code="invalid",
                message=_("Some fields need correcting."),
                fields={
                    "expires_on": [
                        _("Choose a date from today up to one year ahead (%(last)s at the latest).")
                        % {"last": formats.date_format(last, "SHORT_DATE_FORMAT")}
                    ]
                },
            )
        return keys.expiry_on(expires_on, timezone.get_current_timezone())
    days = settings.API_TOKEN_DEFAULT_DAYS if expires_in_days is None else expires_in_days
    if not 1 <= days <= keys.MAX_DAYS:
        raise ApplicationError(
            code="invalid",
            message=_("Some fields need correcting."),
            fields={"expires_in_days": [_("A token lasts from 1 to 365 days.")]},
        )
    return keys.expiry_in_days(now, days)


@transaction.atomic
def api_token_create(
    *,
    user: AnyUser,
    name: str,
    scope: str,
    expires_in_days: int | None = None,
    expires_on: date | None = None,
    ip: str = "",
) -> tuple[ApiToken, str]:
    """A new token of the account's: the row, and the token itself (to show this once; only its
    digest is kept). Raises PermissionDenied (not signed in), ApplicationError (fields, or
    ``too_many_tokens`` beyond ``API_TOKENS_PER_ACCOUNT`` usable ones)."""
    account = account_required(user)
    now = timezone.now()
    fields: dict[str, list[object]] = {}
    name = (name or "").strip()
    if not name:
        fields["name"] = [_("Name the token after what will use it, e.g. “results script”.")]
    elif len(name) > 100:
        fields["name"] = [_("At most 100 characters.")]
    if scope not in ApiToken.Scope.values:
        fields["scope"] = [_("Choose “read” or “write” (read and write).")]
    try:
        expires_at = _expiry(now=now, expires_in_days=expires_in_days, expires_on=expires_on)
    except ApplicationError as exc:
        fields.update(exc.fields)
    if fields:
        raise ApplicationError(code="invalid", message=_("Some fields need correcting."), fields=fields)
    # The account's row, locked: two requests at once are counted one after the other.
    get_user_model().objects.select_for_update().filter(pk=account.pk).first()
    usable = ApiToken.objects.filter(user=account, revoked_at__isnull=True, expires_at__gt=now).count()
    if usable >= settings.API_TOKENS_PER_ACCOUNT:
        raise ApplicationError(
            code="too_many_tokens",
            message=_(
                "You have %(count)s usable API tokens, the most allowed: revoke one you no longer use first."
            )
            % {"count": usable},
        )
    raw = keys.token_new()
    token = ApiToken.objects.create(
        user=account,
        name=name,
        scope=scope,
        prefix=keys.token_prefix(raw),
        digest=keys.token_digest(raw),
        expires_at=expires_at,
    )
    audit(
        AuditEntry.Action.API_TOKEN_CREATED,
        user=account,
        token=token.pk,
        name=name,
        prefix=token.prefix,
        scope=scope,
        expires_at=expires_at.isoformat(),
        ip=ip,
    )
    return token, raw


@transaction.atomic
def api_token_revoke(*, user: AnyUser, token_id: int, ip: str = "") -> ApiToken:
    """Revoke one of the account's tokens: refused from now on, kept in the list as revoked.
    Revoking a revoked token changes nothing. Raises PermissionDenied, NotFound."""
    token = api_token_by_id(user=user, token_id=token_id, lock=True)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit(
            AuditEntry.Action.API_TOKEN_REVOKED,
            user=user,
            token=token.pk,
            name=token.name,
            prefix=token.prefix,
            ip=ip,
        )
    return token


def api_token_authenticate(*, raw: str, ip: str) -> ApiToken:
    """The usable token ``raw`` is (its user loaded), its last use recorded (at most once a minute).

    Raises TokenRefused (unknown, malformed, expired, revoked, or its account switched off: audited
    with the address, and the token's owner when it is one of ours) or TokenThrottled, without
    another audit row, when ``API_TOKEN_FAILURE_LIMIT`` tokens from this address were refused in
    the last ``API_TOKEN_FAILURE_WINDOW``."""
    token: ApiToken | None = None
    if keys.token_well_formed(raw):
        digest = keys.token_digest(raw)
        for candidate in ApiToken.objects.filter(prefix=keys.token_prefix(raw)).select_related("user"):
            if keys.digests_match(candidate.digest, digest):
                token = candidate
    now = timezone.now()
    if token is not None and token.revoked_at is None and token.expires_at > now and token.user.is_active:
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).filter(
                Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
            ).update(last_used_at=now)
            token.last_used_at = now
        return token
    _refuse(token=token, raw=raw, ip=ip, now=now)


def _refuse(*, token: ApiToken | None, raw: str, ip: str, now: datetime) -> NoReturn:
    """Throttle, or audit and refuse, a token that does not authenticate."""
    window: timedelta = settings.API_TOKEN_FAILURE_WINDOW
    limit: int = settings.API_TOKEN_FAILURE_LIMIT
    recent = list(
        AuditEntry.objects.filter(
            action=AuditEntry.Action.API_TOKEN_REFUSED, created_at__gt=now - window, detail__ip=ip
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) >= limit:
        # Paused until the oldest of the last ``limit`` refusals leaves the window (refusals
        # during the pause are not counted, so it does not move).
        wait = max(1, math.ceil((recent[-1] + window - now).total_seconds()))
        raise TokenThrottled(
            code="throttled",
            message=_("Too many refused API tokens from this network. Try again in %(minutes)s minutes.")
            % {"minutes": max(1, math.ceil(wait / 60))},
            extra={"retry_after_s": wait},
        )
    if token is None:
        reason, message = "unknown", _("This API token is not valid. Check that it was copied whole.")
    elif token.revoked_at is not None:
        reason, message = "revoked", _("This API token was revoked. Make a new one on your API tokens page.")
    elif token.expires_at <= now:
        reason = "expired"
        message = _("This API token expired on %(date)s. Make a new one on your API tokens page.") % {
            "date": formats.date_format(timezone.localtime(token.expires_at), "SHORT_DATETIME_FORMAT")
        }
    else:
        reason, message = "inactive", _("The account of this API token is switched off.")
    audit(
        AuditEntry.Action.API_TOKEN_REFUSED,
        user=token.user if token is not None else None,
        reason=reason,
        prefix=keys.token_prefix(raw) if keys.token_well_formed(raw) else "",
        token=token.pk if token is not None else None,
        ip=ip,
    )
    raise TokenRefused(code="authentication_failed", message=message, extra={"reason": reason})
