"""Swiss, two seats (rules/tournaments.md "Formats"): rounds paired by score, no rematches, the
first dealer (seat 0) balanced, the bye to the lowest-ranked player without one.

Pure and deterministic: the same stage state gives the same pairings; the only chance is the seat
of round 1's top board, drawn from the stage seed.

How a round is paired (decisions also in docs/formats.md)
- Scores in half points: a series won 2, drawn 1, lost 0; a forfeit win 2, a forfeit 0; a bye as
  the stage's ``bye`` option says (win 2, draw 1, nothing 0). Rank: score, then seed.
- Two players who were paired once are never paired again (a forfeited series counts as a
  meeting: they were paired). A player has at most one bye.
- Odd number of players: the bye goes to the lowest-ranked player without a bye such that everyone
  else can still be paired without a rematch.
- Pairing is a maximum-weight matching (networkx ``max_weight_matching`` with maximum
  cardinality; no edge between players who met). Edge weights encode, in strict priority:
  players floated down from a higher score group are paired; FIDE's colour rules for the first
  dealer (nobody deals first three times more than second, or the other way round, and nobody
  sits in the same seat three times in a row; in the last round a pair with a topscorer, over
  half the points so far, is exempt, as in FIDE's Dutch system); the squared score difference of the pair is small;
  the lowest-ranked player of an odd pool is the one who floats down; the first-dealer balance
  (squared seat-0 minus seat-1 count); and, inside a score group, the top half meets the bottom
  half (1 v n/2+1, as FIDE's Dutch system starts).
- A field of at most ``BLOCK`` players is paired in one matching (a global optimum of the
  priorities above). A larger field is paired by score groups from the top. A pool (the group plus
  the players floated down into it) of more than ``BLOCK`` players is paired in chunks that keep the top-half/bottom-half pairing
  (chunk c holds the c-th slice of each half); a chunk's unpaired players join the next chunk, a
  group's float down. An odd pool leaves out its lowest-ranked player who did not float into it.
  This keeps each matching small, so a 1,024-player round pairs in well under a second
  (benchmarks/formats_pairing.py).
- If the last players cannot be paired without a rematch, the bottom of the field is re-paired as
  one pool, twice as large each time, up to the whole field; only when a maximum-cardinality
  matching of the whole field is not perfect is the round refused ("no_pairing_without_rematch").
- Seats: the player whose seat-0 count is lower (less often first) deals first; level, the one who
  sat second last time; level again, alternate down the boards from a seed-drawn start.
- Table 1 is the top board: tables ordered by the pair's higher score, then its best rank.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatError,
    FormatErrorCode,
    FormatKey,
    Phase,
    PlannedRound,
    PlannedSeries,
    StageState,
)
from tournaments.competitions.formats.options import (
    BYE,
    SEEDING,
    OptionSpec,
    Whole,
    checked_options,
    require_entrants,
)
from tournaments.competitions.formats.round_by_round import RoundByRound, total_rounds
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.formats.state import effective_placings
from tournaments.competitions.standings.chain import Tiebreak

BLOCK = 64  # the largest pool matched at once
ODD_POOL_TRIES = 3  # floaters tried in turn before an odd pool is weighed whole

BYE_POINTS = {"win": 2, "draw": 1, "nothing": 0}  # in half points

# Weight scales, each above anything the lower ones can add up to in a pool of BLOCK players.
_CARRIED = 10**22  # a player floated down is paired
_SEAT_RULE = 10**19  # per player dealing first (or second) 3 times more, or 3 times in a row
_SCORE = 10**13  # per (half-point difference) squared
_RANK = 10**8  # per rank step: the lowest-ranked floats
_DEALER = 10**4  # per unit of seat imbalance
_BASE = 10**24


@dataclass(slots=True)
class SwissHistory:
    """What the rounds so far say about each player: score in half points, who met whom, who had
    a bye, and the seat (0 or 1) of each series played, in order."""

    score: dict[PlayerId, int] = field(default_factory=dict)
    met: set[frozenset[PlayerId]] = field(default_factory=set)
    byes: set[PlayerId] = field(default_factory=set)
    seats: dict[PlayerId, list[int]] = field(default_factory=dict)
    topscorers: set[PlayerId] = field(default_factory=set)  # exempt from the colour rules


def swiss_history(
    state: StageState,
    rounds: Sequence[PlannedRound],
    results: Mapping[str, tuple[int | None, ...]],
    players: Sequence[PlayerId],
    *,
    bye_points: int,
) -> SwissHistory:
    """The history of ``players`` over ``rounds`` (decided series only)."""
    history = SwissHistory(score=dict.fromkeys(players, 0), seats={p: [] for p in players})
    for rnd in rounds:
        for p in rnd.byes:
            if p in history.score:
                history.byes.add(p)
                history.score[p] += bye_points
        for series in rnd.series:
            a, b = series.seats
            if a is None or b is None or a not in history.score:
                continue
            history.met.add(frozenset((a, b)))
            history.seats[a].append(0)
            history.seats[b].append(1)
            placings = effective_placings(state, results, rnd.number, series)
            if placings is None:
                continue
            for player, mine, theirs in ((a, placings[0], placings[1]), (b, placings[1], placings[0])):
                if mine == 1:
                    history.score[player] += 1 if theirs == 1 else 2
    return history


class Unpairable(Exception):
    """No pairing without a rematch exists (with any allowed bye)."""


def swiss_pairing(
    active: Sequence[PlayerId],
    seed_index: Mapping[PlayerId, int],
    history: SwissHistory,
    *,
    round_number: int,
    seed: str,
    last_round: bool = False,
    block: int = BLOCK,
) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    """Pair ``active`` for round ``round_number``: the pairs in table order, seat 0 first, and the
    bye (None with an even count). Raises Unpairable.

    In the ``last_round`` the topscorers (over half the points the rounds so far could give) are
    exempt from the colour rules, as FIDE's Dutch system exempts them (C.04.3 A.7, C.3): two
    leaders meet in the last round even when one of them must then deal first, or second, a third
    time running; otherwise they could be floated apart and both finish unbeaten."""
    if last_round:
        history = replace(history, topscorers={p for p in active if history.score[p] > round_number - 1})
    ranked = sorted(active, key=lambda p: (-history.score[p], seed_index[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    bye: PlayerId | None = None
    pairs: list[tuple[PlayerId, PlayerId]] | None = None
    if len(ranked) % 2:
        for candidate in reversed(ranked):
            if candidate in history.byes:
                continue
            pairs = _pair_all([p for p in ranked if p != candidate], history, block)
            if pairs is not None:
                bye = candidate
                break
    else:
        pairs = _pair_all(ranked, history, block)
    if pairs is None:
        raise Unpairable
    boards = sorted(
        pairs, key=lambda pair: (-max(history.score[p] for p in pair), min(rank[p] for p in pair))
    )
    start = int(hashlib.sha256(f"{seed}|first dealer|{round_number}".encode()).hexdigest(), 16) % 2
    return [
        _seated(a, b, history, rank, (start + table) % 2 == 0) for table, (a, b) in enumerate(boards)
    ], bye


def _pair_all(
    ranked: list[PlayerId], history: SwissHistory, block: int
) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pair everyone in ``ranked`` (best first): by score groups and chunks, then by widening the
    bottom of the field. None when no perfect matching without rematches exists."""
    groups: list[list[PlayerId]] = []
    for player in ranked:
        if groups and history.score[groups[-1][0]] == history.score[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    position: dict[PlayerId, tuple[int, int]] = {}
    for group in groups:
        for i, p in enumerate(group):
            position[p] = (i, len(group))
    if len(ranked) <= block:  # small enough to pair the whole field at once: a global optimum
        matched, left = _match(ranked, set(), history, position)
        return None if left else matched
    pairs: list[tuple[PlayerId, PlayerId]] = []
    carry: list[PlayerId] = []
    for group in groups:
        if len(carry) + len(group) <= block:
            chunks = [group]
        else:
            half, width = len(group) // 2, block // 2
            top, bottom = group[:half], group[half:]
            count = math.ceil(len(bottom) / width)
            chunks = [
                top[c * width : (c + 1) * width] + bottom[c * width : (c + 1) * width] for c in range(count)
            ]
        for chunk in chunks:
            matched, carry = _match(carry + chunk, set(carry), history, position)
            pairs += matched
    if not carry:
        return pairs
    ranked_at = {p: i for i, p in enumerate(ranked)}
    tail = 2 * block
    while True:
        bottom_players = set(ranked[-tail:]) | set(carry)
        kept = [pair for pair in pairs if not (set(pair) & bottom_players)]
        pool = sorted(
            {p for pair in pairs if set(pair) & bottom_players for p in pair} | set(carry),
            key=lambda p: (-history.score[p], ranked_at[p]),
        )
        matched, left = _match(pool, set(), history, position)
        if not left:
            return kept + matched
        if tail >= len(ranked):
            return None
        tail *= 2


def _match(
    pool: list[PlayerId],
    carried: set[PlayerId],
    history: SwissHistory,
    position: Mapping[PlayerId, tuple[int, int]],
) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]]:
    """One maximum-cardinality, maximum-weight matching of ``pool`` (in rank order): the pairs and
    the players left unpaired (in rank order).

    The terms that belong to one player (floated down, rank) add the same to every perfect
    matching, so an even pool is matched without them (node terms slow the blossom algorithm down
    about tenfold); an odd pool leaves out its lowest-ranked player who did not float down into
    it, and the next ones (``ODD_POOL_TRIES``) if the rest cannot be paired. Only when that fails
    is the pool matched with the node terms, so that the right player is the one left.
    """
    if len(pool) % 2 == 0:
        pairs, left = _matching(pool, carried, history, position, node_terms=False)
        if not left:
            return pairs, left
    else:
        # An odd pool: the lowest-ranked player who did not float down here floats on, unless the
        # others cannot all be paired without them (then the full weighing decides).
        for floater in [p for p in reversed(pool) if p not in carried][:ODD_POOL_TRIES]:
            rest = [p for p in pool if p != floater]
            pairs, left = _matching(rest, carried, history, position, node_terms=False)
            if not left:
                return pairs, [floater]
    return _matching(pool, carried, history, position, node_terms=True)


