"""Every write of the tournament side: one transaction each, permission checks inside.

Results are the heart: ``tournaments.competitions.results.services.result_record`` is the one service every
source of results uses (a referee's form, the API, an organiser's correction, a finished online
game).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games.engine_messages import problem_messages
from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser
from tournaments.clubs.signed_links import signed_row, signed_token
from tournaments.competitions import outcomes, stages
from tournaments.models import (
    Club,
    Entry,
    GameKind,
    OrganiserInvitation,
    Player,
    Round,
    SeriesFormat,
    Stage,
    StandingRow,
    Tournament,
)
from tournaments.rankings.ratings.services import club_ratings_enqueue_on_commit

DEFAULT_PROFILE = {GameKind.SNAP: "classic", GameKind.SNAPSZER: "snapszer"}


# --- Clubs, players, tournaments, stages --------------------------------------------------------


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
    name = " ".join(name.split())
    if not name:
        raise ApplicationError(
            code="invalid", message=_("A club needs a name."), fields={"name": [_("Required.")]}
        )
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
    name = name.strip()
    if not name:
        raise ApplicationError(
            code="invalid", message=_("A player needs a name."), fields={"name": [_("Required.")]}
        )
    if Player.objects.filter(club=club, name=name).exists():
        raise ApplicationError(
            code="duplicate_player",
            message=_("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name},
            fields={"name": [_("Choose another name.")]},
        )
    return Player.objects.create(club=club, name=name, user=account)


@transaction.atomic
def tournament_create(
    *,
    user: AnyUser,
    club: Club,
    name: str,
    game: str,
    series_format: str = SeriesFormat.BEST_OF_3,
    rules_profile: str = "",
    rules_options: Mapping[str, Any] | None = None,
    starts_at: Any = None,
) -> Tournament:
    require_organiser(user, club)
    fields: dict[str, list[Any]] = {}
    if game not in GameKind:
        fields["game"] = [_("Choose Snap or Snapszer.")]
    if series_format not in SeriesFormat.values:
        fields["series_format"] = [_("Choose best of 3, best of 5 or first to 3.")]
    if rules_options is not None and not isinstance(rules_options, Mapping):
        fields["rules_options"] = [_("Give the rules options as an object: option names and their values.")]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The tournament cannot be created as it is."), fields=fields
        )
    profile = rules_profile or DEFAULT_PROFILE[GameKind(game)]
    problems = outcomes.rules_problems(game, profile, dict(rules_options or {}))
    if problems:
        raise ApplicationError(
            code="invalid_rules",
            message=_("These rules cannot be played."),
            fields={"rules_profile": problem_messages(problems)},
        )
    return Tournament.objects.create(
        club=club,
        name=name,
        game=game,
        series_format=series_format,
        rules_profile=profile,
        rules_options=dict(rules_options or {}),
        starts_at=starts_at,
    )


@transaction.atomic
def tournament_players_add(
    *, user: AnyUser, tournament: Tournament, players: Iterable[Player]
) -> list[Entry]:
    require_organiser(user, tournament.club)
    entries = []
    next_seed = Entry.objects.filter(tournament=tournament).count() + 1
    for player in players:
        if player.club_id != tournament.club_id:
            raise ApplicationError(
                code="foreign_player",
                message=_("%(name)s is not a player of %(club)s.")
                % {"name": player.name, "club": tournament.club},
            )
        entry, created = Entry.objects.get_or_create(
            tournament=tournament, player=player, defaults={"seed": next_seed}
        )
        next_seed += created
        entries.append(entry)
    return entries


@transaction.atomic
def tournament_players_enter(
    *, user: AnyUser, tournament: Tournament, players: Iterable[Player] = (), new_names: Iterable[str] = ()
) -> list[Entry]:
    """Enter club players and new ones (created in the club) into ``tournament``, in one go.

    Raises PermissionDenied (not an organiser), ApplicationError ``duplicate_player`` /
    ``foreign_player`` (nothing is created then).
    """
    require_organiser(user, tournament.club)
    created = [player_create(user=user, club=tournament.club, name=name) for name in new_names]
    return tournament_players_add(user=user, tournament=tournament, players=[*players, *created])


@transaction.atomic
def tournament_referee_add(*, user: AnyUser, tournament: Tournament, username: str) -> Account:
    """Make the account ``username`` a referee of ``tournament``. Raises ApplicationError
    ``unknown_user`` (field ``username``) or PermissionDenied."""
    require_organiser(user, tournament.club)
    referee = get_user_model().objects.filter(username=username.strip()).first()
    if referee is None:
        raise ApplicationError(
            code="unknown_user",
            message=_("There is no account called %(name)s.") % {"name": username},
            fields={"username": [_("Check the spelling; the referee needs an account first.")]},
        )
    tournament.referees.add(referee)
    return referee


# Stages are created, published and advanced by their format: tournaments/competitions/stages.py.
stage_create = stages.stage_create


def stage_rounds_generate(*, user: AnyUser, stage_id: int) -> list[Round]:
    """Publish the rounds due (round robin: all of them; the other formats: the first round)."""
    return stages.stage_round_publish(user=user, stage_id=stage_id)


# --- Results ------------------------------------------------------------------------------------
# ``result_record`` (check, then do) lives with the result values in ``tournaments/competitions/results/``.


# --- Standings ----------------------------------------------------------------------------------


def stage_standings_recompute(*, stage_id: int, version: int | None = None, claim: bool = False) -> bool:
    """Work out a stage's standings from its confirmed results and store them if newer.

    Reads ``results_version`` first, then the results: what is read is at least as new as that
    version, so stamping it is safe. Stores only if the stored standings are older
    (``UPDATE ... WHERE standings_version < v``): twice, in parallel or after a crash, the outcome is
    the same table. Returns whether it stored anything.

    Coalescing (docs/reliability.md, "Queues"): the task that ``standings_pending`` stands for
    (``claim``: the one a result sent, or the reconciler's stand-in) clears it first, so a result
    committed after that sends a task of its own; any other (a publish's, a withdrawal's) leaves it
    to the result's task still waiting. Then, when the stored standings are already at the
    current ``results_version``, an earlier run read every result: nothing to do, at the cost of two
    queries. ``version`` (the ``results_version`` a result's task was sent for) is at most the
    current one, so it needs no check of its own.
    """
    if claim:
        # Started: a result committed from now on sends a task of its own (it may not be read here).
        Stage.objects.filter(pk=stage_id, standings_pending=True).update(standings_pending=False)
    if Stage.objects.filter(pk=stage_id, standings_version__gte=F("results_version")).exists():
        return False  # an earlier run read every result there is (the one this was sent for too)
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)
    version = stage.results_version
    rows = outcomes.stage_standings(stage)
    with transaction.atomic():
        updated = Stage.objects.filter(pk=stage_id, standings_version__lt=version).update(
            standings_version=version, standings_computed_at=timezone.now()
        )
        if not updated:
            return False
        # New results in the stage: the club's ratings too (they read every stage's version).
        club_ratings_enqueue_on_commit(club_id=stage.tournament.club_id)
        StandingRow.objects.filter(stage_id=stage_id).delete()
        StandingRow.objects.bulk_create(
            StandingRow(
                stage_id=stage_id,
                group=row.group,
                player_id=row.player_id,
                rank=row.rank,
                position=row.position,
                values=row.values,
                separated_by=row.separated_by,
            )
            for row in rows
        )
    return True
