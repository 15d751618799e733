"""Between the database and the pure modules: stored results in, plain values out.

Stored results name players; ``series/`` and ``standings/`` speak of seats. This module is the
one place that maps between the two, so the pure modules stay free of Django.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.engine import snap
from games.engine.errors import InvalidRules, Problem
from games.engine.sixtysix import rules_from_options
from games.engine.snap.rules import MAX_PLAYERS, MIN_PLAYERS
from games.engine.snap.rules import rules_from_options as snap_rules_from_options
from tournaments.competitions.results.values import (
    PlayedResult,
    ResultValue,
    StoredOutcome,
    VoidResult,
    stored_outcome,
)
from tournaments.competitions.series import fold as series_fold
from tournaments.competitions.series import values as series_values
from tournaments.competitions.standings import chain as standings_chain
from tournaments.models import Entry, GameKind, GameResult, Player, Round, Series, SeriesSeat, Stage


class SeriesInconsistent(ValueError):
    """The recorded games no longer make a valid series (e.g. a correction ends it earlier).

    ``str()`` is the pure module's English (logs). ``error`` is the series error, ``seat_names``
    the players' names by seat and ``player_names`` names by player id (as a string): what
    ``tournament_messages.series_error_message`` needs to say it to a referee.
    """

    def __init__(
        self, error: series_values.SeriesError, *, seat_names: tuple[str, ...], player_names: dict[str, str]
    ) -> None:
        game = f" (game {error.game_index + 1})" if error.game_index is not None else ""
        super().__init__(f"{error.message}{game}")
        self.error = error
        self.seat_names = seat_names
        self.player_names = player_names


@dataclass(frozen=True)
class SeriesView:
    status: series_values.SeriesStatus
    player_ids: tuple[int, ...]  # by seat

    @property
    def decided(self) -> bool:
        return self.status.decided

    @property
    def next_is_sudden_death(self) -> bool:
        return self.status.due in (series_values.Due.SUDDEN_DEATH, series_values.Due.SUDDEN_DEATH_REPLAY)

    @property
    def next_player_ids(self) -> tuple[int, ...]:
        return tuple(self.player_ids[seat] for seat in self.status.due_seats)

    @property
    def placings_by_player(self) -> dict[int, int]:
        placings = self.status.placings or ()
        return {self.player_ids[seat]: place for seat, place in enumerate(placings)}


class SeriesGame(NamedTuple):
    """A game's confirmed result as the series fold reads it (a void one counts for nothing)."""

    value: ResultValue
    sudden_death: bool


def series_games(confirmed: Iterable[GameResult]) -> dict[int, SeriesGame]:
    """Confirmed result versions (their ``game`` selected) by game number."""
    return {r.game.number: SeriesGame(r.value, r.game.sudden_death) for r in confirmed}


def game_outcome(
    value: PlayedResult, player_ids: tuple[int, ...], *, sudden_death: bool
) -> series_values.GameOutcome:
    """A result as series/'s outcome, indexed by the series' seats: placings, and the wrong calls
    (Snap, S42) or game points (Snapszer) of the players who played."""
    return series_values.GameOutcome.from_players(
        player_ids,
        value.placings,
        sudden_death=sudden_death,
        wrong_calls=value.wrong_calls,
        game_points=value.game_points,
    )


def series_player_ids(series: Series) -> tuple[int, ...]:
    """The seated players in seat order: from the prefetched seats when a page fetched them (a
    bracket page folds every series: one query each would be most of its time), else one query."""
    if "seats" in getattr(series, "_prefetched_objects_cache", {}):
        return tuple(seat.player_id for seat in sorted(series.seats.all(), key=lambda seat: seat.seat))
    return tuple(series.seats.order_by("seat").values_list("player_id", flat=True))


