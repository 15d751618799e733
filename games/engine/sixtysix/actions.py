"""Actions of the 66 family: plain frozen values, one class per kind of input.

Every action names the ``seat`` (0 or 1) that makes it. :func:`action_from_dict` reads the
``to_dict()`` form back (the web layer's wire format) and refuses anything else as
:class:`~games.engine.errors.InvalidAction`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from games.engine.errors import ActionCode, InvalidAction
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

_SIMPLE: Final[dict[str, type[Exchange | Close | Draw | Declare | Bid | Pass]]] = {
    "exchange": Exchange,
    "close": Close,
    "draw": Draw,
    "declare": Declare,
    "bid": Bid,
    "pass": Pass,
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of ``action`` (the same as ``action.to_dict()``), read back by :func:`action_from_dict`."""
    return action.to_dict()


_CARD_KINDS: Final[dict[str, type[PlayCard | LeadMarriage]]] = {"play": PlayCard, "marriage": LeadMarriage}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The action a ``to_dict()`` form describes.

    Raises InvalidAction: ``no_such_seat`` for a whole number that is not seat 0 or 1, ``malformed``
    for anything else that is not exactly a ``to_dict()`` form (not a mapping, an unknown type, a
    seat that is not a whole number, a missing or unknown card, a key the type does not have).
    A card of the 24-card pack that the game's pack lacks (a 9 in a 20-card game) parses; apply()
    refuses it, as it refuses any card the seat does not hold.
    """
    if not isinstance(data, Mapping):
        raise InvalidAction(ActionCode.MALFORMED, f"an action is a mapping, not {type(data).__name__}")
    kind = data.get("type")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidAction(ActionCode.MALFORMED, f"seat must be 0 or 1, not {seat!r}")
    if seat not in (0, 1):
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"seat must be 0 or 1, not {seat!r}")
    if isinstance(kind, str) and kind in _CARD_KINDS:
        _only_keys(data, kind, ("type", "seat", "card"))
        card_name = data.get("card")
        if not isinstance(card_name, str):
            raise InvalidAction(ActionCode.MALFORMED, f"a {kind} action needs a card name, not {card_name!r}")
        try:
            the_card = parse_card(card_name)
        except ValueError as exc:
            raise InvalidAction(ActionCode.MALFORMED, str(exc)) from None
        return _CARD_KINDS[kind](seat, the_card)
    if isinstance(kind, str) and kind in _SIMPLE:
        _only_keys(data, kind, ("type", "seat"))
        return _SIMPLE[kind](seat)
    raise InvalidAction(
        ActionCode.MALFORMED,
        f"unknown action type {kind!r}; known: {', '.join(_CARD_KINDS)}, {', '.join(_SIMPLE)}",
    )


def _only_keys(data: Mapping[str, Any], kind: str, keys: tuple[str, ...]) -> None:
    extra = set(data) - set(keys)
    if extra:
        raise InvalidAction(ActionCode.MALFORMED, f"a {kind} action has no {sorted(map(str, extra))}")
