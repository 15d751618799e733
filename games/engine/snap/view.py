"""What a seat may see of a Snap state: ``observe`` and the views it builds (S5).

A view names a card only when it lies face up on top of a pile, a pool or the single_pile centre;
never a face-down card, never the order of a pile.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engine.errors import ActionCode, InvalidAction
from games.engine.snap.events import SnapResult
from games.engine.snap.state import Pool, SnapState


class PileView(NamedTuple):
    """What everyone sees of one seat: pile sizes, the face-up top, what that top matches on
    (``match``: its rank, card or picture, per the rules' match_key) and when it was flipped."""

    seat: int
    active: bool
    facedown: int
    faceup: int
    top: str | None
    match: str | None
    top_flip: int | None


class PoolView(NamedTuple):
    """A pool as seen: ``number`` is its position (1 = oldest, S25), ``id`` its stable id."""

    id: int
    number: int
    size: int
    top: str | None
    match: str | None


class PlayerView(NamedTuple):
    """Everything ``seat`` may know (``seat`` None: a spectator), nothing more (E2).

    Never contains the order or identity of any face-down card; ``central_top`` is None when the
    single_pile centre shows no face-up card.

    Views are immutable named tuples rather than frozen dataclasses: a live game builds one per
    state change (the bot game's hot path), and a tuple is several times cheaper to build.
    """

    seat: int | None
    seq: int
    players: int
    dealer: int
    turn: int | None
    last_flipper: int | None
    flips: int
    piles: tuple[PileView, ...]
    pools: tuple[PoolView, ...]
    central_size: int
    central_top: str | None
    central_below: str | None
    central_matches: tuple[str, ...]
    cap_reached: bool
    result: SnapResult | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "seq": self.seq,
            "players": self.players,
            "dealer": self.dealer,
            "turn": self.turn,
            "last_flipper": self.last_flipper,
            "flips": self.flips,
            "piles": [p._asdict() for p in self.piles],
            "pools": [p._asdict() for p in self.pools],
            "central_size": self.central_size,
            "central_top": self.central_top,
            "central_below": self.central_below,
            "central_matches": list(self.central_matches),
            "cap_reached": self.cap_reached,
            "result": None if self.result is None else self.result.to_dict(),
        }


_new_tuple = tuple.__new__
_NO_POOLS: tuple[PoolView, ...] = ()
_EMPTY_PILE = PileView(0, False, 0, 0, None, None, None)


class TableViews:
    """Builds the views of one game's successive states, reusing every pile and pool view that
    did not change since the previous state (a flip changes one pile): a live game builds a view
    per state change, and most of a view is the same as the one before.

    ``observe`` is this with nothing to reuse; a view built here equals ``observe``'s.
    """

    __slots__ = ("_active", "_cards", "_flip_no", "_ks", "_piles", "_pools", "_pools_of")

    def __init__(self) -> None:
        # What the pile views in ``_piles`` were built from (the same tuple of cards is the same
        # cards: states share the tuples that did not change).
        self._cards: tuple[tuple[int, ...], ...] = ()
        self._ks: tuple[int, ...] = ()
        self._active: tuple[bool, ...] = ()
        self._flip_no: tuple[int, ...] = ()
        self._piles: tuple[PileView, ...] = ()
        self._pools_of: tuple[Pool, ...] | None = None
        self._pools: tuple[PoolView, ...] = _NO_POOLS

    def observe(self, state: SnapState, seat: int | None) -> PlayerView:
        """The view of ``seat`` (or of a spectator when None); see ``observe``."""
        if seat is not None and not 0 <= seat < state.n:
            raise InvalidAction(ActionCode.NO_SUCH_SEAT, str(seat))
        deck = state.deck
        names = deck.cards
        labels = deck.match_labels(state.rules.match_key)
        cs, ks, active, flip_no = state.cs, state.ks, state.active, state.flip_no
        if not (cs is self._cards and ks is self._ks and active is self._active and flip_no is self._flip_no):
            n = state.n
            if len(self._piles) == n:
                piles = list(self._piles)
                old_cs, old_ks, old_active, old_flip_no = self._cards, self._ks, self._active, self._flip_no
                # A pile's view depends on its cards, how many lie face up, whether its seat plays
                # and when its top was flipped (the same tuple of cards is the same cards: states
                # share the tuples that did not change). A flip changes one pile.
                changed = [
                    s
                    for s in range(n)
                    if ks[s] != old_ks[s]
                    or flip_no[s] != old_flip_no[s]
                    or cs[s] is not old_cs[s]
                    or active[s] != old_active[s]
                ]
            else:
                piles = [_EMPTY_PILE] * n
                changed = list(range(n))
            pile: tuple[int, bool, int, int, str | None, str | None, int | None]
            for s in changed:
                k = ks[s]
                cards = cs[s]
                if k:
                    top = cards[k - 1]
                    pile = (s, active[s], len(cards) - k, k, names[top], labels[top], flip_no[s])
                else:
                    pile = (s, active[s], len(cards), 0, None, None, None)
                piles[s] = _new_tuple(PileView, pile)
            self._piles = tuple(piles)
            self._cards, self._ks, self._active, self._flip_no = cs, ks, active, flip_no
        if state.pools is not self._pools_of:
            self._pools_of = state.pools
            self._pools = tuple(
                _new_tuple(PoolView, (p.id, i, len(p.cards), names[p.cards[0]], labels[p.cards[0]]))
                for i, p in enumerate(state.pools, 1)
            )
        central = state.central
        visible = len(central) - state.central_hidden if central else 0
        return _new_tuple(
            PlayerView,
            (
                seat,
                state.seq,
                state.n,
                state.dealer,
                state.turn,
                state.last_flipper,
                state.flips,
                self._piles,
                self._pools,
                len(central),
                names[central[0]] if visible >= 1 else None,
                names[central[1]] if visible >= 2 else None,
                tuple(labels[c] for c in central[: min(visible, 2)]) if visible else (),
                state.cap_seat is not None,
                state.result,
            ),
        )


def observe(state: SnapState, seat: int | None) -> PlayerView:
    """The view of ``seat`` (or of a spectator when None): tops and sizes of every pile and pool,
    whose turn it is; never the order of a face-down pile. Raises InvalidAction("no_such_seat") on a bad seat."""
    return TableViews().observe(state, seat)
