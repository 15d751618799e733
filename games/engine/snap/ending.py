"""How a Snap game ends, and the history that ends it: S17-S21, S28-S30.

- the dead state (S20.1): no correct call can ever happen again;
- the cycle (S20.2, S29): the whole state repeats with no resolved call in between;
- the cap (S20.3, S30): ``max_flips`` or the online time cap, then ``extra_rounds`` rounds;
- the result (S21, S28): winner, placings in competition ranking, card and wrong-call counts.
"""

from __future__ import annotations

from games.engine.snap.decks import JACK
from games.engine.snap.events import CapStarted, EndReason, Event, GameEnded, SnapResult
from games.engine.snap.state import SnapState

# --------------------------------------------------------------------------------------------
# The cap (S30)


def start_cap(new: SnapState, seat: int | None, events: list[Event]) -> None:
    """S30: flip ``max_flips`` was made by ``seat`` (None in speed: a tick is a round)."""
    new.cap_seat = -1 if seat is None else seat
    new.cap_round = 0
    new.cap_pos = new.n - 1  # the seat C itself is last in the order counted from C + 1
    events.append(CapStarted(new.seq, seat, new.rules.extra_rounds))


def apply_cap_reached(state: SnapState) -> tuple[SnapState, list[Event]]:
    """S20.3 online: ``max_game_seconds`` passed; count extra rounds from the last flipper."""
    if state.cap_seat is not None:
        return state, []
    new = state.clone()
    new.seq = state.seq + 1  # nothing S29 compares changes: the history goes on as it was
    events: list[Event] = []
    if state.rules.speed:
        start_cap(new, None, events)
    else:
        start_cap(new, state.last_flipper if state.last_flipper is not None else state.dealer, events)
    return new, events


def adjudicate_now(state: SnapState, reason: EndReason) -> tuple[SnapState, list[Event]]:
    """The input that would go past the cap ends the game instead (S30)."""
    new = state.clone()
    new.seq = state.seq + 1
    events: list[Event] = []
    end_game(new, reason, events)
    return new, events


# --------------------------------------------------------------------------------------------
# Cycle history (S29)
#
# S29 ends the game when the whole state repeats with no resolved call in between. Comparing each
# new state with every state since the last resolved call would keep the whole stretch of play in
# every state. It need not: only two kinds of state can ever be the *first* one to come back.
#
# Between two resolved calls cards move only by flips (and ticks), so the pools, the centre and
# the active seats stay as they are. (Only a feed_pool turn changes them, and under feed_pool no
# state ever repeats: every flip raises a face-up count and no pile is turned over; a seat that
# feeds the centre is out.) A flip by the seat on turn p raises k_p by one, or turns the pile over
# when k_p = L_p (its card count) and sets k_p = 1; the turn goes to the next active seat; a tick
# does this for every active seat at once. Call a state *settled* once every active seat shows a
# face-up card (all k >= 1): settled states stay settled until the next call. (CapReached changes
# nothing S29 compares: it is no step of the history.)
#
# Suppose state x_t is the first to repeat an earlier x_i (i < t) of the history. x_t comes at
# least a round after x_i (the seat on turn is the same), so every seat has flipped in between:
# x_t, and so x_i, is settled. If x_i is the state the history started with, it is therefore the
# first settled state. Otherwise both x_i and x_t were reached by a flip of the same seat p (the
# active seat before the seat on turn; in speed, by a tick: look at each seat p in turn). If
# k_p >= 2 in x_i, both flips raised k_p by one and the states before them are equal, x_(t-1) =
# x_(i-1): an earlier repeat, which is impossible. If k_p = 1, x_i came from a first flip out of
# k_p = 0, from a plain recycle or from a shuffled one. Two plain recycles again give equal states
# before them. After a first flip, x_(i-1) was not settled while x_i is: x_i is the first settled
# state. Only a shuffled recycle (recycle_shuffle, S22) can lead back into x_i from a state that
# differs from x_(i-1).
#
# So the history keeps just its *targets*: the first settled state (the anchor) and, under
# recycle_shuffle, every state right after a recycle. A new state ends the game exactly when it
# equals a target, which is exactly when it equals any state since the last resolved call: the
# same flip ends the same game as a full history would (tests/games/engine/snap/test_end.py
# checks against one in every variant). The argument also says *when* each target can come back:
# a state right after a shuffled recycle only right after another one (x_t then has k_p = 1 too),
# so a plain flip compares with the anchor alone.


