"""The rules of play of the 66 family (rules/snapszer.md X4-X31): new_hand, legal_actions, apply.

A hand is ``rules + deal + actions``: :func:`new_hand` deals from a recorded shuffled order (X5),
:func:`apply` folds one action into a new state and reports public events. Both seats may have
legal actions at once (a declaration under ``declare_when = any_time``, X25; the two passes after
the last trick, X24a), so there is no single "player to move": ask :func:`legal_actions` per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.sixtysix.actions import (
    Action,
    Bid,
    Close,
    Declare,
    Draw,
    Exchange,
    LeadMarriage,
    Pass,
    PlayCard,
)
from games.engine.sixtysix.cards import ALL_CARDS, Card, Rank, card, deck, is_pack
from games.engine.sixtysix.events import (
    BidMade,
    CardPlayed,
    CardsDrawn,
    Declared,
    Event,
    HandEnded,
    LastTrickBonus,
    MarriagePointsCounted,
    MarriageShown,
    Passed,
    TalonClosed,
    TrickWon,
    TrumpCardTaken,
    TrumpExchanged,
)
from games.engine.sixtysix.rules import (
    CloseJudged,
    DeclareWhen,
    EqualPoints,
    FailedCloseThreeIf,
    MarriageLead,
    MarriageScoring,
    NobodyDeclares,
    SixtySixRules,
    WrongDeclaration,
)
from games.engine.sixtysix.state import (
    ClosingSnapshot,
    ExchangeRecord,
    HandResult,
    MarriageRecord,
    Phase,
    Reason,
    Seat,
    SixtySixState,
    Trick,
)


class InvalidDeal(ValueError):
    """A deal that is not a shuffle of the profile's pack, or a bad dealer seat."""


_DECLARE_TARGET: Final = 66
_LAST_TRICK_BONUS: Final = 10


# Enum members read on the hot path, bound once: a module global is cheaper than a class attribute.
_LEAD: Final = Phase.LEAD
_FOLLOW: Final = Phase.FOLLOW
_DRAW_PHASE: Final = Phase.DRAW
_AFTER_LAST: Final = Phase.AFTER_LAST
_BIDDING: Final = Phase.BIDDING
_OVER: Final = Phase.OVER
_AUTOMATIC: Final = DeclareWhen.AUTOMATIC
_ANY_TIME: Final = DeclareWhen.ANY_TIME
_KING: Final = Rank.KING
_new_trick = tuple.__new__  # builds a Trick without the named tuple's Python-level __new__


def new_hand(rules: SixtySixRules, deal: Sequence[Card], dealer: Seat) -> SixtySixState:
    """Deal one hand (X5) from ``deal``, the shuffled pack in order, by ``dealer`` (0 or 1).

    24 cards: 3 to the non-dealer, 3 to the dealer, 3 and 3 again, the next card face up as trump
    (X6), the rest the stock, top first. 20 cards: 3, 3, the trump card, 2, 2, the stock. The
    non-dealer leads (X6); with a bid (X31) the hand starts with the non-dealer's bid or pass.
    Raises InvalidDeal if ``deal`` is not exactly the profile's pack or ``dealer`` is not 0 or 1.
    """
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise InvalidDeal(f"dealer must be seat 0 or 1, not {dealer!r}")
    deal = tuple(deal)
    if not is_pack(deal, rules.deck_size):
        pack = deck(rules.deck_size)
        missing = sorted(c.name for c in set(pack) - set(deal))
        extra = sorted(c.name for c in set(deal) - set(pack))
        raise InvalidDeal(
            f"the deal must hold each of the {len(pack)} cards once (got {len(deal)} cards; "
            f"missing {missing or 'none'}, not in this pack {extra or 'none'})"
        )
    nd = 1 - dealer
    if rules.deck_size == 24:
        nd_cards = deal[0:3] + deal[6:9]
        d_cards = deal[3:6] + deal[9:12]
        trump = deal[12]
        stock = deal[13:]
    else:
        nd_cards = deal[0:3] + deal[7:9]
        d_cards = deal[3:6] + deal[9:11]
        trump = deal[6]
        stock = deal[11:]
    hands = (nd_cards, d_cards) if nd == 0 else (d_cards, nd_cards)
    bidding = rules.bid_points is not None
    return SixtySixState(
        rules=rules,
        dealer=dealer,
        trump_suit=trump.suit,
        hands=hands,
        stock=stock,
        trump_card=trump,
        closing=None,
        phase=_BIDDING if bidding else _LEAD,
        leader=nd,
        lead_card=None,
        lead_marriage=False,
        tricks=(),
        card_points=(0, 0),
        trick_counts=(0, 0),
        marriage_points=(0, 0),
        pending_marriage=(0, 0),
        marriages=(),
        exchanges=(),
        bonus=(0, 0),
        bidder=None,
        bid_turn=nd if bidding else None,
        passed=(False, False),
        result=None,
    )


