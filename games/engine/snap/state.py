"""The Snap state: a value that holds what the rules still need, and nothing of the game's past
beyond that.

Representation (chosen for speed and exact cycle detection): a seat's personal cards are one
tuple ``cs[seat]`` in flip order — the face-up pile reversed, then the face-down pile — and
``ks[seat]`` is the size of the face-up pile. So the face-up pile (top first, S23) is
``reversed(cs[seat][:k])`` and the face-down pile is ``cs[seat][k:]``; a flip is ``k + 1`` and a
plain recycle (S9) is ``k = 0``: between calls only the ``ks`` and the seat on turn change.

A state is a value: ``apply`` never mutates one, and a state refers to no other state. Besides the
table it keeps two bounded pieces of the past (docs/snap-engine.md, "The state as a value"):

- the **call window**: the table of each of the last ``CALL_WINDOW`` states, so that a call can be
  judged on the state its caller saw (S14, S15); an older ``seq`` is stale;
- the **cycle history** since the last resolved call (S29), reduced to the states a first repeat
  can return to (``ending.py`` proves which).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

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


CALL_WINDOW: Final = 32
"""How many states back a call may answer: a call on ``seq`` is judged when ``state.seq - seq <=
CALL_WINDOW`` and refused as stale before that (docs/snap-engine.md gives the reading)."""

Board = tuple[tuple[int, ...], ...]
Table = tuple[
    int, Board, tuple[int, ...], tuple[bool, ...], tuple[Pool, ...], tuple[int, ...], int, int | None
]
"""One state of the call window: ``(seq, cs, ks, active, pools, central, central_hidden,
last_flipper)``, everything a call is judged on (``calls.claim_holds``, ``calls.candidates``,
S35's flips-only check)."""

type Node = tuple[
    Board,
    tuple[int, ...],
    tuple[bool, ...],
    tuple[Pool, ...],
    tuple[int, ...],
    int,
    int | None,
    Node | None,
    int,
]
"""How the window is kept: ``(cs, ks, active, pools, central, central_hidden, last_flipper, parent,
depth)``, a table linked to the one before it. Every input adds one, so it is a plain tuple (the
cheapest value to build) and adding one copies nothing. The links run in *segments* of at most
``CALL_WINDOW`` nodes (``depth`` counts from 1 at a segment's first node, whose ``parent`` is None):
a state keeps its current segment and the full one before it, so it always holds the last
``CALL_WINDOW`` tables and never more than twice that."""

CycleKey = tuple[int | None, tuple[int, ...], Board]
"""A state as S29 compares it within one history: ``(turn, ks, cs)``. Pools, the centre and the
active seats never change between resolved calls without a seat leaving (feed_pool), after which
no earlier state can come back, so the key leaves them out."""


_new_state = object.__new__


class SnapState:
    """One moment of a Snap game. Treat every attribute as read-only.

    Public attributes: ``rules``, ``deck``, ``n`` (seats), ``dealer``, ``deal`` (the recorded deck
    order, S22) and ``seed`` (the seed it was dealt from, None for a recorded deal), ``seq``,
    ``cs``/``ks`` (see the module doc), ``flip_no`` (per seat, the flip number of its face-up top),
    ``pools``, ``central`` / ``central_hidden`` (single_pile: the central pile top first, and how
    many cards at its bottom lie face down), ``active``, ``last_flipper``, ``turn`` (None in speed
    or at the end), ``flips``, ``eliminations`` (groups), ``wrong_calls`` (per seat), ``cap_seat``
    / ``cap_round`` / ``cap_pos`` (S30 counting), ``result``.

    Private: ``_window`` (the newest node, see ``Node``) and ``_window_before`` (the last node of
    the segment before) hold the call window; ``_anchor`` and ``_recycled`` the cycle history's
    targets (``ending.py``).
    """

    __slots__ = (
        "_anchor",
        "_recycled",
        "_window",
        "_window_before",
        "active",
        "cap_pos",
        "cap_round",
        "cap_seat",
        "central",
        "central_hidden",
        "cs",
        "deal",
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
        "seed",
        "seq",
        "turn",
        "wrong_calls",
    )

    rules: SnapRules
    deck: Deck
    keys: tuple[int, ...]
    n: int
    dealer: int
    deal: Deal
    seed: bytes | None
    seq: int
    cs: Board
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
    _window: Node | None
    _window_before: Node | None
    _anchor: CycleKey | None
    _recycled: tuple[CycleKey, ...]

    def clone(self) -> SnapState:
        """The next state's starting point: a shallow copy whose call window also holds this
        state's table (the caller then sets ``seq`` and what changes). Written out field by field:
        every input makes one, so it is the engine's hottest code."""
        new = _new_state(SnapState)
        new.rules = self.rules
        new.deck = self.deck
        new.keys = self.keys
        new.n = self.n
        new.dealer = self.dealer
        new.deal = self.deal
        new.seed = self.seed
        new.seq = self.seq
        new.cs = cs = self.cs
        new.ks = ks = self.ks
        new.flip_no = self.flip_no
        new.pools = pools = self.pools
        new.next_pool_id = self.next_pool_id
        new.central = central = self.central
        new.central_hidden = hidden = self.central_hidden
        new.active = active = self.active
        new.last_flipper = last_flipper = self.last_flipper
        new.turn = self.turn
        new.flips = self.flips
        new.eliminations = self.eliminations
        new.wrong_calls = self.wrong_calls
        new.cap_seat = self.cap_seat
        new.cap_round = self.cap_round
        new.cap_pos = self.cap_pos
        new.result = self.result
        new._anchor = self._anchor
        new._recycled = self._recycled
        head = self._window
        if head is not None and head[8] < CALL_WINDOW:
            new._window = (cs, ks, active, pools, central, hidden, last_flipper, head, head[8] + 1)
            new._window_before = self._window_before
        else:  # a new segment; the full one (or None at the start) is kept as the one before
            new._window = (cs, ks, active, pools, central, hidden, last_flipper, None, 1)
            new._window_before = head
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

    # The call window ---------------------------------------------------------------------------

    def window(self) -> list[Table]:
        """The tables of the states a call may still answer besides this one, oldest first
        (the last ``CALL_WINDOW`` states, fewer at the start of a game)."""
        tables: list[Table] = []
        node, before = self._window, self._window_before
        seq = self.seq
        while len(tables) < CALL_WINDOW:
            if node is None:
                if before is None:
                    break
                node, before = before, None
            seq -= 1
            tables.append((seq, *node[:7]))
            node = node[7]
        tables.reverse()
        return tables

    def with_window(self, tables: list[Table]) -> None:
        """Set the call window of a state being built (``snapshot.from_snapshot``): ``tables`` are
        the last states' tables, oldest first, the newest at ``seq - 1``."""
        node: Node | None = None
        for depth, table in enumerate(tables[-CALL_WINDOW:], 1):
            _seq, cs, ks, active, pools, central, hidden, last_flipper = table
            node = (cs, ks, active, pools, central, hidden, last_flipper, node, depth)
        self._window = node
        self._window_before = None

    def at_seq(self, seq: int) -> SnapState | None:
        """The table a call on ``seq`` is judged on: this state, or a state of the call window
        rebuilt from its table (its piles, pools, centre, active seats and last flipper are as
        they were; read it, never ``apply`` to it). None when ``seq`` is in the future, negative,
        or older than the window (stale)."""
        if seq == self.seq:
            return self
        if not self.seq - CALL_WINDOW <= seq < self.seq or seq < 0:
            return None
        steps = self.seq - seq  # 1 for the state before this one
        node = self._window
        assert node is not None
        if steps > node[8]:  # in the segment before
            steps -= node[8]
            node = self._window_before
            assert node is not None
        for _ in range(steps - 1):
            node = node[7]
            assert node is not None
        seen = self.clone()
        seen.seq = seq
        seen.cs, seen.ks, seen.active, seen.pools, seen.central, seen.central_hidden = node[:6]
        seen.last_flipper = node[6]
        seen.result = None
        seen._window = seen._window_before = None
        seen._anchor = None
        seen._recycled = ()
        return seen

    def __repr__(self) -> str:
        return f"SnapState(seq={self.seq}, flips={self.flips}, turn={self.turn}, result={self.result})"
