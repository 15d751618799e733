"""The Snap engine: ``new_game``, ``legal_actions``, ``apply``, ``replay`` (rules/snap.md S1-S31).

Flips take a fast path on the compact representation of ``state.py``; everything else (calls,
ties, feed_pool, shuffled recycles, speed ticks, single_pile) works on plain top-first lists in
``_Work``, written to read like the rules, and is frozen back into a new state.

Deviations and readings of unclear rules are listed in docs/snap-engine.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap.actions import (
    Action,
    CallKind,
    CapReached,
    CentralClaim,
    Claim,
    Flip,
    PairClaim,
    PoolClaim,
    SlapClaim,
    Tick,
    claim_to_dict,
)
from games.engine.snap.actions import Call as CallInput
from games.engine.snap.actions import Tie as TieInput
from games.engine.snap.decks import DECKS, JACK, Deck
from games.engine.snap.events import (
    CapStarted,
    Captured,
    Eliminated,
    EndReason,
    Event,
    Flipped,
    GameEnded,
    IgnoredCall,
    PoolCreated,
    PoolGrown,
    Recycled,
    SnapResult,
    Tied,
    WrongCall,
)
from games.engine.snap.rules import EmptyFacedown, MatchKey, PoolCall, PoolMode, SnapRules, check
from games.engine.snap.state import Deal, History, Pool, SnapState

# --------------------------------------------------------------------------------------------
# Setting up


def match_keys(deck: Deck, match_key: MatchKey) -> tuple[int, ...]:
    """S2: per card index, an integer that two cards share exactly when they match."""
    labels = deck.match_labels(match_key)
    numbering: dict[str, int] = {}
    return tuple(numbering.setdefault(label, len(numbering)) for label in labels)


def new_game(rules: SnapRules, deal: Deal, dealer: int) -> SnapState:
    """Deal (S4) and return the first state (seq 0).

    ``deal.order`` must be a permutation of the rules' deck. The game may already be over when a
    dead state is dealt (S29: the dead-state check also runs at the deal).
    Raises InvalidRules (``validate`` errors) and IllegalAction ("no_such_seat", "bad_deal").
    """
    check(rules, deal.players)
    deck = DECKS[rules.deck]
    n = deal.players
    if not 0 <= dealer < n:
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"dealer {dealer}")
    index = deck.index()
    try:
        order = [index[name] for name in deal.order]
    except KeyError as exc:
        raise InvalidAction(
            ActionCode.BAD_DEAL, f"unknown card {exc.args[0]!r} for deck {deck.name}"
        ) from exc
    if sorted(order) != list(range(deck.size)):
        raise InvalidAction(ActionCode.BAD_DEAL, "the deal must be the whole deck, each card once (S4)")
    dealt: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(order):
        dealt[(dealer + 1 + i) % n].append(card)  # S4: clockwise from the dealer's left
    state = SnapState.__new__(SnapState)
    state.rules = rules
    state.deck = deck
    state.keys = match_keys(deck, rules.match_key)
    state.n = n
    state.dealer = dealer
    state.seq = 0
    # The last card dealt to a seat is on top: it is flipped first.
    state.cs = tuple(tuple(reversed(cards)) for cards in dealt)
    state.ks = (0,) * n
    state.flip_no = (0,) * n
    state.pools = ()
    state.next_pool_id = 1
    state.central = ()
    state.central_hidden = 0
    state.active = (True,) * n
    state.last_flipper = None
    state.turn = None if rules.speed else (dealer + 1) % n  # S7
    state.flips = 0
    state.eliminations = ()
    state.wrong_calls = (0,) * n
    state.cap_seat = None
    state.cap_round = 0
    state.cap_pos = 0
    state.result = None
    state._prev = None
    state._config = 0
    state._hist = History()
    if not rules.single_pile and _is_dead(state):
        state.result = _result(state, EndReason.DEAD_STATE)
        state.turn = None
    else:
        _fresh_history(state)
    return state


def next_dealer(result: SnapResult, dealer: int) -> int:
    """S3: the winner deals the next game; after a drawn game the same dealer deals again."""
    return dealer if result.winner is None else result.winner


# --------------------------------------------------------------------------------------------
# Public API


def apply(state: SnapState, action: Action) -> tuple[SnapState, list[Event]]:
    """Return the state after ``action`` and what happened; never mutates ``state``.

    An ignored call (late, ineligible) returns ``state`` itself and an ``IgnoredCall`` event.
    Raises IllegalAction: "game_over", "not_your_turn", "not_turn_based", "not_speed",
    "order_required", "bad_order", "malformed", "no_such_seat", "bad_seq".
    """
    if type(action) is Flip:
        return _apply_flip(state, action)
    if state.result is not None:
        raise IllegalAction(ActionCode.GAME_OVER, "the game is over")
    if isinstance(action, CallInput):
        return _apply_call(state, action)
    if isinstance(action, TieInput):
        return _apply_tie(state, action)
    if isinstance(action, Tick):
        return _apply_tick(state, action)
    if isinstance(action, CapReached):
        return _apply_cap_reached(state)
    raise InvalidAction(ActionCode.MALFORMED, f"unknown input {action!r}")


def replay(
    rules: SnapRules, deal: Deal, dealer: int, inputs: Iterable[Action]
) -> tuple[SnapState, list[Event]]:
    """Fold ``inputs`` over the dealt game (E3); return the final state and every event."""
    state = new_game(rules, deal, dealer)
    events: list[Event] = []
    for action in inputs:
        state, new_events = apply(state, action)
        events.extend(new_events)
    return state, events


def legal_actions(state: SnapState, seat: int) -> list[Action]:
    """Every input ``seat`` may send now, calls included (right or wrong), judged on this state.

    Under ``recycle_shuffle`` a due recycle's ``Flip`` is listed without its ``order``: the order
    is a chance input the server adds (S22). Speed ticks and ``CapReached`` are server inputs and
    are never listed. Calls that would be ignored (S16) are not listed.
    """
    if state.result is not None or not 0 <= seat < state.n or not state.active[seat]:
        return []
    rules = state.rules
    actions: list[Action] = []
    if state.turn == seat:
        actions.append(Flip(seat))
    if not rules.flipper_may_call and state.last_flipper == seat:
        return actions
    seq = state.seq
    if rules.single_pile:
        actions.append(CallInput(seat, CallKind.SNAP, None, seq))
        actions.append(CallInput(seat, CallKind.SNAP, CentralClaim(), seq))
        return actions
    n = state.n
    actions.append(CallInput(seat, CallKind.SNAP, None, seq))
    actions.extend(
        CallInput(seat, CallKind.SNAP, PairClaim(a, b), seq) for a in range(n) for b in range(a + 1, n)
    )
    if state.pools:
        actions.append(CallInput(seat, CallKind.SNAP_POOL, None, seq))
        pool_seats = [seat] if rules.pool_call is PoolCall.FLIPPER_TAKES_POOL else range(n)
        actions.extend(
            CallInput(seat, CallKind.SNAP_POOL, PoolClaim(p.id, s), seq)
            for p in state.pools
            for s in pool_seats
        )
    if rules.slapjack:
        actions.append(CallInput(seat, CallKind.SLAP, None, seq))
        actions.extend(CallInput(seat, CallKind.SLAP, SlapClaim(s), seq) for s in range(n) if s != seat)
    if rules.animal:
        actions.extend(
            CallInput(seat, CallKind.SNAP, None, seq, sound=other) for other in range(n) if other != seat
        )
    return actions


def correct_claims(state: SnapState, caller: int, kind: CallKind) -> list[Claim]:
    """The claims of ``kind`` that hold now and that ``caller`` could win (for bots and tests)."""
    if state.result is not None or not 0 <= caller < state.n or not state.active[caller]:
        return []
    return [c for c in candidates(state, caller, kind) if call_ineligible(state, caller, c, kind) is None]


def recycle_due(state: SnapState) -> list[int]:
    """Seats whose next flip turns their face-up pile over (speed: all of them at the next tick)."""
    if state.result is not None or state.rules.single_pile:
        return []
    seats = [s for s in range(state.n) if state.active[s]] if state.rules.speed else [state.turn or 0]
    return [s for s in seats if state.ks[s] == len(state.cs[s])]


# --------------------------------------------------------------------------------------------
# Flips


def _next_active(active: tuple[bool, ...] | list[bool], seat: int, n: int) -> int | None:
    for step in range(1, n + 1):
        other = (seat + step) % n
        if active[other]:
            return other
    return None


def _apply_flip(state: SnapState, action: Flip) -> tuple[SnapState, list[Event]]:
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
            return _adjudicate_now(state, EndReason.CAP)
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
            _start_cap(new, seat, events)
    else:
        if new_round:
            new.cap_round = state.cap_round + 1
        new.cap_pos = pos
    # S29 cycle detection: an exact key, recorded in the history shared along this line.
    hist = state._hist
    if hist.tip != state.seq:
        hist = new._hist = hist.branch(state.seq)
    key = (new._config, turn, ks)
    if key in hist.seen:
        _finish(new, EndReason.CYCLE, events)
        return new, events
    hist.seen[key] = seq
    hist.tip = seq
    return new, events


def _start_cap(new: SnapState, seat: int | None, events: list[Event]) -> None:
    new.cap_seat = -1 if seat is None else seat
    new.cap_round = 0
    new.cap_pos = new.n - 1  # the seat C itself is last in the order counted from C + 1
    events.append(CapStarted(new.seq, seat, new.rules.extra_rounds))


def _slow_flip(state: SnapState, action: Flip, new_round: bool, pos: int) -> tuple[SnapState, list[Event]]:
    """A flip with a shuffled recycle, a feed_pool turn, or a single_pile flip."""
    work = _Work(state)
    work.flip(action.seat, action.order)
    work.last_flipper = action.seat
    new, events = work.finish(call=False)
    if new.result is None and not state.rules.single_pile:
        _record_structural(state, new, events)
    if new.result is None:
        if state.cap_seat is None:
            if new.flips >= state.rules.max_flips:
                _start_cap(new, action.seat, events)
        else:
            if new_round:
                new.cap_round = state.cap_round + 1
            new.cap_pos = pos
    return new, events


def _apply_tick(state: SnapState, tick: Tick) -> tuple[SnapState, list[Event]]:
    """speed: every active seat flips, in ascending seat order (so lower seats count as older)."""
    rules = state.rules
    if not rules.speed:
        raise IllegalAction(ActionCode.NOT_SPEED, "Tick is only for the speed variant")
    orders = dict(tick.orders)
    if len(orders) != len(tick.orders) or any(not 0 <= s < state.n for s in orders):
        raise InvalidAction(ActionCode.MALFORMED, "tick orders: one per seat, seats in range")
    if state.cap_seat is not None and state.cap_round >= rules.extra_rounds:
        return _adjudicate_now(state, EndReason.CAP)  # S30: in speed one tick is one round
    work = _Work(state)
    for seat in range(state.n):
        if work.active[seat]:
            work.flip(seat, orders.pop(seat, None))
    if orders:
        raise IllegalAction(
            ActionCode.ORDER_NOT_DUE, f"orders for seats that do not recycle: {sorted(orders)}"
        )
    new, events = work.finish(call=False)
    if new.result is None:
        _record_structural(state, new, events)
    if new.result is None:
        if state.cap_seat is None:
            if new.flips >= rules.max_flips:
                _start_cap(new, None, events)
        else:
            new.cap_round = state.cap_round + 1
    return new, events


def _apply_cap_reached(state: SnapState) -> tuple[SnapState, list[Event]]:
    """S20.3 online: ``max_game_seconds`` passed; count extra rounds from the last flipper."""
    if state.cap_seat is not None:
        return state, []
    new = state.clone()
    new.seq = state.seq + 1
    if state._hist.tip == state.seq:
        state._hist.tip = new.seq  # nothing a cycle compares has changed
    events: list[Event] = []
    if state.rules.speed:
        _start_cap(new, None, events)
    else:
        _start_cap(new, state.last_flipper if state.last_flipper is not None else state.dealer, events)
    return new, events


def _adjudicate_now(state: SnapState, reason: EndReason) -> tuple[SnapState, list[Event]]:
    new = state.clone()
    new.seq = state.seq + 1
    events: list[Event] = []
    _finish(new, reason, events)
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


def _fresh_history(state: SnapState) -> None:
    """S29: a resolved call (or the deal) starts a fresh history holding only this state."""
    hist = History()
    hist.configs[_config_of(state)] = 0
    state._config = 0
    hist.seen[(0, state.turn, state.ks)] = state.seq
    hist.tip = state.seq
    state._hist = hist


def _record_structural(before: SnapState, new: SnapState, events: list[Event]) -> None:
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
        _finish(new, EndReason.CYCLE, events)
        return
    hist.seen[key] = new.seq
    hist.tip = new.seq


# --------------------------------------------------------------------------------------------
# Ending (S17-S21, S28)


def _is_dead(state: SnapState) -> bool:
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


def _result(state: SnapState, reason: EndReason) -> SnapResult:
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


def _finish(new: SnapState, reason: EndReason, events: list[Event]) -> None:
    result = new.result = _result(new, reason)
    new.turn = None
    events.append(
        GameEnded(new.seq, reason, result.winner, result.placings, result.cards, result.elimination_order)
    )


# --------------------------------------------------------------------------------------------
# Calls (S11-S16, S24-S27, S31, variants)


def _kind_of(claim: Claim) -> CallKind:
    if isinstance(claim, PoolClaim):
        return CallKind.SNAP_POOL
    if isinstance(claim, SlapClaim):
        return CallKind.SLAP
    return CallKind.SNAP


def check_claim_shape(state: SnapState, kind: CallKind, claim: Claim | None) -> Claim | None:
    """S27: reject a badly shaped claim (IllegalAction "malformed"); return it normalised."""
    rules = state.rules
    n = state.n
    if kind is CallKind.SLAP and not rules.slapjack:
        raise InvalidAction(ActionCode.MALFORMED, "Slap! only in slapjack")
    if rules.single_pile:
        if kind is not CallKind.SNAP or not (claim is None or isinstance(claim, CentralClaim)):
            raise InvalidAction(ActionCode.MALFORMED, "single_pile has one claim: the central pile")
        return claim
    if claim is None:
        return None
    allowed: dict[CallKind, tuple[type, ...]] = {
        CallKind.SNAP: (PairClaim, PoolClaim) if rules.silent else (PairClaim,),
        CallKind.SNAP_POOL: (PoolClaim, PairClaim) if rules.silent else (PoolClaim,),
        CallKind.SLAP: (SlapClaim,),
    }
    if not isinstance(claim, allowed[kind]):
        raise InvalidAction(ActionCode.MALFORMED, f"{kind} cannot claim {claim!r} (S26)")
    if isinstance(claim, PairClaim):
        if not (0 <= claim.a < n and 0 <= claim.b < n) or claim.a == claim.b:
            raise InvalidAction(ActionCode.MALFORMED, f"pair {claim!r}")
        return PairClaim.of(claim.a, claim.b)
    if isinstance(claim, PoolClaim | SlapClaim) and not 0 <= claim.seat < n:
        raise InvalidAction(ActionCode.MALFORMED, f"no seat in {claim!r}")
    return claim


def _seen_state(state: SnapState, seq: int) -> SnapState:
    seen = state.at_seq(seq) if 0 <= seq <= state.seq else None
    if seen is None:
        raise InvalidAction(ActionCode.NO_SUCH_STATE, f"no state {seq} (now {state.seq})")
    return seen


def _pool_index(state: SnapState, pool_id: int) -> int | None:
    for i, pool in enumerate(state.pools):
        if pool.id == pool_id:
            return i
    return None


def claim_holds(state: SnapState, claim: Claim) -> bool:
    """Whether ``claim`` is a correct claim on ``state``."""
    keys = state.keys
    if isinstance(claim, PairClaim):
        a, b = claim.a, claim.b
        if not (state.active[a] and state.active[b]):
            return False
        ta, tb = state.top(a), state.top(b)
        return ta is not None and tb is not None and keys[ta] == keys[tb]
    if isinstance(claim, PoolClaim):
        i = _pool_index(state, claim.pool)
        if i is None or not state.active[claim.seat]:
            return False
        top = state.top(claim.seat)
        return top is not None and keys[top] == keys[state.pools[i].cards[0]]
    if isinstance(claim, SlapClaim):
        top = state.top(claim.seat)
        return state.active[claim.seat] and top is not None and state.deck.rank[top] == JACK
    visible = len(state.central) - state.central_hidden
    return visible >= 2 and keys[state.central[0]] == keys[state.central[1]]


def _stands(seen: SnapState, state: SnapState, claim: Claim, as_they_stand: bool) -> bool:
    """Whether a claim that held on ``seen`` can still be won now (else the call is late, S15).

    It can when it holds now, or (``as_they_stand``, S35: the timing layer found the call earlier
    than the covering flips) when its piles changed since ``seen`` by flips only: each claimed
    seat still active with the same cards in flip order and no fewer face up (no capture, pool
    or recycle touched it), each claimed pool unchanged. It is then won as it stands.
    """
    return claim_holds(state, claim) or (as_they_stand and _flips_only(seen, state, claim))


def _flips_only(seen: SnapState, state: SnapState, claim: Claim) -> bool:
    """S35: ``claim``'s piles differ between ``seen`` and ``state`` (a later state) by flips only."""
    for seat in claim_seats(claim):
        if not state.active[seat] or state.cs[seat] != seen.cs[seat] or state.ks[seat] < seen.ks[seat]:
            return False
    if isinstance(claim, PoolClaim):
        before = _pool_index(seen, claim.pool)
        now = _pool_index(state, claim.pool)
        if before is None or now is None or state.pools[now].cards != seen.pools[before].cards:
            return False
    return not isinstance(claim, CentralClaim)


