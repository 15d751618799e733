"""What a seat knows about the hidden cards, read from its :class:`PlayerView` alone, and worlds
(full states) sampled consistently with it.

A bot never sees a state: it rebuilds the public part of one from ``observe()`` and fills the
hidden part (the opponent's hand, the face-down stock) by sampling. A sampled world is consistent
with everything the seat has seen:

- every card played (the tricks, the card led now), its own hand and the face-up trump card are
  not hidden;
- a marriage shown by the opponent puts its unplayed card in the opponent's hand, and so does an
  exchange: the face-up trump card the opponent took is in their hand until they play it;
- in the closed phase (X10; talon closed or exhausted) a follower who did not follow suit has no
  card of that suit, one who played neither suit nor trump has no trump either, and one who
  followed below the card led has no higher card of that suit. Nothing is drawn in that phase, so
  what the opponent lacked then it still lacks.

The view says how many tricks had been played when the talon was closed, so the closed phase and
X20's closing snapshot are rebuilt exactly, `close_before_draw` (`sixty-six`) included.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from games.engine.cards import Suit
from games.engine.sixtysix.cards import Card, deck, parse_card
from games.engine.sixtysix.rules import LoserMeasure, MarriageScoring, SixtySixRules
from games.engine.sixtysix.state import ClosingSnapshot, Phase, SixtySixState
from games.engine.sixtysix.view import PlayerView


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden cards as one seat sees them.

    ``unseen`` are the cards that are in the opponent's hand or the face-down stock;
    ``opponent_known`` those of them certainly in the opponent's hand; ``opponent_excluded`` those
    that cannot be there (they must be in the stock).
    """

    seat: int
    unseen: frozenset[Card]
    opponent_known: frozenset[Card]
    opponent_excluded: frozenset[Card]
    opponent_hand_size: int
    stock_size: int


def closed_phase_start(view: PlayerView, rules: SixtySixRules) -> int | None:
    """The number of tricks played before the closed phase began (X10), or None while the talon
    is open. Each open-phase trick draws two cards, so the talon's size tells when it closed."""
    if view.closed_after_tricks is not None:
        return view.closed_after_tricks
    if view.trump_card is None:
        return rules.talon_size // 2
    return None


def know(view: PlayerView, rules: SixtySixRules, forget: Iterable[Card] = ()) -> Knowledge:
    """What ``view.seat`` knows about the hidden cards. Cards in ``forget`` (played cards a weak
    player does not remember) are treated as unseen and give no inference."""
    forgotten = frozenset(forget)
    me = view.seat
    opp = 1 - me
    hand = {parse_card(n) for n in view.hand}
    played: set[Card] = set()
    for t in view.tricks:
        played.add(t.lead)
        played.add(t.follow)
    if view.lead_card is not None:
        played.add(parse_card(view.lead_card))
    visible = hand | played
    if view.trump_card is not None:
        visible.add(parse_card(view.trump_card))
    visible -= forgotten
    unseen = frozenset(c for c in deck(rules.deck_size) if c not in visible)

    known: set[Card] = {e.taken for e in view.exchanges if e.seat == opp and e.taken in unseen}
    for m in view.marriages:
        if m.seat == opp:
            for c in unseen:
                if c.suit is m.suit and c.rank.value in ("K", "Q") and c not in forgotten:
                    known.add(c)

    excluded: set[Card] = set()
    start = closed_phase_start(view, rules)
    if start is not None:
        trump = view.trump_suit
        for t in view.tricks[start:]:
            if t.leader != me or t.lead in forgotten or t.follow in forgotten:
                continue
            led, f = t.lead, t.follow
            for c in unseen:
                if f.suit is not led.suit:
                    if c.suit is led.suit or (f.suit.value != trump and c.suit.value == trump):
                        excluded.add(c)
                elif f.strength < led.strength and c.suit is led.suit and c.strength > led.strength:
                    excluded.add(c)
    stock_size = 0 if view.trump_card is None else view.talon_size - 1
    return Knowledge(
        seat=me,
        unseen=unseen,
        opponent_known=frozenset(known - excluded),
        opponent_excluded=frozenset(excluded - known),
        opponent_hand_size=view.opponent_hand_size,
        stock_size=stock_size,
    )