def _matching(
    pool: list[PlayerId],
    carried: set[PlayerId],
    history: SwissHistory,
    position: Mapping[PlayerId, tuple[int, int]],
    *,
    node_terms: bool,
) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]]:
    # networkx is imported when a Swiss round is paired, not with the module: it was 0.66 s of
    # every process's start (each manage.py command, web process and worker), paired or not.
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    graph.add_nodes_from(range(len(pool)))
    size = len(pool)
    for i in range(size):
        a = pool[i]
        for j in range(i + 1, size):
            b = pool[j]
            if frozenset((a, b)) in history.met:
                continue
            difference = history.score[a] - history.score[b]
            (pa, group_size), (pb, _size) = position[a], position[b]
            halves = abs(abs(pa - pb) - group_size // 2) if difference == 0 else 0
            weight = (
                _BASE
                - _SCORE * difference * difference
                - _seat_penalty(history.seats[a], history.seats[b], rules=not {a, b} & history.topscorers)
                - halves
            )
            if node_terms:
                weight += _CARRIED * ((a in carried) + (b in carried)) + _RANK * (2 * size - i - j)
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    matched = {i for pair in pairs for i in pair}
    return [(pool[i], pool[j]) for i, j in pairs], [p for i, p in enumerate(pool) if i not in matched]


def _cost(seats: list[int], seat: int, *, rules: bool = True) -> int:
    """How bad sitting in ``seat`` next is for a player with these past seats: the squared seat
    imbalance after it (weighted ``_DEALER``), plus ``_SEAT_RULE`` when it breaks FIDE's colour
    rules (an imbalance of 3, or the same seat three times in a row) and ``rules`` holds."""
    balance = seats.count(0) - seats.count(1) + (1 if seat == 0 else -1)
    third_in_a_row = len(seats) >= 2 and seats[-1] == seats[-2] == seat
    broken = (abs(balance) >= 3) + third_in_a_row
    return _SEAT_RULE * broken * rules + _DEALER * balance * balance


def _seat_penalty(a: list[int], b: list[int], *, rules: bool = True) -> int:
    def cost(seats: list[int], seat: int) -> int:
        return _cost(seats, seat, rules=rules)

    best = min(cost(a, 0) + cost(b, 1), cost(a, 1) + cost(b, 0))
    return best - min(cost(a, 0), cost(a, 1)) - min(cost(b, 0), cost(b, 1))


def _seated(
    a: PlayerId, b: PlayerId, history: SwissHistory, rank: Mapping[PlayerId, int], top_first: bool
) -> tuple[PlayerId, PlayerId]:
    sa, sb = history.seats[a], history.seats[b]
    a_first, b_first = _cost(sa, 0) + _cost(sb, 1), _cost(sb, 0) + _cost(sa, 1)
    if a_first != b_first:
        return (a, b) if a_first < b_first else (b, a)
    key_a = (sa.count(0), sa[-1:] == [0])
    key_b = (sb.count(0), sb[-1:] == [0])
    if key_a != key_b:
        return (a, b) if key_a < key_b else (b, a)
    better, worse = (a, b) if rank[a] < rank[b] else (b, a)
    return (better, worse) if top_first else (worse, better)


def swiss_round(
    state: StageState,
    players: Sequence[PlayerId],
    results: Mapping[str, tuple[int | None, ...]],
    *,
    round_number: int,
    history_rounds: Sequence[PlannedRound],
    bye_points: int,
    key_prefix: str = "",
    first_table: int = 1,
    group: str | None = None,
    phase_round: int | None = None,
    last_round: bool = False,
) -> tuple[list[PlannedSeries], PlayerId | None]:
    """The series and bye of Swiss round ``round_number`` among ``players`` (in seeding order)
    over ``history_rounds``; ``last_round`` when no Swiss round follows it (topscorers, see
    :func:`swiss_pairing`). Raises FormatError("no_pairing_without_rematch")."""
    active = [p for p in players if not state.withdrawn(p, round_number)]
    history = swiss_history(state, history_rounds, results, players, bye_points=bye_points)
    seed_index = {p: i for i, p in enumerate(players)}
    try:
        pairs, bye = swiss_pairing(
            active, seed_index, history, round_number=round_number, seed=state.seed, last_round=last_round
        )
    except Unpairable:
        raise FormatError(
            FormatErrorCode.NO_PAIRING_WITHOUT_REMATCH,
            f"Round {round_number} cannot be paired without a rematch.",
            {"field": "rounds", "round": round_number},
        ) from None
    series = [
        PlannedSeries(
            key=f"{key_prefix}R{round_number}-{table}",
            table=table,
            seats=pair,
            phase=Phase.GROUP if group else Phase.SWISS,
            phase_round=phase_round or round_number,
            group=group,
        )
        for table, pair in enumerate(pairs, start=first_table)
    ]
    return series, bye


def most_rounds(entrants: int) -> int:
    """The most rounds n players can play without a rematch: n - 1, or n when one sits out each."""
    return entrants if entrants % 2 else entrants - 1


class Swiss(RoundByRound):
    """Swiss, two seats. Options: ``rounds`` (default ceil(log2 n)), ``bye`` (what a bye scores:
    win, draw, nothing), ``seeding``."""

    key = FormatKey.SWISS
    SPECS: dict[str, OptionSpec] = {
        "rounds": Whole(None, 1, 1000, optional=True),
        "bye": BYE,
        "seeding": SEEDING,
    }

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        checked = checked_options(options, self.SPECS)
        require_entrants(entrants, 2)
        rounds = checked["rounds"]
        if entrants is not None and isinstance(rounds, int) and rounds > most_rounds(entrants):
            raise FormatError(
                FormatErrorCode.TOO_MANY_ROUNDS,
                "More rounds than the players can play without a rematch.",
                {"field": "rounds", "rounds": rounds, "entrants": entrants, "most": most_rounds(entrants)},
            )
        return checked

    def pair(
        self,
        state: StageState,
        players: Sequence[PlayerId],
        results: Mapping[str, tuple[int | None, ...]],
        number: int,
        options: Mapping[str, object],
    ) -> PlannedRound:
        series, bye = swiss_round(
            state,
            players,
            results,
            round_number=number,
            history_rounds=state.rounds,
            bye_points=BYE_POINTS[str(options["bye"])],
            last_round=number == total_rounds(options, len(players)),
        )
        return PlannedRound(number, tuple(series), () if bye is None else (bye,))

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        return (
            Tiebreak.SERIES_WON,
            Tiebreak.MEDIAN_BUCHHOLZ,
            Tiebreak.BUCHHOLZ,
            Tiebreak.SONNEBORN_BERGER,
            Tiebreak.HEAD_TO_HEAD,
            Tiebreak.GAMES_WON,
            Tiebreak.COIN_FLIP,
        )