def call_ineligible(state: SnapState, caller: int, claim: Claim | None, kind: CallKind) -> str | None:
    """S16/S31/S12: why a call is ignored without penalty, or None."""
    if not state.active[caller]:
        return "not_active"
    if not state.rules.flipper_may_call and state.last_flipper == caller:
        return "flipper"
    if isinstance(claim, SlapClaim) and claim.seat == caller:
        return "own_pile"
    if (
        state.rules.pool_call is PoolCall.FLIPPER_TAKES_POOL
        and isinstance(claim, PoolClaim)
        and claim.seat != caller
    ):
        return "not_flipper"
    return None


def candidates(state: SnapState, caller: int, kind: CallKind) -> list[Claim]:
    """Every correct claim of ``kind`` on ``state`` that ``caller`` may win (S26)."""
    rules = state.rules
    if rules.single_pile:
        return [CentralClaim()] if claim_holds(state, CentralClaim()) else []
    keys = state.keys
    # Active seats showing a card, grouped by the match key of their top.
    showing: dict[int, list[int]] = {}
    for seat in range(state.n):
        top = state.top(seat)
        if top is not None and state.active[seat]:
            showing.setdefault(keys[top], []).append(seat)
    found: list[Claim] = []
    if kind is CallKind.SNAP or (rules.silent and kind is CallKind.SNAP_POOL):
        for seats in showing.values():
            found.extend(PairClaim(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :])
    if kind is CallKind.SNAP_POOL or (rules.silent and kind is CallKind.SNAP):
        only_own = rules.pool_call is PoolCall.FLIPPER_TAKES_POOL
        for pool in state.pools:
            found.extend(
                PoolClaim(pool.id, seat)
                for seat in showing.get(keys[pool.cards[0]], ())
                if not only_own or seat == caller
            )
    if kind is CallKind.SLAP:
        found.extend(SlapClaim(s) for s in range(state.n) if s != caller and claim_holds(state, SlapClaim(s)))
    return found


