"""Actions of the 66 family: plain frozen values, one class per kind of input.

Every action names the ``seat`` (0 or 1) that makes it. :func:`action_from_dict` reads the
``to_dict()`` form back (the web layer's wire format).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.sixtysix.cards import Card, parse_card


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Lead (X7, X12: a K or Q may be led plain) or follow with ``card``."""

    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card.name}


@dataclass(frozen=True, slots=True)
class LeadMarriage:
    """X15: show K and Q of ``card``'s suit and lead ``card`` (the K, or the Q where the profile allows)."""

    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "marriage", "seat": self.seat, "card": self.card.name}


@dataclass(frozen=True, slots=True)
class Exchange:
    """X13: swap the trump 9 (J with 20 cards) in hand for the face-up trump card."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "exchange", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Close:
    """X19: close the talon (with ``close_before_draw``, also instead of drawing, X11)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "close", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Draw:
    """X11 with ``close_before_draw``: the trick's winner chooses to draw rather than close."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Declare:
    """X24: declare 66 (ends the hand at once, right or wrong)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "declare", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Bid:
    """X31 (`snapszer-hu`): bid Snapszer, undertaking to win every trick."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bid", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: no bid (X31), or no declaration after the last trick (X24a; final)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


Action = PlayCard | LeadMarriage | Exchange | Close | Draw | Declare | Bid | Pass

_SIMPLE: dict[str, type[Exchange | Close | Draw | Declare | Bid | Pass]] = {
    "exchange": Exchange,
    "close": Close,
    "draw": Draw,
    "declare": Declare,
    "bid": Bid,
    "pass": Pass,
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """The action a ``to_dict()`` form describes. Raises ValueError on a malformed form."""
    kind = data.get("type")
    seat = data.get("seat")
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    if kind in ("play", "marriage"):
        card_name = data.get("card")
        if not isinstance(card_name, str):
            raise ValueError(f"a {kind} action needs a card name, not {card_name!r}")
        the_card = parse_card(card_name)
        return PlayCard(seat, the_card) if kind == "play" else LeadMarriage(seat, the_card)
    if isinstance(kind, str) and kind in _SIMPLE:
        return _SIMPLE[kind](seat)
    raise ValueError(f"unknown action type {kind!r}; known: play, marriage, {', '.join(_SIMPLE)}")
