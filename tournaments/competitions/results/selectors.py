"""What a result is recorded against: a series' results as they stand, who plays a game now, and
what a form (or the API) reads a submitted result against.

The decisions about which players a game is for live here, once, for the edge (the form and the
API parse against them) and for the service's check (which decides again, from the rows it read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine.protocol import GameKind
from snapleague.errors import ApplicationError, Conflict
from snapleague.users import AnyUser
from tournaments.competitions import outcomes
from tournaments.competitions.messages import GAME_VOID, series_error_message
from tournaments.competitions.results.payload import ResultTable, parse_result, snapszer_rules
from tournaments.competitions.results.values import PlayedResult, VoidResult
from tournaments.competitions.selectors.tournaments import series_get
from tournaments.models import Game, GameResult, Series, Tournament


@dataclass(frozen=True)
class SeriesResults:
    """A series' games and their confirmed result versions (void ones included), as read now."""

    series: Series
    tournament: Tournament
    seats: tuple[int, ...]  # every player of the series, seat order
    names: Mapping[int, str]
    games: Mapping[int, Game]
    confirmed: Mapping[int, GameResult]

    @property
    def live(self) -> dict[int, GameResult]:
        """The confirmed results that count (void games are always the last ones recorded)."""
        return {n: r for n, r in self.confirmed.items() if not r.void}

    def table(self, players: tuple[int, ...]) -> ResultTable:
        """The table a result of a game between ``players`` is read against. Raises ResultInvalid
        (field ``rules``) when the tournament's Snapszer rules cannot be played."""
        tournament = self.tournament
        kind = GameKind(tournament.game)
        rules = (
            snapszer_rules(tournament.rules_profile, tournament.rules_options)
            if kind is GameKind.SNAPSZER
            else None
        )
        return ResultTable(kind=kind, players=players, names=self.names, rules=rules)


def series_results_get(*, series: Series) -> SeriesResults:
    seats = list(series.seats.select_related("player").order_by("seat"))
    return SeriesResults(
        series=series,
        tournament=series.stage.tournament,
        seats=tuple(s.player_id for s in seats),
        names={s.player_id: s.player.name for s in seats},
        games={g.number: g for g in series.games.all()},
        confirmed={
            r.game.number: r
            for r in GameResult.objects.select_related("game").filter(game__series=series, confirmed=True)
        },
    )


@dataclass(frozen=True)
class GameDue:
    """Who plays game ``number`` of a series now, and whether it is a sudden-death game."""

    number: int
    players: tuple[int, ...]  # seat order
    sudden_death: bool
    game: Game | None  # the row, when the game was recorded before
    reseat: bool  # a void game recorded again takes the players due now


def game_due(results: SeriesResults, number: int) -> GameDue:
    """Who plays game ``number``: the players it was recorded with, for a correction; the players
    due now, for a new game or a void game recorded again (in sudden death only the tied ones).

    Raises Conflict unless the game can be recorded now: ``series_inconsistent`` (stored games that
    no longer make a series), ``game_void`` (a void game while the series is decided before it),
    ``series_decided``, ``wrong_game`` (with ``extra.next_game``).
    """
    current = results.confirmed.get(number)
    game = results.games.get(number)
    if current is not None and not current.void and game is not None:
        playing = set(game.seats) if game.seats else set(results.seats)
        players = tuple(p for p in results.seats if p in playing)
        return GameDue(number, players, game.sudden_death, game, reseat=False)
    status = _status_for_next_game(results, number)
    return GameDue(
        number,
        status.next_player_ids,
        status.next_is_sudden_death,
        game,
        reseat=game is not None,
    )


def _status_for_next_game(results: SeriesResults, number: int) -> outcomes.SeriesView:
    series = results.series
    live = results.live
    try:
        status = outcomes.series_status(series, outcomes.series_games(live.values()))
    except outcomes.SeriesInconsistent as exc:
        # Only stored games written round the service can get here; say so, never a 500.
        raise Conflict(
            code="series_inconsistent",
            message=_(
                "The games recorded so far do not make a valid series, so no game can be added "
                "until an organiser puts them right. %(problem)s"
            )
            % {"problem": series_problem(exc)},
        ) from None
    expected_number = len(live) + 1
    if status.decided:
        if number in results.games:
            raise Conflict(code="game_void", message=GAME_VOID % {"n": number})
        raise Conflict(code="series_decided", message=_("This series is already decided."))
    if number != expected_number:
        raise Conflict(
            code="wrong_game",
            message=_("Game %(expected)s is the next game of this series, not game %(given)s.")
            % {"expected": expected_number, "given": number},
            extra={"next_game": expected_number},
        )
    return status


def series_problem(exc: outcomes.SeriesInconsistent) -> str:
    return series_error_message(exc.error, seat_names=exc.seat_names, player_names=exc.player_names)


@dataclass(frozen=True)
class ResultTarget:
    """What a result for game ``game_number`` of a series is entered against, before it is sent.

    ``table`` holds the players who play the game now (none when it cannot be recorded now: the
    service then says why). ``expected_version`` is what the submission sends: 0 for a new game,
    the current version for a correction or for a void game recorded again. ``start`` is what a
    correction form starts from: the current result, or for a void game the result it had before
    it was voided (the organiser checks it still stands).
    """

    series_id: int
    game_number: int
    table: ResultTable
    seats: tuple[int, ...]
    expected_version: int
    start: PlayedResult | None
    voided: bool

    def parse(self, raw: Any) -> PlayedResult:
        """``raw`` read against this game's table; when no game can be recorded now, against the
        series' seats, so that the service answers why (409) rather than the parser. Raises
        ResultInvalid."""
        table = self.table
        if not table.players:
            table = ResultTable(kind=table.kind, players=self.seats, names=table.names, rules=table.rules)
        return parse_result(raw, table)


def result_target_get(*, user: AnyUser, series_id: int, game_number: int | None = None) -> ResultTarget:
    """The target of a result for game ``game_number`` (default: the series' next game) of a series
    ``user`` may see. Raises NotFound; ResultInvalid (``rules``) for Snapszer rules that cannot be
    played."""
    results = series_results_get(series=series_get(user=user, series_id=series_id))
    number = game_number if game_number is not None else len(results.live) + 1
    try:
        players = game_due(results, number).players
    except ApplicationError:
        players = ()
    current = results.confirmed.get(number)
    return ResultTarget(
        series_id=results.series.pk,
        game_number=number,
        table=results.table(players),
        seats=results.seats,
        expected_version=current.version if current is not None else 0,
        start=_last_played(results.series, number) if current is not None else None,
        voided=current is not None and current.void,
    )


def _last_played(series: Series, number: int) -> PlayedResult | None:
    """The latest result game ``number`` was played to (before any void version on top)."""
    played = (
        GameResult.objects.filter(game__series=series, game__number=number, void=False)
        .order_by("-version")
        .first()
    )
    value = played.value if played is not None else None
    return None if isinstance(value, VoidResult) else value