def sample_hidden(knowledge: Knowledge, rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A uniformly random (opponent hand, stock top first) consistent with ``knowledge``.

    Uniform over all consistent placements: the known cards go to the opponent, the excluded to
    the stock, and the opponent's other cards are a uniform choice among the rest. When forgotten
    cards make the pool larger than the places, the surplus is left out of the world.
    """
    k = knowledge
    known = sorted(k.opponent_known, key=_key)
    free = sorted(k.unseen - k.opponent_known - k.opponent_excluded, key=_key)
    must_stock = sorted(k.opponent_excluded, key=_key)
    rng.shuffle(free)
    need = max(0, k.opponent_hand_size - len(known))
    opp = known[: k.opponent_hand_size] + free[:need]
    if len(opp) < k.opponent_hand_size:  # inconsistent memory: top up from the stock-only cards
        extra = k.opponent_hand_size - len(opp)
        opp += must_stock[:extra]
        must_stock = must_stock[extra:]
    rest = free[need:] + must_stock
    rng.shuffle(rest)
    return tuple(opp), tuple(rest[: k.stock_size])


def _key(c: Card) -> int:
    return c.index


def closing_snapshot(view: PlayerView, rules: SixtySixRules) -> ClosingSnapshot | None:
    """X20/X21's snapshot of the closer's opponent at the moment of closing, rebuilt from the tricks
    and marriages in the view (they are public)."""
    closer = view.closed_by
    if closer is None:
        return None
    start = view.closed_after_tricks
    assert start is not None  # set together with closed_by
    other = 1 - closer
    before = view.tricks[:start]
    tricks = sum(1 for t in before if t.winner == other)
    measure = sum(t.lead.value + t.follow.value for t in before if t.winner == other)
    if rules.loser_measure is LoserMeasure.POINTS:
        for m in view.marriages:
            if m.seat != other or m.trick > start:
                continue
            if rules.marriage_scoring is MarriageScoring.IMMEDIATE or tricks:
                measure += m.points
    return ClosingSnapshot(closer, start, tricks, measure)


def world(
    view: PlayerView, rules: SixtySixRules, opponent_hand: tuple[Card, ...], stock: tuple[Card, ...]
) -> SixtySixState:
    """The full state the view describes, with the hidden cards as given (a determinization)."""
    me = view.seat
    mine = tuple(parse_card(n) for n in view.hand)
    hands = (mine, opponent_hand) if me == 0 else (opponent_hand, mine)
    phase = Phase(view.phase)
    bonus = (0, 0)
    if phase is Phase.AFTER_LAST:
        extra = tuple(view.points[s] - view.card_points[s] for s in (0, 1))
        # X28's +10 is the only thing besides marriages in the points; marriages are multiples of 20.
        bonus = (10 if extra[0] % 20 == 10 else 0, 10 if extra[1] % 20 == 10 else 0)
    marriage_points = (
        view.points[0] - view.card_points[0] - bonus[0],
        view.points[1] - view.card_points[1] - bonus[1],
    )
    trump_card = None if view.trump_card is None else parse_card(view.trump_card)
    return SixtySixState(
        rules=rules,
        dealer=view.dealer,
        trump_suit=Suit(view.trump_suit),
        hands=hands,
        stock=stock,
        trump_card=trump_card,
        closing=closing_snapshot(view, rules),
        phase=phase,
        leader=view.leader,
        lead_card=None if view.lead_card is None else parse_card(view.lead_card),
        lead_marriage=view.lead_marriage,
        tricks=view.tricks,
        card_points=view.card_points,
        trick_counts=view.trick_counts,
        marriage_points=marriage_points,
        pending_marriage=view.pending_marriage,
        marriages=view.marriages,
        exchanges=view.exchanges,
        bonus=bonus,
        bidder=view.bidder,
        bid_turn=view.bid_turn,
        passed=view.passed,
        result=view.result,
    )


def sample_world(
    view: PlayerView, rules: SixtySixRules, rng: random.Random, forget: Iterable[Card] = ()
) -> SixtySixState:
    """One determinization of ``view``: :func:`world` with hidden cards from :func:`sample_hidden`."""
    opp, stock = sample_hidden(know(view, rules, forget), rng)
    return world(view, rules, opp, stock)
