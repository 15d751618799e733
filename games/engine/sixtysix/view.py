"""observe() and spectate(): what one seat, or a spectator, may know (rules/snapszer.md; ARCHITECTURE
"one view per seat").

The table shows the trump suit and the face-up trump card (a closed talon's trump card was seen
face up, so it stays known), the talon size, every card played so far and who won each trick (a
player may remember them), the marriages shown, the trump exchanges, and both scores: with every
trick face up on the table and every marriage shown, both scores are public knowledge. That is the
spectator's view (:class:`TableView`). A seat's view (:class:`PlayerView`) adds its own hand and
its legal actions. Neither ever holds a hidden hand card (a hand is only counted) or the stock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.sixtysix.engine import legal_actions
from games.engine.sixtysix.state import ExchangeRecord, HandResult, MarriageRecord, Seat, SixtySixState, Trick


@dataclass(frozen=True, slots=True)
class Table:
    """What the table shows of a hand (see the module doc): the part every view shares."""

    dealer: Seat
    profile: str
    phase: str
    trump_suit: str
    trump_card: str | None  # the card under the stock, while it is there
    talon_size: int
    closed_by: Seat | None
    closed_after_tricks: int | None  # tricks played when the talon was closed (X19): public
    leader: Seat
    lead_card: str | None  # the card led to the unfinished trick
    lead_marriage: bool
    tricks: tuple[Trick, ...]
    marriages: tuple[MarriageRecord, ...]
    exchanges: tuple[ExchangeRecord, ...]  # both cards lay face up: who took which trump card
    points: tuple[int, int]  # card points + counted marriages + last-trick bonus, per seat
    card_points: tuple[int, int]
    trick_counts: tuple[int, int]
    pending_marriage: tuple[int, int]
    bidder: Seat | None
    bid_turn: Seat | None
    passed: tuple[bool, bool]
    result: HandResult | None

    def table_dict(self) -> dict[str, Any]:
        """The JSON form of the table."""
        return {
            "dealer": self.dealer,
            "profile": self.profile,
            "phase": self.phase,
            "trump_suit": self.trump_suit,
            "trump_card": self.trump_card,
            "talon_size": self.talon_size,
            "closed_by": self.closed_by,
            "closed_after_tricks": self.closed_after_tricks,
            "leader": self.leader,
            "lead_card": self.lead_card,
            "lead_marriage": self.lead_marriage,
            "tricks": [t.to_dict() for t in self.tricks],
            "marriages": [m.to_dict() for m in self.marriages],
            "exchanges": [e.to_dict() for e in self.exchanges],
            "points": list(self.points),
            "card_points": list(self.card_points),
            "trick_counts": list(self.trick_counts),
            "pending_marriage": list(self.pending_marriage),
            "bidder": self.bidder,
            "bid_turn": self.bid_turn,
            "passed": list(self.passed),
            "result": None if self.result is None else self.result.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class PlayerView(Table):
    """One seat's view of a hand: the table, the seat's own hand, the opponent's hand size and the
    seat's legal actions. ``to_dict()`` is the form sent to clients."""

    seat: Seat
    hand: tuple[str, ...]
    opponent_hand_size: int
    legal_actions: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "opponent_hand_size": self.opponent_hand_size,
            **self.table_dict(),
            "legal_actions": list(self.legal_actions),
        }


@dataclass(frozen=True, slots=True)
class TableView(Table):
    """What a spectator sees of a hand: the table, both hands only counted. ``to_dict()`` is the
    form sent to clients."""

    hand_sizes: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": None, "hand_sizes": list(self.hand_sizes), **self.table_dict()}


def _table(state: SixtySixState) -> dict[str, Any]:
    """The fields of :class:`Table` for ``state``."""
    closing = state.closing
    return {
        "dealer": state.dealer,
        "profile": state.rules.name,
        "phase": state.phase.value,
        "trump_suit": state.trump_suit.value,
        "trump_card": None if state.trump_card is None else state.trump_card.name,
        "talon_size": state.talon_size,
        "closed_by": None if closing is None else closing.closer,
        "closed_after_tricks": None if closing is None else closing.tricks_played,
        "leader": state.leader,
        "lead_card": None if state.lead_card is None else state.lead_card.name,
        "lead_marriage": state.lead_marriage,
        "tricks": state.tricks,
        "marriages": state.marriages,
        "exchanges": state.exchanges,
        "points": (state.points(0), state.points(1)),
        "card_points": state.card_points,
        "trick_counts": state.trick_counts,
        "pending_marriage": state.pending_marriage,
        "bidder": state.bidder,
        "bid_turn": state.bid_turn,
        "passed": state.passed,
        "result": state.result,
    }


def observe(state: SixtySixState, seat: Seat) -> PlayerView:
    """Everything ``seat`` may know, nothing more. The only engine object sent to clients."""
    return PlayerView(
        seat=seat,
        hand=tuple(sorted(c.name for c in state.hands[seat])),
        opponent_hand_size=len(state.hands[1 - seat]),
        legal_actions=tuple(a.to_dict() for a in legal_actions(state, seat)),
        **_table(state),
    )


def spectate(state: SixtySixState) -> TableView:
    """What a spectator sees: the table, never a hand card or the stock."""
    return TableView(hand_sizes=(len(state.hands[0]), len(state.hands[1])), **_table(state))
