"""Events: what happened, for logs and clients. Every event is public (both seats may see it):
no event names a card that is still face down or hidden in a hand.

Events are fresh objects owned by the caller of apply(); they are plain (not frozen) slotted
dataclasses only because frozen ones cost four times as much to build, and apply() is on the hot
path of search bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.engine.sixtysix.cards import Card

if TYPE_CHECKING:
    from games.engine.sixtysix.state import HandResult


@dataclass(slots=True)
class BidMade:
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bid_made", "seat": self.seat}


@dataclass(slots=True)
class Passed:
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "passed", "seat": self.seat}


@dataclass(slots=True)
class TrumpExchanged:
    """X13-X14: ``given`` (the trump 9 or J) now lies face up; ``taken`` went to the seat's hand."""

    seat: int
    given: Card
    taken: Card

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "trump_exchanged",
            "seat": self.seat,
            "given": self.given.name,
            "taken": self.taken.name,
        }


@dataclass(slots=True)
class TalonClosed:
    seat: int
    talon_size: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "talon_closed", "seat": self.seat, "talon_size": self.talon_size}


@dataclass(slots=True)
class MarriageShown:
    """X15-X16: ``counted`` says whether the points count now or wait (X16)."""

    seat: int
    suit: str
    points: int
    counted: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "marriage_shown",
            "seat": self.seat,
            "suit": self.suit,
            "points": self.points,
            "counted": self.counted,
        }


@dataclass(slots=True)
class MarriagePointsCounted:
    """X16: waiting marriage points now count (the seat won a trick)."""

    seat: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "marriage_points_counted", "seat": self.seat, "points": self.points}


@dataclass(slots=True)
class CardPlayed:
    seat: int
    card: Card
    trick: int  # 1-based number of the trick the card is played to

    def to_dict(self) -> dict[str, Any]:
        return {"type": "card_played", "seat": self.seat, "card": self.card.name, "trick": self.trick}


@dataclass(slots=True)
class TrickWon:
    seat: int
    trick: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "trick_won", "seat": self.seat, "trick": self.trick, "points": self.points}


@dataclass(slots=True)
class CardsDrawn:
    """X9: ``first`` drew, then ``second``; the cards themselves are private (see observe())."""

    first: int
    second: int
    talon_size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "cards_drawn",
            "first": self.first,
            "second": self.second,
            "talon_size": self.talon_size,
        }


@dataclass(slots=True)
class TrumpCardTaken:
    """X9: the face-up trump card went to ``seat`` with the last draw (it was public)."""

    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "trump_card_taken", "seat": self.seat, "card": self.card.name}


@dataclass(slots=True)
class LastTrickBonus:
    """X28 (`sixty-six`, `santase`): +10 for the last trick."""

    seat: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "last_trick_bonus", "seat": self.seat, "points": self.points}


@dataclass(slots=True)
class Declared:
    seat: int
    points: int
    correct: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "declared", "seat": self.seat, "points": self.points, "correct": self.correct}


@dataclass(slots=True)
class HandEnded:
    result: HandResult

    def to_dict(self) -> dict[str, Any]:
        return {"type": "hand_ended", "result": self.result.to_dict()}


Event = (
    BidMade
    | Passed
    | TrumpExchanged
    | TalonClosed
    | MarriageShown
    | MarriagePointsCounted
    | CardPlayed
    | TrickWon
    | CardsDrawn
    | TrumpCardTaken
    | LastTrickBonus
    | Declared
    | HandEnded
)
