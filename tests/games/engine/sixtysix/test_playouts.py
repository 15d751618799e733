"""Random playouts with invariants after every action, the secrecy of observe(), and perft-style
legal-action counts for fixed deals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.sixtysix import (
    ALL_CARDS,
    PROFILES,
    Card,
    Phase,
    SixtySixState,
    action_from_dict,
    apply,
    deck,
    legal_actions,
    new_hand,
    observe,
    seats_to_act,
)
from games.engine.sixtysix.events import Event, TrumpCardTaken, TrumpExchanged
from tests.games.engine.sixtysix.helpers import playout, quiet_choice, random_deal, require_slow

NAMES = list(PROFILES)
CARD_NAMES = frozenset(c.name for c in ALL_CARDS)


def check_invariants(s: SixtySixState) -> None:
    rules = s.rules
    cards = s.all_cards()
    assert len(cards) == rules.deck_size and len(set(cards)) == rules.deck_size  # each card in one place
    assert sum(c.value for c in cards) == 120
    won = [0, 0]
    for t in s.tricks:
        won[t.winner] += t.lead.value + t.follow.value
    assert list(s.card_points) == won
    assert sum(s.trick_counts) == len(s.tricks)
    shown = [sum(m.points for m in s.marriages if m.seat == seat) for seat in (0, 1)]
    assert [s.marriage_points[i] + s.pending_marriage[i] for i in (0, 1)] == shown
    h0, h1 = (len(h) for h in s.hands)
    if s.phase is Phase.FOLLOW:
        assert len(s.hands[s.leader]) + 1 == len(s.hands[1 - s.leader])
    elif s.lead_card is None:
        assert h0 == h1
    if s.phase is Phase.LEAD and s.talon_open:
        assert h0 == h1 == rules.hand_size  # the open phase refills both hands
    assert (s.phase is Phase.OVER) == (s.result is not None)
    if s.phase is not Phase.OVER:
        assert seats_to_act(s) and all(legal_actions(s, seat) for seat in seats_to_act(s))
        assert [seat for seat in (0, 1) if legal_actions(s, seat)] == sorted(seats_to_act(s))
    else:
        assert legal_actions(s, 0) == legal_actions(s, 1) == []


@pytest.mark.parametrize("name", NAMES)
def test_random_playouts_keep_invariants(name: str) -> None:
    rules = PROFILES[name]
    for seed in range(120):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), dealer=seed % 2)
        check_invariants(state)
        final = playout(state, rng, check_invariants, wild=seed % 4 == 0)
        assert final.result is not None
        assert final.result.winner is None or final.result.game_points >= 1


def _cards_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value that names a card."""
    if isinstance(value, str):
        if value in CARD_NAMES:
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _cards_in(v)


def _public(s: SixtySixState, seen_trumps: set[Card]) -> set[str]:
    """What both seats have seen face up: tricks, the card led, face-up trumps, marriages shown."""
    public = {c.name for t in s.tricks for c in (t.lead, t.follow)} | {c.name for c in seen_trumps}
    if s.lead_card is not None:
        public.add(s.lead_card.name)
    for m in s.marriages:
        public |= {f"K{m.suit.value}", f"Q{m.suit.value}"}
    return public


@pytest.mark.parametrize("name", NAMES)
def test_observe_and_events_never_reveal_the_opponents_hand_or_the_stock(name: str) -> None:
    """500 random hands per profile (3000 in all): after every action, each seat's view (as JSON)
    and every event name only the seat's own cards and cards both seats have seen face up."""
    rules = PROFILES[name]
    for seed in range(500):
        rng = random.Random(10_000 + seed)
        state = new_hand(rules, random_deal(rules, rng), dealer=seed % 2)
        seen_trumps: set[Card] = {state.trump_card} if state.trump_card else set()
        while True:
            public = _public(state, seen_trumps)
            for seat in (0, 1):
                view = observe(state, seat).to_dict()
                if not state.tricks:  # once per hand, the full JSON round trip
                    view = json.loads(json.dumps(view))
                allowed = public | {c.name for c in state.hands[seat]}
                leaked = set(_cards_in(view)) - allowed
                assert not leaked, (seed, seat, leaked)
                assert view["opponent_hand_size"] == len(state.hands[1 - seat])
            if state.phase is Phase.OVER:
                break
            state, events = apply(state, quiet_choice(state, rng))
            seen_trumps |= _trumps_shown(events)
            public = _public(state, seen_trumps)
            for event in events:
                leaked = set(_cards_in(event.to_dict())) - public
                assert not leaked, (seed, event, leaked)


