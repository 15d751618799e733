"""Standings of a round-robin stage by an ordered, configurable tiebreak chain
(rules/tournaments.md "Standings and tiebreaks").

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, pairwise

from games.engine.protocol import GameKind
from tournaments.formats.round_robin import PlayerId
from tournaments.problems import TournamentErrorCode, TournamentInputError
from tournaments.series import GameOutcome, SeriesError, SeriesLength, SeriesStatus, series_status

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

    @property
    def higher_is_better(self) -> bool:
        return self not in (Tiebreak.SERIES_PLACING, Tiebreak.PLACING_SUM, Tiebreak.COIN_FLIP)


class ByeScore(StrEnum):
    """What a bye is worth in series won (rules/tournaments.md: a win unless configured)."""

    WIN = "win"
    DRAW = "draw"
    NOTHING = "nothing"

    @property
    def points(self) -> float:
        return {ByeScore.WIN: 1.0, ByeScore.DRAW: 0.5, ByeScore.NOTHING: 0.0}[self]


TWO_SEAT_TIEBREAKS = frozenset(Tiebreak) - {Tiebreak.SERIES_PLACING}
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


class StandingsError(TournamentInputError):
    """Inputs no standings can be computed from (codes: :class:`StandingsErrorCode`). An
    "invalid_series" error is raised from the series' own :class:`~tournaments.series.SeriesError`
    (its ``__cause__``), which says what is wrong with which game."""


@dataclass(frozen=True, slots=True)
class SeriesRecord:
    """One series of the stage: the players in seat order, its length and its confirmed games in
    the order played (``GameOutcome`` is indexed by seat). ``seed`` is the series seed, read only if
    S42 falls to a coin flip."""

    seats: tuple[PlayerId, ...]
    length: SeriesLength
    games: tuple[GameOutcome, ...]
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line. ``values`` pairs each tiebreak of the chain (in chain order) with this
    player's value; head-to-head is None where it was not applied to the player."""

    player: PlayerId
    rank: int
    values: tuple[tuple[Tiebreak, TiebreakValue], ...]
    series_played: int
    series_in_progress: int
    byes: int

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


def round_robin_standings(
    entrants: Sequence[PlayerId],
    series: Iterable[SeriesRecord],
    *,
    game: GameKind,
    stage_seed: str,
    chain: Sequence[Tiebreak | str] | None = None,
    byes: Iterable[PlayerId] = (),
    bye_score: ByeScore = ByeScore.WIN,
) -> Standings:
    """Standings of a two-seat round robin.

    ``series``: every series of the stage with its confirmed games (undecided ones are left out of
    the counts); ``byes``: one entry per bye a player has received. ``chain`` (None or empty) defaults to
    :func:`default_chain`. Rows list every entrant, even one without a series.

    Raises StandingsError: "invalid_chain" (a tiebreak that does not apply, or listed twice),
    "duplicate_entrant", "unknown_player" (a bye names a non-entrant), "series_seats" (a series
    does not seat two different entrants), "invalid_series" (its games break the series rules;
    ``extra`` has the index, the series' error code and game index, and its players by seat).
    """
    tiebreaks = _checked_chain(chain or default_chain(game), TWO_SEAT_TIEBREAKS, game)
    players = _checked_entrants(entrants)
    known = set(players)
    bye_counts = Counter(byes)
    strangers = sorted({str(p) for p in bye_counts if p not in known})
    if strangers:
        raise StandingsError(
            StandingsErrorCode.UNKNOWN_PLAYER,
            "A bye names a player who is not an entrant.",
            {"players": strangers},
        )
    records = list(series)
    decided: list[tuple[SeriesRecord, SeriesStatus]] = []
    in_progress: Counter[PlayerId] = Counter()
    for index, record in enumerate(records):
        if len(record.seats) != 2 or len(set(record.seats)) != 2 or not set(record.seats) <= known:
            raise StandingsError(
                StandingsErrorCode.SERIES_SEATS,
                "Each series of a two-seat round robin seats two different entrants.",
                {"series": index, "players": [str(p) for p in record.seats]},
            )
        status = _status(record, game, index)
        if status.decided:
            decided.append((record, status))
        else:
            in_progress.update(record.seats)

    series_won: dict[PlayerId, float] = {p: bye_counts[p] * bye_score.points for p in players}
    games_won: Counter[PlayerId] = Counter()
    placing_sum: Counter[PlayerId] = Counter()
    point_difference: Counter[PlayerId] = Counter()
    played: Counter[PlayerId] = Counter()
    for record, status in decided:
        for seat, player in enumerate(record.seats):
            played[player] += 1
            series_won[player] += 1.0 if status.winner == seat else 0.0
            games_won[player] += status.games_won[seat]
            placing_sum[player] += status.placing_sums[seat]
            point_difference[player] += status.game_points[seat] - status.game_points[1 - seat]
    buchholz: dict[PlayerId, float] = dict.fromkeys(players, 0.0)
    sonneborn_berger: dict[PlayerId, float] = dict.fromkeys(players, 0.0)
    for record, status in decided:
        for seat, player in enumerate(record.seats):
            opponent_score = series_won[record.seats[1 - seat]]
            buchholz[player] += opponent_score
            if status.winner == seat:
                sonneborn_berger[player] += opponent_score

    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]] = {
        Tiebreak.SERIES_WON: lambda p: series_won[p],
        Tiebreak.GAMES_WON: lambda p: games_won[p],
        Tiebreak.PLACING_SUM: lambda p: placing_sum[p],
        Tiebreak.GAME_POINT_DIFFERENCE: lambda p: point_difference[p],
        Tiebreak.BUCHHOLZ: lambda p: buchholz[p],
        Tiebreak.SONNEBORN_BERGER: lambda p: sonneborn_berger[p],
        Tiebreak.COIN_FLIP: lambda p: coin_flip_value(stage_seed, p),
    }

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, TiebreakValue] | None:
        members = set(group)
        meetings: Counter[frozenset[PlayerId]] = Counter()
        won: Counter[PlayerId] = Counter()
        for record, status in decided:
            if set(record.seats) <= members:
                meetings[frozenset(record.seats)] += 1
                assert status.winner is not None  # a decided series has a winner
                won[record.seats[status.winner]] += 1
        counts = {meetings[frozenset(pair)] for pair in combinations(group, 2)}
        if len(counts) != 1 or 0 in counts:
            return None  # not every pair met, or not equally often: the mini-table would be unfair
        return {p: won[p] for p in group}

    return _rank(
        players,
        tiebreaks,
        own,
        head_to_head,
        extra=lambda p: (played[p], in_progress[p], bye_counts[p]),
    )