def pick_key(state: SnapState, caller: int, claim: Claim) -> tuple[object, ...]:
    """S26: most recently flipped, then most cards moved, then nearest (pairs) / lower pool number."""
    n = state.n
    fn = state.flip_no
    ks = state.ks
    if isinstance(claim, PairClaim):
        a, b = claim.a, claim.b
        extra = 0
        if state.rules.double:
            extra = sum(1 for s in (a, b) if s != caller and len(state.cs[s]) > ks[s])
        distances = tuple(sorted(((a - caller) % n, (b - caller) % n)))
        return (-max(fn[a], fn[b]), -(ks[a] + ks[b] + extra), 0, distances)
    if isinstance(claim, PoolClaim):
        i = _pool_index(state, claim.pool)
        assert i is not None
        moved = len(state.pools[i].cards)
        if state.rules.pool_call is not PoolCall.FLIPPER_TAKES_POOL:
            moved += ks[claim.seat]
        return (-fn[claim.seat], -moved, 1, (i,))
    if isinstance(claim, SlapClaim):
        return (-fn[claim.seat], -ks[claim.seat], 0, ((claim.seat - caller) % n,))
    return (0,)


def _apply_call(state: SnapState, call: CallInput) -> tuple[SnapState, list[Event]]:
    n = state.n
    caller = call.caller
    if not 0 <= caller < n:
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"caller {caller}")
    claim = check_claim_shape(state, call.kind, call.claim)
    if call.sound is not None and not 0 <= call.sound < n:
        raise InvalidAction(ActionCode.MALFORMED, f"sound of seat {call.sound}")
    if call.sound not in (None, caller) and not state.rules.animal:
        raise InvalidAction(ActionCode.MALFORMED, "animal sounds only in the animal variant")
    seen = _seen_state(state, call.seq)
    reason = call_ineligible(state, caller, claim, call.kind)
    if reason is not None:
        return state, [IgnoredCall(state.seq, caller, str(call.kind), claim_to_dict(claim), reason)]
    work = _Work(state)
    if call.sound not in (None, caller):
        work.wrong_call(caller, call.kind, claim, "wrong_sound")  # animal: another player's sound
        return work.finish(call=True)
    if claim is None:
        options = candidates(seen, caller, call.kind)
        if not options:
            work.wrong_call(caller, call.kind, None, "nothing_to_claim")
            return work.finish(call=True)
        # Among the claims the caller saw, those still standing; the engine picks (S26).
        standing = [c for c in options if _stands(seen, state, c, call.as_they_stand)]
        live = [c for c in standing if call_ineligible(state, caller, c, call.kind) is None]
        if not live:
            return state, [IgnoredCall(state.seq, caller, str(call.kind), None, "late")]
        claim = min(live, key=lambda c: pick_key(state, caller, c))
    elif not claim_holds(seen, claim):
        work.wrong_call(caller, call.kind, claim, "no_match")  # S14
        return work.finish(call=True)
    elif not _stands(seen, state, claim, call.as_they_stand):
        return state, [IgnoredCall(state.seq, caller, str(call.kind), claim_to_dict(claim), "late")]  # S15
    work.capture(caller, claim)
    return work.finish(call=True)


