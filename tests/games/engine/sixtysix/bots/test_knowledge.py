"""The sampler is consistent with everything the seat has seen (property tests)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.sixtysix import PROFILES, SixtySixState, apply, new_hand, observe
from games.engine.sixtysix.bots.knowledge import closed_phase_start, know, sample_hidden, world
from games.engine.sixtysix.cards import deck
from tests.games.engine.sixtysix.bots.views import same_view
from tests.games.engine.sixtysix.helpers import quiet_choice, random_deal

PROFILE_NAMES = sorted(PROFILES)


def reached(profile: str, seed: int, steps: int) -> SixtySixState:
    rules = PROFILES[profile]
    rng = random.Random(seed)
    state = new_hand(rules, random_deal(rules, rng), seed % 2)
    for _ in range(steps):
        if state.result is not None:
            break
        nxt, _ = apply(state, quiet_choice(state, rng))
        if nxt.result is not None:
            break
        state = nxt
    return state


@settings(max_examples=300, deadline=None)
@given(
    profile=st.sampled_from(PROFILE_NAMES),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 40),
    seat=st.integers(0, 1),
)
def test_sampled_worlds_are_consistent_with_the_view(profile: str, seed: int, steps: int, seat: int) -> None:
    rules = PROFILES[profile]
    state = reached(profile, seed, steps)
    view = observe(state, seat)
    k = know(view, rules)
    # the truth is one of the worlds the seat considers possible
    truth = set(state.hands[1 - seat])
    assert k.unseen == truth | set(state.stock)
    assert k.opponent_known <= truth
    assert not (k.opponent_excluded & truth)
    opp, stock = sample_hidden(k, random.Random(seed))
    # every card in one place, sizes as the view says
    placed = [*opp, *stock, *(set(deck(rules.deck_size)) - k.unseen)]
    assert sorted(c.index for c in placed) == sorted(c.index for c in deck(rules.deck_size))
    assert len(opp) == view.opponent_hand_size and len(stock) == len(state.stock)
    # marriages shown by the opponent: their unplayed cards are in the sampled hand
    assert k.opponent_known <= set(opp)
    # X10: in the closed phase the opponent holds nothing it showed it lacked
    start = closed_phase_start(view, rules)
    if start is not None:
        trump = state.trump_suit
        for t in state.tricks[start:]:
            if t.leader != seat:
                continue
            for c in opp:
                if t.follow.suit is not t.lead.suit:
                    assert c.suit is not t.lead.suit
                    if t.follow.suit is not trump:
                        assert c.suit is not trump
                elif t.follow.strength < t.lead.strength and c.suit is t.lead.suit:
                    assert c.strength < t.lead.strength
    # the sampled world looks exactly the same from this seat
    if rules.close_before_draw and state.closing is not None:
        return  # the view cannot tell when the talon was closed (docs); the rest is checked above
    sampled = world(view, rules, opp, stock)
    assert same_view(observe(sampled, seat), view)
    assert sampled.closing == state.closing
    assert sampled.marriage_points == state.marriage_points and sampled.bonus == state.bonus


def test_sampler_is_uniform_over_free_cards() -> None:
    """With nothing known, each unseen card lands in the opponent's hand at the right rate."""
    rules = PROFILES["snapszer"]
    state = new_hand(rules, random_deal(rules, random.Random(5)), 0)
    k = know(observe(state, 0), rules)
    counts = dict.fromkeys(k.unseen, 0)
    rng = random.Random(9)
    runs = 3000
    for _ in range(runs):
        opp, _stock = sample_hidden(k, rng)
        for c in opp:
            counts[c] += 1
    expected = runs * 6 / 17  # 6 of the 17 unseen cards (24 - 6 in hand - the trump card)
    assert all(abs(n - expected) < 0.15 * expected for n in counts.values())
