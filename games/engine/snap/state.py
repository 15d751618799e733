"""The Snap state and the per-seat view.

Representation (chosen for speed and exact cycle detection): a seat's personal cards are one
tuple ``cs[seat]`` in flip order — the face-up pile reversed, then the face-down pile — and
``ks[seat]`` is the size of the face-up pile. So the face-up pile (top first, S23) is
``reversed(cs[seat][:k])`` and the face-down pile is ``cs[seat][k:]``; a flip is ``k + 1`` and a
plain recycle (S9) is ``k = 0``: between calls only the ``ks`` and the seat on turn change.

A state is a value: ``apply`` never mutates one (the private cycle history is shared copy-on-branch
and only ever extended by the state at its tip). Each state keeps a link to the one before it so
that a call can be judged on the state its caller saw (S14, S15).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.snap.decks import Deck
from games.engine.snap.events import SnapResult
from games.engine.snap.rules import SnapRules


@dataclass(frozen=True, slots=True)
class Pool:
    """A pool (S6): stable ``id`` (creation order), cards top first."""

    id: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance input of S22: ``players`` seats and the shuffled deck order (card names)."""

    players: int
    order: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "order": list(self.order)}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Deal:
        return Deal(int(data["players"]), tuple(data["order"]))


class History:
    """States seen since the last resolved call (S29), as exact keys ``(config, turn, ks)``.

    ``configs`` numbers the distinct arrangements of everything a flip does not change (the
    sequences ``cs``, pools, centre, active seats) seen in this history, so a key is exact, not a
    hash. ``tip`` is the seq of the newest state recorded: only that state may extend this object
    in place; any other state copies it first (copy-on-branch).
    """

    __slots__ = ("configs", "seen", "tip")

    def __init__(self) -> None:
        self.seen: dict[tuple[Any, ...], int] = {}
        self.configs: dict[tuple[Any, ...], int] = {}
        self.tip = -1

    def branch(self, upto: int) -> History:
        """A copy holding only the entries up to seq ``upto``."""
        copy = History()
        copy.seen = {key: seq for key, seq in self.seen.items() if seq <= upto}
        copy.configs = dict(self.configs)
        copy.tip = upto
        return copy


class SnapState:
    """One moment of a Snap game. Treat every attribute as read-only.

    Public attributes: ``rules``, ``deck``, ``n`` (seats), ``dealer``, ``seq``, ``cs``/``ks`` (see
    the module doc), ``flip_no`` (per seat, the flip number of its face-up top), ``pools``,
    ``central`` / ``central_hidden`` (single_pile: the central pile top first, and how many cards at
    its bottom lie face down), ``active``, ``last_flipper``, ``turn`` (None in speed or at the end),
    ``flips``, ``eliminations`` (groups), ``wrong_calls`` (per seat), ``cap_seat`` /
    ``cap_round`` / ``cap_pos`` (S30 counting), ``result``.
    """

    __slots__ = (
        "_config",
        "_hist",
        "_prev",
        "active",
        "cap_pos",
        "cap_round",
        "cap_seat",
        "central",
        "central_hidden",
        "cs",
        "dealer",
        "deck",
        "eliminations",
        "flip_no",
        "flips",
        "keys",
        "ks",
        "last_flipper",
        "n",
        "next_pool_id",
        "pools",
        "result",
        "rules",
        "seq",
        "turn",
        "wrong_calls",
    )

    rules: SnapRules
    deck: Deck
    keys: tuple[int, ...]
    n: int
    dealer: int
    seq: int
    cs: tuple[tuple[int, ...], ...]
    ks: tuple[int, ...]
    flip_no: tuple[int, ...]
    pools: tuple[Pool, ...]
    next_pool_id: int
    central: tuple[int, ...]
    central_hidden: int
    active: tuple[bool, ...]
    last_flipper: int | None
    turn: int | None
    flips: int
    eliminations: tuple[tuple[int, ...], ...]
    wrong_calls: tuple[int, ...]
    cap_seat: int | None
    cap_round: int
    cap_pos: int
    result: SnapResult | None
    _hist: History
    _config: int
    _prev: SnapState | None

    def clone(self) -> SnapState:
        """A shallow copy whose predecessor is ``self`` (the caller then sets what changes)."""
        new = SnapState.__new__(SnapState)
        new.rules = self.rules
        new.deck = self.deck
        new.keys = self.keys
        new.n = self.n
        new.dealer = self.dealer
        new.seq = self.seq
        new.cs = self.cs
        new.ks = self.ks
        new.flip_no = self.flip_no
        new.pools = self.pools
        new.next_pool_id = self.next_pool_id
        new.central = self.central
        new.central_hidden = self.central_hidden
        new.active = self.active
        new.last_flipper = self.last_flipper
        new.turn = self.turn
        new.flips = self.flips
        new.eliminations = self.eliminations
        new.wrong_calls = self.wrong_calls
        new.cap_seat = self.cap_seat
        new.cap_round = self.cap_round
        new.cap_pos = self.cap_pos
        new.result = self.result
        new._hist = self._hist
        new._config = self._config
        new._prev = self
        return new

    # Readable accessors (top first, S23) -------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    def faceup(self, seat: int) -> tuple[int, ...]:
        """``seat``'s face-up pile, top first (card indices)."""
        return tuple(reversed(self.cs[seat][: self.ks[seat]]))

    def facedown(self, seat: int) -> tuple[int, ...]:
        """``seat``'s face-down pile, top first (card indices)."""
        return self.cs[seat][self.ks[seat] :]

    def top(self, seat: int) -> int | None:
        """The top card of ``seat``'s face-up pile, or None."""
        k = self.ks[seat]
        return self.cs[seat][k - 1] if k else None

    def card_count(self, seat: int) -> int:
        """S17/S20: personal cards (both piles)."""
        return len(self.cs[seat])

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it lies (for invariants)."""
        cards = [c for seq in self.cs for c in seq]
        for pool in self.pools:
            cards.extend(pool.cards)
        cards.extend(self.central)
        return cards

    def at_seq(self, seq: int) -> SnapState | None:
        """The state numbered ``seq`` on this state's line, or None if there is none."""
        state: SnapState | None = self
        while state is not None and state.seq > seq:
            state = state._prev
        return state if state is not None and state.seq == seq else None

    def __repr__(self) -> str:
        return f"SnapState(seq={self.seq}, flips={self.flips}, turn={self.turn}, result={self.result})"