# --- legal actions ----------------------------------------------------------------------------


def may_declare(state: SixtySixState, seat: Seat) -> bool:
    """X24-X26, X31: whether ``seat`` may declare 66 now (right or wrong)."""
    when = state.rules.declare_when
    if when is _AUTOMATIC:
        return False
    phase = state.phase
    if phase is _OVER or phase is _BIDDING or state.bidder is not None:
        return False
    if when is _ANY_TIME:
        if phase is _AFTER_LAST:
            return not state.passed[seat]
        return True
    # X26: after winning a trick until playing to the next one, or after leading from a marriage.
    if phase is _LEAD or phase is _DRAW_PHASE:
        return seat == state.leader and bool(state.tricks)
    if phase is _FOLLOW:
        return seat == state.leader and state.lead_marriage
    # AFTER_LAST: the winner of the last trick, until they pass.
    return seat == state.tricks[-1].winner and not state.passed[seat]


# Shared action values: legal_actions() hands these out instead of building new ones, which keeps
# it cheap for search bots; equal actions built by callers compare equal all the same.
_PLAY: Final = tuple(tuple(PlayCard(seat, c) for c in ALL_CARDS) for seat in (0, 1))
_MARRY: Final = tuple(tuple(LeadMarriage(seat, c) for c in ALL_CARDS) for seat in (0, 1))
_EXCHANGE: Final = (Exchange(0), Exchange(1))
_CLOSE: Final = (Close(0), Close(1))
_DRAW: Final = (Draw(0), Draw(1))
_DECLARE: Final = (Declare(0), Declare(1))
_BID: Final = (Bid(0), Bid(1))
_PASS: Final = (Pass(0), Pass(1))


def _lead_actions(state: SixtySixState, seat: Seat) -> list[Action]:
    rules = state.rules
    hand = state.hands[seat]
    tricks_played = len(state.tricks)
    talon_open = state.closing is None and state.trump_card is not None
    acts: list[Action] = []
    if talon_open:
        size = len(state.stock) + 1
        # X13-X14: exchange before closing or leading.
        if (
            size >= rules.min_talon_exchange
            and (tricks_played or not rules.exchange_needs_trick)
            and card(rules.exchange_rank, state.trump_suit) in hand
        ):
            acts.append(_EXCHANGE[seat])
        # X19: close while the talon is open and holds the minimum.
        min_close = rules.min_talon_close
        if min_close is not None and size >= min_close and (tricks_played or rules.close_at_trick_1):
            acts.append(_CLOSE[seat])
    plays = _PLAY[seat]
    acts += [plays[c.index] for c in hand]
    # X15, X18: marriages.
    if (tricks_played or rules.marriage_at_trick_1) and (talon_open or rules.marriage_after_close):
        marry = _MARRY[seat]
        queen_too = rules.marriage_lead is MarriageLead.K_OR_Q
        for c in hand:
            if c.rank is _KING:
                queen = c.partner
                if queen in hand:
                    acts.append(marry[c.index])
                    if queen_too and queen is not None:
                        acts.append(marry[queen.index])
    return acts


