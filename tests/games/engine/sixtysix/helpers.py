"""Builders for hand-made positions: deals with chosen hands, short action syntax, playouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from games.engine.sixtysix import (
    PROFILES,
    Action,
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
    ``"0:close"``, ``"0:exchange"``, ``"0:draw"``, ``"1:pass"``, ``"0:bid"``."""
    for move in moves:
        state, _ = apply(state, parse_move(move))
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
        from games.engine.sixtysix import Bid

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


def quiet_policy(rng: random.Random) -> Callable[[SixtySixState, list[Action]], Action]:
    """A random player that declares only with 66 and passes otherwise, so hands run long."""

    def choose(state: SixtySixState, actions: list[Action]) -> Action:
        declares = [a for a in actions if isinstance(a, Declare)]
        if declares and state.points(declares[0].seat) >= 66 and rng.random() < 0.7:
            return declares[0]
        others = [a for a in actions if not isinstance(a, Declare)]
        if others and rng.random() < 0.98:
            return rng.choice(others)
        return rng.choice(actions)

    return choose


def random_deal(rules: SixtySixRules, rng: random.Random) -> list[Card]:
    cards = list(deck(rules.deck_size))
    rng.shuffle(cards)
    return cards


def playout(
    state: SixtySixState,
    rng: random.Random,
    check: Callable[[SixtySixState], None] | None = None,
    quiet: bool = True,
) -> SixtySixState:
    """Play to the end with random legal actions, calling ``check`` after every action."""
    choose = quiet_policy(rng)
    while state.phase is not Phase.OVER:
        seats = seats_to_act(state)
        seat = rng.choice(seats)
        actions = legal_actions(state, seat)
        state, _ = apply(state, choose(state, actions) if quiet else rng.choice(actions))
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
