"""Writes to one's own account: the profile, and deleting the account."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext_lazy as _

from snapleague.errors import Conflict
from snapleague.users import Account, AnyUser, signed_in
from tournaments.accounts.models import AccountProfile
from tournaments.audit import audit
from tournaments.models import AuditEntry, Player

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def _local_path(url: str) -> str:
    """``url`` when it is a path on this site (no scheme, no host, not "//"), else ""."""
    url = url.strip()
    if not url.startswith("/") or url.startswith("//") or "\\" in url or len(url) > 200:
        return ""
    return url


def profile_create_at_signup(
    *, user: Account, display_name: str, language: str, next_url: str
) -> AccountProfile:
    profile, _created = AccountProfile.objects.update_or_create(
        user=user,
        defaults={
            "display_name": display_name.strip(),
            "language": language if language in LANGUAGE_CODES else "",
            # Where they were going (a claim link): kept until they log in, in whatever browser.
            "pending_next": _local_path(next_url),
        },
    )
    return profile


def profile_pending_next_pop(*, user: AnyUser) -> str:
    if not signed_in(user):
        return ""
    with transaction.atomic():
        profile = AccountProfile.objects.select_for_update().filter(user_id=user.pk).first()
        if profile is None or not profile.pending_next:
            return ""
        pending = profile.pending_next
        profile.pending_next = ""
        profile.save(update_fields=["pending_next"])
    return pending


def profile_update(*, user: Account, display_name: str, language: str) -> AccountProfile:
    profile, _created = AccountProfile.objects.update_or_create(
        user=user,
        defaults={
            "display_name": display_name.strip(),
            "language": language if language in LANGUAGE_CODES else "",
        },
    )
    return profile


@transaction.atomic
def account_delete(*, user: Account) -> None:
    """Delete the account. The club's player records and their results stay; only their link to
    this person goes (audited per player). Refused (Conflict ``sole_organiser``) while the person
    is the one organiser of a club. An account that sat at an online table (games keep who played)
    cannot be removed outright: it is emptied instead (name, address, password, profile, second
    factors, tokens gone; deactivated), which leaves nothing that identifies the person."""
    from tournaments.accounts.selectors import clubs_only_organised_by

    locked = get_user_model().objects.select_for_update().get(pk=user.pk)
    sole = clubs_only_organised_by(locked)
    if sole:
        raise Conflict(
            code="sole_organiser",
            message=_(
                "You are the only organiser of %(clubs)s. Add another organiser first, then delete your account."
            )
            % {"clubs": ", ".join(club.name for club in sole)},
        )
    for player in Player.objects.select_for_update().filter(user_id=locked.pk).select_related("club"):
        audit(
            AuditEntry.Action.PLAYER_UNLINKED,
            user=None,
            club=player.club.name,
            player=player.name,
            player_id=player.pk,
            account="",
            reason="account deleted",
        )
    Player.objects.filter(user_id=locked.pk).update(user=None)
    try:
        with transaction.atomic():
            locked.delete()
    except ProtectedError:
        _empty(locked)


def _empty(user: Account) -> None:
    from allauth.mfa.models import Authenticator

    from tournaments.integrations.tokens.models import ApiToken

    EmailAddress.objects.filter(user_id=user.pk).delete()
    Authenticator.objects.filter(user_id=user.pk).delete()
    ApiToken.objects.filter(user_id=user.pk).delete()
    AccountProfile.objects.filter(user_id=user.pk).delete()
    user.organised_clubs.clear()
    user.refereed_tournaments.clear()
    user.username = f"deleted-{user.pk}"
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
