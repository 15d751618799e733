"""The closed-phase solver (bots/endgame.py) against brute force through the engine itself."""

from __future__ import annotations

import random

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Declare,
    SixtySixState,
    apply,
    legal_actions,
    may_declare,
    new_hand,
    seats_to_act,
)
from games.engine.sixtysix.bots.endgame import Endgame, solvable
from games.engine.sixtysix.bots.search import outcome, settle
from tests.games.engine.sixtysix.helpers import quiet_choice, random_deal


def brute_force(state: SixtySixState, me: int) -> float:
    """Minimax over every legal action of the seat on move, declarations (right or wrong)
    included; a seat off move that holds 66 declares (it could not do better by waiting)."""
    if state.result is not None:
        return outcome(state, me)
    seats = seats_to_act(state)
    for seat in seats[1:]:
        if state.points(seat) >= 66 and may_declare(state, seat):
            return brute_force(apply(state, Declare(seat))[0], me)
    seat = seats[0]
    values = [brute_force(apply(state, a)[0], me) for a in legal_actions(state, seat)]
    return max(values) if seat == me else min(values)


def closed_positions(profile: str, count: int, max_cards: int, seed: int) -> list[SixtySixState]:
    """States in the closed phase with at most ``max_cards`` in each hand, from random play
    that closes the talon now and then."""
    rules = PROFILES[profile]
    rng = random.Random(seed)
    found: list[SixtySixState] = []
    while len(found) < count:
        state = new_hand(rules, random_deal(rules, rng), rng.randrange(2))
        while state.result is None:
            settled = settle(state)  # the solver starts where nobody holds an undeclared 66
            if solvable(settled) and max(len(h) for h in state.hands) <= max_cards and rng.random() < 0.5:
                found.append(settled)
                break
            state, _ = apply(state, quiet_choice(state, rng))
    return found


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_X10_endgame_solver_equals_brute_force(profile: str) -> None:
    positions = closed_positions(profile, 25, 4, seed=sum(map(ord, profile)))
    for state in positions:
        for me in (0, 1):
            assert Endgame(state, me).solve() == brute_force(state, me), (profile, state.hands, me)
