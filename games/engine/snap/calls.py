"""Calls and ties: S11-S16, S24-S27, S31 and the variants' calls.

A call is judged on the state its caller saw (``Call.seq``): a claim that did not hold there is a
wrong call (S14); one that held but was taken or covered since is late and ignored (S15); one
that held and still stands is won. Ties (S13) come as one ``Tie`` input from the timing layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap.actions import (
    Call,
    CallKind,
    CentralClaim,
    Claim,
    PairClaim,
    PoolClaim,
    SlapClaim,
    Tie,
    claim_to_dict,
)
from games.engine.snap.decks import JACK
from games.engine.snap.events import Captured, Event, IgnoredCall, Tied, WrongCall
from games.engine.snap.rules import PoolCall
from games.engine.snap.state import CALL_WINDOW, SnapState
from games.engine.snap.work import Work

# --------------------------------------------------------------------------------------------
# Claims: shape, truth, eligibility, the engine's pick (S26, S27)


def claim_seats(claim: Claim) -> tuple[int, ...]:
    """The seats whose face-up piles a claim names."""
    if isinstance(claim, PairClaim):
        return (claim.a, claim.b)
    if isinstance(claim, PoolClaim | SlapClaim):
        return (claim.seat,)
    return ()


def kind_of(claim: Claim) -> CallKind:
    """The call a claim belongs to (a tie's entries carry claims only)."""
    if isinstance(claim, PoolClaim):
        return CallKind.SNAP_POOL
    if isinstance(claim, SlapClaim):
        return CallKind.SLAP
    return CallKind.SNAP


def check_claim_shape(state: SnapState, kind: CallKind, claim: Claim | None) -> Claim | None:
    """S27: reject a badly shaped claim (InvalidAction "malformed"); return it normalised.

    A bare call (``claim`` None) lets the engine pick (S26), except a slap: S31 says a slap names
    a personal face-up pile, so a slap without one is malformed.
    """
    rules = state.rules
    n = state.n
    if kind is CallKind.SLAP and not rules.slapjack:
        raise InvalidAction(ActionCode.MALFORMED, "Slap! only in slapjack")
    if rules.single_pile:
        if kind is not CallKind.SNAP or not (claim is None or isinstance(claim, CentralClaim)):
            raise InvalidAction(ActionCode.MALFORMED, "single_pile has one claim: the central pile")
        return claim
    if claim is None:
        if kind is CallKind.SLAP:
            raise InvalidAction(ActionCode.MALFORMED, "a slap names the face-up pile it slaps (S31)")
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


def seen_state(state: SnapState, seq: int) -> SnapState:
    """The state a call on ``seq`` is judged on (S14, S15).

    Raises InvalidAction("no_such_state") for a state the game has not reached, and
    IllegalAction("stale") for one older than the call window (``CALL_WINDOW`` states): the
    engine no longer knows what that caller saw, so it can call the claim neither wrong nor late
    (docs/snap-engine.md).
    """
    if not 0 <= seq <= state.seq:
        raise InvalidAction(ActionCode.NO_SUCH_STATE, f"no state {seq} (now {state.seq})")
    seen = state.at_seq(seq)
    if seen is None:
        raise IllegalAction(
            ActionCode.STALE, f"state {seq} is more than {CALL_WINDOW} states old (now {state.seq})"
        )
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


def correct_claims(state: SnapState, caller: int, kind: CallKind) -> list[Claim]:
    """The claims of ``kind`` that hold now and that ``caller`` could win (for bots and tests)."""
    if state.result is not None or not 0 <= caller < state.n or not state.active[caller]:
        return []
    return [c for c in candidates(state, caller, kind) if call_ineligible(state, caller, c, kind) is None]


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


# --------------------------------------------------------------------------------------------
# Calls and ties


def apply_call(state: SnapState, call: Call) -> tuple[SnapState, list[Event]]:
    """S11-S16, S26, S31: one call, judged on the state its caller saw."""
    n = state.n
    caller = call.caller
    if not 0 <= caller < n:
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"caller {caller}")
    claim = check_claim_shape(state, call.kind, call.claim)
    if call.sound is not None and not 0 <= call.sound < n:
        raise InvalidAction(ActionCode.MALFORMED, f"sound of seat {call.sound}")
    if call.sound not in (None, caller) and not state.rules.animal:
        raise InvalidAction(ActionCode.MALFORMED, "animal sounds only in the animal variant")
    seen = seen_state(state, call.seq)
    reason = call_ineligible(state, caller, claim, call.kind)
    if reason is not None:
        return state, [IgnoredCall(state.seq, caller, str(call.kind), claim_to_dict(claim), reason)]
    work = Work(state)
    if call.sound not in (None, caller):
        wrong_call(work, caller, call.kind, claim, "wrong_sound")  # animal: another player's sound
        return work.finish(call=True)
    if claim is None:
        options = candidates(seen, caller, call.kind)
        if not options:
            wrong_call(work, caller, call.kind, None, "nothing_to_claim")
            return work.finish(call=True)
        # Among the claims the caller saw, those still standing; the engine picks (S26).
        standing = [c for c in options if _stands(seen, state, c, call.as_they_stand)]
        live = [c for c in standing if call_ineligible(state, caller, c, call.kind) is None]
        if not live:
            return state, [IgnoredCall(state.seq, caller, str(call.kind), None, "late")]
        claim = min(live, key=lambda c: pick_key(state, caller, c))
    elif not claim_holds(seen, claim):
        wrong_call(work, caller, call.kind, claim, "no_match")  # S14
        return work.finish(call=True)
    elif not _stands(seen, state, claim, call.as_they_stand):
        return state, [IgnoredCall(state.seq, caller, str(call.kind), claim_to_dict(claim), "late")]  # S15
    capture(work, caller, claim)
    return work.finish(call=True)


