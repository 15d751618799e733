"""Every write of clubs and people: a club and its organiser invitations, its players, and the claims
that link a player to an account. One transaction each, the checks inside (docs/people.md).

An organiser invites a person to claim one of the club's players (a signed link, once, until it
expires); the person accepts signed in and the player becomes theirs; an organiser can unlink.
One player per account per club (the ``player_user_once_per_club`` constraint) is kept here with a
clear message, and by the database when two accept at once.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.names import name_clean, name_problem
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.clubs.selectors import player_by_id
from tournaments.clubs.signed_links import signed_row, signed_token
from tournaments.models import (
    AuditEntry,
    Club,
    OrganiserInvitation,
    Player,
    PlayerClaim,
)

CLAIM_SALT = "snapleague.player-claim"


def player_claim_token(claim: PlayerClaim) -> str:
    """The link's token: the claim's id, signed (it cannot be guessed or altered)."""
    return signed_token("claim", claim.pk, salt=CLAIM_SALT)


@transaction.atomic
def player_claim_create(*, user: AnyUser, player_id: int) -> tuple[PlayerClaim, str]:
    """An invitation to claim the player, and its token; valid once, for ``PLAYER_CLAIM_DAYS``.
    Open invitations for the same player are withdrawn (one live link per player). Raises NotFound,
    PermissionDenied (not an organiser of the player's club), Conflict ``player_claimed`` (the
    player is linked to an account already: unlink first)."""
    player = player_by_id(player_id=player_id, lock=True)
    require_organiser(user, player.club)
    if player.user_id is not None:
        raise Conflict(
            code="player_claimed",
            message=_("%(player)s is already linked to an account. Unlink it first.")
            % {"player": player.name},
        )
    now = timezone.now()
    PlayerClaim.objects.filter(player=player, accepted_at__isnull=True, withdrawn_at__isnull=True).update(
        withdrawn_at=now
    )
    claim = PlayerClaim.objects.create(
        player=player,
        created_by=user,
        expires_at=now + timedelta(days=settings.PLAYER_CLAIM_DAYS),
    )
    audit(
        AuditEntry.Action.PLAYER_CLAIM_INVITED,
        user=user,
        club=player.club.name,
        player=player.name,
        player_id=player.pk,
        claim=claim.pk,
    )
    return claim, player_claim_token(claim)


def player_claim_get(*, token: str, lock: bool = False) -> PlayerClaim:
    """The claim the token names, when it can still be accepted. Raises ApplicationError
    ``claim_invalid`` (400: not a token of ours), ``claim_used`` (409), ``claim_withdrawn`` (409)
    or ``claim_expired`` (410)."""
    invalid = ApplicationError(
        code="claim_invalid",
        message=_(
            "This link to claim a player is not valid. Check that it was copied whole, or ask an "
            "organiser for a new one."
        ),
    )
    claim = signed_row(
        token,
        key="claim",
        salt=CLAIM_SALT,
        queryset=PlayerClaim.objects.select_related("player__club", "player__user"),
        lock=lock,
        invalid=invalid,
    )
    club = claim.player.club.name
    if claim.accepted_at is not None:
        raise Conflict(
            code="claim_used",
            message=_("This link has already been used. Ask an organiser of %(club)s for a new one.")
            % {"club": club},
        )
    if claim.withdrawn_at is not None:
        raise Conflict(
            code="claim_withdrawn",
            message=_(
                "This link was replaced by a newer one or withdrawn. Ask an organiser of %(club)s "
                "for a new one."
            )
            % {"club": club},
        )
    if claim.expires_at <= timezone.now():
        raise ApplicationError(
            code="claim_expired",
            status=410,
            message=_("This link expired on %(date)s. Ask an organiser of %(club)s for a new one.")
            % {"date": date_format(timezone.localtime(claim.expires_at), "DATETIME_FORMAT"), "club": club},
        )
    return claim


def _refusal_for(*, user: AnyUser, player: Player) -> ApplicationError | None:
    """Why ``user`` may not take ``player`` now (None: they may)."""
    if player.user_id == user.pk:
        return Conflict(
            code="already_yours",
            message=_("%(player)s of %(club)s is already yours.")
            % {"player": player.name, "club": player.club.name},
        )
    if player.user_id is not None:
        return Conflict(
            code="player_claimed",
            message=_(
                "%(player)s of %(club)s is already linked to someone else's account. Ask an organiser "
                "of the club."
            )
            % {"player": player.name, "club": player.club.name},
        )
    other = Player.objects.filter(club_id=player.club_id, user_id=user.pk).exclude(pk=player.pk).first()
    if other is not None:
        return Conflict(
            code="one_player_per_club",
            message=_(
                "Your account is already linked to %(other)s in %(club)s: one player per club. Ask an "
                "organiser to unlink it first."
            )
            % {"other": other.name, "club": player.club.name},
        )
    return None


def player_claim_refusal(*, user: AnyUser, claim: PlayerClaim) -> ApplicationError | None:
    """What accepting ``claim`` would answer ``user`` (None: it would link). For the page that
    shows the invitation before the button."""
    return _refusal_for(user=user, player=claim.player)


@transaction.atomic
def player_claim_accept(*, user: AnyUser, token: str) -> Player:
    """The claim's player becomes ``user``'s, and the claim is used up. Raises PermissionDenied
    ``not_signed_in``, the refusals of ``player_claim_get``, Conflict ``already_yours``,
    ``player_claimed`` (someone else's), ``one_player_per_club`` (the account has another player
    in the club). A refused claim stays open for the right person."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to claim the player."))
    claim = player_claim_get(token=token, lock=True)
    player = player_by_id(player_id=claim.player_id, lock=True)
    refusal = _refusal_for(user=user, player=player)
    if refusal is not None:
        raise refusal
    player.user = user
    try:
        with transaction.atomic():  # a savepoint: two claims at once in one club are a refusal, not a 500
            player.save(update_fields=["user"])
    except IntegrityError:
        raise Conflict(
            code="one_player_per_club",
            message=_("Your account is already linked to a player in %(club)s: one player per club.")
            % {"club": player.club.name},
        ) from None
    claim.accepted_by = user
    claim.accepted_at = timezone.now()
    claim.save(update_fields=["accepted_by", "accepted_at"])
    audit(
        AuditEntry.Action.PLAYER_CLAIMED,
        user=user,
        club=player.club.name,
        player=player.name,
        player_id=player.pk,
        claim=claim.pk,
    )
    return player


