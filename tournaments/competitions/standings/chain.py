"""The ordered, configurable tiebreak chain of standings (rules/tournaments.md "Standings and
tiebreaks"): the tiebreaks, a series record, a standings row, and the ordering that a stage's
standings (``stage.py``) and a Snap table's (``tables.py``) share.

Pure: plain values in (entrants, the stage's series with their recorded games), plain values out.
Every row keeps each tiebreak value that ordered it, and for each pair of neighbouring rows the
standings name the first tiebreak that separated them, so a page can explain the order.

Default chain (round robin): series won, games won, head-to-head among all the tied players, then
Snap: sum of game placings (lower is better) / Snapszer: game-point difference, then a recorded
coin flip. For Snap tables (one series per table, its own standings) "series won" is the series
placing of rules/snap.md S43 (:data:`Tiebreak.SERIES_PLACING`).

How the chain orders (decisions, also in docs/tournaments.md)
- Players equal on every earlier tiebreak form a group; the next tiebreak splits it. Values are
  each player's own, except head-to-head, which is computed inside the group: the mini-table of
  the series among the group's players only (two seats: series won among them; a table: how often
  each finished ahead of another group member in the games they shared). Head-to-head is applied
  once per group, not re-applied to what is left of it (FIDE C.07 style), and only when every pair
  in the group met equally often (two seats); otherwise its value is None for the whole group and
  it separates nobody. A value that is equal for the whole group simply does not separate.
- Two seats: only decided series count (``series_in_progress`` says how many were left out);
  a bye scores ``bye_score`` series won and no games. A table's standings before its series is
  decided are provisional: series placing None, the other values from the games so far.
- "Sum of game placings" uses the normal series games (as S43 does); "games won" includes
  sudden-death games won; game-point difference adds own minus opponent's game points of every
  match that recorded them.
- The coin flip is ``sha256(f"{stage_seed}|{player}")`` in hex, lowest first: recorded (anyone
  holding the stage seed can check it) and independent of who else is tied. With it last, nobody
  is truly tied; ranks are shared only when every value in the chain is equal.
- Buchholz: the sum of the series won of every opponent met in a decided series (once per series;
  byes add nothing). Sonneborn-Berger: the same sum over the series the player won.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.series.fold import series_status
from tournaments.competitions.series.values import GameOutcome, SeriesError, SeriesLength, SeriesStatus

type TiebreakValue = int | float | str | None


class Tiebreak(StrEnum):
    """Tiebreak names a stage can list, in order. ``higher_is_better`` says which way each sorts."""

    SERIES_WON = "series_won"
    SERIES_PLACING = "series_placing"  # Snap tables: S43 placing in the table's series
    GAMES_WON = "games_won"
    HEAD_TO_HEAD = "head_to_head"
    PLACING_SUM = "placing_sum"  # Snap: sum of game placings
    GAME_POINT_DIFFERENCE = "game_point_difference"  # Snapszer
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    COIN_FLIP = "coin_flip"
    # Added for the formats beyond round robin (stage_standings):
    MEDIAN_BUCHHOLZ = "median_buchholz"  # Buchholz without the best and the worst opponent
    PLACEMENT_POINTS = "placement_points"  # free-for-all: points by place at each table
    FIRSTS = "firsts"  # series finished first
    AVERAGE_PLACING = "average_placing"  # lower is better
    TABLE_MATES_POINTS = "table_mates_points"  # free-for-all Buchholz
    DEPTH = "depth"  # depth of elimination: the last stage round reached
    # An elimination stage's place by its bracket (champion 1, runner-up 2 …; lower is better):
    # bracket formats put it first, whatever the organiser lists (docs/formats.md).
    FINISH = "finish"

    @property
    def higher_is_better(self) -> bool:
        return self not in (
            Tiebreak.SERIES_PLACING,
            Tiebreak.PLACING_SUM,
            Tiebreak.COIN_FLIP,
            Tiebreak.AVERAGE_PLACING,
            Tiebreak.FINISH,
        )


# The phases of a bracket (tournaments.competitions.formats.base.Phase values; this module cannot import it):
# a player's finish is read from the last of these series they played.
BRACKET_PHASES = frozenset({"winners", "losers", "third_place", "grand_final", "grand_final_reset", "final"})
THIRD_PLACE_PHASE = "third_place"


class FinishHow(StrEnum):
    """How a player's bracket ended (or stands), for the "why below" of a standings page."""

    IN = "in"  # won their last series: the champion, or still in
    OUT = "out"  # lost (or forfeited) their last series: eliminated in its round
    THIRD_PLACE = "third_place"  # their last series was the third-place series


class ByeScore(StrEnum):
    """What a bye is worth in series won (rules/tournaments.md: a win unless configured)."""

    WIN = "win"
    DRAW = "draw"
    NOTHING = "nothing"

    @property
    def points(self) -> float:
        return {ByeScore.WIN: 1.0, ByeScore.DRAW: 0.5, ByeScore.NOTHING: 0.0}[self]


