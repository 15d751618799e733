"""Snapshots: a Snap state as compact JSON, and back (the engine contract's cache).

A snapshot holds only plain JSON (dicts, lists, strings, whole numbers, booleans, None), cards by
name. ``from_snapshot(to_snapshot(s))`` plays on exactly as ``s`` does: it holds the whole table
and the two bounded pieces of the past a state keeps (``state.py``): the call window and the
cycle history. It holds the face-down cards and the seed: the server's cache, never sent to a
player.

**Layout.** Personal piles, pools and single_pile centres are written once each in ``piles``,
``pools`` and ``centres`` and referred to by position from every table that holds them (the
current one, the history's targets, the window's): between resolved calls every table of the
window holds the same piles, only the face-up counts differ.

**Its bound** (docs/snap-engine.md gives the byte sizes). Every table (the current one and each
of the at most ``CALL_WINDOW`` = 32 in the window) holds each card of the deck once, and a key of
the history holds one table's piles: the card lists are at most ``(1 + 32 + targets)`` times the
deck, whatever the game's length, plus per table a few numbers per seat. The history has one
target (the first settled state) except under ``recycle_shuffle``, where it gains one per recycle
since the last resolved call: at most the flips S30's cap allows, and a handful in practice.

Reading checks the shape and that each table holds every card once, and raises
:class:`InvalidSnapshot` (a ValueError) otherwise: a damaged cache is rebuilt from the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.engine.errors import InvalidRules, InvalidSnapshot
from games.engine.snap.decks import DECKS
from games.engine.snap.events import SnapResult
from games.engine.snap.game import match_keys
from games.engine.snap.rules import SnapRules
from games.engine.snap.state import Board, CycleKey, Deal, Pool, SnapState, Table

VERSION: Final = 1


# --- writing ------------------------------------------------------------------------------------


class _Writer:
    """Numbers each distinct pile, pool and centre in order of first use."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.piles: dict[tuple[int, ...], int] = {}
        self.pools: dict[Pool, int] = {}
        self.centres: dict[tuple[int, ...], int] = {}

    def cards(self, cards: Sequence[int]) -> list[str]:
        names = self.names
        return [names[c] for c in cards]

    def board(self, cs: Board) -> list[int]:
        piles = self.piles
        return [piles.setdefault(pile, len(piles)) for pile in cs]

    def table(self, table: Table) -> list[Any]:
        """``[pile refs, ks, active, pool refs, centre ref, hidden, last_flipper]``."""
        _seq, cs, ks, active, pools, central, hidden, last_flipper = table
        refs = self.pools
        return [
            self.board(cs),
            list(ks),
            list(active),
            [refs.setdefault(pool, len(refs)) for pool in pools],
            self.centres.setdefault(central, len(self.centres)),
            hidden,
            last_flipper,
        ]


def to_snapshot(state: SnapState) -> dict[str, Any]:
    """``state`` as plain JSON (see the module doc)."""
    writer = _Writer(state.deck.cards)
    table = writer.table(_table_of(state))
    anchor = state._anchor
    history = {
        "anchor": None if anchor is None else [anchor[0], list(anchor[1]), writer.board(anchor[2])],
        "recycled": [[turn, list(ks), writer.board(cs)] for turn, ks, cs in state._recycled],
    }
    window = [writer.table(t) for t in state.window()]
    return {
        "format": VERSION,
        "rules": state.rules.to_dict(),
        "seats": state.n,
        "dealer": state.dealer,
        "deal": list(state.deal.order),
        "seed": None if state.seed is None else state.seed.hex(),
        "seq": state.seq,
        "flips": state.flips,
        "turn": state.turn,
        "flip_no": list(state.flip_no),
        "next_pool": state.next_pool_id,
        "eliminations": [list(group) for group in state.eliminations],
        "wrong_calls": list(state.wrong_calls),
        "cap": None if state.cap_seat is None else [state.cap_seat, state.cap_round, state.cap_pos],
        "result": None if state.result is None else state.result.to_dict(),
        "table": table,
        "history": history,
        "window": window,
        "piles": [writer.cards(pile) for pile in writer.piles],
        "pools": [[pool.id, writer.cards(pool.cards)] for pool in writer.pools],
        "centres": [writer.cards(centre) for centre in writer.centres],
    }


def _table_of(state: SnapState) -> Table:
    return (
        state.seq,
        state.cs,
        state.ks,
        state.active,
        state.pools,
        state.central,
        state.central_hidden,
        state.last_flipper,
    )


# --- reading ------------------------------------------------------------------------------------


