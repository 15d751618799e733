"""Builders for hand-made positions: deals with chosen hands, short action syntax, playouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Action,
    Bid,
    Card,
    Close,
    Declare,
    Draw,
    Exchange,
    LeadMarriage,
    Pass,
    Phase,
    PlayCard,
    SixtySixRules,
    SixtySixState,
    apply,
    deck,
    legal_actions,
    new_hand,
    parse_cards,
    seats_to_act,
)


def deal_order(rules: SixtySixRules, nondealer: str, dealer: str, trump: str, stock: str = "") -> list[Card]:
    """The shuffled order that X5 deals into these hands (cards as space-separated names).

    Cards of the pack not named anywhere are put at the end of the stock in pack order.
    """
    nd, d, tr, st = parse_cards(nondealer), parse_cards(dealer), parse_cards(trump), parse_cards(stock)
    named = [*nd, *d, *tr, *st]
    assert len(set(named)) == len(named), "a card is named twice"
    assert len(nd) == len(d) == rules.hand_size and len(tr) == 1
    rest = [c for c in deck(rules.deck_size) if c not in named]
    stock_cards = [*st, *rest]
    if rules.deck_size == 24:
        return [*nd[:3], *d[:3], *nd[3:], *d[3:], tr[0], *stock_cards]
    return [*nd[:3], *d[:3], tr[0], *nd[3:], *d[3:], *stock_cards]


def hand(
    profile: str | SixtySixRules, nondealer: str, dealer: str, trump: str, stock: str = ""
) -> SixtySixState:
    """A new hand with seat 1 dealing, so seat 0 (the non-dealer) holds ``nondealer`` and leads."""
    rules = PROFILES[profile] if isinstance(profile, str) else profile
    return new_hand(rules, deal_order(rules, nondealer, dealer, trump, stock), dealer=1)


def act(state: SixtySixState, *moves: str) -> SixtySixState:
    """Apply moves written as ``"0:KH"`` (play), ``"0:m:QH"`` (marriage lead), ``"1:declare"``,
    ``"0:close"``, ``"0:exchange"``, ``"0:draw"``, ``"1:pass"``, ``"0:bid"``. Where the trick's winner
    must choose to draw or close (close_before_draw) and the next move is neither, it draws."""
    for move in moves:
        action = parse_move(move)
        if state.phase is Phase.DRAW and not isinstance(action, (Draw, Close, Declare)):
            state, _ = apply(state, Draw(state.leader))  # close_before_draw: drawing is the default
        state, _ = apply(state, action)
    return state


def parse_move(move: str) -> Action:
    seat_text, _, rest = move.partition(":")
    seat = int(seat_text)
    simple: dict[str, Callable[[int], Action]] = {
        "declare": Declare,
        "close": Close,
        "exchange": Exchange,
        "draw": Draw,
        "pass": Pass,
    }
    if rest in simple:
        return simple[rest](seat)
    if rest == "bid":
        return Bid(seat)
    if rest.startswith("m:"):
        return LeadMarriage(seat, parse_cards(rest[2:])[0])
    return PlayCard(seat, parse_cards(rest)[0])


def names(actions: Iterable[Action]) -> set[str]:
    """Actions as short strings in the syntax of :func:`act` (without the seat)."""
    out = set()
    for a in actions:
        if isinstance(a, PlayCard):
            out.add(a.card.name)
        elif isinstance(a, LeadMarriage):
            out.add(f"m:{a.card.name}")
        else:
            out.add(type(a).__name__.lower())
    return out


def quiet_choice(
    state: SixtySixState, rng: random.Random, avoid: tuple[type, ...] = (), wrong: float = 0.02
) -> Action:
    """A random action that plays like a person: a seat holding 66 usually declares; otherwise the
    seat whose turn it is acts, and only now and then (``wrong``) someone declares short of 66.
    Action types in ``avoid`` are never chosen when the seat has anything else to do."""
    seats = seats_to_act(state)
    for seat in seats:
        if state.points(seat) >= 66 and Declare not in avoid and rng.random() < 0.7:
            declare = Declare(seat)
            if declare in legal_actions(state, seat):
                return declare
    if Declare not in avoid and rng.random() < wrong:
        declares = [Declare(s) for s in seats if Declare(s) in legal_actions(state, s)]
        if declares:
            return rng.choice(declares)
    for seat in seats:
        legal = legal_actions(state, seat)
        others = [a for a in legal if not isinstance(a, (Declare, *avoid))]
        if others:
            return rng.choice(others)
    return rng.choice([a for s in seats for a in legal_actions(state, s)])


def random_deal(rules: SixtySixRules, rng: random.Random) -> list[Card]:
    cards = list(deck(rules.deck_size))
    rng.shuffle(cards)
    return cards


def playout(
    state: SixtySixState,
    rng: random.Random,
    check: Callable[[SixtySixState], None] | None = None,
    wild: bool = False,
) -> SixtySixState:
    """Play to the end with random legal actions, calling ``check`` after every action. ``wild``
    picks uniformly among every legal action of every seat (declarations included)."""
    while state.phase is not Phase.OVER:
        if wild:
            action = rng.choice([a for s in seats_to_act(state) for a in legal_actions(state, s)])
        else:
            action = quiet_choice(state, rng)
        state, _ = apply(state, action)
        if check is not None:
            check(state)
    return state


def advance(state: SixtySixState, tricks: int, keep: str = "") -> SixtySixState:
    """Play ``tricks`` tricks where the leader leads its strongest card not in ``keep`` and the
    follower plays a card that loses where it can (so the leader usually keeps the lead); the
    trick's winner always draws (close_before_draw). Cards in ``keep`` are never played."""
    kept = set(parse_cards(keep))
    for _ in range(tricks):
        if state.phase is Phase.DRAW:
            state, _ = apply(state, Draw(state.leader))
        leader = state.leader
        leads = [
            a.card for a in legal_actions(state, leader) if isinstance(a, PlayCard) and a.card not in kept
        ]
        lead = max(leads, key=lambda c: (c.suit is not state.trump_suit, c.strength))
        state, _ = apply(state, PlayCard(leader, lead))
        follows = [a.card for a in legal_actions(state, 1 - leader) if isinstance(a, PlayCard)]
        follows = [c for c in follows if c not in kept] or follows

        trump = state.trump_suit
        losing = [
            c for c in follows if (c.strength < lead.strength if c.suit is lead.suit else c.suit is not trump)
        ]
        state, _ = apply(state, PlayCard(1 - leader, (losing or follows)[0]))
    if state.phase is Phase.DRAW:
        state, _ = apply(state, Draw(state.leader))
    return state