TWO_SEAT_TIEBREAKS = frozenset(
    {
        Tiebreak.SERIES_WON,
        Tiebreak.GAMES_WON,
        Tiebreak.HEAD_TO_HEAD,
        Tiebreak.PLACING_SUM,
        Tiebreak.GAME_POINT_DIFFERENCE,
        Tiebreak.BUCHHOLZ,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.COIN_FLIP,
    }
)  # round robin's list, as before the formats' tiebreaks were added
STAGE_TIEBREAKS = frozenset(Tiebreak) - {Tiebreak.SERIES_PLACING}  # stage_standings: any format
TABLE_TIEBREAKS = frozenset(
    {
        Tiebreak.SERIES_PLACING,
        Tiebreak.GAMES_WON,
        Tiebreak.HEAD_TO_HEAD,
        Tiebreak.PLACING_SUM,
        Tiebreak.COIN_FLIP,
    }
)


class StandingsErrorCode(TournamentErrorCode):
    """Why no standings can be computed, and the ``extra`` values each code carries: ``players``
    are player ids as strings, ``series`` and ``game_index`` 0-based positions."""

    INVALID_CHAIN = "invalid_chain", ("tiebreaks", "allowed")  # unknown, not for here, or twice
    UNKNOWN_PLAYER = "unknown_player", ("players",)  # a bye for someone who is not an entrant
    SERIES_SEATS = "series_seats", ("series", "players")  # a two-seat series without two entrants
    DUPLICATE_ENTRANT = "duplicate_entrant", ("players",)  # the same problem as the pairings'
    INVALID_SERIES = "invalid_series", ("series", "series_code", "game_index", "players")  # seat order
    SERIES_PLAYERS = "series_players", ("series", "players")  # stage_standings: 2-6 different entrants
    INVALID_SERIES_RESULT = "invalid_series_result", ("series", "result")  # a given result


class StandingsError(TournamentInputError):
    """Inputs no standings can be computed from (codes: :class:`StandingsErrorCode`). An
    "invalid_series" error is raised from the series' own :class:`~tournaments.competitions.series.values.SeriesError`
    (its ``__cause__``), which says what is wrong with which game."""


@dataclass(frozen=True, slots=True)
class SeriesRecord:
    """One series of the stage: the players in seat order, its length and its confirmed games in
    the order played (``GameOutcome`` is indexed by seat). ``seed`` is the series seed, read only if
    S42 falls to a coin flip.

    For :func:`stage_standings` only: ``result`` decides the series without replaying its games (a
    forfeit, a walkover, a result recorded without games): a placing per seat in competition
    ranking, ``None`` for a player who did not play (a forfeit: placed last, no points); the games
    given still count for the game tiebreaks. ``round`` is the stage round (depth of elimination).
    ``phase`` is the series' phase in its format (a ``Phase`` value): the bracket phases
    (:data:`BRACKET_PHASES`) give the finish.
    """

    seats: tuple[PlayerId, ...]
    length: SeriesLength
    games: tuple[GameOutcome, ...]
    seed: str | None = None
    result: tuple[int | None, ...] | None = None
    round: int = 0
    phase: str = ""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line. ``values`` pairs each tiebreak of the chain (in chain order) with this
    player's value; head-to-head is None where it was not applied to the player. ``finish_how`` and
    ``finish_round``: with the finish in the chain, how the player's bracket ended and the stage
    round of their last bracket series (None for a player who played none: out before the bracket).
    """

    player: PlayerId
    rank: int
    values: tuple[tuple[Tiebreak, TiebreakValue], ...]
    series_played: int
    series_in_progress: int
    byes: int
    finish_how: FinishHow | None = None
    finish_round: int | None = None

    def values_dict(self) -> dict[str, TiebreakValue]:
        """``{tiebreak name: value}`` in chain order, ready to store as JSON."""
        return {str(name): value for name, value in self.values}

    def value(self, tiebreak: Tiebreak) -> TiebreakValue:
        """This row's value for ``tiebreak``. Raises KeyError when it is not in the chain."""
        for name, value in self.values:
            if name is tiebreak:
                return value
        raise KeyError(tiebreak)


@dataclass(frozen=True, slots=True)
class Standings:
    """Rows best first. ``separated_by[i]`` is the first tiebreak that puts ``rows[i]`` above
    ``rows[i + 1]``, or None when the two are truly tied (then they share a rank)."""

    chain: tuple[Tiebreak, ...]
    rows: tuple[StandingRow, ...]
    separated_by: tuple[Tiebreak | None, ...]


def default_chain(game: GameKind, *, tables: bool = False) -> tuple[Tiebreak, ...]:
    """The round-robin default of rules/tournaments.md for ``game``; ``tables`` for Snap tables."""
    if tables:
        return (
            Tiebreak.SERIES_PLACING,
            Tiebreak.GAMES_WON,
            Tiebreak.HEAD_TO_HEAD,
            Tiebreak.PLACING_SUM,
            Tiebreak.COIN_FLIP,
        )
    by_game = Tiebreak.PLACING_SUM if game is GameKind.SNAP else Tiebreak.GAME_POINT_DIFFERENCE
    return (Tiebreak.SERIES_WON, Tiebreak.GAMES_WON, Tiebreak.HEAD_TO_HEAD, by_game, Tiebreak.COIN_FLIP)


