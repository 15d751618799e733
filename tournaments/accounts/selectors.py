"""Reads about one's own account: the name shown, the language of one's mails, one's data."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.utils import timezone

from snapleague.users import Account, AnyUser, signed_in
from tournaments.accounts.models import AccountProfile
from tournaments.integrations.tokens.models import ApiToken
from tournaments.models import AuditEntry, Club, Player


def profile_of(user: Account) -> AccountProfile | None:
    return AccountProfile.objects.filter(user_id=user.pk).first()


def user_display(user: AnyUser) -> str:
    """The name others see: the display name when one is set, else the user name (ACCOUNT_USER_DISPLAY)."""
    if not signed_in(user):
        return ""
    profile = profile_of(user)
    return (profile.display_name if profile is not None else "") or user.get_username()


def recipient_language(email: str) -> str:
    """The language the owner of ``email`` chose for mails ("" when unknown: the caller's)."""
    user_id = EmailAddress.objects.filter(email__iexact=email).values_list("user_id", flat=True).first()
    if user_id is None:
        user_id = get_user_model().objects.filter(email__iexact=email).values_list("pk", flat=True).first()
    if user_id is None:
        return ""
    return AccountProfile.objects.filter(user_id=user_id).values_list("language", flat=True).first() or ""


def has_mfa(user: Account) -> bool:
    return (
        Authenticator.objects.filter(user_id=user.pk).exclude(type=Authenticator.Type.RECOVERY_CODES).exists()
    )


def mfa_urged(user: AnyUser) -> bool:
    """Whether to urge a second factor: an organiser of some club without one."""
    return signed_in(user) and user.organised_clubs.exists() and not has_mfa(user)


def clubs_only_organised_by(user: Account) -> list[Club]:
    """The clubs this person is the one organiser of (their account cannot go before a hand-over)."""
    return [club for club in user.organised_clubs.all() if club.organisers.count() == 1]


def _when(value: Any) -> str | None:
    return timezone.localtime(value).isoformat() if value is not None else None


def account_data(user: Account) -> dict[str, Any]:
    """Everything snapleague keeps that is about this person, as JSON-ready data (not the club's
    results: those are the club's player record's, and stay with the club)."""
    profile = profile_of(user)
    return {
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
            "display_name": profile.display_name if profile else "",
            "language": profile.language if profile else "",
        },
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user_id=user.pk).order_by("email")
        ],
        "second_factors": [
            {"type": a.type, "created_at": _when(a.created_at), "last_used_at": _when(a.last_used_at)}
            for a in Authenticator.objects.filter(user_id=user.pk).order_by("pk")
        ],
        "players": [
            {"club": p.club.name, "club_slug": p.club.slug, "player": p.name, "player_id": p.pk}
            for p in Player.objects.filter(user_id=user.pk).select_related("club").order_by("club__name")
        ],
        "organiser_of": list(user.organised_clubs.order_by("name").values_list("slug", flat=True)),
        "referee_of": list(user.refereed_tournaments.order_by("pk").values_list("pk", flat=True)),
        "api_tokens": [
            {
                "name": t.name,
                "scope": t.scope,
                "prefix": t.prefix,
                "created_at": _when(t.created_at),
                "expires_at": _when(t.expires_at),
                "revoked_at": _when(t.revoked_at),
            }
            for t in ApiToken.objects.filter(user_id=user.pk)
        ],
        "activity": [
            {
                "action": e.action,
                "at": _when(e.created_at),
                "tournament_id": e.tournament_id,
                "detail": e.detail,
            }
            for e in AuditEntry.objects.filter(user_id=user.pk).order_by("created_at", "pk")[:5000]
        ],
    }