def table_standings(
    table: SeriesRecord,
    *,
    stage_seed: str,
    chain: Sequence[Tiebreak | str] | None = None,
) -> Standings:
    """Standings of one Snap table (its series: 2-6 seats). ``chain`` defaults to
    ``default_chain(GameKind.SNAP, tables=True)``.

    Raises StandingsError: "invalid_chain", "duplicate_entrant" (a player in two seats),
    "invalid_series" (the games break the series rules).
    """
    tiebreaks = _checked_chain(
        chain or default_chain(GameKind.SNAP, tables=True), TABLE_TIEBREAKS, GameKind.SNAP
    )
    players = _checked_entrants(table.seats)
    status = _status(table, GameKind.SNAP, 0)
    seat_of = {player: seat for seat, player in enumerate(players)}
    placings = status.placings

    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]] = {
        Tiebreak.SERIES_PLACING: lambda p: placings[seat_of[p]] if placings is not None else None,
        Tiebreak.GAMES_WON: lambda p: status.games_won[seat_of[p]],
        Tiebreak.PLACING_SUM: lambda p: status.placing_sums[seat_of[p]],
        Tiebreak.COIN_FLIP: lambda p: coin_flip_value(stage_seed, p),
    }

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, TiebreakValue]:
        # rules/tournaments.md: the finishing order among the tied players in the games they shared
        ahead: Counter[PlayerId] = Counter()
        for outcome in table.games:
            for a, b in combinations(group, 2):
                pa, pb = outcome.placings[seat_of[a]], outcome.placings[seat_of[b]]
                if pa is not None and pb is not None and pa != pb:
                    ahead[a if pa < pb else b] += 1
        return {p: ahead[p] for p in group}

    done = 1 if status.decided else 0
    return _rank(players, tiebreaks, own, head_to_head, extra=lambda p: (done, 1 - done, 0))


# -- the ordering shared by both ----------------------------------------------------------------


def _rank(
    players: Sequence[PlayerId],
    chain: tuple[Tiebreak, ...],
    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]],
    head_to_head: Callable[[Sequence[PlayerId]], dict[PlayerId, TiebreakValue] | None],
    *,
    extra: Callable[[PlayerId], tuple[int, int, int]],
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
            rows.append(
                StandingRow(
                    player=p,
                    rank=rank,
                    values=tuple((tb, values[p][tb]) for tb in chain),
                    series_played=played,
                    series_in_progress=in_progress,
                    byes=byes,
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


def _status(record: SeriesRecord, game: GameKind, index: int) -> SeriesStatus:
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


def _checked_chain(
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


def _checked_entrants(entrants: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    repeated = sorted({str(p) for p, times in Counter(entrants).items() if times > 1})
    if repeated:
        raise StandingsError(
            StandingsErrorCode.DUPLICATE_ENTRANT, "A player is listed more than once.", {"players": repeated}
        )
    return tuple(entrants)
