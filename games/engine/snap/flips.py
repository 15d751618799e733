"""Flips: turns, recycles, feed_pool, single_pile flips and speed ticks (S7-S10, S22, S30).

A plain flip is the engine's hot path: on the compact representation of ``state.py`` it only
raises the flipping seat's face-up size (a plain recycle sets it back to 0 first), moves the turn
on and checks the S29 history. Everything else goes through a ``Work``.
"""

from __future__ import annotations

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap.actions import Flip, Tick
from games.engine.snap.ending import adjudicate_now, end_game, record_structural, start_cap
from games.engine.snap.events import EndReason, Event, Flipped, Recycled
from games.engine.snap.rules import EmptyFacedown
from games.engine.snap.state import SnapState
from games.engine.snap.work import Work


def recycle_due(state: SnapState) -> list[int]:
    """Seats whose next flip turns their face-up pile over (speed: all of them at the next tick)."""
    if state.result is not None or state.rules.single_pile:
        return []
    seats = [s for s in range(state.n) if state.active[s]] if state.rules.speed else [state.turn or 0]
    return [s for s in seats if state.ks[s] == len(state.cs[s])]


def apply_flip(state: SnapState, action: Flip) -> tuple[SnapState, list[Event]]:
    """S8: the seat on turn flips (S9: turning its face-up pile over first when it must)."""
    if state.result is not None:
        raise IllegalAction(ActionCode.GAME_OVER, "the game is over")
    rules = state.rules
    seat = action.seat
    if rules.speed:
        raise IllegalAction(ActionCode.NOT_TURN_BASED, "speed: every flip comes from a Tick")
    if seat != state.turn:
        raise IllegalAction(ActionCode.NOT_YOUR_TURN, f"seat {seat} flipped, seat {state.turn} is on turn")
    n = state.n
    cap_seat = state.cap_seat
    new_round = False
    pos = 0
    if cap_seat is not None:
        # S30: a flip starts a new round when its seat comes earlier in the order after C.
        pos = (seat - cap_seat - 1) % n
        new_round = pos < state.cap_pos
        if new_round and state.cap_round >= rules.extra_rounds:
            return adjudicate_now(state, EndReason.CAP)
    cs = state.cs
    C = cs[seat]
    k = state.ks[seat]
    if rules.single_pile or (k == len(C) and rules.empty_facedown is not EmptyFacedown.RECYCLE):
        return _slow_flip(state, action, new_round, pos)
    if action.order is not None:
        raise IllegalAction(ActionCode.ORDER_NOT_DUE, "an order is given only for a recycle_shuffle recycle")
    new = state.clone()
    seq = new.seq = state.seq + 1
    events: list[Event] = []
    if k == len(C):
        # S9/S23: turning the face-up pile over keeps the flip order: only k goes back to 0.
        events.append(Recycled(seq, seat, k, False))
        k = 0
    ks = state.ks
    new.ks = ks = (*ks[:seat], k + 1, *ks[seat + 1 :])
    flips = new.flips = state.flips + 1
    fn = state.flip_no
    new.flip_no = (*fn[:seat], flips, *fn[seat + 1 :])
    new.last_flipper = seat
    active = state.active
    turn = (seat + 1) % n
    while not active[turn]:
        turn = (turn + 1) % n
    new.turn = turn
    events.append(Flipped(seq, seat, state.deck.cards[C[k]], flips))
    if cap_seat is None:
        if flips == rules.max_flips:
            start_cap(new, seat, events)
    else:
        if new_round:
            new.cap_round = state.cap_round + 1
        new.cap_pos = pos
    # S29: a plain flip can only repeat the history's anchor (ending.py), and it makes the anchor
    # when it settles the table (every active seat showing a card).
    anchor = state._anchor
    if anchor is None:
        if all(ks[s] for s in range(n) if active[s]):
            new._anchor = (turn, ks, cs)
    elif anchor[1] == ks and anchor[0] == turn and anchor[2] == cs:
        end_game(new, EndReason.CYCLE, events)
    return new, events