def _apply_tie(state: SnapState, tie: TieInput) -> tuple[SnapState, list[Event]]:
    """S13: resolve calls that cannot be told apart.

    Per entry: ineligible -> ignored; not holding on the seen state -> that caller's wrong call;
    held but gone -> late. The rest are grouped by overlapping piles/pools: a group with one
    caller wins its claim; a group with slaps goes to its first entry (S31: slaps do not tie);
    otherwise the group's personal piles go to the centre (S13, S25). Wrong-call penalties are
    applied after the captures and ties.
    """
    n = state.n
    if not tie.entries:
        raise InvalidAction(ActionCode.MALFORMED, "an empty tie")
    callers = [caller for caller, _ in tie.entries]
    if len(set(callers)) != len(callers) or any(not 0 <= c < n for c in callers):
        raise InvalidAction(ActionCode.MALFORMED, "tie callers must be distinct seats")
    entries: list[tuple[int, Claim]] = []
    for caller, raw in tie.entries:
        kind = _kind_of(raw)
        claim = check_claim_shape(state, kind, raw)
        if claim is None:
            raise InvalidAction(ActionCode.MALFORMED, "a tie entry needs a claim")
        entries.append((caller, claim))
    seen = _seen_state(state, tie.seq)
    work = _Work(state)
    ignored: list[tuple[int, Claim, str]] = []
    wrong: list[tuple[int, Claim]] = []
    valid: list[tuple[int, Claim]] = []
    for caller, claim in entries:
        reason = call_ineligible(state, caller, claim, _kind_of(claim))
        if reason is not None:
            ignored.append((caller, claim, reason))
        elif not claim_holds(seen, claim):
            wrong.append((caller, claim))
        elif not _stands(seen, state, claim, tie.as_they_stand):
            ignored.append((caller, claim, "late"))
        else:
            valid.append((caller, claim))
    for group in _overlap_groups(valid):
        if len(group) == 1:
            work.capture(*group[0])
        elif any(isinstance(claim, SlapClaim) for _, claim in group):
            work.capture(*group[0])
            ignored.extend((caller, claim, "late") for caller, claim in group[1:])
        else:
            work.tie(group)
    for caller, claim in wrong:
        work.wrong_call(caller, _kind_of(claim), claim, "no_match")
    if not valid and not wrong:
        return state, [
            IgnoredCall(state.seq, c, str(_kind_of(cl)), claim_to_dict(cl), r) for c, cl, r in ignored
        ]
    work.events[:0] = [
        IgnoredCall(work.seq, c, str(_kind_of(cl)), claim_to_dict(cl), r) for c, cl, r in ignored
    ]
    return work.finish(call=True)


