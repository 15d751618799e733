"""Every write of the tournament side: one transaction each, permission checks inside.

Results are the heart: ``result_record`` is the one service every source of results uses (a
referee's form, the API, an organiser's correction, a finished online game).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict
from snapleague.users import Account, AnyUser, signed_in
from tournaments import outcomes
from tournaments.access import require_organiser, require_recorder
from tournaments.engine_messages import problem_messages
from tournaments.formats import round_robin
from tournaments.models import (
    GAME_KIND_LABELS,
    Club,
    Entry,
    Game,
    GameKind,
    GameResult,
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
from tournaments.results import GameContext, normalise_result
from tournaments.selectors import series_by_id, stage_by_id
from tournaments.series import seed_commitment
from tournaments.standings import ByeScore
from tournaments.tournament_messages import (
    GAME_VOID,
    GAME_VOID_CONFLICT,
    series_error_message,
    tournament_error_message,
    void_later_games_messages,
)

DEFAULT_PROFILE = {GameKind.SNAP: "classic", GameKind.SNAPSZER: "snapszer"}

# The result service (rewritten on another branch) still calls these fetches by their old names;
# the two aliases go when it calls series_by_id and stage_by_id.
access_series_by_id = series_by_id
access_stage_by_id = stage_by_id


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


def result_record(
    *,
    user: Any,
    series_id: int,
    game_number: int,
    result: Any,
    expected_version: int = 0,
    client_key: str | None = None,
    reason: str = "",
    source: str = GameResult.Source.REFEREE,
    void_later_games: bool = False,
) -> tuple[GameResult, bool]:
    """Record (or correct) the result of game ``game_number`` of a series.

    ``expected_version`` is the confirmed version the submitter saw: 0 for a game without a result.
    A correction (expected_version ≥ 1) is for organisers and needs a reason; it adds version n+1
    and unconfirms n in one transaction. A correction that decides the series before games already
    recorded is saved only with ``void_later_games``: each of those games then gets a void version
    (same organiser and reason) and counts for nothing. A void game is recorded again as a
    correction of it, once a correction of an earlier game makes it the series' next game.
    ``client_key`` makes a submission idempotent: the same key again returns the first result and
    records nothing. Returns ``(result, created)``.

    Raises ApplicationError: ``result_invalid`` (field errors), ``correction_breaks_series`` (with
    ``extra.void_games`` when voiding them would let it be saved), ``series_decided``, ``wrong_game``,
    ``game_void``, ``series_inconsistent`` (stored games that no longer make a series) and
    ``result_conflict`` (409, with the current version), permission errors.
    """
    if client_key:
        existing = _result_by_key(user, client_key)
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            return _result_record_locked(
                user=user,
                series_id=series_id,
                game_number=game_number,
                raw=result,
                expected_version=expected_version,
                client_key=client_key or None,
                reason=reason.strip(),
                source=source,
                void_later_games=void_later_games,
            )
    except IntegrityError:
        # Only reachable where row locks are weaker than the constraint (a race the lock lost):
        # the database kept one confirmed version, the loser is told to reload.
        if client_key and (existing := _result_by_key(user, client_key)) is not None:
            return existing, False
        raise Conflict(
            code="result_conflict",
            message=_("Someone else recorded this game at the same moment. Reload to see their result."),
        ) from None


def _result_by_key(user: AnyUser, client_key: str) -> GameResult | None:
    if not signed_in(user):
        return None
    return GameResult.objects.select_related("game").filter(recorded_by=user, client_key=client_key).first()


def _result_record_locked(
    *,
    user: Any,
    series_id: int,
    game_number: int,
    raw: Any,
    expected_version: int,
    client_key: str | None,
    reason: str,
    source: str,
    void_later_games: bool,
) -> tuple[GameResult, bool]:
    series = access_series_by_id(series_id=series_id)
    # Every result of a stage is written under its row lock: results_version rises one at a time,
    # and a second submission for the same game waits here, then sees the first one.
    stage = access_stage_by_id(stage_id=series.stage_id, lock=True)
    if client_key and (existing := _result_by_key(user, client_key)) is not None:
        return existing, False
    tournament = stage.tournament
    require_recorder(user, tournament)

    games = {g.number: g for g in series.games.all()}
    confirmed = {
        r.game.number: r
        for r in GameResult.objects.select_related("game").filter(game__series=series, confirmed=True)
    }
    # Void games count for nothing; they are always the last ones recorded (see _series_update).
    live = {number: r for number, r in confirmed.items() if not r.void}
    current = confirmed.get(game_number)
    current_version = current.version if current else 0
    if expected_version != current_version:
        if current is not None and current.void:
            message = GAME_VOID_CONFLICT % {"n": game_number}
        elif current_version:
            message = _(
                "This game's result was recorded meanwhile. Reload to see it; an organiser can correct it."
            )
        else:
            message = _("This game has no result yet: there is nothing to correct.")
        raise Conflict(code="result_conflict", message=message, extra={"version": current_version})
    correcting = current is not None
    if correcting:
        require_organiser(user, tournament.club)
        if not reason:
            raise ApplicationError(
                code="reason_required",
                message=_("Say why the result is corrected: the reason is kept in the history."),
                fields={"reason": [_("Required for a correction.")]},
            )
        game = games[game_number]
        if current is not None and current.void:
            # Recording a void game again: only as the series' next game, with the seats due now.
            status = _status_for_next_game(series, live, game_number)
            game.sudden_death = status.next_is_sudden_death
            game.seats = list(status.next_player_ids)
            game.save(update_fields=["sudden_death", "seats"])
    else:
        status = _status_for_next_game(series, live, game_number)
        game = games.get(game_number) or Game.objects.create(
            series=series,
            number=game_number,
            sudden_death=status.next_is_sudden_death,
            seats=list(status.next_player_ids),
        )

    data = normalise_result(raw, _game_context(series, tournament, game))
    if correcting:
        GameResult.objects.filter(game=game, confirmed=True).update(confirmed=False)
    record = GameResult.objects.create(
        game=game,
        version=current_version + 1,
        confirmed=True,
        data=data,
        source=GameResult.Source.ORGANISER if correcting and source == GameResult.Source.REFEREE else source,
        recorded_by=user if getattr(user, "is_authenticated", False) else None,
        reason=reason,
        client_key=client_key,
    )
    confirmed[game_number] = record
    _series_update(
        series, confirmed, corrected=game_number, user=user, reason=reason, void_later_games=void_later_games
    )

    stage.results_version += 1
    stage.save(update_fields=["results_version"])
    stage_id = stage.pk
    transaction.on_commit(lambda: _enqueue_standings(stage_id))
    return record, True


def _game_context(series: Series, tournament: Tournament, game: Game) -> GameContext:
    seats = list(series.seats.select_related("player"))
    playing = set(game.seats) if game.seats else {s.player_id for s in seats}
    players = [s.player for s in seats if s.player_id in playing]
    return GameContext(
        game=tournament.game,
        player_ids=tuple(p.pk for p in players),
        names={p.pk: p.name for p in players},
        rules_profile=tournament.rules_profile,
        rules_options=tournament.rules_options,
    )


def _status_for_next_game(
    series: Series, live: Mapping[int, GameResult], game_number: int
) -> outcomes.SeriesView:
    """The series' status when ``game_number`` is to be recorded. Raises Conflict unless it is the
    next game of a series that is not decided (``series_decided``, ``game_void``, ``wrong_game``,
    ``series_inconsistent``)."""
    try:
        status = outcomes.series_status(series, live)
    except outcomes.SeriesInconsistent as exc:
        # Only stored games written round this service can get here; say so, never a 500.
        raise Conflict(
            code="series_inconsistent",
            message=_(
                "The games recorded so far do not make a valid series, so no game can be added "
                "until an organiser puts them right. %(problem)s"
            )
            % {"problem": _series_problem(exc)},
        ) from None
    expected_number = len(live) + 1
    if status.decided:
        if Game.objects.filter(series=series, number=game_number).exists():
            raise Conflict(
                code="game_void",
                message=GAME_VOID % {"n": game_number},
            )
        raise Conflict(code="series_decided", message=_("This series is already decided."))
    if game_number != expected_number:
        raise Conflict(
            code="wrong_game",
            message=_("Game %(expected)s is the next game of this series, not game %(given)s.")
            % {"expected": expected_number, "given": game_number},
            extra={"next_game": expected_number},
        )
    return status


def _series_update(
    series: Series,
    confirmed: dict[int, GameResult],
    *,
    corrected: int,
    user: Any,
    reason: str,
    void_later_games: bool,
) -> None:
    """Store the series' status after ``confirmed`` changed. Games recorded after the series is
    now decided get a void version when ``void_later_games`` says so; without it the change is
    refused. Raises ApplicationError ``correction_breaks_series``."""
    try:
        status, after_decision = outcomes.series_status_counted(series, confirmed)
    except outcomes.SeriesInconsistent as exc:
        raise ApplicationError(
            code="correction_breaks_series",
            message=_("This correction does not fit the games recorded after it. %(problem)s")
            % {"problem": _series_problem(exc)},
        ) from None
    if after_decision:
        if not void_later_games:
            raise _void_needed(series, confirmed, status, after_decision)
        for number in after_decision:
            _game_void(confirmed[number], corrected=corrected, user=user, reason=reason)
    series.status = Series.Status.DECIDED if status.decided else Series.Status.PLAYING
    series.placings = (
        {str(pid): place for pid, place in status.placings_by_player.items()} if status.decided else {}
    )
    series.decided_at = (series.decided_at or timezone.now()) if status.decided else None
    series.save(update_fields=["status", "placings", "decided_at"])


def _void_needed(
    series: Series, confirmed: Mapping[int, GameResult], status: outcomes.SeriesView, after: list[int]
) -> ApplicationError:
    """The refusal of a correction that decides the series before games already recorded: it
    names them, the winner, and how to confirm that they are voided."""
    names = dict(SeriesSeat.objects.filter(series=series).values_list("player_id", "player__name"))
    winner = status.status.winner
    message, field = void_later_games_messages(
        deciding_game=max(n for n, r in confirmed.items() if not r.void and n not in after),
        winner=names.get(status.player_ids[winner], "?") if winner is not None else "?",
        decided_by=status.status.decided_by,
        games=after,
    )
    return ApplicationError(
        code="correction_breaks_series",
        message=message,
        fields={"void_later_games": [field]},
        extra={"void_games": after},
    )


def _game_void(current: GameResult, *, corrected: int, user: Any, reason: str) -> GameResult:
    """Give a game a void version on top of ``current``: it stays in the history and counts for
    nothing. ``data`` only says which game's correction voided it."""
    GameResult.objects.filter(pk=current.pk).update(confirmed=False)
    return GameResult.objects.create(
        game=current.game,
        version=current.version + 1,
        confirmed=True,
        void=True,
        data={"voided_by_correction_of": corrected},
        source=GameResult.Source.ORGANISER,
        recorded_by=user if getattr(user, "is_authenticated", False) else None,
        reason=reason,
    )


def _series_problem(exc: outcomes.SeriesInconsistent) -> str:
    return series_error_message(exc.error, seat_names=exc.seat_names, player_names=exc.player_names)


def _enqueue_standings(stage_id: int) -> None:
    from tournaments.tasks import stage_standings_recompute_task

    stage_standings_recompute_task.delay(stage_id)


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