def _slow_flip(state: SnapState, action: Flip, new_round: bool, pos: int) -> tuple[SnapState, list[Event]]:
    """A flip with a shuffled recycle, a feed_pool turn, or a single_pile flip."""
    work = Work(state)
    flip_onto(work, action.seat, action.order)
    work.last_flipper = action.seat
    new, events = work.finish(call=False)
    if new.result is None:
        record_structural(new, work.shuffled, events)
    if new.result is None:
        if state.cap_seat is None:
            if new.flips >= state.rules.max_flips:
                start_cap(new, action.seat, events)
        else:
            if new_round:
                new.cap_round = state.cap_round + 1
            new.cap_pos = pos
    return new, events


def apply_tick(state: SnapState, tick: Tick) -> tuple[SnapState, list[Event]]:
    """speed: every active seat flips, in ascending seat order (so lower seats count as older)."""
    rules = state.rules
    if not rules.speed:
        raise IllegalAction(ActionCode.NOT_SPEED, "Tick is only for the speed variant")
    orders = dict(tick.orders)
    if len(orders) != len(tick.orders) or any(not 0 <= s < state.n for s in orders):
        raise InvalidAction(ActionCode.MALFORMED, "tick orders: one per seat, seats in range")
    if state.cap_seat is not None and state.cap_round >= rules.extra_rounds:
        return adjudicate_now(state, EndReason.CAP)  # S30: in speed one tick is one round
    work = Work(state)
    for seat in range(state.n):
        if work.active[seat]:
            flip_onto(work, seat, orders.pop(seat, None))
    if orders:
        raise IllegalAction(
            ActionCode.ORDER_NOT_DUE, f"orders for seats that do not recycle: {sorted(orders)}"
        )
    new, events = work.finish(call=False)
    if new.result is None:
        record_structural(new, work.shuffled, events)
    if new.result is None:
        if state.cap_seat is None:
            if new.flips >= rules.max_flips:
                start_cap(new, None, events)
        else:
            new.cap_round = state.cap_round + 1
    return new, events


def flip_onto(work: Work, seat: int, order: tuple[str, ...] | None) -> None:
    """``seat`` flips on the working copy: onto its face-up pile (after turning it over, or
    feeding it to the centre, when its face-down pile is empty), or onto the single_pile centre."""
    rules = work.rules
    up, down = work.up[seat], work.down[seat]
    if rules.single_pile:
        if order is not None:
            raise IllegalAction(ActionCode.ORDER_NOT_DUE, "no recycle in single_pile")
        card = down.pop(0)
        work.central.insert(0, card)
    else:
        if not down:
            mode = rules.empty_facedown
            if mode is EmptyFacedown.FEED_POOL:
                if order is not None:
                    raise IllegalAction(ActionCode.ORDER_NOT_DUE, "feed_pool does not recycle")
                # S9 feed_pool: the face-up pile becomes a new pool, no flip, the player is out.
                work.new_pool(list(up), "feed_pool", (seat,))
                up.clear()
                work.flips += 1  # S30: a feed_pool turn counts as a flip
                return
            if mode is EmptyFacedown.RECYCLE_SHUFFLE:
                down.extend(_shuffled(work, seat, order))
                work.shuffled = True
            else:
                if order is not None:
                    raise IllegalAction(ActionCode.ORDER_NOT_DUE, "an order only for recycle_shuffle")
                down.extend(reversed(up))
            work.events.append(Recycled(work.seq, seat, len(up), mode is EmptyFacedown.RECYCLE_SHUFFLE))
            up.clear()
        elif order is not None:
            raise IllegalAction(ActionCode.ORDER_NOT_DUE, f"seat {seat} does not recycle now")
        card = down.pop(0)
        up.insert(0, card)
    work.flips += 1
    work.flip_no[seat] = work.flips
    work.events.append(Flipped(work.seq, seat, work.names[card], work.flips))


def _shuffled(work: Work, seat: int, order: tuple[str, ...] | None) -> list[int]:
    """S9/S22: the recorded order of a shuffled recycle, checked against the face-up pile."""
    if order is None:
        raise IllegalAction(
            ActionCode.ORDER_REQUIRED, f"seat {seat} recycles: the shuffled order is an input"
        )
    index = work.state.deck.index()
    try:
        cards = [index[name] for name in order]
    except KeyError as exc:
        raise InvalidAction(ActionCode.BAD_ORDER, f"unknown card {exc.args[0]!r}") from exc
    if sorted(cards) != sorted(work.up[seat]):
        raise InvalidAction(ActionCode.BAD_ORDER, "the order must be the face-up pile's cards")
    return cards
