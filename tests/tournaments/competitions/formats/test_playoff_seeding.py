"""Groups → playoff: the cross-over (issue 23, item 1; docs/formats.md "Groups → playoff").

Exhaustive over every shape the options check lets through up to ``LARGEST`` entrants (group count,
group sizes, qualifiers per group): the playoff bracket is built from ``playoff_seeds`` and read
back through its own round-1 sources, and for each group its qualifiers must be as far apart as the
bracket allows (the two best only in the final, the best four in different quarters …), the byes
must go to the best-placed qualifiers, and round 1 never pairs a group with itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

import pytest

from tests.tournaments.competitions.formats.checker import spread_ok
from tests.tournaments.competitions.formats.examples import SNAP, decide, play_out, publish, state
from tournaments.competitions.formats.base import FormatError, FormatKey, Phase
from tournaments.competitions.formats.bracket import (
    BracketSeries,
    FromSeed,
    FromSeries,
    double_elimination,
    single_elimination,
)
from tournaments.competitions.formats.groups import GroupsPlayoff, group_label, playoff_seeds
from tournaments.competitions.formats.registry import FORMATS

LARGEST = 64  # entrants: every group count up to 22 and every qualifier count up to 15
LARGEST_SLOW = 160  # with -m slow: group counts up to 54


@cache
def allowed_shapes(largest: int = LARGEST, smallest: int = 3) -> list[tuple[int, int]]:
    """Every (group count, qualifiers per group) the options check accepts for smallest..largest
    players in groups of 3..16 (the sizes of the groups do not change the playoff: only how many
    qualify)."""
    shapes: set[tuple[int, int]] = set()
    fmt = GroupsPlayoff()
    for entrants in range(smallest, largest + 1):
        for size in range(3, 17):
            for advance in range(1, 16):
                try:
                    fmt.check_options({"group_size": size, "advance": advance}, game=SNAP, entrants=entrants)
                except FormatError:
                    continue
                shapes.add((math.ceil(entrants / size), advance))
    return sorted(shapes)


def reach(bracket: Sequence[BracketSeries]) -> dict[str, frozenset[int]]:
    """The seeds (0-based) who can play in each winners' bracket series."""
    seeds: dict[str, frozenset[int]] = {}
    for node in sorted((n for n in bracket if n.phase is Phase.WINNERS), key=lambda n: n.round):
        players: set[int] = set()
        for source in node.sources:
            if isinstance(source, FromSeed):
                players.add(source.index)
            else:
                assert isinstance(source, FromSeries)
                players |= seeds[source.series]
        seeds[node.key] = frozenset(players)
    return seeds


def first_meeting(bracket: Sequence[BracketSeries], a: int, b: int) -> int:
    """The earliest winners' round in which seeds ``a`` and ``b`` can meet."""
    reachable = reach(bracket)
    by_key = {n.key: n for n in bracket}
    return min(by_key[key].round for key, players in reachable.items() if {a, b} <= players)


def test_the_shapes_cover_what_the_form_allows() -> None:
    shapes = allowed_shapes()
    assert (3, 2) in shapes and (2, 15) in shapes and (21, 2) in shapes
    assert max(g for g, _a in shapes) == 22 and max(a for _g, a in shapes) == 15


@pytest.mark.parametrize("shape", allowed_shapes(), ids=lambda s: f"{s[0]}groups-top{s[1]}")
def test_playoff_spreads_each_groups_qualifiers(shape: tuple[int, int]) -> None:
    check_spread(*shape)


@pytest.mark.slow
def test_playoff_spreads_each_groups_qualifiers_up_to_160_players(request: pytest.FixtureRequest) -> None:
    expression = request.config.getoption("markexpr") or ""
    if "slow" not in expression or "not slow" in expression:
        pytest.skip("a long run: select it with -m slow")
    for shape in sorted(set(allowed_shapes(LARGEST_SLOW, LARGEST + 1)) - set(allowed_shapes())):
        check_spread(*shape)


