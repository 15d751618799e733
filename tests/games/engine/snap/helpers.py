"""Building exact positions for the Snap tests: stacked deals, short-hand inputs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.engine.snap import (
    DECKS,
    Call,
    CallKind,
    Claim,
    Deal,
    Event,
    Flip,
    MatchKey,
    SnapRules,
    SnapState,
    apply,
    new_game,
)

CLASSIC = SnapRules()
SHAPES = SnapRules(deck="shapes", match_key=MatchKey.PICTURE_ID, picture=True)


def rules(base: SnapRules = CLASSIC, **changes: Any) -> SnapRules:
    return replace(base, **changes)


def stacked(rules: SnapRules, players: int, piles: dict[int, list[str]], dealer: int | None = None) -> Deal:
    """A deal giving each seat in ``piles`` those cards on top of its face-down pile (top first,
    i.e. in the order it will flip them); the rest of the deck fills the piles in deck order."""
    deck = DECKS[rules.deck]
    n = players
    dealer = n - 1 if dealer is None else dealer
    used = {c for pile in piles.values() for c in pile}
    assert len(used) == sum(len(p) for p in piles.values()), "a card given twice"
    rest = [c for c in deck.cards if c not in used]
    sizes = [deck.size // n + (1 if (s - dealer - 1) % n < deck.size % n else 0) for s in range(n)]
    full: list[list[str]] = []
    for s in range(n):
        pile = list(piles.get(s, []))
        assert len(pile) <= sizes[s], f"seat {s} gets only {sizes[s]} cards"
        while len(pile) < sizes[s]:
            pile.append(rest.pop(0))
        full.append(pile)
    dealt = [list(reversed(pile)) for pile in full]  # the last card dealt to a seat is its top
    order = []
    for i in range(deck.size):
        seat = (dealer + 1 + i) % n
        order.append(dealt[seat][i // n])
    return Deal(n, tuple(order))


def start(
    rules: SnapRules, players: int, piles: dict[int, list[str]], dealer: int | None = None
) -> SnapState:
    """A new game on a stacked deal; by default the dealer is the last seat, so seat 0 flips first."""
    dealer = players - 1 if dealer is None else dealer
    return new_game(rules, stacked(rules, players, piles, dealer), dealer)


def flip(state: SnapState, times: int = 1) -> tuple[SnapState, list[Event]]:
    """``times`` flips by whoever is on turn."""
    events: list[Event] = []
    for _ in range(times):
        assert state.turn is not None
        state, new = apply(state, Flip(state.turn))
        events += new
    return state, events


def call(
    state: SnapState,
    caller: int,
    claim: Claim | None = None,
    *,
    kind: CallKind = CallKind.SNAP,
    seq: int | None = None,
    sound: int | None = None,
) -> tuple[SnapState, list[Event]]:
    return apply(state, Call(caller, kind, claim, state.seq if seq is None else seq, sound))


def names(state: SnapState, cards: tuple[int, ...] | list[int]) -> list[str]:
    return [state.deck.cards[c] for c in cards]


def up(state: SnapState, seat: int) -> list[str]:
    return names(state, state.faceup(seat))


def down(state: SnapState, seat: int) -> list[str]:
    return names(state, state.facedown(seat))


def pools(state: SnapState) -> list[list[str]]:
    return [names(state, p.cards) for p in state.pools]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def skip_unless_slow(request: pytest.FixtureRequest) -> None:
    """Skip a long run unless the run selects it (``pytest -m slow``)."""
    expression = request.config.getoption("markexpr") or ""
    if "slow" not in expression or "not slow" in expression:
        pytest.skip("a long run: select it with -m slow")