class _Reader:
    """Turns the numbered piles, pools and centres back into shared tuples."""

    def __init__(self, data: Mapping[str, Any], index: dict[str, int], n: int) -> None:
        self.n = n
        self.piles = [self.cards(pile, index) for pile in _list(data, "piles")]
        self.pools = [Pool(_int(pool[0]), self.cards(pool[1], index)) for pool in _list(data, "pools")]
        self.centres = [self.cards(centre, index) for centre in _list(data, "centres")]
        self.boards: dict[tuple[int, ...], Board] = {}

    @staticmethod
    def cards(names: Any, index: dict[str, int]) -> tuple[int, ...]:
        if not isinstance(names, list):
            raise InvalidSnapshot(f"cards are a list of names, not {names!r}")
        try:
            return tuple(index[name] for name in names)
        except (KeyError, TypeError) as exc:
            raise InvalidSnapshot(f"unknown card {exc.args[0]!r}") from None

    def board(self, refs: Any) -> Board:
        key = tuple(_ints(refs, self.n))
        board = self.boards.get(key)
        if board is None:
            board = self.boards[key] = tuple(self.piles[r] for r in key)
        return board

    def key(self, data: Any) -> CycleKey:
        """A key of the cycle history: ``[turn, ks, pile refs]``."""
        if not isinstance(data, list) or len(data) != 3:
            raise InvalidSnapshot(f"a key of the history is a list of 3, not {data!r}")
        return (_seat_or_none(data[0], self.n), tuple(_ints(data[1], self.n)), self.board(data[2]))

    def table(self, data: Any) -> Table:
        if not isinstance(data, list) or len(data) != 7:
            raise InvalidSnapshot(f"a table is a list of 7, not {data!r}")
        cs_refs, ks, active, pool_refs, centre, hidden, last_flipper = data
        if (
            not isinstance(active, list)
            or len(active) != self.n
            or not all(isinstance(a, bool) for a in active)
        ):
            raise InvalidSnapshot(f"active seats {active!r}")
        return (
            -1,
            self.board(cs_refs),
            tuple(_ints(ks, self.n)),
            tuple(active),
            tuple(self.pools[r] for r in _ints(pool_refs)),
            self.centres[_int(centre)],
            _int(hidden),
            _seat_or_none(last_flipper, self.n),
        )


def from_snapshot(data: Mapping[str, Any]) -> SnapState:
    """The state ``to_snapshot`` wrote. Raises InvalidSnapshot for anything else."""
    try:
        return _read(data)
    except InvalidSnapshot:
        raise
    except (KeyError, IndexError, TypeError, ValueError, InvalidRules) as exc:
        raise InvalidSnapshot(f"not a Snap snapshot: {exc!r}") from None


def _read(data: Mapping[str, Any]) -> SnapState:
    if not isinstance(data, Mapping) or data.get("format") != VERSION:
        raise InvalidSnapshot("not a Snap snapshot of this format")
    rules = SnapRules.from_dict(data["rules"])
    deck = DECKS[rules.deck]
    n = _int(data["seats"])
    index = deck.index()
    reader = _Reader(data, index, n)
    seed = data["seed"]
    state = SnapState.__new__(SnapState)
    state.rules = rules
    state.deck = deck
    state.keys = match_keys(deck, rules.match_key)
    state.n = n
    state.dealer = _int(data["dealer"])
    order = data["deal"]
    if not isinstance(order, list) or sorted(index[name] for name in order) != list(range(deck.size)):
        raise InvalidSnapshot("the deal is not the whole deck")
    state.deal = Deal(n, tuple(order))
    state.seed = None if seed is None else bytes.fromhex(seed)
    state.seq = _int(data["seq"])
    state.flips = _int(data["flips"])
    state.turn = _seat_or_none(data["turn"], n)
    state.flip_no = tuple(_ints(data["flip_no"], n))
    state.next_pool_id = _int(data["next_pool"])
    state.eliminations = tuple(tuple(_ints(group)) for group in _list(data, "eliminations"))
    state.wrong_calls = tuple(_ints(data["wrong_calls"], n))
    cap = data["cap"]
    if cap is None:
        state.cap_seat, state.cap_round, state.cap_pos = None, 0, 0
    else:
        state.cap_seat, state.cap_round, state.cap_pos = _ints(cap, 3)
    result = data["result"]
    state.result = None if result is None else SnapResult.from_dict(result)
    _seq, cs, ks, active, pools, central, hidden, last_flipper = reader.table(data["table"])
    state.cs, state.ks, state.active, state.pools = cs, ks, active, pools
    state.central, state.central_hidden, state.last_flipper = central, hidden, last_flipper
    history = data["history"]
    anchor = history["anchor"]
    state._anchor = None if anchor is None else reader.key(anchor)
    state._recycled = tuple(reader.key(key) for key in history["recycled"])
    tables = [reader.table(t) for t in _list(data, "window")]
    for table in [*tables, _table_of(state)]:
        _check_cards(table, deck.size)
    state.with_window(tables)
    return state


def _check_cards(table: Table, size: int) -> None:
    _seq, cs, ks, _active, pools, central, hidden, _last = table
    cards = [c for pile in cs for c in pile] + [c for pool in pools for c in pool.cards] + list(central)
    if sorted(cards) != list(range(size)):
        raise InvalidSnapshot("a table does not hold every card once")
    if any(not 0 <= k <= len(pile) for k, pile in zip(ks, cs, strict=True)) or not 0 <= hidden <= len(
        central
    ):
        raise InvalidSnapshot("a face-up count is larger than its pile")


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise InvalidSnapshot(f"{key} is a list, not {value!r}")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidSnapshot(f"a whole number, not {value!r}")
    return value


def _ints(values: Any, length: int | None = None) -> list[int]:
    if not isinstance(values, list) or (length is not None and len(values) != length):
        raise InvalidSnapshot(f"a list of {length or 'any number of'} whole numbers, not {values!r}")
    return [_int(v) for v in values]


def _seat_or_none(value: Any, n: int) -> int | None:
    if value is None:
        return None
    seat = _int(value)
    if not 0 <= seat < n:
        raise InvalidSnapshot(f"no seat {seat}")
    return seat