def recorded_playout(
    rules: SixtySixRules, seed: int, avoid: tuple[type, ...] = ()
) -> tuple[list[Card], list[Action], SixtySixState]:
    """A random hand (dealer seat 1) with its deal and actions, played by :func:`quiet_choice`."""
    rng = random.Random(seed)
    deal = random_deal(rules, rng)
    state = new_hand(rules, deal, dealer=1)
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        action = quiet_choice(state, rng, avoid)
        actions.append(action)
        state, _ = apply(state, action)
    return deal, actions, state


def find_hand(
    rules: SixtySixRules,
    wanted: Callable[[SixtySixState], bool],
    avoid: tuple[type, ...] = (),
    tries: int = 3000,
) -> tuple[list[Card], list[Action], SixtySixState]:
    """The first recorded random hand (seeds 0, 1, ...) whose final state is ``wanted``."""
    for seed in range(tries):
        deal, actions, state = recorded_playout(rules, seed, avoid)
        if wanted(state):
            return deal, actions, state
    raise AssertionError("no such hand in the seeds tried")


def require_slow(request: pytest.FixtureRequest) -> None:
    """Skip a long run unless the marker expression selects ``slow`` (``pytest -m slow``)."""
    expression = request.config.getoption("markexpr") or ""
    if "slow" not in expression or "not slow" in expression:
        pytest.skip("a long run: select it with -m slow")
