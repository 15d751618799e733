"""One Snap table's standings (its own series, rules/snap.md S43): series placing, then the chain.
Pure. The chain's decisions: ``chain.py``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.standings.chain import (
    TABLE_TIEBREAKS,
    SeriesRecord,
    Standings,
    Tiebreak,
    TiebreakValue,
    checked_chain,
    checked_entrants,
    coin_flip_value,
    default_chain,
    ranked_standings,
    record_status,
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
    tiebreaks = checked_chain(
        chain or default_chain(GameKind.SNAP, tables=True), TABLE_TIEBREAKS, GameKind.SNAP
    )
    players = checked_entrants(table.seats)
    status = record_status(table, GameKind.SNAP, 0)
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
    return ranked_standings(players, tiebreaks, own, head_to_head, extra=lambda p: (done, 1 - done, 0))
