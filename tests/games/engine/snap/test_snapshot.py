"""Snapshots (the engine contract's cache): a game continued from ``from_snapshot(to_snapshot(s))``
plays on exactly as the uninterrupted one, and a snapshot's size does not grow with the game.

**The bound** (``size_bound``): the snapshot is JSON written with ``json.dumps`` (compact
separators). Apart from a fixed part (rules, counters, result, the deal: one name per card), it
holds *tables*: the current one, each of the ``CALL_WINDOW`` tables of the call window, and a key
of the cycle history for its anchor and for each recycle under ``recycle_shuffle`` (``R`` of them).
Each table's piles, pools and centre hold every card of the deck at most once, and each distinct
card list is written once, so the card names are at most ``(2 + CALL_WINDOW + R) * D`` (deck size
``D``); a table adds a few numbers per seat. ``R`` is 0 except under ``recycle_shuffle``, where it
counts recycles since the last resolved call (at most the flips S30's cap allows). So the bound
depends on the deck, the seats and the rules, never on how many inputs the game has had.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine.errors import ActionCode, IllegalAction
from games.engine.snap import (
    DECKS,
    PROFILES,
    CapReached,
    EmptyFacedown,
    Event,
    MatchKey,
    PairClaim,
    PoolCall,
    PoolMode,
    SnapRules,
    SnapState,
    apply,
    new_game,
    validate,
)
from games.engine.snap.playout import Temperament, random_input, shuffled_deal
from games.engine.snap.snapshot import InvalidSnapshot, from_snapshot, to_snapshot
from games.engine.snap.state import CALL_WINDOW
from tests.games.engine.snap.helpers import SHAPES, call, rules, skip_unless_slow, start
from tests.games.engine.snap.variants import COMBINED_SETS, SMALL_SETS, STANDARD_SETS, players_for

ALL_SETS = {
    **{f"profile_{name}": r for name, r in PROFILES.items()},
    **SMALL_SETS,
    **STANDARD_SETS,
    **COMBINED_SETS,
}


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def size_bound(state: SnapState) -> int:
    """The module doc's bound, in bytes, for ``state``'s deck, seats and rules."""
    deck = DECKS[state.rules.deck]
    name = max(len(card) for card in deck.cards) + 3  # quotes and a comma
    n = state.n
    recycled = len(state._recycled)
    tables = 2 + CALL_WINDOW + recycled
    per_table = 12 * n + 40  # pile refs, face-up counts, active seats, pool refs, centre, last flipper
    fixed = 1600 + deck.size * name + 40 * n  # rules, deal, counters, flip numbers, result, keys
    return fixed + tables * (deck.size * name + per_table)


def check_bounded(state: SnapState, text: str) -> None:
    assert len(text) <= size_bound(state)
    if state.rules.empty_facedown is not EmptyFacedown.RECYCLE_SHUFFLE:
        assert state._recycled == ()  # the history is one key: the bound is a constant
    else:  # S30: recycles since the last resolved call are at most the flips the cap allows
        assert len(state._recycled) <= state.rules.max_flips + (state.rules.extra_rounds + 1) * state.n


def continue_both(
    original: SnapState, restored: SnapState, rng: random.Random, temper: Temperament, cap_at: int
) -> tuple[SnapState, SnapState]:
    """Play ``original`` and ``restored`` to the end with the same inputs; assert the same events
    at every step and the same state at the end."""
    steps = 0
    while original.result is None:
        action = CapReached() if steps == cap_at else random_input(original, rng, temper)
        steps += 1
        original, events = apply(original, action)
        restored, again = apply(restored, action)
        assert _plain(again) == _plain(events)
        assert (restored.seq, restored.cs, restored.ks, restored.turn) == (
            original.seq,
            original.cs,
            original.ks,
            original.turn,
        )
        if steps % 64 == 0:
            assert to_snapshot(restored) == to_snapshot(original)
    assert restored.result == original.result
    assert to_snapshot(restored) == to_snapshot(original)
    return original, restored


def _plain(events: list[Event]) -> list[dict[str, Any]]:
    return [event.to_dict() for event in events]


def round_trip(state: SnapState) -> SnapState:
    text = dumps(to_snapshot(state))
    check_bounded(state, text)
    restored = from_snapshot(json.loads(text))
    assert to_snapshot(restored) == to_snapshot(state)
    return restored


def play_and_cut(
    rules_: SnapRules, players: int, rng: random.Random, cut: float, temper: Temperament
) -> None:
    state = new_game(rules_, shuffled_deal(rules_, players, rng), rng.randrange(players))
    cut_at = int(cut * 400)
    steps = 0
    while state.result is None and steps < cut_at:
        state, _ = apply(state, random_input(state, rng, temper))
        steps += 1
    restored = round_trip(state)
    if state.result is None:
        continue_both(state, restored, rng, temper, cap_at=rng.randrange(600))
    else:
        assert restored.result == state.result


@pytest.mark.parametrize("name", sorted(ALL_SETS))
def test_a_game_continued_from_its_snapshot_plays_on_identically(name: str) -> None:
    """About 2,000 games: every rule set (profiles, every variant and option value, combinations),
    each cut once at a random point, restored through JSON and played on beside the original."""
    rules_ = ALL_SETS[name]
    small = DECKS[rules_.deck].size <= 12
    rng = random.Random(name)
    for i in range(140 if small else 35):
        temper = Temperament(call=rng.choice([0.05, 0.35, 0.8]), wrong=0.03, late=0.05)
        play_and_cut(rules_, players_for(rules_, i), rng, rng.random() ** 2, temper)


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[SnapRules, int]:
    """Any playable combination of the options, over a profile."""
    deck = draw(st.sampled_from(["shapes", "shapes", "animals", "standard52", "double104"]))
    picture = deck in ("shapes", "animals")
    match_key = MatchKey.RANK
    if picture:
        match_key = MatchKey.PICTURE_ID
    elif deck == "double104":
        match_key = draw(st.sampled_from([MatchKey.RANK, MatchKey.EXACT_CARD]))
    speed = draw(st.booleans())
    base = draw(st.sampled_from(sorted(PROFILES)))
    chosen = replace(
        PROFILES[base],
        deck=deck,
        match_key=match_key,
        picture=picture,
        speed=speed,
        single_pile=draw(st.booleans()) and not speed,
        double=draw(st.booleans()),
        slapjack=draw(st.booleans()) and not picture,
        silent=draw(st.booleans()),
        animal=draw(st.booleans()),
        pool_mode=draw(st.sampled_from(list(PoolMode))),
        empty_facedown=draw(st.sampled_from(list(EmptyFacedown))),
        pool_call=draw(st.sampled_from(list(PoolCall))),
        flipper_may_call=draw(st.booleans()),
        max_flips=draw(st.sampled_from([1000, 200, 40])),
        extra_rounds=draw(st.integers(0, 3)),
    )
    players = draw(st.integers(2, 3 if speed else 6))
    assume(not validate(chosen, players)[0])
    return chosen, players


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=rule_sets(), seed=st.integers(0, 2**32), cut=st.floats(0, 1), call=st.floats(0, 1))
def test_any_rule_combination_continues_identically_from_its_snapshot(
    table: tuple[SnapRules, int], seed: int, cut: float, call: float
) -> None:
    rules_, players = table
    rng = random.Random(seed)
    play_and_cut(rules_, players, rng, cut, Temperament(call=call, wrong=0.05, late=0.05))


@pytest.mark.slow
def test_twenty_thousand_games_continue_identically(request: pytest.FixtureRequest) -> None:
    """The same over 20,000 games: ``pytest -m slow``."""
    skip_unless_slow(request)
    rng = random.Random(20_000)
    sets = list(ALL_SETS.values())
    for i in range(20_000):
        rules_ = sets[i % len(sets)]
        temper = Temperament(call=rng.random(), wrong=0.05, late=0.05)
        play_and_cut(rules_, players_for(rules_, i), rng, rng.random(), temper)


def test_the_snapshot_size_stays_the_same_however_long_the_game() -> None:
    # Seat 1 shows no card and calls wrongly again and again: every call is a resolved call (a new
    # state, S14), nothing moves. 5,000 inputs later the snapshot has not grown.
    state = start(rules(), 2, {})
    state, _ = call(state, 1, PairClaim(0, 1))
    sizes = []
    for i in range(5_000):
        state, events = call(state, 1, PairClaim(0, 1))
        assert events[0].type == "wrong_call" and events[0].penalty == "none"
        if i in (CALL_WINDOW + 1, 4_999):
            sizes.append(len(dumps(to_snapshot(state))))
    assert state.seq == 5_001 and state.wrong_calls == (0, 5_001)
    assert sizes[1] - sizes[0] <= 4  # only two counters (seq, wrong calls) grew from 2 digits to 4


def test_a_state_refers_to_no_other_state_and_keeps_a_bounded_window() -> None:
    state = start(rules(), 4, {})
    rng = random.Random(4)
    for _ in range(600):
        if state.result is not None:
            break
        state, _ = apply(state, random_input(state, rng, Temperament(call=0.5)))
    reached: list[object] = []
    todo: list[object] = [getattr(state, slot) for slot in SnapState.__slots__]
    seen_ids: set[int] = set()
    while todo:
        value = todo.pop()
        if id(value) in seen_ids:
            continue
        seen_ids.add(id(value))
        reached.append(value)
        if isinstance(value, tuple):
            todo.extend(value)
    assert not any(isinstance(value, SnapState) for value in reached)
    nodes = [v for v in reached if isinstance(v, tuple) and len(v) == 9 and _is_board(v[0])]
    assert CALL_WINDOW < len(nodes) <= 2 * CALL_WINDOW


def _is_board(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(pile, tuple) for pile in value)


def test_snapshots_are_plain_json_and_hold_what_the_server_must_keep_secret() -> None:
    state = new_game(SHAPES, shuffled_deal(SHAPES, 3, random.Random(1)), 0, seed=b"server seed")
    data = to_snapshot(state)
    assert json.loads(json.dumps(data)) == data
    assert data["seed"] == b"server seed".hex() and len(data["deal"]) == 12


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format=99),
        lambda d: d.update(seats="3"),
        lambda d: d["piles"][0].append("nonsense"),
        lambda d: d["piles"][0].pop(),
        lambda d: d["table"].pop(),
        lambda d: d.update(turn=7),
        lambda d: d["history"].update(anchor=[0, [1], [0]]),
        lambda d: d.update(rules={"deck": "tarot"}),
    ],
)
def test_a_damaged_snapshot_is_refused(damage: Any) -> None:
    state = start(SHAPES, 3, {})
    data = json.loads(json.dumps(to_snapshot(state)))
    damage(data)
    with pytest.raises(InvalidSnapshot):
        from_snapshot(data)


def test_a_finished_game_round_trips_with_its_result() -> None:
    state = start(SHAPES, 2, {})
    while state.result is None:
        state, _ = apply(state, random_input(state, random.Random(state.seq)))
    restored = from_snapshot(json.loads(dumps(to_snapshot(state))))
    assert restored.result == state.result and restored.is_terminal
    with pytest.raises(IllegalAction) as exc:  # it takes no more inputs, like the original
        apply(restored, CapReached())
    assert exc.value.code is ActionCode.GAME_OVER