def series_status(series: Series, confirmed: Mapping[int, SeriesGame]) -> SeriesView:
    """The pure status of ``series`` given its confirmed results by game number
    (:func:`series_games`); void results count for nothing.

    Raises SeriesInconsistent when the results do not make a valid series.
    """
    view, _after_decision = _series_fold(series, confirmed, leave_out_after_decision=False)
    return view


def series_status_counted(
    series: Series, confirmed: Mapping[int, SeriesGame]
) -> tuple[SeriesView, list[int]]:
    """Like :func:`series_status`, but games recorded after the series was decided do not make it
    inconsistent: they are left out of the status and their numbers returned (what a correction
    voids). Raises SeriesInconsistent for any other problem."""
    return _series_fold(series, confirmed, leave_out_after_decision=True)


def _series_fold(
    series: Series, confirmed: Mapping[int, SeriesGame], *, leave_out_after_decision: bool
) -> tuple[SeriesView, list[int]]:
    player_ids = series_player_ids(series)
    kind = GameKind(series.stage.tournament.game)
    length = series_values.series_length(series.format)
    played = [
        (number, value, game.sudden_death)
        for number, game in sorted(confirmed.items())
        if not isinstance(value := game.value, VoidResult)
    ]
    numbers = [number for number, _value, _sudden_death in played]
    try:
        outcomes = [
            game_outcome(value, player_ids, sudden_death=sudden_death) for _n, value, sudden_death in played
        ]
        count = len(outcomes)
        if leave_out_after_decision:
            count = series_fold.series_games_counted(
                length, len(player_ids), outcomes, game=kind, seed=series.seed
            )
        status = series_fold.series_status(
            length, len(player_ids), outcomes[:count], game=kind, seed=series.seed
        )
    except series_values.SeriesError as exc:
        names = _player_names(exc, player_ids)
        seat_names = tuple(names.get(str(pid), f"#{pid}") for pid in player_ids)
        raise SeriesInconsistent(exc, seat_names=seat_names, player_names=names) from exc
    return SeriesView(status=status, player_ids=player_ids), numbers[count:]


def _player_names(error: series_values.SeriesError, player_ids: tuple[int, ...]) -> dict[str, str]:
    """Names by player id (as a string) of the seated players and of any player the error names."""
    wanted = set(player_ids)
    for problem in error.problems:
        keys = problem.extra.get("players")
        if isinstance(keys, list):
            wanted |= {int(key) for key in keys if str(key).isdigit()}
    return {str(pid): name for pid, name in Player.objects.filter(pk__in=wanted).values_list("pk", "name")}


def rules_problems(
    game: str, profile: str, options: Mapping[str, Any], *, table_size: int | None = None
) -> list[str]:
    """Why ``profile`` + ``options`` cannot be played (empty: they can). The engines decide; for
    Snap, ``table_size`` also checks the rules against the number of players at a table.

    The problems are the engines' own (coded :class:`~games.engine.errors.Problem` s): turn them
    into messages with ``games.engine_messages``.
    """
    try:
        if GameKind(game) == GameKind.SNAPSZER:
            rules_from_options(options, profile=profile)
            return []
        rules = snap_rules_from_options(options, profile=profile)
    except InvalidRules as exc:
        return exc.errors
    sizes = [table_size] if table_size else list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    # Without a table size, refuse only what no table size could play.
    per_size: list[set[Problem]] = [set(snap.validate(rules, size)[0]) for size in sizes]
    return sorted(set.intersection(*per_size))


@dataclass(frozen=True)
class StandingLine:
    group: int
    player_id: int
    rank: int
    position: int
    values: dict[str, Any]
    separated_by: str


def standing_lines(standings: standings_chain.Standings, group: int) -> list[StandingLine]:
    """A pure ``Standings`` as the lines a stage stores (values with series played, open, byes)."""
    lines = []
    for position, row in enumerate(standings.rows, start=1):
        above = standings.separated_by[position - 2] if position > 1 else None
        values: dict[str, Any] = {str(name): value for name, value in row.values}
        values.update(
            series_played=row.series_played, series_in_progress=row.series_in_progress, byes=row.byes
        )
        if row.finish_how is not None:  # the "why below" of a bracket's standings (docs/formats.md)
            values.update(finish_how=str(row.finish_how), finish_round=row.finish_round)
        lines.append(
            StandingLine(
                group=group,
                player_id=int(row.player),
                rank=row.rank,
                position=position,
                values=values,
                separated_by=str(above or ""),
            )
        )
    return lines