def check_spread(groups: int, advance: int) -> None:
    rankings = [[(g, place) for place in range(advance)] for g in range(groups)]
    seeds = playoff_seeds(rankings, advance)
    total = groups * advance
    assert sorted(seeds) == sorted(p for r in rankings for p in r)
    # Tier by tier: all the winners (in group order), then all the runners-up … so the byes go to
    # the best-placed qualifiers.
    assert [place for _g, place in seeds] == sorted(place for _g, place in seeds)
    assert seeds[:groups] == [(g, 0) for g in range(groups)]
    if total < 2:
        return
    bracket = single_elimination(total)
    rounds = max(n.round for n in bracket)
    index = {player: i for i, player in enumerate(seeds)}
    position: dict[int, int] = {}
    for node in bracket:
        if node.round == 1:
            for seat, source in enumerate(node.sources):
                assert isinstance(source, FromSeed)
                position[source.index] = 2 * (node.table - 1) + seat
    size = 2**rounds
    for g in range(groups if groups > 1 else 0):  # one group: a standard bracket of its ranking
        mine = [index[(g, place)] for place in range(advance)]
        if advance >= 2:  # the two best of a group meet in the final at the earliest
            assert first_meeting(bracket, mine[0], mine[1]) == rounds
        assert spread_ok([position[i] for i in mine], size), f"group {group_label(g)}"
    # Round 1: nobody meets their own group; a winner meets a bye or a player of a lower tier,
    # except when the winners are more than half the bracket (then some must meet each other).
    for node in bracket:
        if node.round != 1:
            continue
        a, b = (source.index for source in node.sources if isinstance(source, FromSeed))
        if b >= total:
            continue
        assert seeds[a][0] != seeds[b][0] or groups == 1, f"{node.key}: one group"
        if seeds[a][1] == 0 and seeds[b][1] == 0:
            assert groups > size // 2
    # A double elimination's winners' bracket is seeded the same way.
    double = {
        n.key: n.sources for n in double_elimination(total) if n.round == 1 and n.phase is Phase.WINNERS
    }
    assert double == {n.key: n.sources for n in bracket if n.round == 1}


def test_twelve_players_three_groups_top_two_regression() -> None:
    """The outside run (issue 23): 12 players, 3 groups of 4, top 2. The playoff put A1 v A2 and
    B1 v B2 in the semi-finals; now round 1 is A1 v bye, C2 v B2, B1 v bye, C1 v A2."""
    key = FormatKey.GROUPS_PLAYOFF
    stage = state(key, range(1, 13), group_size=4, advance=2)
    _options, groups = FORMATS[key].groups(stage)  # type: ignore[attr-defined]
    assert groups == {"A": [1, 6, 7, 12], "B": [2, 5, 8, 11], "C": [3, 4, 9, 10]}
    stage = publish(stage, key)
    stage = decide(stage, {s.key: (1, 2) for r in stage.rounds for s in r.series})
    stage = replace(stage, standings={"A": (1, 6, 7, 12), "B": (2, 5, 8, 11), "C": (3, 4, 9, 10)})
    (first,) = FORMATS[key].next_rounds(stage)
    a1, a2, b1, b2, c1, c2 = 1, 6, 2, 5, 3, 4
    assert [s.seats for s in first.series] == [(a1, None), (c2, b2), (b1, None), (c1, a2)]
    # Whoever wins, the semi-finals are A1 v (B2 or C2) and B1 v (C1 or A2): A1 and A2 can only meet
    # in the final, and so can B1 and B2, C1 and C2.
    for upset in (0, 1):
        done = play_out(stage, key, winner=lambda s, upset=upset: upset if len(s.players) == 2 else 0)
        semis = [set(s.players) for r in done.rounds for s in r.series if s.key.startswith("P-W2-")]
        for pair in ({a1, a2}, {b1, b2}, {c1, c2}):
            assert pair not in semis