def _resources(claim: Claim) -> set[tuple[str, int]]:
    if isinstance(claim, PairClaim):
        return {("seat", claim.a), ("seat", claim.b)}
    if isinstance(claim, PoolClaim):
        return {("seat", claim.seat), ("pool", claim.pool)}
    if isinstance(claim, SlapClaim):
        return {("seat", claim.seat)}
    return {("central", 0)}


def _overlap_groups(entries: Sequence[tuple[int, Claim]]) -> list[list[tuple[int, Claim]]]:
    """Group entries whose claims share a pile or pool, in order of first appearance."""
    groups: list[tuple[set[tuple[str, int]], list[tuple[int, Claim]]]] = []
    for entry in entries:
        res = _resources(entry[1])
        members = [entry]
        merged = set(res)
        rest = []
        for g_res, g_members in groups:
            if g_res & merged:
                merged |= g_res
                members = g_members + members
            else:
                rest.append((g_res, g_members))
        groups = [*rest, (merged, members)]
    # Restore the order of first appearance.
    position = {id(e): i for i, e in enumerate(entries)}
    ordered = [sorted(members, key=lambda e: position[id(e)]) for _, members in groups]
    return sorted(ordered, key=lambda members: position[id(members[0])])


class _LazyPiles(dict[int, list[int]]):
    """Seat -> pile (a top-first list), built on first access."""

    def __init__(self, build: Callable[[int], list[int]]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, seat: int) -> list[int]:
        pile = self[seat] = self.build(seat)
        return pile


