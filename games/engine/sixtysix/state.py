"""The state of one hand of the 66 family, and a hand's result.

A state is a value: :func:`games.engine.sixtysix.engine.apply` returns a new one and never mutates
its input, so callers (and search bots) may keep old states. The fields are plain and cheap to copy
(tuples of shared card singletons); treat them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from games.engine.cards import Suit
from games.engine.sixtysix.cards import Card
from games.engine.sixtysix.rules import LoserMeasure, SixtySixRules

Seat = int  # 0 or 1


class Phase(StrEnum):
    BIDDING = "bidding"  # X31: non-dealer, then dealer, bid or pass
    LEAD = "lead"  # the leader exchanges, closes, leads (X11)
    FOLLOW = "follow"  # the other seat plays to the card led
    DRAW = "draw"  # close_before_draw (X11): the trick's winner draws or closes
    AFTER_LAST = "after_last"  # X24a: last trick played, declare or pass
    OVER = "over"


class Reason(StrEnum):
    """Why a hand ended the way it did."""

    DECLARED = "declared"  # a correct declaration of 66 (X24, X20)
    WRONG_DECLARATION = "wrong_declaration"  # X27, X22
    FAILED_CLOSE = "failed_close"  # X21
    REACHED_66 = "reached_66"  # X24 exception: schnapsen-lite's automatic end
    LAST_TRICK = "last_trick"  # X28: the last trick wins 1
    MORE_POINTS = "more_points"  # X28: more (card) points wins, by the table
    TIE_POT = "tie_pot"  # X29: equal, 1 game point into the pot
    DRAW = "draw"  # X29: equal, the same dealer deals again
    BID_WON = "bid_won"  # X31
    BID_LOST = "bid_lost"  # X31


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of one hand. ``winner`` is None for a tie (TIE_POT, DRAW); ``game_points`` excludes
    any pot (the match fold adds it, X29)."""

    winner: Seat | None
    game_points: int
    reason: Reason
    detail: str
    points: tuple[int, int]  # card points + counted marriages (+ last-trick bonus) per seat
    card_points: tuple[int, int]
    tricks: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "game_points": self.game_points,
            "reason": self.reason.value,
            "detail": self.detail,
            "points": list(self.points),
            "card_points": list(self.card_points),
            "tricks": list(self.tricks),
        }


class Trick(NamedTuple):
    """A completed trick: ``leader`` led ``lead``, the other seat played ``follow``.

    Tricks, marriage records and the closing snapshot are named tuples: immutable and cheap to build.
    """

    leader: Seat
    lead: Card
    follow: Card
    winner: Seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "lead": self.lead.name,
            "follow": self.follow.name,
            "winner": self.winner,
        }


class MarriageRecord(NamedTuple):
    """A marriage shown (public: both cards were shown). ``trick`` is the 1-based trick it led to."""

    seat: Seat
    suit: Suit
    points: int
    trick: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "suit": self.suit.value, "points": self.points, "trick": self.trick}


class ExchangeRecord(NamedTuple):
    """X13/X14: a trump exchange (public: both cards lay face up). ``seat`` gave ``given`` (the 9 or
    J of trumps) and took ``taken``, the face-up trump card, before trick ``trick`` (1-based)."""

    seat: Seat
    given: Card
    taken: Card
    trick: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "given": self.given.name, "taken": self.taken.name, "trick": self.trick}


class ClosingSnapshot(NamedTuple):
    """X20/X21: what is judged "at the moment of closing"."""

    closer: Seat
    tricks_played: int
    opponent_tricks: int
    opponent_measure: int  # by the profile's loser_measure

    def to_dict(self) -> dict[str, Any]:
        return {
            "closer": self.closer,
            "tricks_played": self.tricks_played,
            "opponent_tricks": self.opponent_tricks,
            "opponent_measure": self.opponent_measure,
        }


@dataclass(slots=True, eq=False)
class SixtySixState:
    """One hand in progress (or over). Read-only by contract: the engine copies, never mutates.

    ``stock`` is the face-down part of the talon, top first; ``trump_card`` the face-up card under
    it (None once taken, X9). ``leader`` is the seat on lead, or that led the unfinished trick
    (``lead_card``), or that must draw or close in Phase.DRAW. ``closing`` is set once the talon is
    closed (X19).
    """

    rules: SixtySixRules
    dealer: Seat
    trump_suit: Suit
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]
    trump_card: Card | None
    closing: ClosingSnapshot | None
    phase: Phase
    leader: Seat
    lead_card: Card | None
    lead_marriage: bool
    tricks: tuple[Trick, ...]
    card_points: tuple[int, int]
    trick_counts: tuple[int, int]
    marriage_points: tuple[int, int]  # counted
    pending_marriage: tuple[int, int]  # shown but waiting (X16)
    marriages: tuple[MarriageRecord, ...]
    exchanges: tuple[ExchangeRecord, ...]
    bonus: tuple[int, int]  # X28 last-trick bonus
    bidder: Seat | None
    bid_turn: Seat | None
    passed: tuple[bool, bool]
    result: HandResult | None

    def copy(self) -> SixtySixState:
        """A shallow copy (all fields are immutable values)."""
        return SixtySixState(
            self.rules,
            self.dealer,
            self.trump_suit,
            self.hands,
            self.stock,
            self.trump_card,
            self.closing,
            self.phase,
            self.leader,
            self.lead_card,
            self.lead_marriage,
            self.tricks,
            self.card_points,
            self.trick_counts,
            self.marriage_points,
            self.pending_marriage,
            self.marriages,
            self.exchanges,
            self.bonus,
            self.bidder,
            self.bid_turn,
            self.passed,
            self.result,
        )

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def talon_size(self) -> int:
        """Face-down cards plus the face-up trump card (the "Words" of the rules)."""
        return len(self.stock) + (self.trump_card is not None)

    @property
    def talon_open(self) -> bool:
        """Not closed and not exhausted (at least one face-down card and the trump)."""
        return self.closing is None and self.trump_card is not None

    @property
    def tricks_played(self) -> int:
        return len(self.tricks)

    def points(self, seat: Seat) -> int:
        """Card points plus counted marriages plus any last-trick bonus (the "Words" of the rules)."""
        return self.card_points[seat] + self.marriage_points[seat] + self.bonus[seat]

    def measure(self, seat: Seat) -> int:
        """``seat``'s state by the profile's ``loser_measure`` (X20, X28-X30)."""
        if self.rules.loser_measure is LoserMeasure.CARD_POINTS:
            return self.card_points[seat]
        return self.points(seat)

    def all_cards(self) -> list[Card]:
        """Every card of the pack in its one place: hands, stock, trump card, table, tricks."""
        cards = [*self.hands[0], *self.hands[1], *self.stock]
        if self.trump_card is not None:
            cards.append(self.trump_card)
        if self.lead_card is not None:
            cards.append(self.lead_card)
        for t in self.tricks:
            cards += (t.lead, t.follow)
        return cards
