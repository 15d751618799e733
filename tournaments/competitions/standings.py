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
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.series import (
    GameOutcome,
    SeriesError,
    SeriesLength,
    SeriesStatus,
    series_status,
)

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
    "invalid_series" error is raised from the series' own :class:`~tournaments.competitions.series.SeriesError`
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

    def check_seats(index: int, record: SeriesRecord) -> None:
        if len(record.seats) != 2 or len(set(record.seats)) != 2 or not set(record.seats) <= known:
            raise StandingsError(
                StandingsErrorCode.SERIES_SEATS,
                "Each series of a two-seat round robin seats two different entrants.",
                {"series": index, "players": [str(p) for p in record.seats]},
            )

    return _stage_rank(
        players,
        list(series),
        tiebreaks,
        game=game,
        stage_seed=stage_seed,
        byes=byes,
        bye_score=bye_score,
        check=check_seats,
    )


def stage_standings(
    entrants: Sequence[PlayerId],
    series: Iterable[SeriesRecord],
    *,
    game: GameKind,
    stage_seed: str,
    chain: Sequence[Tiebreak | str],
    byes: Iterable[PlayerId] = (),
    bye_score: ByeScore = ByeScore.WIN,
    placement_scale: Sequence[int] | None = None,
) -> Standings:
    """Standings of a stage of any format (Swiss, elimination, groups, heats, Swiss tables) over
    its series of 2-6 seats, by ``chain`` (the format's default list or the organiser's).

    Values (rules/tournaments.md "Standings and tiebreaks"; decisions also in docs/formats.md):
    - series won: 1 per series finished first (shared first place: 1 / number sharing it, so a drawn
      two-seat series is worth ½), plus the byes (``bye_score``);
    - placement points: per decided series, ``placement_scale[place - 1]`` (0 past its end), by
      default seats − place (3-6 seats: 1st = seats − 1 … last = 0; two seats: 1 and 0); a forfeit 0;
    - firsts: series finished first; average placing: the mean place over decided series, a
      forfeit counting as last (lower is better; None before any);
    - Buchholz: the sum of the series won of every opponent (every table-mate) of each decided series;
      median Buchholz drops the highest and the lowest of those when there are 3 or more;
      Sonneborn-Berger: the same over the opponents finished above (½ for those level);
      table-mates' points: the sum of the placement points of every table-mate of each decided series;
    - depth: the last stage round (``SeriesRecord.round``) the player had a series in;
    - finish (bracket stages): the player's place by the bracket, from the last series of a bracket
      phase they played (:data:`BRACKET_PHASES`): a later stage round is better; in the same round
      any series is better than the third-place series; then the place in that series (a forfeit
      last, an undecided series as first: still in). So the champion is 1st, the runner-up 2nd, the
      third-place series' winner 3rd and loser 4th, then everyone by the round they went out in.
      Players level on that share the finish (competition ranking); players without a bracket
      series (out in the groups) share the place after all of them;
    - head-to-head: when every series is two-seat, series won among the tied players if each pair of
      them met equally often (as round robin); otherwise how often each finished ahead of another
      tied player in the games they played together;
    - games won, placing sum, game-point difference and the coin flip as :func:`round_robin_standings`.

    Raises StandingsError: "invalid_chain", "duplicate_entrant", "unknown_player" (a bye),
    "series_players" (a series does not seat 2-6 different entrants), "invalid_series_result" (a
    ``result`` that does not rank its seats), "invalid_series" (the games break the series rules).
    """
    tiebreaks = _checked_chain(chain, STAGE_TIEBREAKS, game)
    players = _checked_entrants(entrants)
    known = set(players)

    def check_record(index: int, record: SeriesRecord) -> None:
        if (
            not 2 <= len(record.seats) <= 6
            or len(set(record.seats)) != len(record.seats)
            or not (set(record.seats) <= known)
        ):
            raise StandingsError(
                StandingsErrorCode.SERIES_PLAYERS,
                "Each series seats 2 to 6 different entrants of the stage.",
                {"series": index, "players": [str(p) for p in record.seats]},
            )
        if record.result is not None and not _ranks(record.result, len(record.seats)):
            raise StandingsError(
                StandingsErrorCode.INVALID_SERIES_RESULT,
                "The result does not rank the players of the series.",
                {"series": index, "result": ["—" if p is None else repr(p) for p in record.result]},
            )

    return _stage_rank(
        players,
        list(series),
        tiebreaks,
        game=game,
        stage_seed=stage_seed,
        byes=byes,
        bye_score=bye_score,
        placement_scale=placement_scale,
        check=check_record,
    )


@dataclass(frozen=True, slots=True)
class _Decided:
    """A decided series as the standings read it: placings per seat (None = forfeit) and the game
    tallies per seat."""

    record: SeriesRecord
    placings: tuple[int | None, ...]
    games_won: tuple[int, ...]
    placing_sums: tuple[int, ...]
    game_points: tuple[int, ...]