def _trumps_shown(events: list[Event]) -> set[Card]:
    out: set[Card] = set()
    for e in events:
        if isinstance(e, TrumpExchanged):
            out |= {e.given, e.taken}
        elif isinstance(e, TrumpCardTaken):
            out.add(e.card)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_observe_is_the_same_whatever_the_hidden_cards_are(name: str) -> None:
    """Swapping a hidden card of the opponent with a stock card changes nothing a seat observes."""
    rules = PROFILES[name]
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), dealer=1)
        seen: set[Card] = {state.trump_card} if state.trump_card else set()
        while state.phase is not Phase.OVER:
            public = _public(state, seen)
            for seat in (0, 1):
                other = 1 - seat
                hidden = [c for c in state.hands[other] if c.name not in public]
                if hidden and state.stock:
                    a, b = rng.choice(hidden), rng.choice(state.stock)
                    twin = state.copy()
                    hands = list(twin.hands)
                    hands[other] = tuple(b if c is a else c for c in hands[other])
                    twin.hands = (hands[0], hands[1])
                    twin.stock = tuple(a if c is b else c for c in twin.stock)
                    assert observe(twin, seat) == observe(state, seat)
                    checked += 1
            state, events = apply(state, quiet_choice(state, rng))
            seen |= _trumps_shown(events)
    assert checked > 100


def test_views_actions_and_events_are_json_friendly() -> None:
    rules = PROFILES["snapszer"]
    rng = random.Random(5)
    state = new_hand(rules, random_deal(rules, rng), dealer=0)
    while state.phase is not Phase.OVER:
        for seat in seats_to_act(state):
            for action in legal_actions(state, seat):
                assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        state, events = apply(state, quiet_choice(state, rng))
        for event in events:
            assert json.loads(json.dumps(event.to_dict()))["type"]
    view = observe(state, 0).to_dict()
    assert json.loads(json.dumps(view))["result"]["reason"] == state.result.reason.value  # type: ignore[union-attr]


def perft(state: SixtySixState, depth: int) -> int:
    """The number of action sequences of length ``depth`` (both seats' actions count)."""
    if depth == 0:
        return 1
    total = 0
    for seat in (0, 1):
        for action in legal_actions(state, seat):
            total += perft(apply(state, action)[0], depth - 1) if depth > 1 else 1
    return total


# Depths 1 and 2 worked out by hand for the pack-order deal, dealer seat 1 (see the docstring of
# test_perft_counts); depth 3 and 4 are regression values that make any rule change show.
PERFT = {
    "snapszer": [9, 56],
    "sixty-six": [7, 42],
    "santase": [6, 36],
    "schnapsen": [8, 44],
    "snapszer-hu": [2, 10],
    "schnapsen-lite": [6, 30],
}
PERFT_DEEP = {
    "snapszer": [354, 2142],
    "sixty-six": [126, 612],
    "santase": [288, 1548],
    "schnapsen": [282, 1322],
    "snapszer-hu": [58, 264],
    "schnapsen-lite": [165, 825],
}


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_counts(name: str) -> None:
    """Pack-order deal (deck() order: clubs, diamonds, hearts, spades; A 10 K Q J 9), dealer 1.

    24 cards: seat 0 holds AC 10C KC AD 10D KD, seat 1 QC JC 9C QD JD 9D, trump AH. Depth 1:
    snapszer 6 plays + close + both declarations = 9; sixty-six 6 + close = 7; santase (no close at
    trick 1) 6. Depth 2: every lead gives the follower 6 replies (+ 2 declarations in snapszer: 8);
    after closing seat 0 has 6 leads (+ 2 declarations in snapszer): 6*8+8 = 56, 6*6+6 = 42, 36.
    20 cards: seat 0 holds AC 10C KC KD QD, seat 1 QC JC AD JD AH, trump 10D. schnapsen: 5 plays +
    2 marriage leads + close = 8; 5*5 replies + 2*(5 + the declaration after a marriage) + 7 leads
    after closing (5 + 2 marriages) = 44. schnapsen-lite: 5 plays + the K marriage = 6; 6*5 = 30.
    snapszer-hu: bid or pass = 2; after a bid 8 leads, after a pass the dealer's bid or pass: 10.
    """
    rules = PROFILES[name]
    state = new_hand(rules, deck(rules.deck_size), dealer=1)
    assert [perft(state, d) for d in (1, 2)] == PERFT[name]
    assert [perft(state, d) for d in (3, 4)] == PERFT_DEEP[name]


def test_secrecy_check_catches_a_leak() -> None:
    """The check above is not vacuous: a view that named the opponent's cards would fail it."""
    rules = PROFILES["schnapsen"]
    state = new_hand(rules, deck(rules.deck_size), dealer=1)
    view = observe(state, 0).to_dict()
    view["opponent_hand"] = [c.name for c in state.hands[1]]
    allowed = _public(state, {state.trump_card} if state.trump_card else set()) | {
        c.name for c in state.hands[0]
    }
    assert set(_cards_in(view)) - allowed == {c.name for c in state.hands[1]}


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_many_random_playouts_keep_invariants(name: str, request: pytest.FixtureRequest) -> None:
    """The invariant playouts at scale (5,000 hands per profile): ``pytest -m slow``."""
    require_slow(request)
    rules = PROFILES[name]
    for seed in range(5000):
        rng = random.Random(1_000_000 + seed)
        state = new_hand(rules, random_deal(rules, rng), dealer=seed % 2)
        assert playout(state, rng, check_invariants, wild=seed % 3 == 0).result is not None
