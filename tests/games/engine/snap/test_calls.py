"""Calls: S11-S16, S24-S27 (ties S13, wrong S14, late S15, eligibility S16, picks S26, shape S27)."""

from __future__ import annotations

import pytest

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap import (
    Call,
    CallKind,
    PairClaim,
    PoolCall,
    PoolClaim,
    SnapState,
    Tie,
    apply,
    observe,
)
from games.engine.snap.state import CALL_WINDOW
from tests.games.engine.snap.helpers import CLASSIC, SHAPES, call, down, flip, pools, rules, start, types, up


def three_sevens_and_a_pool() -> SnapState:
    """3 players; pool 1 = [9C]; tops: seat 0 8S over nothing else, seat 1 9H over 4D, seat 2 5H."""
    state = start(CLASSIC, 3, {0: ["9C", "8S"], 1: ["4D", "9H"], 2: ["5H", "2S"]})
    state, _ = flip(state, 2)
    state, events = call(state, 0, PairClaim(0, 1))  # wrong: 9C vs 4D
    assert types(events) == ["pool", "wrong_call"]
    state, _ = flip(state, 3)
    assert pools(state) == [["9C"]] and up(state, 1) == ["9H", "4D"]
    return state


def test_S11_S24_first_caller_takes_both_piles_older_top_first() -> None:
    state = start(CLASSIC, 3, {0: ["2C", "7H"], 1: ["3D", "7S"], 2: ["4H"]})
    state, _ = flip(state, 5)  # 2C 3D 4H 7H 7S
    before = down(state, 2)
    state, events = call(state, 2, PairClaim(0, 1))  # seat 2 holds no seven and may still call
    assert types(events) == ["capture"] and events[0].cards == 4
    assert down(state, 2) == [*before, "2C", "7H", "3D", "7S"]  # reversed(a) + reversed(b), a older
    assert up(state, 0) == [] and up(state, 1) == [] and up(state, 2) == ["4H"]


def test_S2_suit_never_matters() -> None:
    state = start(CLASSIC, 2, {0: ["QH"], 1: ["QC"]})
    state, _ = flip(state, 2)
    state, events = call(state, 0, PairClaim(0, 1))
    assert types(events) == ["capture"]


def test_S12_S24_snap_pool_takes_pool_then_pile() -> None:
    state = three_sevens_and_a_pool()
    before = down(state, 2)
    state, events = call(state, 2, PoolClaim(1, 1), kind=CallKind.SNAP_POOL)
    assert types(events) == ["capture"] and events[0].kind == "snap_pool"
    assert down(state, 2) == [*before, "9C", "4D", "9H"]
    assert pools(state) == [] and up(state, 1) == []


def test_S12_flipper_takes_pool_only_the_matching_piles_owner_wins_the_pool_only() -> None:
    seeds = rules(pool_call=PoolCall.FLIPPER_TAKES_POOL)
    state = start(seeds, 3, {0: ["9C", "8S"], 1: ["4D", "9H"], 2: ["5H", "2S"]})
    state, _ = flip(state, 2)
    state, _ = call(state, 0, PairClaim(0, 1))
    state, _ = flip(state, 3)
    same, events = call(state, 2, PoolClaim(1, 1), kind=CallKind.SNAP_POOL)
    assert same is state and events[0].reason == "not_flipper"
    before = down(state, 1)
    state, events = call(state, 1, None, kind=CallKind.SNAP_POOL)
    assert types(events) == ["capture"]
    assert down(state, 1) == [*before, "9C"] and up(state, 1) == ["9H", "4D"]