@transaction.atomic
def player_unlink(*, user: AnyUser, player_id: int) -> Player:
    """The player is no account's any more (their results, ratings and history stay the club's
    player's); open invitations for them are withdrawn. Raises NotFound, PermissionDenied (not an
    organiser of the club), Conflict ``not_linked``."""
    player = player_by_id(player_id=player_id, lock=True)
    require_organiser(user, player.club)
    if player.user_id is None:
        raise Conflict(
            code="not_linked",
            message=_("%(player)s is not linked to an account.") % {"player": player.name},
        )
    account = player.user
    player.user = None
    player.save(update_fields=["user"])
    PlayerClaim.objects.filter(player=player, accepted_at__isnull=True, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now()
    )
    audit(
        AuditEntry.Action.PLAYER_UNLINKED,
        user=user,
        club=player.club.name,
        player=player.name,
        player_id=player.pk,
        account=account.get_username() if account is not None else "",
    )
    return player


# --- Clubs, organiser invitations, players -------------------------------------------------------


# Path segments under /clubs/ that are pages, not clubs.
RESERVED_CLUB_SLUGS = frozenset({"new"})
CLUB_SLUG_MAX = 50  # SlugField's length


def _club_slug(name: str) -> str:
    """A free slug from the name: "Hatvani Kártyaklub" -> "hatvani-kartyaklub", then "-2", "-3" ..."""
    base = slugify(name)[: CLUB_SLUG_MAX - 4].strip("-") or "club"
    if base in RESERVED_CLUB_SLUGS:
        base = f"{base}-club"
    slug, number = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, number = f"{base}-{number}", number + 1
    return slug


def _club_create_allowed(user: Account) -> None:
    """At most ``CLUB_CREATE_PER_HOUR`` clubs per account per hour, counted in the database (the
    clubs it created, ``Club.created_by``): every web process sees the same count, unlike a
    per-process cache, and nothing else needs keeping. The account's row is locked first, so two
    requests of one account at once are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = settings.CLUB_CREATE_PER_HOUR
    window = timedelta(hours=1)
    recent = list(
        Club.objects.filter(created_by=user, created_at__gte=timezone.now() - window)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) >= limit:
        wait = recent[-1] + window - timezone.now()
        minutes = max(1, math.ceil(wait.total_seconds() / 60))
        raise ApplicationError(
            code="club_create_throttled",
            status=429,
            message=_(
                "You have created %(count)s clubs in the last hour. You can create another in %(minutes)s minutes."
            )
            % {"count": limit, "minutes": minutes},
            extra={"retry_after_s": max(1, math.ceil(wait.total_seconds()))},
        )


@transaction.atomic
def club_create(*, user: AnyUser, name: str, slug: str | None = None) -> Club:
    """A new club, organised by ``user``. The slug comes from the name unless given (the demo
    data's "demo"). Raises PermissionDenied (not signed in), ApplicationError ``invalid`` (field
    ``name`` / ``slug``) or ``club_create_throttled`` (429, ``extra.retry_after_s``)."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to create a club."))
    name = name_clean(name)
    if not name:
        raise ApplicationError(
            code="invalid", message=_("A club needs a name."), fields={"name": [_("Required.")]}
        )
    if problem := name_problem(name):
        raise ApplicationError(code="invalid", message=problem, fields={"name": [problem]})
    if len(name) > 120:
        raise ApplicationError(
            code="invalid",
            message=_("That name is too long."),
            fields={"name": [_("At most 120 characters.")]},
        )
    _club_create_allowed(user)
    if slug is not None and (slug in RESERVED_CLUB_SLUGS or Club.objects.filter(slug=slug).exists()):
        raise ApplicationError(
            code="invalid",
            message=_("The address %(slug)s is taken.") % {"slug": slug},
            fields={"slug": [_("Choose another.")]},
        )
    for _attempt in range(5):
        try:
            with transaction.atomic():  # a savepoint: a clash on the slug is retried, not a 500
                club = Club.objects.create(name=name, slug=slug or _club_slug(name), created_by=user)
        except IntegrityError:
            if slug is not None:
                raise
            continue
        break
    else:
        raise ApplicationError(code="busy", message=_("Please try again."), status=409)
    club.organisers.add(user)
    return club