def apply_tie(state: SnapState, tie: Tie) -> tuple[SnapState, list[Event]]:
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
        kind = kind_of(raw)
        claim = check_claim_shape(state, kind, raw)
        if claim is None:
            raise InvalidAction(ActionCode.MALFORMED, "a tie entry needs a claim")
        entries.append((caller, claim))
    seen = seen_state(state, tie.seq)
    work = Work(state)
    ignored: list[tuple[int, Claim, str]] = []
    wrong: list[tuple[int, Claim]] = []
    valid: list[tuple[int, Claim]] = []
    for caller, claim in entries:
        reason = call_ineligible(state, caller, claim, kind_of(claim))
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
            capture(work, *group[0])
        elif any(isinstance(claim, SlapClaim) for _, claim in group):
            capture(work, *group[0])
            ignored.extend((caller, claim, "late") for caller, claim in group[1:])
        else:
            _tie(work, group)
    for caller, claim in wrong:
        wrong_call(work, caller, kind_of(claim), claim, "no_match")
    if not valid and not wrong:
        return state, [
            IgnoredCall(state.seq, c, str(kind_of(cl)), claim_to_dict(cl), r) for c, cl, r in ignored
        ]
    work.events[:0] = [
        IgnoredCall(work.seq, c, str(kind_of(cl)), claim_to_dict(cl), r) for c, cl, r in ignored
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


# --------------------------------------------------------------------------------------------
# Resolutions on the working copy


def capture(work: Work, caller: int, claim: Claim) -> None:
    """S11/S12/S24/S31/single_pile: ``caller`` wins ``claim`` (which holds)."""
    down = work.down[caller]
    claim_dict = claim_to_dict(claim)
    if isinstance(claim, PairClaim):
        older, newer = sorted((claim.a, claim.b), key=lambda s: work.flip_no[s])
        packets = work.up[older][::-1] + work.up[newer][::-1]
        work.up[older].clear()
        work.up[newer].clear()
        extra: list[int] = []
        if work.rules.double:
            # double: the top face-down card of each other owner, older pile's owner first.
            for owner in (older, newer):
                if owner != caller and work.down[owner]:
                    extra.append(work.down[owner].pop(0))
        down.extend(packets + extra)
        work.events.append(
            Captured(
                work.seq,
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
        index = work.pool_ids.index(claim.pool)
        pool = work.take_pool(index)
        if work.rules.pool_call is PoolCall.FLIPPER_TAKES_POOL:
            # Seeds 000/001: the flipper of the matching card wins the pool only.
            down.extend(pool[::-1])
            seats: tuple[int, ...] = ()
            moved = len(pool)
        else:
            packet = pool[::-1] + work.up[claim.seat][::-1]
            work.up[claim.seat].clear()
            down.extend(packet)
            seats = (claim.seat,)
            moved = len(packet)
        work.events.append(
            Captured(work.seq, caller, "snap_pool", claim_dict, seats, (claim.pool,), moved, 0)
        )
    elif isinstance(claim, SlapClaim):
        packet = work.up[claim.seat][::-1]
        work.up[claim.seat].clear()
        down.extend(packet)
        work.events.append(Captured(work.seq, caller, "slap", claim_dict, (claim.seat,), (), len(packet), 0))
    else:
        # single_pile: the caller takes the pile turned over and flips next.
        packet = work.central[::-1]
        work.central.clear()
        work.hidden = 0
        down.extend(packet)
        work.turn_override = caller
        work.events.append(Captured(work.seq, caller, "central", claim_dict, (), (), len(packet), 0))


def _tie(work: Work, group: list[tuple[int, Claim]]) -> None:
    """S13/S25: tied calls send their personal piles to the centre, oldest top at the bottom."""
    callers = tuple(caller for caller, _ in group)
    claims = tuple(d for _, claim in group if (d := claim_to_dict(claim)) is not None)
    if work.rules.single_pile:
        work.events.append(Tied(work.seq, callers, claims, None))  # the pile stays where it is
        return
    seats: list[int] = []
    for _, claim in group:
        seats.extend(seat for seat in claim_seats(claim) if seat not in seats)
    pool_claims = [claim for _, claim in group if isinstance(claim, PoolClaim)]
    if not pool_claims:
        pool_id = work.new_pool(_stack(work, seats), "tie", tuple(sorted(seats)))
        work.events.append(Tied(work.seq, callers, claims, pool_id))
        return
    # Tied claims naming different pools tie separately: each pile goes onto the oldest pool
    # it was claimed against (a pile only in pair claims: the group's oldest pool).
    position = {pid: i for i, pid in enumerate(work.pool_ids)}
    group_pools = sorted({c.pool for c in pool_claims}, key=lambda pid: position[pid])
    target: dict[int, int] = {}
    for seat in seats:
        named = [c.pool for c in pool_claims if c.seat == seat]
        target[seat] = min(named, key=lambda pid: position[pid]) if named else group_pools[0]
    for pool_id in group_pools:
        piles = [s for s in seats if target[s] == pool_id]
        cards = _stack(work, piles)
        if cards:
            work.grow_pool(position[pool_id], cards, "tie", tuple(sorted(piles)))
        members = [
            (caller, claim)
            for caller, claim in group
            if pool_id in {target[s] for s in claim_seats(claim)}
            or (isinstance(claim, PoolClaim) and claim.pool == pool_id)
        ]
        work.events.append(
            Tied(
                work.seq,
                tuple(caller for caller, _ in members),
                tuple(d for _, claim in members if (d := claim_to_dict(claim)) is not None),
                pool_id,
            )
        )


def _stack(work: Work, seats: list[int]) -> list[int]:
    """The seats' face-up piles stacked with the most recently flipped top on top."""
    cards: list[int] = []
    for seat in sorted(seats, key=lambda s: -work.flip_no[s]):
        cards.extend(work.up[seat])
        work.up[seat].clear()
    return cards


def wrong_call(work: Work, caller: int, kind: CallKind, claim: Claim | None, reason: str) -> None:
    """S14 (and the single_pile and slapjack penalties)."""
    work.wrong[caller] += 1
    penalty = "none"
    if work.rules.single_pile:
        if work.down[caller]:
            # The penalty card goes face down under the centre: it never shows (see the doc).
            work.central.append(work.down[caller].pop(0))
            work.hidden += 1
            penalty = "card"
    elif kind is CallKind.SLAP:
        if isinstance(claim, SlapClaim) and work.active[claim.seat] and work.down[caller]:
            work.down[claim.seat].append(work.down[caller].pop(0))
            penalty = "card"
    elif work.up[caller]:
        work.new_pool(list(work.up[caller]), "wrong_call", (caller,))
        work.up[caller].clear()
        penalty = "pool"
    work.events.append(WrongCall(work.seq, caller, str(kind), claim_to_dict(claim), reason, penalty))
