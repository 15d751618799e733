"""The engine contract for Snap (``games.engine.snap.contract.ENGINE``): options, dealing from a
seed or a recorded deal, seeded shuffled recycles (S22), replay, views and snapshots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import dealing
from games.engine.errors import ActionCode, IllegalAction, InvalidAction, InvalidRules
from games.engine.protocol import Engine, GameKind, engine_for
from games.engine.snap import (
    DECKS,
    Action,
    Deal,
    Flip,
    SnapState,
    Tick,
    action_from_dict,
    action_to_dict,
    new_game,
    recycle_due,
)
from games.engine.snap.contract import ENGINE, game_rules, recycle_order
from games.engine.snap.playout import Temperament, random_input
from games.engine.snap.rules import SnapRulesProblem
from tests.games.engine.snap.variants import SMALL_SETS, STANDARD_SETS

SHUFFLE = {"empty_facedown": "recycle_shuffle"}


def play(state: SnapState, rng: random.Random, limit: int = 3000) -> tuple[SnapState, list[Action]]:
    """Random inputs through the contract; under a seed, recycles are sent without orders."""
    actions: list[Action] = []
    while not ENGINE.is_terminal(state) and len(actions) < limit:
        action = random_input(state, rng, Temperament(call=0.3, wrong=0.02, late=0.02))
        if state.seed is not None:
            if isinstance(action, Flip):
                action = Flip(action.seat)
            elif isinstance(action, Tick):
                action = Tick()
        actions.append(action)
        state, _events = ENGINE.apply(state, action)
    return state, actions


def test_the_registry_gives_the_snap_engine() -> None:
    assert engine_for(GameKind.SNAP) is ENGINE and engine_for("snap") is ENGINE
    assert isinstance(ENGINE, Engine) and ENGINE.kind is GameKind.SNAP
    assert ENGINE.seat_range() == (2, 6)  # S1


def test_check_options_reports_the_rules_problems() -> None:
    ENGINE.check_options({}, 4)
    ENGINE.check_options({"profile": "classic", "speed": True}, 3)
    with pytest.raises(InvalidRules) as exc:
        ENGINE.check_options({"speed": "yes", "colour": "red"}, 7)
    codes = {problem.code for problem in exc.value.errors}  # type: ignore[attr-defined]
    assert codes == {SnapRulesProblem.NOT_TRUE_OR_FALSE, SnapRulesProblem.UNKNOWN_OPTION}
    with pytest.raises(InvalidRules) as exc:
        ENGINE.check_options({}, 7)
    assert [p.code for p in exc.value.errors] == [SnapRulesProblem.PLAYER_COUNT]  # type: ignore[attr-defined]
    for profile in ("lightning", 3):
        with pytest.raises(InvalidRules) as exc:
            ENGINE.check_options({"profile": profile}, 3)
        assert [p.code for p in exc.value.errors] == [SnapRulesProblem.UNKNOWN_PROFILE]  # type: ignore[attr-defined]


def test_a_seed_deals_the_documented_shuffle_and_always_the_same() -> None:
    seed = b"server+clients"
    state = ENGINE.new_game({}, seats=4, dealer=2, seed=seed)
    assert state.deal.order == dealing.shuffled(DECKS["standard52"].cards, seed, b"deal")
    again = ENGINE.new_game({}, seats=4, dealer=2, seed=seed)
    assert ENGINE.to_snapshot(again) == ENGINE.to_snapshot(state)
    other = ENGINE.new_game({}, seats=4, dealer=2, seed=b"another seed")
    assert other.deal.order != state.deal.order
    # S4 from that order: card i goes to seat (dealer + 1 + i) mod n; the last dealt is on top.
    assert state.facedown(3)[0] == DECKS["standard52"].index()[state.deal.order[-4]]


def test_a_recorded_deal_is_dealt_as_given() -> None:
    order = list(DECKS["shapes"].cards)
    state = ENGINE.new_game(
        {"profile": None, "deck": "shapes", "match_key": "picture_id", "picture": True},
        seats=3,
        dealer=0,
        deals=[order],
    )
    plain = new_game(
        game_rules({"deck": "shapes", "match_key": "picture_id", "picture": True}), Deal(3, tuple(order)), 0
    )
    assert ENGINE.to_snapshot(state) == ENGINE.to_snapshot(plain) and state.seed is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({}, ValueError),
        ({"seed": b"s", "deals": [[]]}, ValueError),
        ({"seed": b""}, ValueError),
        ({"deals": [list(DECKS["standard52"].cards)] * 2}, InvalidAction),
        ({"deals": [["AS"]]}, InvalidAction),
    ],
)
def test_new_game_takes_exactly_one_seed_or_one_whole_deal(kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        ENGINE.new_game({}, seats=2, dealer=0, **kwargs)


@pytest.mark.parametrize(
    "name", ["classic", "speed", "slapjack", "feed_pool", "recycle_shuffle", "single_pile"]
)
@pytest.mark.parametrize("dealt", ["seed", "deals"])
def test_replaying_the_setup_and_actions_gives_the_played_state(name: str, dealt: str) -> None:
    rules = STANDARD_SETS[name]
    options = {"profile": "classic", **{k: v for k, v in rules.to_dict().items()}}
    rng = random.Random(f"{name}{dealt}")
    seats = 3
    if dealt == "seed":
        start = ENGINE.new_game(options, seats=seats, dealer=1, seed=b"seed:" + name.encode())
    else:
        order = list(DECKS[rules.deck].cards)
        rng.shuffle(order)
        start = ENGINE.new_game(options, seats=seats, dealer=1, deals=[order])
    final, actions = play(start, rng)
    setup = ENGINE.game_setup(final)
    assert json.loads(json.dumps(setup)) == setup  # the setup is plain JSON
    logged = [ENGINE.action_from_dict(json.loads(json.dumps(ENGINE.action_to_dict(a)))) for a in actions]
    again = ENGINE.replay(setup, logged)
    assert ENGINE.to_snapshot(again) == ENGINE.to_snapshot(final)
    assert ENGINE.result(again) == ENGINE.result(final) and ENGINE.is_terminal(final)


def test_S22_a_seeded_game_draws_its_shuffled_recycles_from_the_seed() -> None:
    seed = b"recycles"
    state = ENGINE.new_game(SHUFFLE, seats=2, dealer=1, seed=seed)
    while recycle_due(state) != [state.turn]:
        state, _ = ENGINE.apply(state, Flip(state.turn))  # type: ignore[arg-type]
    seat = state.turn
    assert seat is not None
    # A client never sends the order: one that does is malformed.
    with pytest.raises(InvalidAction) as exc:
        ENGINE.apply(state, Flip(seat, tuple(DECKS["standard52"].cards[:2])))
    assert exc.value.code is ActionCode.MALFORMED
    names = state.deck.cards
    pile = [names[c] for c in state.faceup(seat)]
    expected = dealing.shuffled(pile, seed, b"recycle:%d:%d" % (state.flips, seat))
    assert recycle_order(state, seat) == expected
    after, events = ENGINE.apply(state, Flip(seat))
    assert [e.type for e in events][:2] == ["recycle", "flip"]
    assert [names[c] for c in after.cs[seat]] == list(expected)  # flip order = the new face-down pile


def test_S22_with_a_recorded_deal_the_recycle_order_is_an_input() -> None:
    order = list(DECKS["standard52"].cards)
    state = ENGINE.new_game(SHUFFLE, seats=2, dealer=1, deals=[order])
    while recycle_due(state) != [state.turn]:
        state, _ = ENGINE.apply(state, Flip(state.turn))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as exc:
        ENGINE.apply(state, Flip(state.turn))  # type: ignore[arg-type]
    assert exc.value.code is ActionCode.ORDER_REQUIRED


def test_a_seeded_speed_game_draws_every_recycling_seats_order() -> None:
    state = ENGINE.new_game({**SHUFFLE, "speed": True}, seats=2, dealer=0, seed=b"speed")
    while not recycle_due(state):
        state, _ = ENGINE.apply(state, Tick())
    due = recycle_due(state)
    after, events = ENGINE.apply(state, Tick())
    assert sorted(e.seat for e in events if e.type == "recycle") == due  # type: ignore[attr-defined]
    with pytest.raises(InvalidAction):
        ENGINE.apply(state, Tick(((due[0], ("AS",)),)))
    assert after.seq == state.seq + 1


def test_observe_never_shows_a_face_down_card_nor_the_seed() -> None:
    rng = random.Random(7)
    for rules in [*SMALL_SETS.values(), STANDARD_SETS["classic"]]:
        options = rules.to_dict()
        state = ENGINE.new_game(options, seats=3 if rules.speed else 4, dealer=0, seed=b"secret")
        steps = 0
        while not ENGINE.is_terminal(state) and steps < 400:
            names = state.deck.cards
            faceup = {names[c] for s in range(state.n) for c in state.faceup(s)}
            faceup |= {names[p.cards[0]] for p in state.pools}
            faceup |= {names[c] for c in state.central[: len(state.central) - state.central_hidden]}
            for seat in (None, *range(state.n)):
                text = json.dumps(ENGINE.observe(state, seat).to_dict())
                assert b"secret".hex() not in text
                shown = {name for name in names if f'"{name}"' in text}
                assert shown <= faceup
            state, _ = ENGINE.apply(state, _next(state, rng))
            steps += 1


def _next(state: SnapState, rng: random.Random) -> Action:
    action = random_input(state, rng, Temperament(call=0.4, wrong=0.05))
    if isinstance(action, Flip):
        return Flip(action.seat)
    return Tick() if isinstance(action, Tick) else action


def test_actions_and_snapshots_go_through_json() -> None:
    state = ENGINE.new_game({}, seats=3, dealer=0, seed=b"json")
    final, actions = play(state, random.Random(3), limit=150)
    for action in actions:
        assert ENGINE.action_from_dict(ENGINE.action_to_dict(action)) == action
        assert action_from_dict(action_to_dict(action)) == action
    data = json.loads(json.dumps(ENGINE.to_snapshot(final)))
    restored = ENGINE.from_snapshot(data)
    assert ENGINE.game_setup(restored) == ENGINE.game_setup(final)
    assert ENGINE.legal_actions(restored, 1) == ENGINE.legal_actions(final, 1)
