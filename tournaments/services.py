"""Every write of the tournament side: one transaction each, permission checks inside.

Results are the heart: ``tournaments.results.services.result_record`` is the one service every
source of results uses (a referee's form, the API, an organiser's correction, a finished online
game).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict
from snapleague.users import Account, AnyUser
from tournaments import outcomes
from tournaments.access import require_organiser
from tournaments.engine_messages import problem_messages
from tournaments.formats import round_robin
from tournaments.models import (
    GAME_KIND_LABELS,
    Club,
    Entry,
    GameKind,
    Player,
    Round,
    Series,
    SeriesFormat,
    SeriesSeat,
    Stage,
    StageFormat,
    StandingRow,
    Tournament,
)
from tournaments.selectors import stage_by_id
from tournaments.series import seed_commitment
from tournaments.standings import ByeScore
from tournaments.tournament_messages import tournament_error_message

DEFAULT_PROFILE = {GameKind.SNAP: "classic", GameKind.SNAPSZER: "snapszer"}


# --- Clubs, players, tournaments, stages --------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, slug: str, organisers: Iterable[Account] = ()) -> Club:
    club = Club.objects.create(name=name, slug=slug)
    club.organisers.set(list(organisers))
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


@transaction.atomic
def stage_create(
    *, user: AnyUser, tournament: Tournament, name: str, format: str, options: Mapping[str, Any] | None = None
) -> Stage:
    require_organiser(user, tournament.club)
    if format != StageFormat.ROUND_ROBIN:
        raise ApplicationError(
            code="format_not_available",
            message=_("Only round robin stages can be created so far."),
            fields={"format": [_("Choose round robin.")]},
        )
    if options is not None and not isinstance(options, Mapping):
        raise ApplicationError(
            code="invalid",
            message=_("The stage cannot be created as it is."),
            fields={"options": [_("Give the stage options as an object: option names and their values.")]},
        )
    options = dict(options or {})
    _stage_options_check(GameKind(tournament.game), options)
    if tournament.game == GameKind.SNAP:
        options.setdefault("table_size", 4)
        size = options["table_size"]
        if not isinstance(size, int) or not 2 <= size <= 6:
            raise ApplicationError(
                code="invalid",
                message=_("A Snap table seats 2 to 6 players."),
                fields={"table_size": [_("Choose a table size from 2 to 6.")]},
            )
        problems = outcomes.rules_problems(
            tournament.game, tournament.rules_profile, tournament.rules_options, table_size=size
        )
        if problems:
            raise ApplicationError(
                code="invalid_rules",
                message=_("The tournament's rules cannot be played at tables of %(size)s.") % {"size": size},
                fields={"table_size": problem_messages(problems)},
            )
    order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    return Stage.objects.create(
        tournament=tournament,
        name=name,
        format=format,
        options=options,
        order=order,
        seed=secrets.token_hex(16),
    )


# The round robin options each game's stages take (docs/results.md): Snap sits its players at
# tables; Snapszer pairs them, single or double, with a bye when the number is odd.
_STAGE_OPTIONS = {
    GameKind.SNAP: ("table_size", "seeding"),
    GameKind.SNAPSZER: ("double", "bye", "seeding"),
}
_SEEDINGS = ("random", "manual")


def _stage_options_check(game: GameKind, options: Mapping[str, Any]) -> None:
    """Refuse stage options the round robin would trip over later (the standings task and the
    pairing read them long after the organiser has left the form). Raises ApplicationError."""
    allowed = _STAGE_OPTIONS[game]
    fields: dict[str, list[Any]] = {}
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        fields["options"] = [
            _("A %(game)s round robin has no option “%(option)s”. Its options are: %(known)s.")
            % {"game": GAME_KIND_LABELS[game], "option": name, "known": ", ".join(allowed)}
            for name in unknown
        ]
    if "bye" in options and options["bye"] not in {score.value for score in ByeScore}:
        fields["bye"] = [_("Say what a bye is worth: win, draw or nothing.")]
    if "double" in options and not isinstance(options["double"], bool):
        fields["double"] = [_("Say true to play everybody twice, false to play everybody once.")]
    if "seeding" in options and options["seeding"] not in _SEEDINGS:
        fields["seeding"] = [
            _("Choose random (drawn from the stage's recorded seed) or manual (the entry list's order).")
        ]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The stage cannot be created as it is."), fields=fields
        )


@transaction.atomic
def stage_rounds_generate(*, user: AnyUser, stage_id: int) -> list[Round]:
    """Pair the whole round robin. Deterministic from the entrants and the stage seed; runs once."""
    stage = stage_by_id(stage_id=stage_id, lock=True)
    tournament = stage.tournament
    require_organiser(user, tournament.club)
    if stage.rounds.exists():
        raise Conflict(
            code="rounds_exist", message=_("The rounds of this stage have already been generated.")
        )
    entries = Entry.objects.filter(tournament=tournament, withdrawn=False).order_by("seed", "player__name")
    entrants: list[int] = list(entries.values_list("player_id", flat=True))
    try:
        if stage.options.get("seeding", "random") == "random":
            # Random seeding, reproducible by anyone from the recorded stage seed.
            entrants = [int(p) for p in round_robin.seeded_order(entrants, stage.seed)]
        if tournament.game == GameKind.SNAP:
            tables = round_robin.snap_tables(entrants, table_size=stage.options["table_size"])
            plan: list[tuple[list[tuple[int, ...]], int | None]] = [
                ([tuple(int(p) for p in t.seats) for t in tables], None)
            ]
        else:
            schedule = round_robin.round_robin_schedule(
                entrants, double=bool(stage.options.get("double", False))
            )
            plan = [
                (
                    [(int(p.first), int(p.second)) for p in rnd.pairings],
                    None if rnd.bye is None else int(rnd.bye),
                )
                for rnd in schedule
            ]
    except round_robin.PairingError as exc:
        names = {str(e.player_id): e.player.name for e in entries.select_related("player")}
        raise ApplicationError(
            code=str(exc.code), message=tournament_error_message(exc, player_names=names), extra=exc.extra
        ) from None
    rounds = []
    for number, (tables_seats, bye) in enumerate(plan, start=1):
        round_ = Round.objects.create(stage=stage, number=number, bye_id=bye)
        for table, seats in enumerate(tables_seats, start=1):
            seed = secrets.token_hex(16)
            series = Series.objects.create(
                stage=stage,
                round=round_,
                table=table,
                format=tournament.series_format,
                seed=seed,
                seed_hash=seed_commitment(seed),
            )
            SeriesSeat.objects.bulk_create(
                SeriesSeat(series=series, player_id=pid, seat=index) for index, pid in enumerate(seats)
            )
        rounds.append(round_)
    stage.status = Stage.Status.RUNNING
    stage.save(update_fields=["status"])
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return rounds


# --- Results ------------------------------------------------------------------------------------
# ``result_record`` (check, then do) lives with the result values in ``tournaments/results/``.


# --- Standings ----------------------------------------------------------------------------------


def stage_standings_recompute(*, stage_id: int) -> bool:
    """Work out a stage's standings from its confirmed results and store them if newer.

    Reads ``results_version`` first, then the results: what is read is at least as new as that
    version, so stamping it is safe. Stores only if the stored standings are older
    (``UPDATE ... WHERE standings_version < v``): twice, in parallel or after a crash, the outcome is
    the same table. Returns whether it stored anything.
    """
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)
    version = stage.results_version
    rows = outcomes.stage_standings(stage)
    with transaction.atomic():
        updated = Stage.objects.filter(pk=stage_id, standings_version__lt=version).update(
            standings_version=version, standings_computed_at=timezone.now()
        )
        if not updated:
            return False
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
