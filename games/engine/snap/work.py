"""The working copy: a state as plain top-first lists, for the rules written out in full.

Flips take a fast path on the compact representation of ``state.py``; everything else (calls,
ties, feed_pool, shuffled recycles, speed ticks, single_pile) changes a ``Work``, written to read
like the rules, and ``Work.finish`` freezes it into the next state after the eliminations and end
checks (S17-S20, in the order of S29).
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.snap.ending import end_game, fresh_history, is_dead
from games.engine.snap.events import Captured, Eliminated, EndReason, Event, PoolCreated, PoolGrown
from games.engine.snap.rules import PoolMode
from games.engine.snap.state import Pool, SnapState


def next_active(active: tuple[bool, ...] | list[bool], seat: int, n: int) -> int | None:
    """The first active seat clockwise after ``seat`` (S7, S10), or None when nobody plays."""
    for step in range(1, n + 1):
        other = (seat + step) % n
        if active[other]:
            return other
    return None


class _LazyPiles(dict[int, list[int]]):
    """Seat -> pile (a top-first list), built on first access."""

    def __init__(self, build: Callable[[int], list[int]]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, seat: int) -> list[int]:
        pile = self[seat] = self.build(seat)
        return pile


class Work:
    """A mutable copy of a state, as top-first lists, for the rules written out in full."""

    def __init__(self, state: SnapState) -> None:
        self.state = state
        self.rules = state.rules
        self.names = state.deck.cards
        self.n = state.n
        self.seq = state.seq + 1
        cs, ks = state.cs, state.ks
        # Seats' piles are turned into lists only when a rule touches them (most calls touch two).
        self.up = _LazyPiles(lambda s: list(reversed(cs[s][: ks[s]])))
        self.down = _LazyPiles(lambda s: list(cs[s][ks[s] :]))
        self.flip_no = list(state.flip_no)
        self.flips = state.flips
        self.pools: list[list[int]] = [list(p.cards) for p in state.pools]
        self.pool_ids = [p.id for p in state.pools]
        self.next_pool_id = state.next_pool_id
        self.central = list(state.central)
        self.hidden = state.central_hidden
        self.active = list(state.active)
        self.wrong = list(state.wrong_calls)
        self.last_flipper = state.last_flipper
        self.turn_override: int | None = None
        self.shuffled = False  # a face-up pile was turned over under recycle_shuffle (S29 target)
        self.events: list[Event] = []

    # Centre ------------------------------------------------------------------------------------

    def new_pool(self, cards: list[int], reason: str, seats: tuple[int, ...]) -> int | None:
        """S6/S25: ``cards`` (top first) become a new pool, or go on top of the only pool under
        ``pool_mode = single``. Returns the pool id, or None when there were no cards."""
        if not cards:
            return None
        if self.rules.pool_mode is PoolMode.SINGLE and self.pools:
            return self.grow_pool(0, cards, reason, seats)
        pool_id = self.next_pool_id
        self.next_pool_id += 1
        self.pools.append(cards)
        self.pool_ids.append(pool_id)
        self.events.append(PoolCreated(self.seq, pool_id, reason, seats, len(cards), self.names[cards[0]]))
        return pool_id

    def grow_pool(self, index: int, cards: list[int], reason: str, seats: tuple[int, ...]) -> int:
        self.pools[index][:0] = cards
        pool = self.pools[index]
        pool_id = self.pool_ids[index]
        self.events.append(
            PoolGrown(self.seq, pool_id, reason, seats, len(cards), len(pool), self.names[pool[0]])
        )
        return pool_id

    def take_pool(self, index: int) -> list[int]:
        del self.pool_ids[index]
        return self.pools.pop(index)

    # Freezing -----------------------------------------------------------------------------------

    def finish(self, call: bool) -> tuple[SnapState, list[Event]]:
        """Eliminations and end checks (S29 order), then the new state.

        ``call``: a resolved call, which starts a fresh cycle history (S29).
        """
        n = self.n
        touched = sorted(set(self.up) | set(self.down))
        out = [s for s in touched if self.active[s] and not self.up[s] and not self.down[s]]
        for s in out:
            self.active[s] = False
        state = self.state
        new = state.clone()
        new.seq = self.seq
        new.eliminations = state.eliminations + ((tuple(out),) if out else ())
        if out:
            self.events.append(Eliminated(self.seq, tuple(out)))
        alive = [s for s in range(n) if self.active[s]]
        reason: EndReason | None = None
        if len(alive) == 1:
            self._last_player_takes_all(alive[0])
            touched = sorted(set(self.up) | set(self.down))
            reason = EndReason.LAST_PLAYER
        elif not alive:
            reason = EndReason.NOBODY_LEFT
        if touched:
            cs = list(state.cs)
            ks = list(state.ks)
            for seat in touched:
                up = self.up[seat]
                cs[seat] = tuple(reversed(up)) + tuple(self.down[seat])
                ks[seat] = len(up)
            new.cs = tuple(cs)
            new.ks = tuple(ks)
        new.flip_no = tuple(self.flip_no)
        new.flips = self.flips
        new.pools = tuple(
            Pool(pid, tuple(cards)) for pid, cards in zip(self.pool_ids, self.pools, strict=True)
        )
        new.next_pool_id = self.next_pool_id
        new.central = tuple(self.central)
        new.central_hidden = self.hidden
        new.active = tuple(self.active)
        new.wrong_calls = tuple(self.wrong)
        new.last_flipper = self.last_flipper
        if self.rules.speed:
            new.turn = None
        elif self.turn_override is not None:
            new.turn = self.turn_override  # single_pile: the caller flips next
        else:
            anchor = self.last_flipper if self.last_flipper is not None else state.dealer
            new.turn = next_active(new.active, anchor, n)
        if reason is None and not self.rules.single_pile and is_dead(new):
            reason = EndReason.DEAD_STATE
        if reason is not None:
            end_game(new, reason, self.events)
        elif call:
            fresh_history(new)
        return new, self.events

    def _last_player_takes_all(self, winner: int) -> None:
        """S18/S24: the last active player takes every pool, oldest first (single_pile: the centre)."""
        taken = 0
        pool_ids = tuple(self.pool_ids)
        while self.pools:
            packet = self.take_pool(0)[::-1]
            self.down[winner].extend(packet)
            taken += len(packet)
        if self.central:
            self.down[winner].extend(self.central[::-1])
            taken += len(self.central)
            self.central.clear()
            self.hidden = 0
        if taken:
            self.events.append(Captured(self.seq, winner, "last_player", None, (), pool_ids, taken, 0))
