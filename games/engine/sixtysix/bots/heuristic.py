"""The heuristic bot: a handful of rules of thumb a club player would recognise, no search.

In the order they are tried (docs/sixtysix-bots.md lists them with the reasons):

H1  Declare 66 as soon as it is held (every bot's duty); after the last trick pass short of 66.
H2  Never bid Snapszer (X31): a sweep of every trick needs more than a rule of thumb can promise.
H3  Exchange the trump 9 / J for the face-up trump whenever allowed (a better trump for nothing).
H4  Close (or, with close_before_draw, close rather than draw) when points already taken plus the
    tricks the hand can surely win reach 66: sure winners are the unbroken run of top trumps and,
    at a discount, the other suits' aces.
H5  Lead a marriage when one can be shown (trumps first): 20 or 40 points for free. Lead the
    Queen where allowed: it is worth less than the King if it is lost.
H6  Open phase, leading: lead the cheapest card that is neither a trump nor half of a marriage in
    hand; keep trumps, aces and tens for taking tricks later.
H7  Open phase, following: take an ace or ten led in a plain suit (with a higher card of the suit,
    else the lowest trump); take any trick whose points bring us to 66; take a low lead with a
    plain ten or ace of the suit (it scores and cannot be trumped); otherwise throw the cheapest
    card that is not a trump or a marriage half.
H8  Closed phase, leading: lead the most valuable sure winner (the best unseen card of its suit
    is lower), trumps first; without one, the cheapest card.
H9  Closed phase, following (forced by X10 anyway): the cheapest card that wins, else the
    cheapest card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.engine.sixtysix.actions import Action, Bid, Close, Draw, Exchange, LeadMarriage, Pass, PlayCard
from games.engine.sixtysix.bots.base import TARGET, duty, legal, must_move, without_declare
from games.engine.sixtysix.bots.knowledge import know
from games.engine.sixtysix.cards import Card, parse_card
from games.engine.sixtysix.rules import SixtySixRules
from games.engine.sixtysix.view import PlayerView


class HeuristicBot:
    """Rules of thumb H1-H9 (module doc). Deterministic; reads only the view."""

    def __init__(self, rules: SixtySixRules, name: str = "heuristic") -> None:
        self.rules = rules
        self.name = name

    def act(self, view: PlayerView) -> Action | None:
        actions = legal(view)
        chosen = duty(view, actions)  # H1
        if chosen is not None or not must_move(actions):
            return chosen
        return choose(view, self.rules, without_declare(actions))


def choose(
    view: PlayerView, rules: SixtySixRules, actions: list[Action], forgotten: Iterable[Card] = ()
) -> Action:
    """H2-H9 on the non-declaration actions ``actions`` (not empty). Played cards in ``forgotten``
    are not remembered: they may still seem to be out, which makes fewer cards look sure."""
    if len(actions) == 1:
        return actions[0]
    me = view.seat
    trump = view.trump_suit
    hand = [parse_card(n) for n in view.hand]
    unseen = know(view, rules, forgotten).unseen

    def is_trump(c: Card) -> bool:
        return c.suit.value == trump

    def paired(c: Card) -> bool:
        return c.partner is not None and c.partner in hand

    def sure(c: Card) -> bool:
        return not any(u.suit is c.suit and u.strength > c.strength for u in unseen)

    passes = [a for a in actions if isinstance(a, Pass)]
    if any(isinstance(a, Bid) for a in actions):
        return passes[0]  # H2
    for a in actions:
        if isinstance(a, Exchange):
            return a  # H3
    close = next((a for a in actions if isinstance(a, Close)), None)
    if close is not None and _close_estimate(hand, view.points[me], is_trump, sure) >= TARGET:
        return close  # H4
    draw = next((a for a in actions if isinstance(a, Draw)), None)
    if draw is not None:
        return draw
    marriages = [a for a in actions if isinstance(a, LeadMarriage)]
    if marriages:  # H5
        marriages.sort(key=lambda a: (not is_trump(a.card), a.card.rank.value != "Q"))
        return marriages[0]
    plays = [a for a in actions if isinstance(a, PlayCard)]
    closed = view.closed_by is not None or view.trump_card is None
    if view.lead_card is None:
        if closed:  # H8
            winners = [a for a in plays if sure(a.card)]
            if winners:
                return max(winners, key=lambda a: (is_trump(a.card), a.card.value))
            return min(plays, key=lambda a: (a.card.value, is_trump(a.card)))
        # H6
        return min(plays, key=lambda a: (is_trump(a.card), paired(a.card), a.card.value, a.card.index))
    led = parse_card(view.lead_card)

    def wins(c: Card) -> bool:
        if c.suit is led.suit:
            return c.strength > led.strength
        return is_trump(c)

    winners = [a for a in plays if wins(a.card)]
    if closed:  # H9
        if winners:
            return min(winners, key=lambda a: (a.card.value, a.card.index))
        return min(plays, key=lambda a: (a.card.value, a.card.index))
    # H7
    if winners:
        cheapest = min(winners, key=lambda a: (is_trump(a.card), a.card.value, a.card.index))
        if not is_trump(led) and led.value >= 10:
            return cheapest
        if view.points[me] + led.value + cheapest.card.value >= TARGET:
            return cheapest
        high_plain = [a for a in winners if not is_trump(a.card) and a.card.value >= 10]
        if high_plain:
            return max(high_plain, key=lambda a: a.card.value)
    return min(plays, key=lambda a: (is_trump(a.card), paired(a.card), a.card.value, a.card.index))


def _close_estimate(
    hand: list[Card], points: int, it: Callable[[Card], bool], su: Callable[[Card], bool]
) -> float:
    """H4: points now plus what the hand should surely take after closing."""
    estimate = float(points)
    trumps = sorted((c for c in hand if it(c)), key=lambda c: -c.strength)
    for c in trumps:
        if not su(c):
            break
        estimate += c.value + 4  # the card and, on average, what the opponent must put under it
    for c in hand:
        if not it(c) and c.rank.value == "A":
            estimate += 0.6 * (c.value + 4)
    return estimate