def fresh_history(state: SnapState) -> None:
    """S29: a resolved call (or the deal) starts a fresh history holding only this state.

    single_pile keeps none: the centre grows with every flip, so no state repeats without a call.
    """
    state._recycled = ()
    state._anchor = None
    if not state.rules.single_pile and settled(state):
        state._anchor = (state.turn, state.ks, state.cs)


def settled(state: SnapState) -> bool:
    """Every active seat shows a face-up card (see the comment above)."""
    ks = state.ks
    return all(ks[s] for s in range(state.n) if state.active[s])


def record_structural(new: SnapState, recycled: bool, events: list[Event]) -> None:
    """S29 after a slow flip or a tick: end on a repeat, else keep ``new`` if it is a target
    (``recycled``: some seat's face-up pile was just turned over under recycle_shuffle)."""
    if new.rules.single_pile:
        return
    key = (new.turn, new.ks, new.cs)
    if key == new._anchor or (recycled and key in new._recycled):
        end_game(new, EndReason.CYCLE, events)
        return
    if new._anchor is None and settled(new):
        new._anchor = key
    elif recycled:
        new._recycled = (*new._recycled, key)


# --------------------------------------------------------------------------------------------
# Dead state and results (S17-S21, S28)


def is_dead(state: SnapState) -> bool:
    """S20.1: no match key held by two active players, none matching a pool top (slapjack: and no
    active player holds a Jack)."""
    keys = state.keys.__getitem__
    held: set[int] = set()
    for seat in range(state.n):
        if state.active[seat]:
            # isdisjoint stops at the first shared key, which comes early in almost every game.
            if not held.isdisjoint(map(keys, state.cs[seat])):
                return False
            held.update(map(keys, state.cs[seat]))
    if any(keys(p.cards[0]) in held for p in state.pools):
        return False
    if state.rules.slapjack:
        ranks = state.deck.rank
        return not any(ranks[c] == JACK for s in range(state.n) if state.active[s] for c in state.cs[s])
    return True


def result_of(state: SnapState, reason: EndReason) -> SnapResult:
    """S21/S28: winner, placings (competition ranking) and card counts."""
    n = state.n
    cards = tuple(len(state.cs[s]) for s in range(n))
    alive = [s for s in range(n) if state.active[s]]
    order: list[list[int]] = []
    if reason is EndReason.LAST_PLAYER:
        order.append(alive)
    elif reason is not EndReason.NOBODY_LEFT:
        for count in sorted({cards[s] for s in alive}, reverse=True):
            order.append([s for s in alive if cards[s] == count])
    order.extend(list(group) for group in reversed(state.eliminations))
    placings = [0] * n
    place = 1
    for group in order:
        for s in group:
            placings[s] = place
        place += len(group)
    winner = order[0][0] if reason is not EndReason.NOBODY_LEFT and len(order[0]) == 1 else None
    return SnapResult(
        winner=winner,
        ended_by=reason,
        adjudicated=reason in (EndReason.DEAD_STATE, EndReason.CYCLE, EndReason.CAP),
        elimination_order=state.eliminations,
        placings=tuple(placings),
        cards=cards,
        wrong_calls=state.wrong_calls,
    )


def end_game(new: SnapState, reason: EndReason, events: list[Event]) -> None:
    """Set ``new``'s result (it is the game's last state) and report the end."""
    result = new.result = result_of(new, reason)
    new.turn = None
    events.append(
        GameEnded(new.seq, reason, result.winner, result.placings, result.cards, result.elimination_order)
    )