def _stage_rank(
    players: tuple[PlayerId, ...],
    records: list[SeriesRecord],
    tiebreaks: tuple[Tiebreak, ...],
    *,
    game: GameKind,
    stage_seed: str,
    byes: Iterable[PlayerId],
    bye_score: ByeScore,
    placement_scale: Sequence[int] | None = None,
    check: Callable[[int, SeriesRecord], None],
) -> Standings:
    """The rows of :func:`stage_standings` (and :func:`round_robin_standings`); ``check`` refuses
    a record before it is read (in order, so the first bad series is the one reported)."""
    known = set(players)
    bye_counts = Counter(byes)
    strangers = sorted({str(p) for p in bye_counts if p not in known})
    if strangers:
        raise StandingsError(
            StandingsErrorCode.UNKNOWN_PLAYER,
            "A bye names a player who is not an entrant.",
            {"players": strangers},
        )
    decided: list[_Decided] = []
    in_progress: Counter[PlayerId] = Counter()
    depth: Counter[PlayerId] = Counter()
    last_bracket: dict[PlayerId, tuple[tuple[int, int, int], FinishHow, int]] = {}
    for index, record in enumerate(records):
        check(index, record)
        for player in record.seats:
            depth[player] = max(depth[player], record.round)
        outcome = _decided(record, game, index)
        if outcome is None:
            in_progress.update(record.seats)
        else:
            decided.append(outcome)
        if record.phase in BRACKET_PHASES:
            for seat, player in enumerate(record.seats):
                entry = _bracket_exit(record, seat, outcome)
                if player not in last_bracket or entry[0] > last_bracket[player][0]:
                    last_bracket[player] = entry
    finish = _finish_places(players, last_bracket) if Tiebreak.FINISH in tiebreaks else {}

    series_won: dict[PlayerId, float] = {p: bye_counts[p] * bye_score.points for p in players}
    games_won: Counter[PlayerId] = Counter()
    placing_sum: Counter[PlayerId] = Counter()
    point_difference: Counter[PlayerId] = Counter()
    played: Counter[PlayerId] = Counter()
    placement: Counter[PlayerId] = Counter()
    firsts: Counter[PlayerId] = Counter()
    places: dict[PlayerId, list[int]] = {p: [] for p in players}
    for outcome in decided:
        seats = outcome.record.seats
        sharing_first = outcome.placings.count(1)
        for seat, player in enumerate(seats):
            place = outcome.placings[seat]
            played[player] += 1
            series_won[player] += 1.0 / sharing_first if place == 1 else 0.0
            firsts[player] += place == 1
            placement[player] += _placement_points(place, len(seats), placement_scale)
            places[player].append(len(seats) if place is None else place)
            games_won[player] += outcome.games_won[seat]
            placing_sum[player] += outcome.placing_sums[seat]
            point_difference[player] += outcome.game_points[seat] - sum(
                points for other, points in enumerate(outcome.game_points) if other != seat
            )
    opponents: dict[PlayerId, list[float]] = {p: [] for p in players}
    sonneborn_berger: dict[PlayerId, float] = dict.fromkeys(players, 0.0)
    mates_points: Counter[PlayerId] = Counter()
    for outcome in decided:
        seats = outcome.record.seats
        for seat, player in enumerate(seats):
            mine = _rank_key(outcome.placings[seat], len(seats))
            for other, mate in enumerate(seats):
                if other == seat:
                    continue
                opponents[player].append(series_won[mate])
                mates_points[player] += placement[mate]
                theirs = _rank_key(outcome.placings[other], len(seats))
                if outcome.placings[seat] is not None and mine <= theirs:
                    sonneborn_berger[player] += series_won[mate] * (1.0 if mine < theirs else 0.5)

    def median(scores: list[float]) -> float:
        trimmed = sorted(scores)[1:-1] if len(scores) >= 3 else scores
        return float(sum(trimmed))

    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]] = {
        Tiebreak.SERIES_WON: lambda p: series_won[p],
        Tiebreak.GAMES_WON: lambda p: games_won[p],
        Tiebreak.PLACING_SUM: lambda p: placing_sum[p],
        Tiebreak.GAME_POINT_DIFFERENCE: lambda p: point_difference[p],
        Tiebreak.BUCHHOLZ: lambda p: float(sum(opponents[p])),
        Tiebreak.SONNEBORN_BERGER: lambda p: sonneborn_berger[p],
        Tiebreak.COIN_FLIP: lambda p: coin_flip_value(stage_seed, p),
        Tiebreak.MEDIAN_BUCHHOLZ: lambda p: median(opponents[p]),
        Tiebreak.PLACEMENT_POINTS: lambda p: placement[p],
        Tiebreak.FIRSTS: lambda p: firsts[p],
        Tiebreak.AVERAGE_PLACING: lambda p: sum(places[p]) / len(places[p]) if places[p] else None,
        Tiebreak.TABLE_MATES_POINTS: lambda p: mates_points[p],
        Tiebreak.DEPTH: lambda p: depth[p],
        Tiebreak.FINISH: lambda p: finish[p],
    }
    two_seats = all(len(outcome.record.seats) == 2 for outcome in decided)
    # Indexes for head-to-head, which runs once per tied group: two seats, meetings and outright
    # wins by pair; tables, the records each player sat in.
    meetings: Counter[frozenset[PlayerId]] = Counter()
    pair_wins: Counter[tuple[frozenset[PlayerId], PlayerId]] = Counter()
    records_of: dict[PlayerId, list[int]] = {}
    if two_seats:
        for outcome in decided:
            pair = frozenset(outcome.record.seats)
            meetings[pair] += 1
            if outcome.placings.count(1) == 1:
                pair_wins[pair, outcome.record.seats[outcome.placings.index(1)]] += 1
    else:
        for index, record in enumerate(records):
            for player in record.seats:
                records_of.setdefault(player, []).append(index)

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, TiebreakValue] | None:
        members = set(group)
        if two_seats:
            pairs = [frozenset(pair) for pair in combinations(group, 2)]
            counts = {meetings[pair] for pair in pairs}
            if len(counts) != 1 or 0 in counts:
                return None  # not every pair met, or not equally often: the mini-table would be unfair
            won: Counter[PlayerId] = Counter()
            for pair in pairs:
                for player in pair:
                    won[player] += pair_wins[pair, player]
            return {p: won[p] for p in group}
        ahead: Counter[PlayerId] = Counter()
        for index in sorted({i for p in group for i in records_of.get(p, ())}):
            record = records[index]
            seated = [(seat, p) for seat, p in enumerate(record.seats) if p in members]
            for outcome_game in record.games if len(seated) >= 2 else ():
                for (sa, a), (sb, b) in combinations(seated, 2):
                    pa, pb = outcome_game.placings[sa], outcome_game.placings[sb]
                    if pa is not None and pb is not None and pa != pb:
                        ahead[a if pa < pb else b] += 1
        return {p: ahead[p] for p in group}

    def note(p: PlayerId) -> tuple[FinishHow | None, int | None]:
        if Tiebreak.FINISH not in tiebreaks or p not in last_bracket:
            return None, None
        _key, how, round_number = last_bracket[p]
        return how, round_number

    return _rank(
        players,
        tiebreaks,
        own,
        head_to_head,
        extra=lambda p: (played[p], in_progress[p], bye_counts[p]),
        note=note,
    )