def follow_cards(state: SixtySixState, hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may follow ``state.lead_card`` (X7 open phase, X10 closed phase)."""
    led = state.lead_card
    if led is None or (state.closing is None and state.trump_card is not None):
        return list(hand)
    suit = led.suit
    same = [c for c in hand if c.suit is suit]
    if same:
        higher = [c for c in same if c.strength > led.strength]
        return higher or same
    trumps = [c for c in hand if c.suit is state.trump_suit]
    return trumps or list(hand)


def legal_actions(state: SixtySixState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now; empty when it has none (or the hand is over).

    Raises InvalidAction (code ``no_such_seat``) unless ``seat`` is 0 or 1.
    """
    if seat not in (0, 1):
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"seat must be 0 or 1, not {seat!r}")
    phase = state.phase
    if phase is _LEAD:
        acts = _lead_actions(state, seat) if seat == state.leader else []
    elif phase is _FOLLOW:
        if seat == state.leader:
            acts = []
        else:
            plays = _PLAY[seat]
            acts = [plays[c.index] for c in follow_cards(state, state.hands[seat])]
    elif phase is _DRAW_PHASE:
        acts = [_DRAW[seat], _CLOSE[seat]] if seat == state.leader else []
    elif phase is _AFTER_LAST:
        return [_DECLARE[seat], _PASS[seat]] if may_declare(state, seat) else []
    elif phase is _BIDDING:
        return [_BID[seat], _PASS[seat]] if seat == state.bid_turn else []
    else:
        return []
    if may_declare(state, seat):
        acts.append(_DECLARE[seat])
    return acts


def seats_to_act(state: SixtySixState) -> tuple[Seat, ...]:
    """The seats that have at least one legal action now (none once the hand is over).

    Cheaper than calling :func:`legal_actions` for both seats; the seat whose turn it is in the
    ordinary sense comes first.
    """
    phase = state.phase
    if state.rules.declare_when is _AUTOMATIC and (phase is _LEAD or phase is _FOLLOW):
        # nobody declares: one seat acts (the common case of search, kept cheap)
        return (1 - state.leader,) if phase is _FOLLOW else (state.leader,)
    if phase is _OVER:
        return ()
    if phase is _BIDDING:
        return () if state.bid_turn is None else (state.bid_turn,)
    if phase is _AFTER_LAST:
        return tuple(seat for seat in (0, 1) if may_declare(state, seat))
    first = 1 - state.leader if phase is _FOLLOW else state.leader
    if may_declare(state, 1 - first):
        return (first, 1 - first)
    return (first,)


# --- apply ------------------------------------------------------------------------------------


def apply(state: SixtySixState, action: Action) -> tuple[SixtySixState, list[Event]]:
    """The state after ``action`` and the public events it caused; ``state`` is not changed.

    Raises IllegalAction with code ``game_over`` (the hand has ended), ``not_your_turn`` (the seat
    has no legal action now) or ``not_legal`` (the seat may act, but not like this), and
    InvalidAction (``no_such_seat``) for a seat other than 0 or 1.
    """
    seat = action.seat
    if seat not in (0, 1):
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"seat must be 0 or 1, not {seat!r}")
    if not _is_legal(state, action):
        legal = legal_actions(state, seat)
        if state.phase is _OVER:
            raise IllegalAction(ActionCode.GAME_OVER, f"{action} after the hand ended")
        if not legal:
            raise IllegalAction(
                ActionCode.NOT_YOUR_TURN, f"{action}: seat {seat} has nothing to do in phase {state.phase}"
            )
        raise IllegalAction(ActionCode.NOT_LEGAL, f"{action} in phase {state.phase}")
    new = state.copy()
    events: list[Event] = []
    if isinstance(action, PlayCard):
        if state.phase is _LEAD:
            _lead(new, seat, action.card, False, events)
        else:
            _follow(new, seat, action.card, events)
    elif isinstance(action, LeadMarriage):
        _lead(new, seat, action.card, True, events)
    elif isinstance(action, Declare):
        _declare(new, seat, events)
    elif isinstance(action, Exchange):
        _exchange(new, seat, events)
    elif isinstance(action, Close):
        _close(new, seat, events)
    elif isinstance(action, Draw):
        _draw(new, events)
        new.phase = _LEAD
    elif isinstance(action, Pass):
        _pass(new, seat, events)
    else:  # Bid
        new.bidder = seat
        new.bid_turn = None
        new.phase = _LEAD
        events.append(BidMade(seat))
    return new, events