INVITATION_SALT = "snapleague.organiser-invitation"


def organiser_invitation_token(invitation: OrganiserInvitation) -> str:
    """The link's token: the invitation's id, signed (it cannot be guessed or altered)."""
    return signed_token("invitation", invitation.pk, salt=INVITATION_SALT)


@transaction.atomic
def organiser_invitation_create(*, user: AnyUser, club: Club) -> tuple[OrganiserInvitation, str]:
    """An invitation to organise ``club`` and its token; valid once, for
    ``ORGANISER_INVITATION_DAYS``. Raises PermissionDenied (not an organiser of the club)."""
    require_organiser(user, club)
    invitation = OrganiserInvitation.objects.create(
        club=club,
        created_by=user,
        expires_at=timezone.now() + timedelta(days=settings.ORGANISER_INVITATION_DAYS),
    )
    return invitation, organiser_invitation_token(invitation)


def organiser_invitation_get(*, token: str, lock: bool = False) -> OrganiserInvitation:
    """The invitation the token names, when it can still be accepted. Raises ApplicationError
    ``invitation_invalid`` (400: not a token of ours), ``invitation_expired`` (410) or
    ``invitation_used`` (409)."""
    invalid = ApplicationError(
        code="invitation_invalid",
        message=_(
            "This invitation link is not valid. Check that it was copied whole, or ask an organiser "
            "for a new one."
        ),
    )
    invitation = signed_row(
        token,
        key="invitation",
        salt=INVITATION_SALT,
        queryset=OrganiserInvitation.objects.select_related("club"),
        lock=lock,
        invalid=invalid,
    )
    if invitation.accepted_at is not None:
        raise ApplicationError(
            code="invitation_used",
            status=409,
            message=_("This invitation has already been used. Ask an organiser of %(club)s for a new one.")
            % {"club": invitation.club.name},
        )
    if invitation.expires_at <= timezone.now():
        raise ApplicationError(
            code="invitation_expired",
            status=410,
            message=_("This invitation expired on %(date)s. Ask an organiser of %(club)s for a new one.")
            % {
                "date": date_format(timezone.localtime(invitation.expires_at), "DATETIME_FORMAT"),
                "club": invitation.club.name,
            },
        )
    return invitation


@transaction.atomic
def organiser_invitation_accept(*, user: AnyUser, token: str) -> Club:
    """``user`` becomes an organiser of the invitation's club, and the invitation is used up.
    Someone who already organises the club is told so and leaves the invitation for another.
    Raises PermissionDenied (not signed in), Conflict ``already_organiser`` or the refusals of
    ``organiser_invitation_get``."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to accept the invitation."))
    invitation = organiser_invitation_get(token=token, lock=True)
    club = invitation.club
    if club.organisers.filter(pk=user.pk).exists():
        raise Conflict(
            code="already_organiser",
            message=_("You already organise %(club)s.") % {"club": club.name},
        )
    club.organisers.add(user)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return club


@transaction.atomic
def player_create(*, user: AnyUser, club: Club, name: str, account: Account | None = None) -> Player:
    require_organiser(user, club)
    name = name_clean(name)
    if not name:
        raise ApplicationError(
            code="invalid", message=_("A player needs a name."), fields={"name": [_("Required.")]}
        )
    if problem := name_problem(name):
        raise ApplicationError(code="invalid", message=problem, fields={"name": [problem]})
    if Player.objects.filter(club=club, name=name).exists():
        raise ApplicationError(
            code="duplicate_player",
            message=_("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name},
            fields={"name": [_("Choose another name.")]},
        )
    return Player.objects.create(club=club, name=name, user=account)
