"""The API around the rules: legal actions, immutability, serialisation, errors, pool picks."""

from __future__ import annotations

import copy
import random

import pytest

from games.engine.errors import IllegalAction, InvalidAction
from games.engine.snap import (
    Call,
    CallKind,
    CapReached,
    CentralClaim,
    Flip,
    PairClaim,
    PoolClaim,
    SlapClaim,
    Tick,
    Tie,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    new_game,
    observe,
)
from games.engine.snap.playout import correct_claims, random_game
from tests.games.engine.snap.helpers import CLASSIC, call, flip, pools, rules, start, types


def test_S26_pool_claims_most_recent_then_most_cards_then_lower_pool_number() -> None:
    state = start(CLASSIC, 3, {0: ["9C", "2D", "3D"], 1: ["9D", "4C", "9H"], 2: ["5C", "6C", "9S"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # wrong: pool 1 = [9C]
    state, _ = flip(state)
    state, _ = call(state, 1, PairClaim(0, 1))  # wrong: pool 2 = [9D]
    state, _ = flip(state, 6)  # 5C 2D 4C 6C 3D 9H; seat 2 is next
    assert pools(state) == [["9C"], ["9D"]]
    # Seat 1 shows 9H (newest nine). Both pools match it with equal sizes: the lower number wins.
    state, events = call(state, 0, None, kind=CallKind.SNAP_POOL)
    assert events[0].claim == {"type": "pool", "pool": 1, "seat": 1}
    state, _ = flip(state)  # seat 2: 9S matches pool 2
    state, events = call(state, 0, None, kind=CallKind.SNAP_POOL)
    assert events[0].claim == {"type": "pool", "pool": 2, "seat": 2}


def test_apply_never_mutates_its_state() -> None:
    game = random_game(CLASSIC, 4, random.Random(8))
    state = new_game(CLASSIC, game.deal, game.dealer)
    for action in game.inputs[:300]:
        snapshot = (state.seq, state.cs, state.ks, state.pools, state.active, state.turn, state.result)
        new, _ = apply(state, action)
        assert (
            state.seq,
            state.cs,
            state.ks,
            state.pools,
            state.active,
            state.turn,
            state.result,
        ) == snapshot
        state = new


def test_branching_from_an_old_state_keeps_both_lines_correct() -> None:
    state = start(rules(max_flips=1000), 2, {})
    early, _ = flip(state, 3)
    late, _ = flip(early, 20)  # extends the shared cycle history
    other, _ = flip(early, 20)  # the same flips again from the earlier state: a branch
    assert other.result == late.result and other.ks == late.ks


def test_legal_actions_are_all_accepted() -> None:
    game = random_game(rules(slapjack=True), 3, random.Random(4))
    state = new_game(game.rules, game.deal, game.dealer)
    for action in game.inputs[:120]:
        for seat in range(state.n):
            for legal in legal_actions(state, seat):
                apply(state, legal)  # never raises
        state, _ = apply(state, action)
    assert legal_actions(game.final, 0) == []


def test_legal_actions_contain_the_correct_claims_and_the_flip() -> None:
    state = start(CLASSIC, 3, {0: ["7C"], 1: ["7D"]})
    state, _ = flip(state, 2)
    actions = legal_actions(state, 2)
    assert Flip(2) in actions
    assert Call(2, CallKind.SNAP, PairClaim(0, 1), state.seq) in actions
    assert correct_claims(state, 2, CallKind.SNAP) == [PairClaim(0, 1)]
    assert Flip(0) not in legal_actions(state, 0)


@pytest.mark.parametrize(
    "action",
    [
        Flip(1),
        Flip(2, ("AC", "KD")),
        Tick(((0, ("AC",)),)),
        Call(1, CallKind.SNAP, PairClaim(0, 2), 4, sound=2),
        Call(1, CallKind.SNAP_POOL, PoolClaim(3, 0), 4),
        Call(1, CallKind.SLAP, SlapClaim(0), 4),
        Call(1, CallKind.SNAP, CentralClaim(), 4),
        Call(1, CallKind.SNAP, None, 4),
        Tie(5, ((0, PairClaim(1, 2)), (2, PoolClaim(1, 1)))),
        CapReached(),
    ],
)
def test_inputs_round_trip_through_dicts(action: object) -> None:
    assert action_from_dict(action_to_dict(action)) == action  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [{"type": "jump"}, {"type": "flip"}, {"type": "call", "caller": 0}])
def test_malformed_input_dicts_are_rejected(data: dict[str, object]) -> None:
    with pytest.raises(InvalidAction) as exc:
        action_from_dict(data)
    assert exc.value.code == "malformed"


def test_a_finished_game_takes_no_more_inputs() -> None:
    game = random_game(CLASSIC, 2, random.Random(1))
    for action in (Flip(0), Call(0, CallKind.SNAP, None, game.final.seq), CapReached()):
        with pytest.raises(IllegalAction) as exc:
            apply(game.final, action)
        assert exc.value.code == "game_over"
    assert observe(game.final, 0).result == game.final.result


def test_S21_result_to_dict_is_json_ready() -> None:
    game = random_game(CLASSIC, 3, random.Random(2))
    result = game.final.result
    assert result is not None
    data = result.to_dict()
    assert set(data) == {
        "winner",
        "ended_by",
        "adjudicated",
        "elimination_order",
        "placings",
        "cards",
        "wrong_calls",
    }
    assert data["wrong_calls"] == list(game.final.wrong_calls)
    assert isinstance(data["ended_by"], str) and len(data["placings"]) == 3
    assert copy.deepcopy(data) == data
    assert types(list(game.events))[-1] == "end"
