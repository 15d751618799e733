"""Property-based tests: random rule sets, seats and inputs; invariants after every step."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.snap import (
    CapReached,
    SnapRules,
    SnapState,
    action_from_dict,
    action_to_dict,
    apply,
    new_game,
    replay,
)
from games.engine.snap.playout import Temperament, random_input, shuffled_deal
from tests.games.engine.snap.variants import SMALL_SETS, STANDARD_SETS

ALL_SETS = {**SMALL_SETS, **STANDARD_SETS}


def check_invariants(before: SnapState, state: SnapState) -> None:
    n = state.n
    # All dealt cards present exactly once.
    assert sorted(state.all_cards()) == list(range(state.deck.size))
    for seat in range(n):
        assert 0 <= state.ks[seat] <= len(state.cs[seat])
        if state.active[seat]:
            assert state.cs[seat], "S17: an active player holds cards"
        else:
            assert not state.cs[seat], "an eliminated player holds nothing"
    assert all(pool.cards for pool in state.pools)
    assert len({pool.id for pool in state.pools}) == len(state.pools)
    assert [p.id for p in state.pools] == sorted(p.id for p in state.pools)  # creation order
    if state.rules.pool_mode.value == "single":
        assert len(state.pools) <= 1
    assert 0 <= state.central_hidden <= len(state.central)
    eliminated = [s for group in state.eliminations for s in group]
    assert sorted(eliminated) == [s for s in range(n) if not state.active[s]]
    if state is not before:
        assert state.seq == before.seq + 1
        assert state.flips >= before.flips
    if state.result is None:
        if not state.rules.speed:
            assert state.turn is not None and state.active[state.turn], "the turn is an active player"
        assert sum(state.active) >= 2
    else:
        result = state.result
        assert state.turn is None
        assert sorted(result.placings)[0] == 1 and all(1 <= p <= n for p in result.placings)
        if result.winner is not None:
            assert result.placings[result.winner] == 1 and result.placings.count(1) == 1
        # Competition ranking: a placing p is shared by k seats, and the next one is p + k.
        placings = sorted(result.placings)
        for i, p in enumerate(placings):
            assert p == placings.index(p) + 1 and (i == 0 or p >= placings[i - 1])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(ALL_SETS)),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    call=st.floats(0, 1),
    wrong=st.floats(0, 0.3),
    late=st.floats(0, 0.3),
    time_cap_at=st.integers(0, 400),
)
def test_invariants_hold_after_every_input(
    *, name: str, players: int, seed: int, call: float, wrong: float, late: float, time_cap_at: int
) -> None:
    rules: SnapRules = ALL_SETS[name]
    if rules.speed:
        players = 2 + players % 2
    rng = random.Random(seed)
    deal = shuffled_deal(rules, players, rng)
    dealer = rng.randrange(players)
    state = new_game(rules, deal, dealer)
    temper = Temperament(call=call, wrong=wrong, late=late)
    inputs = []
    check_invariants(state, state)
    while state.result is None:
        action = CapReached() if len(inputs) == time_cap_at else random_input(state, rng, temper)
        inputs.append(action)
        before = state
        state, _events = apply(state, action)
        check_invariants(before, state)
    # The game is a fold of its inputs: replaying them (through their JSON form) ends the same way.
    logged = [action_from_dict(action_to_dict(a)) for a in inputs]
    again, _ = replay(rules, deal, dealer, logged)
    assert again.result == state.result and again.cs == state.cs and again.seq == state.seq