class _Work:
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
        self.events: list[Event] = []

    # Flips (slow path) ------------------------------------------------------------------------

    def flip(self, seat: int, order: tuple[str, ...] | None) -> None:
        rules = self.rules
        up, down = self.up[seat], self.down[seat]
        if rules.single_pile:
            if order is not None:
                raise IllegalAction(ActionCode.ORDER_NOT_DUE, "no recycle in single_pile")
            card = down.pop(0)
            self.central.insert(0, card)
        else:
            if not down:
                mode = rules.empty_facedown
                if mode is EmptyFacedown.FEED_POOL:
                    if order is not None:
                        raise IllegalAction(ActionCode.ORDER_NOT_DUE, "feed_pool does not recycle")
                    # S9 feed_pool: the face-up pile becomes a new pool, no flip, the player is out.
                    self.new_pool(list(up), "feed_pool", (seat,))
                    up.clear()
                    self.flips += 1  # S30: a feed_pool turn counts as a flip
                    return
                if mode is EmptyFacedown.RECYCLE_SHUFFLE:
                    down.extend(self._shuffled(seat, order))
                else:
                    if order is not None:
                        raise IllegalAction(ActionCode.ORDER_NOT_DUE, "an order only for recycle_shuffle")
                    down.extend(reversed(up))
                self.events.append(Recycled(self.seq, seat, len(up), mode is EmptyFacedown.RECYCLE_SHUFFLE))
                up.clear()
            elif order is not None:
                raise IllegalAction(ActionCode.ORDER_NOT_DUE, f"seat {seat} does not recycle now")
            card = down.pop(0)
            up.insert(0, card)
        self.flips += 1
        self.flip_no[seat] = self.flips
        self.events.append(Flipped(self.seq, seat, self.names[card], self.flips))

    def _shuffled(self, seat: int, order: tuple[str, ...] | None) -> list[int]:
        if order is None:
            raise IllegalAction(
                ActionCode.ORDER_REQUIRED, f"seat {seat} recycles: the shuffled order is an input"
            )
        index = self.state.deck.index()
        try:
            cards = [index[name] for name in order]
        except KeyError as exc:
            raise InvalidAction(ActionCode.BAD_ORDER, f"unknown card {exc.args[0]!r}") from exc
        if sorted(cards) != sorted(self.up[seat]):
            raise InvalidAction(ActionCode.BAD_ORDER, "the order must be the face-up pile's cards")
        return cards

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

    # Resolutions --------------------------------------------------------------------------------

    def capture(self, caller: int, claim: Claim) -> None:
        """S11/S12/S24/S31/single_pile: ``caller`` wins ``claim`` (which holds)."""
        down = self.down[caller]
        claim_dict = claim_to_dict(claim)
        if isinstance(claim, PairClaim):
            older, newer = sorted((claim.a, claim.b), key=lambda s: self.flip_no[s])
            packets = self.up[older][::-1] + self.up[newer][::-1]
            self.up[older].clear()
            self.up[newer].clear()
            extra: list[int] = []
            if self.rules.double:
                # double: the top face-down card of each other owner, older pile's owner first.
                for owner in (older, newer):
                    if owner != caller and self.down[owner]:
                        extra.append(self.down[owner].pop(0))
            down.extend(packets + extra)
            self.events.append(
                Captured(
                    self.seq,
                    caller,
                    "snap",
                    claim_dict,
                    (older, newer),
                    (),
                    len(packets) + len(extra),
                    len(extra),
                )
            )
        elif isinstance(claim, PoolClaim):
            index = self.pool_ids.index(claim.pool)
            pool = self.take_pool(index)
            if self.rules.pool_call is PoolCall.FLIPPER_TAKES_POOL:
                # Seeds 000/001: the flipper of the matching card wins the pool only.
                down.extend(pool[::-1])
                seats: tuple[int, ...] = ()
                moved = len(pool)
            else:
                packet = pool[::-1] + self.up[claim.seat][::-1]
                self.up[claim.seat].clear()
                down.extend(packet)
                seats = (claim.seat,)
                moved = len(packet)
            self.events.append(
                Captured(self.seq, caller, "snap_pool", claim_dict, seats, (claim.pool,), moved, 0)
            )
        elif isinstance(claim, SlapClaim):
            packet = self.up[claim.seat][::-1]
            self.up[claim.seat].clear()
            down.extend(packet)
            self.events.append(
                Captured(self.seq, caller, "slap", claim_dict, (claim.seat,), (), len(packet), 0)
            )
        else:
            # single_pile: the caller takes the pile turned over and flips next.
            packet = self.central[::-1]
            self.central.clear()
            self.hidden = 0
            down.extend(packet)
            self.turn_override = caller
            self.events.append(Captured(self.seq, caller, "central", claim_dict, (), (), len(packet), 0))

    def tie(self, group: list[tuple[int, Claim]]) -> None:
        """S13/S25: tied calls send their personal piles to the centre, oldest top at the bottom."""
        callers = tuple(caller for caller, _ in group)
        claims = tuple(d for _, claim in group if (d := claim_to_dict(claim)) is not None)
        if self.rules.single_pile:
            self.events.append(Tied(self.seq, callers, claims, None))  # the pile stays where it is
            return
        seats: list[int] = []
        for _, claim in group:
            seats.extend(seat for seat in claim_seats(claim) if seat not in seats)
        pool_claims = [claim for _, claim in group if isinstance(claim, PoolClaim)]
        if not pool_claims:
            pool_id = self.new_pool(self._stack(seats), "tie", tuple(sorted(seats)))
            self.events.append(Tied(self.seq, callers, claims, pool_id))
            return
        # Tied claims naming different pools tie separately: each pile goes onto the oldest pool
        # it was claimed against (a pile only in pair claims: the group's oldest pool).
        position = {pid: i for i, pid in enumerate(self.pool_ids)}
        group_pools = sorted({c.pool for c in pool_claims}, key=lambda pid: position[pid])
        target: dict[int, int] = {}
        for seat in seats:
            named = [c.pool for c in pool_claims if c.seat == seat]
            target[seat] = min(named, key=lambda pid: position[pid]) if named else group_pools[0]
        for pool_id in group_pools:
            piles = [s for s in seats if target[s] == pool_id]
            cards = self._stack(piles)
            if cards:
                self.grow_pool(position[pool_id], cards, "tie", tuple(sorted(piles)))
            members = [
                (caller, claim)
                for caller, claim in group
                if pool_id in {target[s] for s in claim_seats(claim)}
                or (isinstance(claim, PoolClaim) and claim.pool == pool_id)
            ]
            self.events.append(
                Tied(
                    self.seq,
                    tuple(caller for caller, _ in members),
                    tuple(d for _, claim in members if (d := claim_to_dict(claim)) is not None),
                    pool_id,
                )
            )

    def _stack(self, seats: list[int]) -> list[int]:
        """The seats' face-up piles stacked with the most recently flipped top on top."""
        cards: list[int] = []
        for seat in sorted(seats, key=lambda s: -self.flip_no[s]):
            cards.extend(self.up[seat])
            self.up[seat].clear()
        return cards

    def wrong_call(self, caller: int, kind: CallKind, claim: Claim | None, reason: str) -> None:
        """S14 (and the single_pile and slapjack penalties)."""
        self.wrong[caller] += 1
        penalty = "none"
        if self.rules.single_pile:
            if self.down[caller]:
                # The penalty card goes face down under the centre: it never shows (see the doc).
                self.central.append(self.down[caller].pop(0))
                self.hidden += 1
                penalty = "card"
        elif kind is CallKind.SLAP:
            if isinstance(claim, SlapClaim) and self.active[claim.seat] and self.down[caller]:
                self.down[claim.seat].append(self.down[caller].pop(0))
                penalty = "card"
        elif self.up[caller]:
            self.new_pool(list(self.up[caller]), "wrong_call", (caller,))
            self.up[caller].clear()
            penalty = "pool"
        self.events.append(WrongCall(self.seq, caller, str(kind), claim_to_dict(claim), reason, penalty))

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
            new.turn = _next_active(new.active, anchor, n)
        if reason is None and not self.rules.single_pile and _is_dead(new):
            reason = EndReason.DEAD_STATE
        if reason is not None:
            _finish(new, reason, self.events)
        elif call:
            _fresh_history(new)
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


def claim_seats(claim: Claim) -> tuple[int, ...]:
    """The seats whose face-up piles a claim names."""
    if isinstance(claim, PairClaim):
        return (claim.a, claim.b)
    if isinstance(claim, PoolClaim | SlapClaim):
        return (claim.seat,)
    return ()
