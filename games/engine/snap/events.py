"""What happened: the events ``apply`` returns, plain dataclasses with ``to_dict()``.

Treat them as read-only. They are not declared frozen only because frozen dataclasses pay for
``object.__setattr__`` on every field, and ``apply`` makes one per flip (see benchmarks/).

Every event carries the ``seq`` of the state it produced. No event ever names a face-down card:
cards appear only as they are flipped (``Flipped.card``) or as the visible top of a pool
(``PoolCreated.top``, ``PoolGrown.top``); captures and recycles give counts only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, ClassVar


class EndReason(StrEnum):
    """S21: how a game ended."""

    LAST_PLAYER = "last_player"  # S18
    NOBODY_LEFT = "nobody_left"  # S19: a draw
    DEAD_STATE = "dead_state"  # S20.1, adjudicated
    CYCLE = "cycle"  # S20.2 / S29, adjudicated
    CAP = "cap"  # S20.3 / S30, adjudicated


@dataclass(frozen=True, slots=True)
class SnapResult:
    """S21/S28: winner (None = draw), how the game ended, elimination order and placings.

    ``placings[seat]`` uses competition ranking (1, 2, 2, 4). ``elimination_order`` lists the
    groups of seats eliminated by the same input, first group first. ``cards[seat]`` counts the
    personal cards each seat held at the end (used at adjudication). ``wrong_calls[seat]`` counts
    the seat's wrong calls in the game (S42 uses them in a series' sudden death).
    """

    winner: int | None
    ended_by: EndReason
    adjudicated: bool
    elimination_order: tuple[tuple[int, ...], ...]
    placings: tuple[int, ...]
    cards: tuple[int, ...]
    wrong_calls: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "ended_by": str(self.ended_by),
            "adjudicated": self.adjudicated,
            "elimination_order": [list(group) for group in self.elimination_order],
            "placings": list(self.placings),
            "cards": list(self.cards),
            "wrong_calls": list(self.wrong_calls),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> SnapResult:
        """Inverse of ``to_dict``. Raises KeyError, TypeError or ValueError on another shape."""
        winner = data["winner"]
        return SnapResult(
            winner=None if winner is None else int(winner),
            ended_by=EndReason(data["ended_by"]),
            adjudicated=bool(data["adjudicated"]),
            elimination_order=tuple(tuple(int(s) for s in group) for group in data["elimination_order"]),
            placings=tuple(int(p) for p in data["placings"]),
            cards=tuple(int(c) for c in data["cards"]),
            wrong_calls=tuple(int(w) for w in data["wrong_calls"]),
        )


class Event:
    """Base of all events: ``type`` names the event in ``to_dict()``."""

    __slots__ = ()
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for key, value in asdict(self).items():  # type: ignore[call-overload]
            data[key] = _plain(value)
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class Flipped(Event):
    """S8: ``seat`` turned ``card`` face up (``flip`` is the game's flip count after it)."""

    type: ClassVar[str] = "flip"
    seq: int
    seat: int
    card: str
    flip: int


@dataclass(slots=True)
class Recycled(Event):
    """S9: ``seat`` turned its face-up pile of ``cards`` over (``shuffled`` under recycle_shuffle)."""

    type: ClassVar[str] = "recycle"
    seq: int
    seat: int
    cards: int
    shuffled: bool


@dataclass(slots=True)
class Captured(Event):
    """S11/S12/S18/S31/single_pile: ``seat`` put ``cards`` cards under its face-down pile.

    ``kind`` is snap | snap_pool | slap | central | last_player; ``claim`` the claim won (dict);
    ``seats`` whose face-up piles were taken, ``pools`` the pool ids taken, ``extra`` the face-down
    cards taken under ``double`` (included in ``cards``).
    """

    type: ClassVar[str] = "capture"
    seq: int
    seat: int
    kind: str
    claim: dict[str, Any] | None
    seats: tuple[int, ...]
    pools: tuple[int, ...]
    cards: int
    extra: int


@dataclass(slots=True)
class PoolCreated(Event):
    """S6/S13/S14/S9 feed_pool: a new pool (stable ``pool`` id) of ``cards`` cards showing ``top``."""

    type: ClassVar[str] = "pool"
    seq: int
    pool: int
    reason: str  # tie | wrong_call | feed_pool
    seats: tuple[int, ...]
    cards: int
    top: str | None


@dataclass(slots=True)
class PoolGrown(Event):
    """S13 tie on a pool, or pool_mode single: ``added`` cards went on top of ``pool``."""

    type: ClassVar[str] = "pool_grown"
    seq: int
    pool: int
    reason: str
    seats: tuple[int, ...]
    added: int
    cards: int
    top: str | None


@dataclass(slots=True)
class Tied(Event):
    """S13: ``callers`` tied on ``claims``; their piles went to ``pool`` (None: nothing moved)."""

    type: ClassVar[str] = "tie"
    seq: int
    callers: tuple[int, ...]
    claims: tuple[dict[str, Any], ...]
    pool: int | None


@dataclass(slots=True)
class WrongCall(Event):
    """S14: ``caller``'s claim did not hold on the state it saw.

    ``reason``: no_match | nothing_to_claim | wrong_sound; ``penalty``: pool | card | none.
    """

    type: ClassVar[str] = "wrong_call"
    seq: int
    caller: int
    kind: str
    claim: dict[str, Any] | None
    reason: str
    penalty: str


@dataclass(slots=True)
class IgnoredCall(Event):
    """S15/S16/S31: a call without effect. ``reason``: late | flipper | not_active | own_pile |
    not_flipper."""

    type: ClassVar[str] = "ignored_call"
    seq: int
    caller: int
    kind: str
    claim: dict[str, Any] | None
    reason: str


@dataclass(slots=True)
class Eliminated(Event):
    """S17: ``seats`` were eliminated by the same input."""

    type: ClassVar[str] = "eliminated"
    seq: int
    seats: tuple[int, ...]


@dataclass(slots=True)
class CapStarted(Event):
    """S30: the cap was reached; ``extra_rounds`` rounds are counted from the seat after ``seat``."""

    type: ClassVar[str] = "cap"
    seq: int
    seat: int | None
    extra_rounds: int


@dataclass(slots=True)
class GameEnded(Event):
    """S18-S21: the game is over."""

    type: ClassVar[str] = "end"
    seq: int
    reason: EndReason
    winner: int | None
    placings: tuple[int, ...]
    cards: tuple[int, ...]
    elimination_order: tuple[tuple[int, ...], ...]
