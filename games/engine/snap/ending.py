"""How a Snap game ends, and the history that ends it: S17-S21, S28-S30.

- the dead state (S20.1): no correct call can ever happen again;
- the cycle (S20.2, S29): the whole state repeats with no resolved call in between;
- the cap (S20.3, S30): ``max_flips`` or the online time cap, then ``extra_rounds`` rounds;
- the result (S21, S28): winner, placings in competition ranking, card and wrong-call counts.
"""

from __future__ import annotations

from games.engine.snap.decks import JACK
from games.engine.snap.events import CapStarted, EndReason, Event, GameEnded, SnapResult
from games.engine.snap.state import History, SnapState

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
    new.seq = state.seq + 1
    if state._hist.tip == state.seq:
        state._hist.tip = new.seq  # nothing a cycle compares has changed
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


def _config_of(state: SnapState) -> tuple[object, ...]:
    return (
        state.cs,
        tuple(p.cards for p in state.pools),
        state.central,
        state.central_hidden,
        state.active,
    )


def fresh_history(state: SnapState) -> None:
    """S29: a resolved call (or the deal) starts a fresh history holding only this state."""
    hist = History()
    hist.configs[_config_of(state)] = 0
    state._config = 0
    hist.seen[(0, state.turn, state.ks)] = state.seq
    hist.tip = state.seq
    state._hist = hist


def record_structural(before: SnapState, new: SnapState, events: list[Event]) -> None:
    """Record ``new`` (whose pile sequences may differ from ``before``'s) and end on a repeat."""
    if before.rules.single_pile:
        return  # the centre grows with every flip: no state repeats without a call
    hist = before._hist
    if hist.tip != before.seq:
        hist = hist.branch(before.seq)
    new._hist = hist
    config = _config_of(new)
    new._config = hist.configs.setdefault(config, len(hist.configs))
    key = (new._config, new.turn, new.ks)
    if key in hist.seen:
        end_game(new, EndReason.CYCLE, events)
        return
    hist.seen[key] = new.seq
    hist.tip = new.seq


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