def coin_flip_value(stage_seed: str, player: PlayerId) -> str:
    """The recorded coin flip of one player: ``sha256(f"{stage_seed}|{player}")`` hex; lowest first."""
    return hashlib.sha256(f"{stage_seed}|{player}".encode()).hexdigest()


# -- the ordering shared by both ----------------------------------------------------------------


def ranked_standings(
    players: Sequence[PlayerId],
    chain: tuple[Tiebreak, ...],
    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]],
    head_to_head: Callable[[Sequence[PlayerId]], dict[PlayerId, TiebreakValue] | None],
    *,
    extra: Callable[[PlayerId], tuple[int, int, int]],
    note: Callable[[PlayerId], tuple[FinishHow | None, int | None]] | None = None,
) -> Standings:
    values: dict[PlayerId, dict[Tiebreak, TiebreakValue]] = {
        p: {tb: (None if tb is Tiebreak.HEAD_TO_HEAD else own[tb](p)) for tb in chain} for p in players
    }

    def split(group: list[PlayerId], depth: int) -> list[list[PlayerId]]:
        if depth == len(chain) or len(group) == 1:
            return [group]
        tiebreak = chain[depth]
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            mini = head_to_head(group)
            if mini is not None:
                for p in group:
                    values[p][tiebreak] = mini[p]
        buckets: dict[tuple[int, float | str], list[PlayerId]] = {}
        for p in group:  # dicts keep insertion order: a truly tied group stays in entrant order
            buckets.setdefault(_sort_key(tiebreak, values[p][tiebreak]), []).append(p)
        return [sub for key in sorted(buckets) for sub in split(buckets[key], depth + 1)]

    groups = split(list(players), 0)
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for p in group:
            played, in_progress, byes = extra(p)
            how, finish_round = note(p) if note is not None else (None, None)
            rows.append(
                StandingRow(
                    player=p,
                    rank=rank,
                    values=tuple((tb, values[p][tb]) for tb in chain),
                    series_played=played,
                    series_in_progress=in_progress,
                    byes=byes,
                    finish_how=how,
                    finish_round=finish_round,
                )
            )
    separated_by = tuple(
        _first_difference(chain, values[a.player], values[b.player]) for a, b in pairwise(rows)
    )
    return Standings(chain=chain, rows=tuple(rows), separated_by=separated_by)


def _sort_key(tiebreak: Tiebreak, value: TiebreakValue) -> tuple[int, float | str]:
    """Ascending key: better first. None (not applied) sorts as one value of its own."""
    if value is None:
        return (0, 0)
    if isinstance(value, str):
        return (1, value)
    return (1, -value if tiebreak.higher_is_better else value)


def _first_difference(
    chain: tuple[Tiebreak, ...], a: dict[Tiebreak, TiebreakValue], b: dict[Tiebreak, TiebreakValue]
) -> Tiebreak | None:
    for tiebreak in chain:
        if _sort_key(tiebreak, a[tiebreak]) != _sort_key(tiebreak, b[tiebreak]):
            return tiebreak
    return None


def record_status(record: SeriesRecord, game: GameKind, index: int) -> SeriesStatus:
    try:
        return series_status(record.length, len(record.seats), record.games, game=game, seed=record.seed)
    except SeriesError as error:
        raise StandingsError(
            StandingsErrorCode.INVALID_SERIES,
            f"Series {index + 1} cannot be counted: {error.message}",
            {
                "series": index,
                "series_code": str(error.code),
                "game_index": error.game_index,
                "players": [str(p) for p in record.seats],
            },
        ) from error


def checked_chain(
    chain: Sequence[Tiebreak | str], allowed: frozenset[Tiebreak], game: GameKind
) -> tuple[Tiebreak, ...]:
    wrong_game = Tiebreak.GAME_POINT_DIFFERENCE if game is GameKind.SNAP else Tiebreak.PLACING_SUM
    usable = [str(tb) for tb in Tiebreak if tb in allowed and tb is not wrong_game]
    unknown = sorted({str(name) for name in chain if name not in set(Tiebreak)})
    if unknown:
        raise StandingsError(
            StandingsErrorCode.INVALID_CHAIN,
            "The tiebreak list names an unknown tiebreak.",
            {"tiebreaks": unknown, "allowed": usable},
        )
    names = tuple(Tiebreak(name) for name in chain)
    refused = {str(tb) for tb in names if str(tb) not in usable}
    repeated = {str(tb) for tb, times in Counter(names).items() if times > 1}
    if refused or repeated:
        raise StandingsError(
            StandingsErrorCode.INVALID_CHAIN,
            "The tiebreak list names a tiebreak that does not apply here, or one twice.",
            {"tiebreaks": sorted(refused | repeated), "allowed": usable},
        )
    return names


def checked_entrants(entrants: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    repeated = sorted({str(p) for p, times in Counter(entrants).items() if times > 1})
    if repeated:
        raise StandingsError(
            StandingsErrorCode.DUPLICATE_ENTRANT, "A player is listed more than once.", {"players": repeated}
        )
    return tuple(entrants)