def stage_standings(stage: Stage) -> list[StandingLine]:
    """Work out ``stage``'s standings from its confirmed results; its format ranks (pure functions do
    the work). A void game counts for nothing; a series decided without games (a forfeit, a
    withdrawal) counts by its placings; a walkover (a bracket bye) is not a series played.

    The cyclic garbage collector is paused meanwhile: the fold makes hundreds of thousands of small
    acyclic tuples, and its collections cost a third of a 1,024-player Swiss (docs/benchmarks.md)."""
    with _gc_paused():
        return _stage_standings(stage)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _stage_standings(stage: Stage) -> list[StandingLine]:
    from tournaments.competitions.formats.registry import format_for

    game = GameKind(stage.tournament.game)
    records: list[tuple[int, standings_chain.SeriesRecord]] = []
    # Plain rows, not model instances: a 1,024-player Swiss has thousands of series and results
    # (docs/benchmarks.md "Standings of a whole stage").
    games_by_series: dict[int, list[tuple[bool, StoredOutcome]]] = {}
    for series_id, sudden_death, data in (
        GameResult.objects.filter(game__series__stage=stage, confirmed=True, void=False)
        .order_by("game__series_id", "game__number")
        .values_list("game__series_id", "game__sudden_death", "data")
    ):
        outcome = stored_outcome(data)
        if outcome is not None:
            games_by_series.setdefault(series_id, []).append((sudden_death, outcome))
    seats_by_series: dict[int, list[tuple[int, int]]] = {}
    for series_id, seat, player_id in SeriesSeat.objects.filter(
        series__stage=stage, series__walkover=False
    ).values_list("series_id", "seat", "player_id"):
        seats_by_series.setdefault(series_id, []).append((seat, player_id))
    for series_id, table, series_format, seed, status, placings, round_number, phase in (
        Series.objects.filter(stage=stage, walkover=False)
        .order_by("round__number", "table")
        .values_list("pk", "table", "format", "seed", "status", "placings", "round__number", "phase")
    ):
        seats = sorted(seats_by_series.get(series_id, []))
        if len(seats) < 2:
            continue
        player_ids = tuple(player for _seat, player in seats)
        games = games_by_series.get(series_id, [])
        decided_without_games = status == Series.Status.DECIDED and not games
        records.append(
            (
                table,
                standings_chain.SeriesRecord(
                    seats=player_ids,
                    length=series_values.series_length(series_format),
                    games=tuple(
                        series_values.GameOutcome.from_players(
                            player_ids,
                            outcome.placings,
                            sudden_death=sudden_death,
                            wrong_calls=outcome.wrong_calls,
                            game_points=outcome.game_points,
                        )
                        for sudden_death, outcome in games
                    ),
                    seed=seed,
                    result=tuple(placings.get(str(p)) for p in player_ids) if decided_without_games else None,
                    round=round_number,
                    phase=phase,
                ),
            )
        )
    entrants = list(stage.entrants) or list(
        Entry.objects.filter(tournament=stage.tournament)
        .order_by("seed", "player__name")
        .values_list("player_id", flat=True)
    )
    byes = list(Round.objects.filter(stage=stage, bye__isnull=False).values_list("bye_id", flat=True))
    groups = format_for(stage.format).standings(
        entrants,
        records,
        game=game,
        options=stage.options,
        stage_seed=stage.seed,
        chain=tuple(stage.tiebreaks),
        byes=byes,
    )
    return [line for group, standings in groups for line in standing_lines(standings, group)]
