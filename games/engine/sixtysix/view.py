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
class PlayerView:
    """One seat's view of a hand. ``to_dict()`` is the form sent to clients."""

    seat: Seat
    dealer: Seat
    profile: str
    phase: str
    hand: tuple[str, ...]
    opponent_hand_size: int
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
    legal_actions: tuple[dict[str, Any], ...]
    result: HandResult | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "opponent_hand_size": self.opponent_hand_size,
            **_table_dict(self),
            "legal_actions": list(self.legal_actions),
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """What a spectator sees of a hand: the table (see the module doc), both hands only counted.
    ``to_dict()`` is the form sent to clients."""

    dealer: Seat
    profile: str
    phase: str
    hand_sizes: tuple[int, int]
    trump_suit: str
    trump_card: str | None
    talon_size: int
    closed_by: Seat | None
    closed_after_tricks: int | None
    leader: Seat
    lead_card: str | None
    lead_marriage: bool
    tricks: tuple[Trick, ...]
    marriages: tuple[MarriageRecord, ...]
    exchanges: tuple[ExchangeRecord, ...]
    points: tuple[int, int]
    card_points: tuple[int, int]
    trick_counts: tuple[int, int]
    pending_marriage: tuple[int, int]
    bidder: Seat | None
    bid_turn: Seat | None
    passed: tuple[bool, bool]
    result: HandResult | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": None, "hand_sizes": list(self.hand_sizes), **_table_dict(self)}


def _table(state: SixtySixState) -> dict[str, Any]:
    """The fields both views share: everything on the table."""
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


def _table_dict(view: PlayerView | TableView) -> dict[str, Any]:
    """The JSON form of the fields both views share."""
    return {
        "dealer": view.dealer,
        "profile": view.profile,
        "phase": view.phase,
        "trump_suit": view.trump_suit,
        "trump_card": view.trump_card,
        "talon_size": view.talon_size,
        "closed_by": view.closed_by,
        "closed_after_tricks": view.closed_after_tricks,
        "leader": view.leader,
        "lead_card": view.lead_card,
        "lead_marriage": view.lead_marriage,
        "tricks": [t.to_dict() for t in view.tricks],
        "marriages": [m.to_dict() for m in view.marriages],
        "exchanges": [e.to_dict() for e in view.exchanges],
        "points": list(view.points),
        "card_points": list(view.card_points),
        "trick_counts": list(view.trick_counts),
        "pending_marriage": list(view.pending_marriage),
        "bidder": view.bidder,
        "bid_turn": view.bid_turn,
        "passed": list(view.passed),
        "result": None if view.result is None else view.result.to_dict(),
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