def _bracket_exit(
    record: SeriesRecord, seat: int, outcome: _Decided | None
) -> tuple[tuple[int, int, int], FinishHow, int]:
    """How far a bracket series takes the player in ``seat``: the sort key (its round, 1 unless it
    is the third-place series, minus the place: higher is better), how it ended, and its round."""
    place = 1 if outcome is None else _rank_key(outcome.placings[seat], len(record.seats))
    third = record.phase == THIRD_PLACE_PHASE
    how = FinishHow.THIRD_PLACE if third else (FinishHow.IN if place == 1 else FinishHow.OUT)
    return (record.round, 0 if third else 1, -place), how, record.round


def _finish_places(
    players: Sequence[PlayerId], last: dict[PlayerId, tuple[tuple[int, int, int], FinishHow, int]]
) -> dict[PlayerId, TiebreakValue]:
    """Each player's finish: competition ranking by the bracket key, best first; a player without a
    bracket series after all who had one."""
    keys = sorted((entry[0] for entry in last.values()), reverse=True)
    first_at: dict[tuple[int, int, int], int] = {}
    for index, key in enumerate(keys, start=1):
        first_at.setdefault(key, index)
    after = len(keys) + 1
    return {p: first_at[last[p][0]] if p in last else after for p in players}


def _decided(record: SeriesRecord, game: GameKind, index: int) -> _Decided | None:
    """The series as decided, or None while it is not."""
    if record.result is None:
        status = _status(record, game, index)
        if not status.decided or status.placings is None:
            return None
        recorded = status.game_points if status.game_points_recorded else (0,) * len(record.seats)
        return _Decided(record, status.placings, status.games_won, status.placing_sums, recorded)
    seats = range(len(record.seats))
    won = [0] * len(record.seats)
    sums = [0] * len(record.seats)
    points = [0] * len(record.seats)
    for outcome in record.games:
        if outcome.winner is not None and outcome.winner < len(won):
            won[outcome.winner] += 1
        for seat in seats:
            if seat < len(outcome.placings) and not outcome.sudden_death:
                sums[seat] += outcome.placings[seat] or 0
            if outcome.game_points is not None and seat < len(outcome.game_points):
                points[seat] += outcome.game_points[seat] or 0
    return _Decided(record, record.result, tuple(won), tuple(sums), tuple(points))


def _ranks(placings: Sequence[int | None], seat_count: int) -> bool:
    if len(placings) != seat_count:
        return False
    places = sorted(p for p in placings if p is not None)
    return all(not isinstance(p, bool) and isinstance(p, int) and p == places.index(p) + 1 for p in places)


def _rank_key(place: int | None, seat_count: int) -> int:
    """A place to compare by: a forfeit is below every player who played."""
    return seat_count + 1 if place is None else place


def _placement_points(place: int | None, seat_count: int, scale: Sequence[int] | None) -> int:
    if place is None:
        return 0
    if scale is None:
        return seat_count - place
    return scale[place - 1] if place - 1 < len(scale) else 0


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