def test_S12_a_pool_is_never_claimed_against_another_pool() -> None:
    state = start(CLASSIC, 2, {0: ["9C", "2D", "3D"], 1: ["9D", "4C", "5C"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # wrong (seat 1 shows nothing): pool [9C]
    state, _ = flip(state)
    state, _ = call(state, 1, PairClaim(0, 1))  # wrong: pool [9D]
    assert pools(state) == [["9C"], ["9D"]]
    state, events = call(state, 0, None, kind=CallKind.SNAP_POOL)
    assert types(events) == ["wrong_call"] and events[0].reason == "nothing_to_claim"


def test_S13_S25_tied_snap_makes_a_new_pool_older_top_at_the_bottom() -> None:
    state = start(CLASSIC, 3, {0: ["2C", "7H"], 1: ["3D", "7S"], 2: ["4H"]})
    state, _ = flip(state, 5)
    state, events = apply(state, Tie(state.seq, ((2, PairClaim(0, 1)), (0, PairClaim(0, 1)))))
    assert types(events) == ["pool", "tie"]
    assert pools(state) == [["7S", "3D", "7H", "2C"]]
    assert events[1].callers == (2, 0) and events[1].pool == 1


def test_S13_S25_tied_snap_pool_puts_the_pile_on_the_pool() -> None:
    state = three_sevens_and_a_pool()
    state, events = apply(state, Tie(state.seq, ((2, PoolClaim(1, 1)), (0, PoolClaim(1, 1)))))
    assert types(events) == ["pool_grown", "tie"]
    assert pools(state) == [["9H", "4D", "9C"]] and up(state, 1) == []


def four_sevens() -> SnapState:
    """6 players; seats 0-3 show sevens (seat 3 newest), seats 4, 5 show other cards."""
    piles = {0: ["7C"], 1: ["7D"], 2: ["7H"], 3: ["7S"], 4: ["2C"], 5: ["3C"]}
    state, _ = flip(start(CLASSIC, 6, piles), 6)
    return state


def test_S13_overlapping_claims_send_the_union_to_a_new_pool() -> None:
    state = start(CLASSIC, 4, {0: ["7C"], 1: ["7D"], 2: ["7H"], 3: ["2S"]})
    state, _ = flip(state, 4)
    state, events = apply(state, Tie(state.seq, ((3, PairClaim(0, 1)), (0, PairClaim(1, 2)))))
    assert types(events) == ["pool", "tie"]
    assert pools(state) == [["7H", "7D", "7C"]]  # oldest top at the bottom


def test_S13_overlap_with_a_pool_claim_goes_onto_that_pool() -> None:
    state = start(CLASSIC, 4, {0: ["7C", "7D"], 1: ["2C", "7H"], 2: ["3C", "4C"], 3: ["5C", "6C"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # wrong: pool 1 = [7C]
    state, _ = flip(state, 4)  # 2C 3C 5C, then seat 0: 7D
    state, _ = flip(state)  # seat 1: 7H
    entries = ((2, PairClaim(0, 1)), (3, PoolClaim(1, 1)))
    state, events = apply(state, Tie(state.seq, entries))
    assert types(events) == ["pool_grown", "tie"]
    assert pools(state) == [["7H", "2C", "7D", "7C"]]


def test_S13_tied_claims_on_different_pools_tie_separately() -> None:
    piles = {0: ["7C", "7D"], 1: ["7H", "7S"], 2: ["2C"], 3: ["3C"], 4: ["4C"], 5: ["5C"]}
    state = start(CLASSIC, 6, piles)
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # pool 1 = [7C]
    state, _ = flip(state)
    state, _ = call(state, 1, PairClaim(0, 1))  # pool 2 = [7H]
    state, _ = flip(state, 6)  # 2C 3C 4C 5C 7D 7S
    entries = ((2, PoolClaim(1, 0)), (3, PoolClaim(1, 0)), (4, PoolClaim(2, 1)), (5, PoolClaim(2, 1)))
    state, events = apply(state, Tie(state.seq, entries))
    assert types(events) == ["pool_grown", "tie", "pool_grown", "tie"]
    assert pools(state) == [["7D", "7C"], ["7S", "7H"]]


def test_S13_disjoint_claims_are_each_honoured() -> None:
    state = four_sevens()
    state, events = apply(state, Tie(state.seq, ((4, PairClaim(0, 1)), (5, PairClaim(2, 3)))))
    assert types(events) == ["capture", "capture"]
    assert down(state, 4)[-2:] == ["7C", "7D"] and down(state, 5)[-2:] == ["7H", "7S"]


def test_S13_a_tie_on_a_claim_that_does_not_hold_is_a_wrong_call_by_each() -> None:
    state = four_sevens()
    state, events = apply(state, Tie(state.seq, ((0, PairClaim(3, 4)), (1, PairClaim(3, 4)))))
    assert types(events) == ["pool", "wrong_call", "pool", "wrong_call"]
    assert state.wrong_calls[:2] == (1, 1)


def test_S13_within_a_tie_a_wrong_claim_is_its_callers_and_the_rest_tie() -> None:
    state = four_sevens()
    entries = ((4, PairClaim(0, 1)), (5, PairClaim(0, 1)), (2, PairClaim(4, 5)))
    state, events = apply(state, Tie(state.seq, entries))
    assert types(events) == ["pool", "tie", "pool", "wrong_call"]
    assert pools(state) == [["7D", "7C"], ["7H"]]  # the tie's pool, then seat 2's wrong call


def test_S13_an_ineligible_callers_part_is_ignored_so_the_other_wins() -> None:
    tournament = rules(flipper_may_call=False)
    state = start(tournament, 3, {0: ["7C"], 1: ["7D"], 2: ["2H"]})
    state, _ = flip(state, 2)  # seat 1 flipped last
    state, events = apply(state, Tie(state.seq, ((1, PairClaim(0, 1)), (2, PairClaim(0, 1)))))
    assert types(events) == ["ignored_call", "capture"] and events[1].seat == 2


def test_S14_wrong_call_sends_the_callers_faceup_pile_to_a_new_pool() -> None:
    state = start(CLASSIC, 2, {0: ["2C", "5H"], 1: ["3D", "9S"]})
    state, _ = flip(state, 3)
    state, events = call(state, 0, PairClaim(0, 1))
    assert types(events) == ["pool", "wrong_call"] and events[1].penalty == "pool"
    assert pools(state) == [["5H", "2C"]] and up(state, 0) == []
    state, events = call(state, 0, PairClaim(0, 1))  # nothing face up: loses nothing
    assert types(events) == ["wrong_call"] and events[0].penalty == "none"
    assert state.wrong_calls == (2, 0)


def seat_zero_out() -> tuple[SnapState, list[str]]:
    """3 players, shapes deck: everything flipped, then seat 0's wrong call eliminates it."""
    piles = {
        0: ["circle.1", "square.1", "star.1", "heart.1"],
        1: ["moon.1", "sun.1", "circle.2", "square.2"],
        2: ["star.2", "heart.2", "moon.2", "sun.2"],
    }
    state, _ = flip(start(SHAPES, 3, piles), 12)  # no face-down card left; tops do not match
    state, events = call(state, 0, PairClaim(1, 2))
    return state, types(events)


def test_S14_S17_a_wrong_call_can_eliminate() -> None:
    state, events = seat_zero_out()
    assert events == ["pool", "wrong_call", "eliminated"]
    assert not state.active[0] and state.eliminations == ((0,),) and state.result is None


def test_S15_a_claim_taken_first_is_late_and_ignored() -> None:
    state = start(CLASSIC, 3, {0: ["7H"], 1: ["7S"], 2: ["2D"]})
    state, _ = flip(state, 2)
    seen = state.seq
    state, _ = call(state, 2, PairClaim(0, 1))
    after, events = call(state, 0, PairClaim(0, 1), seq=seen)
    assert after is state and types(events) == ["ignored_call"] and events[0].reason == "late"
    after, events = call(state, 0, None, seq=seen)  # a bare call too
    assert after is state and events[0].reason == "late"


def test_S15_a_claim_covered_first_is_late_but_one_that_never_held_is_wrong() -> None:
    state = start(CLASSIC, 3, {0: ["7H", "KD"], 1: ["7S", "QD"], 2: ["2D"]})
    state, _ = flip(state, 2)
    seen = state.seq
    state, _ = flip(state, 2)  # seat 2, then seat 0 covers 7H with KD
    after, events = call(state, 2, PairClaim(0, 1), seq=seen)
    assert after is state and events[0].reason == "late"
    after, events = call(state, 2, PairClaim(0, 2), seq=seen)  # 7H vs nothing: never held
    assert types(events) == ["pool", "wrong_call"]


def test_S15_a_call_on_an_old_state_still_wins_if_the_claim_stands() -> None:
    state = start(CLASSIC, 3, {0: ["7H"], 1: ["7S"], 2: ["2D"]})
    state, _ = flip(state, 2)
    seen = state.seq
    state, _ = flip(state)  # seat 2 flips: the sevens are still on top
    state, events = call(state, 0, PairClaim(0, 1), seq=seen)
    assert types(events) == ["capture"]


def test_S16_only_active_players_call() -> None:
    state, _ = seat_zero_out()
    after, events = call(state, 0, None)
    assert after is state and events[0].reason == "not_active"


def test_S16_flipper_may_not_call_until_someone_else_flips() -> None:
    tournament = rules(flipper_may_call=False)
    state = start(tournament, 3, {0: ["7C", "4S"], 1: ["7D"], 2: ["2H"]})
    state, _ = flip(state, 2)
    after, events = call(state, 1, PairClaim(0, 1))
    assert after is state and events[0].reason == "flipper"
    state, _ = flip(state)  # seat 2 flips: seat 1 may call again
    state, events = call(state, 1, PairClaim(0, 1))
    assert types(events) == ["capture"]


def test_S25_pools_are_numbered_in_creation_order_and_renumbered() -> None:
    state = start(CLASSIC, 2, {0: ["9C", "2D", "9H"], 1: ["5D", "4C", "5C"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # pool id 1: [9C]
    state, _ = flip(state)
    state, _ = call(state, 1, PairClaim(0, 1))  # pool id 2: [5D]
    state, _ = flip(state, 3)  # 2D 4C 9H? no: seat 0 2D, seat 1 4C, seat 0 9H
    assert [(p["id"], p["number"]) for p in observe(state, 1).to_dict()["pools"]] == [(1, 1), (2, 2)]
    state, events = call(state, 1, PoolClaim(1, 0), kind=CallKind.SNAP_POOL)
    assert types(events) == ["capture"]
    assert [(p["id"], p["number"], p["top"]) for p in observe(state, 1).to_dict()["pools"]] == [(2, 1, "5D")]


def test_S26_bare_call_picks_the_most_recently_flipped_claim() -> None:
    state = start(CLASSIC, 4, {0: ["7C"], 1: ["7D"], 2: ["9H"], 3: ["9S"]})
    state, _ = flip(state, 4)
    state, events = call(state, 0, None)
    assert events[0].claim == {"type": "pair", "a": 2, "b": 3}


def test_S26_then_most_cards() -> None:
    # Sevens on seats 1, 2 and 3; seat 3 flipped last. (1, 3) and (2, 3) tie on recency; seat 1's
    # pile holds two cards and seat 2's one, so (1, 3) moves more cards.
    state = start(CLASSIC, 4, {0: ["2C", "3C"], 1: ["4C", "7C"], 2: ["5C", "7D"], 3: ["6C", "7H"]})
    state, _ = flip(state, 4)  # 2C 4C 5C 6C
    state, _ = call(state, 2, PairClaim(0, 1))  # wrong: seat 2's 5C goes to a pool
    state, _ = flip(state, 4)  # 3C 7C 7D 7H
    assert [len(up(state, s)) for s in range(4)] == [2, 2, 1, 2]
    state, events = call(state, 0, None)
    assert events[0].claim == {"type": "pair", "a": 1, "b": 3} and events[0].cards == 4


def test_S26_nearest_breaks_equal_recency_and_size() -> None:
    # Three sevens each alone on seats 1, 2, 4 of 5; the newest is seat 4. (1,4) and (2,4) tie on
    # recency and size; from caller 0 the sorted distances are (1, 4) and (2, 4): seat 1 is nearer.
    state = start(CLASSIC, 5, {0: ["2C"], 1: ["7C"], 2: ["7D"], 3: ["3C"], 4: ["7H"]})
    state, _ = flip(state, 5)
    state, events = call(state, 0, None)
    assert events[0].claim == {"type": "pair", "a": 1, "b": 4}
    # From caller 2 the distances are (4, 2) -> (2, 4) and (0, 2): its own seat is nearest.
    state2 = start(CLASSIC, 5, {0: ["2C"], 1: ["7C"], 2: ["7D"], 3: ["3C"], 4: ["7H"]})
    state2, _ = flip(state2, 5)
    state2, events = call(state2, 2, None)
    assert events[0].claim == {"type": "pair", "a": 2, "b": 4}


def test_S26_a_bare_snap_claims_only_pairs() -> None:
    state = three_sevens_and_a_pool()  # pool top 9C matches seat 1's 9H; no pair holds
    state, events = call(state, 2, None, kind=CallKind.SNAP)
    assert types(events)[-1] == "wrong_call" and events[-1].reason == "nothing_to_claim"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Call(7, CallKind.SNAP, None, 0), ActionCode.NO_SUCH_SEAT),
        (Call(0, CallKind.SNAP, PairClaim(1, 1), 0), ActionCode.MALFORMED),
        (Call(0, CallKind.SNAP, PairClaim(0, 9), 0), ActionCode.MALFORMED),
        (Call(0, CallKind.SNAP, PoolClaim(1, 0), 0), ActionCode.MALFORMED),
        (Call(0, CallKind.SNAP_POOL, PairClaim(0, 1), 0), ActionCode.MALFORMED),
        (Call(0, CallKind.SLAP, None, 0), ActionCode.MALFORMED),
        (Call(0, CallKind.SNAP, None, 99), ActionCode.NO_SUCH_STATE),
        (Call(0, CallKind.SNAP, None, -1), ActionCode.NO_SUCH_STATE),
        (Call(0, CallKind.SNAP, None, 0, sound=1), ActionCode.MALFORMED),
        (Tie(0, ((0, PairClaim(1, 2)), (0, PairClaim(1, 2)))), ActionCode.MALFORMED),
        (Tie(0, ()), ActionCode.MALFORMED),
    ],
)
def test_S27_malformed_calls_are_rejected_without_effect(action: Call | Tie, code: ActionCode) -> None:
    state = start(CLASSIC, 3, {})
    with pytest.raises(InvalidAction) as exc:
        apply(state, action)
    assert exc.value.code is code


@pytest.mark.parametrize(
    "claim",
    [PairClaim(0, 1), PairClaim(0, 2), PoolClaim(5, 0)],
    ids=["different_ranks", "empty_pile", "no_such_pool"],
)
def test_S27_well_formed_claims_that_do_not_hold_are_wrong(claim: PairClaim | PoolClaim) -> None:
    state = start(CLASSIC, 3, {0: ["7C"], 1: ["8D"]})
    state, _ = flip(state, 2)
    kind = CallKind.SNAP_POOL if isinstance(claim, PoolClaim) else CallKind.SNAP
    state, events = call(state, 1, claim, kind=kind)
    assert types(events)[-1] == "wrong_call" and events[-1].reason == "no_match"


def test_S27_a_claim_naming_an_eliminated_seat_is_wrong() -> None:
    state, _ = seat_zero_out()
    state, events = call(state, 2, PairClaim(0, 1))
    assert "wrong_call" in types(events) and events[types(events).index("wrong_call")].reason == "no_match"


def test_S14_S15_a_call_is_judged_on_any_state_of_the_call_window_and_stale_before_it() -> None:
    # Sevens on top at seq 2; then flips only, and the tops of seats 0 and 1 never match again.
    first = [
        "7C",
        "AC",
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
        "AD",
        "2D",
        "3D",
        "4D",
    ]
    second = [
        "7D",
        "8D",
        "9D",
        "TD",
        "JD",
        "QD",
        "KD",
        "AH",
        "2H",
        "3H",
        "4H",
        "5H",
        "6H",
        "8H",
        "9H",
        "TH",
        "JH",
    ]
    state = start(CLASSIC, 2, {0: first, 1: second})
    state, _ = flip(state, 2)
    seen = state.seq
    state, _ = flip(state, CALL_WINDOW)  # seq 34: seq 2 is exactly CALL_WINDOW states old
    late, events = call(state, 1, PairClaim(0, 1), seq=seen)
    assert late is state and types(events) == ["ignored_call"] and events[0].reason == "late"  # S15
    wrong, events = call(state, 0, PairClaim(0, 1), seq=seen + 1)  # 7C against nothing: wrong (S14)
    assert types(events)[-1] == "wrong_call" and wrong.wrong_calls == (1, 0)
    state, _ = flip(state)  # seq 35: seq 2 has left the window
    for caller, seq in ((1, seen), (0, seen)):
        with pytest.raises(IllegalAction) as exc:
            call(state, caller, PairClaim(0, 1), seq=seq)
        assert exc.value.code is ActionCode.STALE  # neither late nor wrong: refused, no effect
    assert state.at_seq(seen) is None and state.at_seq(seen + 1) is not None
    with pytest.raises(InvalidAction) as bad:
        call(state, 1, PairClaim(0, 1), seq=state.seq + 1)
    assert bad.value.code is ActionCode.NO_SUCH_STATE


def test_S14_the_window_holds_the_table_as_the_caller_saw_it_across_resolved_calls() -> None:
    # Two disjoint pairs (four 7s, S13): the second caller's seq comes before the first capture.
    state = start(CLASSIC, 4, {0: ["7C"], 1: ["7D"], 2: ["7H"], 3: ["7S"]})
    state, _ = flip(state, 4)
    seen = state.seq
    state, events = call(state, 0, PairClaim(0, 1), seq=seen)
    assert types(events) == ["capture"]
    state, events = call(state, 3, PairClaim(2, 3), seq=seen)
    assert types(events) == ["capture"] and events[0].seat == 3
    state, events = call(state, 1, PairClaim(0, 1), seq=seen)  # held then, taken since: late
    assert types(events) == ["ignored_call"] and events[0].reason == "late"
