"""Swiss tables (Snap, 3-6 seats): each round seats everyone at tables by score, with as few
repeat table-mates as the score order allows and the seat order balanced.

Pure and deterministic (no chance at all). How a round is seated (also in docs/formats.md):
- Score: placement points (a table of s: 1st = s − 1 … last = 0; a forfeit 0). Rank: points,
  then seed.
- n active players sit at T = ceil(n / table_size) tables whose sizes differ by at most 1 (the
  larger tables first). A rank's **home table** is the table the rank order fills it into: table 1
  takes the top ranks, and so on.
- Starting from the home tables, two players of neighbouring tables swap when that lowers the
  number of repeat table-mates (pairs who shared a table before, counted once per earlier series)
  and neither moves more than one table from home. Each pass takes, for each neighbouring pair of
  tables in order, the best strictly improving swap; passes repeat until none improves. So scores
  stay grouped (nobody sits more than one table from their rank) and repeats fall.
- Seat order: the players who sat furthest back before (the sum over their series of seat /
  (seats − 1)) sit first; level, the better rank first.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import FormatKey, Phase, PlannedRound, PlannedSeries, StageState
from tournaments.competitions.formats.options import (
    SEEDING,
    OptionSpec,
    Whole,
    checked_options,
    refuse_game,
    require_entrants,
)
from tournaments.competitions.formats.round_by_round import RoundByRound
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.formats.seeding import sizes_within_one
from tournaments.competitions.formats.state import effective_placings
from tournaments.competitions.standings.chain import Tiebreak


def seat_tables(
    ranked: Sequence[PlayerId],
    table_size: int,
    met: Mapping[frozenset[PlayerId], int],
    seat_share: Mapping[PlayerId, Fraction],
) -> list[list[PlayerId]]:
    """``ranked`` (best first) at tables, in table order, each in seat order."""
    count = math.ceil(len(ranked) / table_size)
    tables: list[list[PlayerId]] = []
    home: dict[PlayerId, int] = {}
    start = 0
    for index, size in enumerate(sizes_within_one(len(ranked), count)):
        tables.append(list(ranked[start : start + size]))
        home.update(dict.fromkeys(ranked[start : start + size], index))
        start += size

    def mates(player: PlayerId, table: list[PlayerId], leaving: PlayerId) -> int:
        return sum(met.get(frozenset((player, other)), 0) for other in table if other != leaving)

    improved = True
    while improved:
        improved = False
        for j in range(count - 1):
            upper, lower = tables[j], tables[j + 1]
            best: tuple[int, int, int] | None = None
            for ia, a in enumerate(upper):
                if abs(j + 1 - home[a]) > 1:
                    continue
                for ib, b in enumerate(lower):
                    if abs(j - home[b]) > 1:
                        continue
                    before = mates(a, upper, a) + mates(b, lower, b)
                    after = mates(b, upper, a) + mates(a, lower, b)
                    if after < before and (best is None or after - before < best[0]):
                        best = (after - before, ia, ib)
            if best is not None:
                _delta, ia, ib = best
                upper[ia], lower[ib] = lower[ib], upper[ia]
                improved = True
    rank = {p: i for i, p in enumerate(ranked)}
    return [sorted(table, key=lambda p: (-seat_share[p], rank[p])) for table in tables]


class SwissTables(RoundByRound):
    """Swiss tables (Snap only). Options: ``table_size`` (3-6), ``rounds`` (default
    ceil(log2 n)), ``seeding``."""

    key = FormatKey.SWISS_TABLES
    SPECS: dict[str, OptionSpec] = {
        "table_size": Whole(4, 3, 6),
        "rounds": Whole(None, 1, 1000, optional=True),
        "seeding": SEEDING,
    }

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        if game is not GameKind.SNAP:
            raise refuse_game(self.key, game)
        checked = checked_options(options, self.SPECS)
        require_entrants(entrants, 3)
        return checked

    def pair(
        self,
        state: StageState,
        players: Sequence[PlayerId],
        results: Mapping[str, tuple[int | None, ...]],
        number: int,
        options: Mapping[str, object],
    ) -> PlannedRound:
        active = [p for p in players if not state.withdrawn(p, number)]
        points: Counter[PlayerId] = Counter()
        met: Counter[frozenset[PlayerId]] = Counter()
        share: dict[PlayerId, Fraction] = dict.fromkeys(players, Fraction(0))
        for rnd in state.rounds:
            for series in rnd.series:
                size = len(series.seats)
                placings = effective_placings(state, results, rnd.number, series)
                for seat_index, player in enumerate(series.seats):
                    if player is None:
                        continue
                    share[player] += Fraction(seat_index, size - 1)
                    place = None if placings is None else placings[seat_index]
                    points[player] += 0 if place is None else size - place
                    for other in series.seats[seat_index + 1 :]:
                        if other is not None:
                            met[frozenset((player, other))] += 1
        seed_index = {p: i for i, p in enumerate(players)}
        ranked = sorted(active, key=lambda p: (-points[p], seed_index[p]))
        size = int(str(options["table_size"]))
        tables = seat_tables(ranked, size, met, share)
        planned = tuple(
            PlannedSeries(
                key=f"R{number}-{t}", table=t, seats=tuple(seats), phase=Phase.SWISS, phase_round=number
            )
            for t, seats in enumerate(tables, start=1)
        )
        return PlannedRound(number, planned)

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        return (
            Tiebreak.PLACEMENT_POINTS,
            Tiebreak.TABLE_MATES_POINTS,
            Tiebreak.FIRSTS,
            Tiebreak.AVERAGE_PLACING,
            Tiebreak.HEAD_TO_HEAD,
            Tiebreak.COIN_FLIP,
        )