def _is_legal(state: SixtySixState, action: Action) -> bool:
    """Whether ``action`` is in legal_actions(state, action.seat), with a fast path for card plays."""
    if type(action) is PlayCard:
        phase = state.phase
        seat = action.seat
        if phase is _LEAD:
            return seat == state.leader and action.card in state.hands[seat]
        if phase is _FOLLOW:
            if seat == state.leader:
                return False
            if state.closing is None and state.trump_card is not None:
                return action.card in state.hands[seat]  # X7: any card in the open phase
            return action.card in follow_cards(state, state.hands[seat])
        return False
    return action in legal_actions(state, action.seat)


def _set(pair: tuple[int, int], seat: Seat, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _remove(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    return tuple([x for x in hand if x is not c])


def _lead(s: SixtySixState, seat: Seat, c: Card, marriage: bool, events: list[Event]) -> None:
    trick_no = len(s.tricks) + 1
    if marriage:
        # X15: 20, 40 in trumps; X16: when it counts.
        value = 40 if c.suit is s.trump_suit else 20
        scoring = s.rules.marriage_scoring
        counted = scoring is MarriageScoring.IMMEDIATE or (
            scoring is MarriageScoring.AFTER_A_TRICK and s.trick_counts[seat] > 0
        )
        if counted:
            s.marriage_points = _set(s.marriage_points, seat, s.marriage_points[seat] + value)
        else:
            s.pending_marriage = _set(s.pending_marriage, seat, s.pending_marriage[seat] + value)
        s.marriages = (*s.marriages, MarriageRecord(seat, c.suit, value, trick_no))
        events.append(MarriageShown(seat, c.suit.value, value, counted))
    h0, h1 = s.hands
    if seat == 0:
        s.hands = (tuple([x for x in h0 if x is not c]), h1)
    else:
        s.hands = (h0, tuple([x for x in h1 if x is not c]))
    s.lead_card = c
    s.lead_marriage = marriage
    s.phase = _FOLLOW
    events.append(CardPlayed(seat, c, trick_no))


def _follow(s: SixtySixState, seat: Seat, c: Card, events: list[Event]) -> None:
    led = s.lead_card
    assert led is not None  # FOLLOW phase always has a card led
    leader = s.leader
    trick_no = len(s.tricks) + 1
    h0, h1 = s.hands
    if seat == 0:
        h0 = tuple([x for x in h0 if x is not c])
    else:
        h1 = tuple([x for x in h1 if x is not c])
    s.hands = (h0, h1)
    # X8: the higher card of the suit led wins; a trump beats any non-trump.
    if c.suit is led.suit:
        winner = seat if c.strength > led.strength else leader
    else:
        winner = seat if c.suit is s.trump_suit else leader
    gained = led.value + c.value
    cp0, cp1 = s.card_points
    tc0, tc1 = s.trick_counts
    if winner == 0:
        s.card_points = (cp0 + gained, cp1)
        s.trick_counts = (tc0 + 1, tc1)
    else:
        s.card_points = (cp0, cp1 + gained)
        s.trick_counts = (tc0, tc1 + 1)
    s.tricks = (*s.tricks, _new_trick(Trick, (leader, led, c, winner)))
    s.lead_card = None
    s.lead_marriage = False
    s.leader = winner
    events.append(CardPlayed(seat, c, trick_no))
    events.append(TrickWon(winner, trick_no, gained))
    # X16: waiting marriage points count once the declarer wins a trick.
    waiting = s.pending_marriage[winner]
    if waiting:
        s.marriage_points = _set(s.marriage_points, winner, s.marriage_points[winner] + waiting)
        s.pending_marriage = _set(s.pending_marriage, winner, 0)
        events.append(MarriagePointsCounted(winner, waiting))
    last = not s.hands[0] and not s.hands[1]
    rules = s.rules
    # X31: a bid hand ends at the bidder's first lost trick, or when the bidder takes the last one.
    if s.bidder is not None:
        bid = rules.bid_points or 0
        if winner != s.bidder:
            _end(s, winner, bid, Reason.BID_LOST, "the bidder lost a trick", events)
            return
        if last:
            _end(s, winner, bid, Reason.BID_WON, "the bidder won every trick", events)
            return
    if last and s.closing is None and rules.nobody_declares is NobodyDeclares.LAST_TRICK_BONUS_10:
        # X28: +10 for the last trick, never after a close; it counts toward 66.
        s.bonus = _set(s.bonus, winner, _LAST_TRICK_BONUS)
        events.append(LastTrickBonus(winner, _LAST_TRICK_BONUS))
    if rules.declare_when is _AUTOMATIC and s.points(winner) >= _DECLARE_TARGET:
        # X24 exception (schnapsen-lite): the hand ends when a trick's winner reaches 66.
        _end(s, winner, _table(s, 1 - winner), Reason.REACHED_66, "the trick's winner reached 66", events)
        return
    if last:
        s.phase = _AFTER_LAST
        if not (may_declare(s, 0) or may_declare(s, 1)):
            _nobody_declared(s, events)
        return
    s.phase = _LEAD
    if s.closing is None and s.trump_card is not None:
        min_close = rules.min_talon_close
        if rules.close_before_draw and min_close is not None and len(s.stock) + 1 >= min_close:
            s.phase = _DRAW_PHASE  # X11: the winner may close instead of drawing
        else:
            _draw(s, events)


def _draw(s: SixtySixState, events: list[Event]) -> None:
    """X9: the trick's winner draws the top card, then the loser the next (or the face-up trump)."""
    first = s.leader
    second = 1 - first
    stock = s.stock
    top = stock[0]
    if len(stock) > 1:
        other = stock[1]
        s.stock = stock[2:]
    else:
        trump = s.trump_card
        assert trump is not None  # an open talon always has its face-up card
        other = trump
        s.stock = ()
        s.trump_card = None
    hands = s.hands
    if first == 0:
        s.hands = ((*hands[0], top), (*hands[1], other))
    else:
        s.hands = ((*hands[0], other), (*hands[1], top))
    events.append(CardsDrawn(first, second, len(s.stock) + (s.trump_card is not None)))
    if s.trump_card is None:
        events.append(TrumpCardTaken(second, other))


def _exchange(s: SixtySixState, seat: Seat, events: list[Event]) -> None:
    low = card(s.rules.exchange_rank, s.trump_suit)
    taken = s.trump_card
    assert taken is not None  # legal only while the talon is open
    hands = s.hands
    mine = (*_remove(hands[seat], low), taken)
    s.hands = (mine, hands[1]) if seat == 0 else (hands[0], mine)
    s.trump_card = low
    s.exchanges = (*s.exchanges, ExchangeRecord(seat, low, taken, len(s.tricks) + 1))
    events.append(TrumpExchanged(seat, low, taken))


def _close(s: SixtySixState, seat: Seat, events: list[Event]) -> None:
    other = 1 - seat
    s.closing = ClosingSnapshot(seat, len(s.tricks), s.trick_counts[other], s.measure(other))
    s.phase = _LEAD  # closing from _DRAW_PHASE skips the draw (X11)
    events.append(TalonClosed(seat, len(s.stock) + (s.trump_card is not None)))


def _pass(s: SixtySixState, seat: Seat, events: list[Event]) -> None:
    events.append(Passed(seat))
    if s.phase is _BIDDING:
        # X31: the non-dealer, then the dealer; then play starts.
        if seat != s.dealer:
            s.bid_turn = s.dealer
        else:
            s.bid_turn = None
            s.phase = _LEAD
        return
    s.passed = (True, s.passed[1]) if seat == 0 else (s.passed[0], True)
    if not (may_declare(s, 0) or may_declare(s, 1)):
        _nobody_declared(s, events)


# --- scoring ----------------------------------------------------------------------------------


def _table(s: SixtySixState, loser: Seat, snapshot: ClosingSnapshot | None = None) -> int:
    """X30 on the loser's state now, or as at closing (X20)."""
    if snapshot is not None:
        tricks, measure = snapshot.opponent_tricks, snapshot.opponent_measure
    else:
        tricks, measure = s.trick_counts[loser], s.measure(loser)
    if tricks == 0:
        return 3
    return 2 if measure < 33 else 1


def _failed_close_points(s: SixtySixState) -> int:
    """X21: 2 to the closer's opponent, or 3 per ``failed_close_three_if``."""
    snap = s.closing
    assert snap is not None
    rule = s.rules.failed_close_three_if
    if rule is FailedCloseThreeIf.ALWAYS:
        return 3
    if rule is FailedCloseThreeIf.CLOSED_AT_TRICK_1:
        return 3 if snap.tricks_played == 0 else 2
    return 3 if snap.opponent_tricks == 0 else 2


def _declare(s: SixtySixState, seat: Seat, events: list[Event]) -> None:
    """X20-X22, X24-X27: judge a declaration on the state at this moment."""
    other = 1 - seat
    points = s.points(seat)
    correct = points >= _DECLARE_TARGET
    events.append(Declared(seat, points, correct))
    snap = s.closing
    if correct:
        if snap is None:
            _end(s, seat, _table(s, other), Reason.DECLARED, f"declared 66 with {points}", events)
        elif snap.closer == seat:
            judged = snap if s.rules.close_judged is CloseJudged.AT_CLOSING else None
            _end(
                s,
                seat,
                _table(s, other, judged),
                Reason.DECLARED,
                f"the closer declared 66 with {points}",
                events,
            )
        else:
            _end(
                s,
                seat,
                _failed_close_points(s),
                Reason.FAILED_CLOSE,
                "the closer's opponent declared 66 first",
                events,
            )
        return
    if snap is not None and snap.closer == seat:
        _end(s, other, _failed_close_points(s), Reason.FAILED_CLOSE, "the closer declared wrongly", events)
        return
    # X27 (and X22 when the closer's opponent declares wrongly).
    award = 2 if s.rules.wrong_declaration is WrongDeclaration.TWO or s.trick_counts[other] else 3
    _end(s, other, award, Reason.WRONG_DECLARATION, f"declared with only {points}", events)


def _nobody_declared(s: SixtySixState, events: list[Event]) -> None:
    """X21, X28-X29: all tricks played and nobody declared (or all passed)."""
    snap = s.closing
    if snap is not None:
        _end(
            s,
            1 - snap.closer,
            _failed_close_points(s),
            Reason.FAILED_CLOSE,
            "the closer did not declare",
            events,
        )
        return
    rules = s.rules
    last_winner = s.tricks[-1].winner
    if rules.nobody_declares is NobodyDeclares.LAST_TRICK_WINS_1:
        _end(s, last_winner, 1, Reason.LAST_TRICK, "nobody declared; the last trick wins", events)
        return
    if rules.nobody_declares is NobodyDeclares.MORE_CARD_POINTS:
        a, b = s.card_points
    else:
        a, b = s.measure(0), s.measure(1)
    if a == b:
        if rules.equal_points is EqualPoints.POT:
            _end(s, None, 0, Reason.TIE_POT, f"equal at {a}: 1 game point into the pot", events)
        else:
            _end(s, None, 0, Reason.DRAW, f"equal at {a}: a draw, the same dealer deals again", events)
        return
    winner = 0 if a > b else 1
    _end(
        s,
        winner,
        _table(s, 1 - winner),
        Reason.MORE_POINTS,
        f"nobody declared; {max(a, b)} to {min(a, b)}",
        events,
    )


def _end(  # noqa: PLR0917 (private helper; every call passes all six)
    s: SixtySixState, winner: Seat | None, game_points: int, reason: Reason, detail: str, events: list[Event]
) -> None:
    s.result = HandResult(
        winner=winner,
        game_points=game_points,
        reason=reason,
        detail=detail,
        points=(s.points(0), s.points(1)),
        card_points=s.card_points,
        tricks=s.trick_counts,
    )
    s.phase = _OVER
    events.append(HandEnded(s.result))


def replay(
    rules: SixtySixRules, deal: Sequence[Card], dealer: Seat, actions: Sequence[Action]
) -> SixtySixState:
    """The state after dealing and applying ``actions`` in order. Raises IllegalAction, InvalidDeal."""
    state = new_hand(rules, deal, dealer)
    for action in actions:
        state, _ = apply(state, action)
    return state


__all__ = [
    "InvalidDeal",
    "apply",
    "follow_cards",
    "legal_actions",
    "may_declare",
    "new_hand",
    "replay",
    "seats_to_act",
]
