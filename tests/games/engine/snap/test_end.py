"""Elimination and the end of a game: S17-S21, S28-S30."""

from __future__ import annotations

import random

import pytest

from games.engine.snap import (
    DECKS,
    CallKind,
    CapReached,
    Deal,
    EmptyFacedown,
    EndReason,
    Flip,
    PairClaim,
    SlapClaim,
    SnapState,
    Tick,
    Tie,
    apply,
    new_game,
)
from games.engine.snap.playout import Temperament, random_input, shuffled_deal
from tests.games.engine.snap.helpers import SHAPES, call, down, flip, pools, rules, start, types
from tests.games.engine.snap.variants import COMBINED_SETS, SMALL_SETS, STANDARD_SETS, players_for


def test_S17_S28_players_emptied_by_one_input_are_out_at_once_and_share_a_placing() -> None:
    piles = {
        0: ["circle.1", "square.1", "star.1", "heart.1"],
        1: ["moon.1", "sun.1", "circle.2", "heart.2"],
        2: ["star.2", "square.2", "moon.2", "sun.2"],
    }
    state, _ = flip(start(SHAPES, 3, piles), 12)  # tops: heart.1, heart.2, sun.2; nothing face down
    state, events = call(state, 2, PairClaim(0, 1))  # off turn for both losers (seat 0 is on turn)
    assert types(events) == ["capture", "eliminated", "end"]
    assert events[1].seats == (0, 1)
    result = state.result
    assert result is not None and result.winner == 2 and result.ended_by is EndReason.LAST_PLAYER
    assert result.placings == (2, 2, 1) and result.elimination_order == ((0, 1),)
    assert not result.adjudicated and state.turn is None


def test_S18_S24_last_player_takes_every_pool_oldest_first_and_wins() -> None:
    piles = {
        0: ["circle.1", "square.1", "star.1", "heart.1"],
        1: ["moon.1", "sun.1", "circle.2", "square.2"],
        2: ["star.2", "heart.2", "moon.2", "sun.2"],
    }
    state, _ = flip(start(SHAPES, 3, piles), 12)
    state, _ = call(state, 0, PairClaim(1, 2))  # wrong: pool 1 = seat 0's pile; seat 0 is out
    state, events = call(state, 1, PairClaim(0, 2))  # wrong: pool 2 = seat 1's pile; seat 1 is out
    assert types(events) == ["pool", "wrong_call", "eliminated", "capture", "end"]
    assert pools(state) == []
    assert down(state, 2) == [
        *["circle.1", "square.1", "star.1", "heart.1"],  # pool 1 turned over
        *["moon.1", "sun.1", "circle.2", "square.2"],  # then pool 2
    ]
    result = state.result
    assert result is not None and result.winner == 2 and result.placings == (3, 2, 1)
    assert result.elimination_order == ((0,), (1,)) and result.cards == (0, 0, 12)


def test_S19_a_resolution_leaving_nobody_is_a_draw() -> None:
    piles = {0: ["circle.1", "square.1", "star.1", "heart.1", "moon.1", "sun.1"]}
    state, _ = flip(start(SHAPES, 2, piles), 12)  # tops sun.1 and sun.2, nothing face down
    state, events = apply(state, Tie(state.seq, ((0, PairClaim(0, 1)), (1, PairClaim(0, 1)))))
    assert types(events) == ["pool", "tie", "eliminated", "end"]
    result = state.result
    assert result is not None and result.winner is None and result.ended_by is EndReason.NOBODY_LEFT
    assert result.placings == (1, 1)


def test_S20_dead_state_at_the_deal_is_adjudicated() -> None:
    piles = {
        0: ["circle.1", "circle.2", "square.1", "square.2"],
        1: ["star.1", "star.2", "heart.1", "heart.2"],
        2: ["moon.1", "moon.2", "sun.1", "sun.2"],
    }
    state = start(SHAPES, 3, piles)
    result = state.result
    assert result is not None and result.ended_by is EndReason.DEAD_STATE and result.adjudicated
    assert result.winner is None and result.placings == (1, 1, 1)


def test_S20_S21_S28_dead_state_after_calls_ranks_by_cards_then_elimination() -> None:
    piles = {
        0: ["square.1", "circle.1", "circle.2"],
        1: ["square.2", "star.1", "star.2"],
        2: ["heart.1", "heart.2", "moon.1"],
        3: ["moon.2", "sun.1", "sun.2"],
    }
    state, _ = flip(start(SHAPES, 4, piles), 12)  # tops circle.2, star.2, moon.1, sun.2
    state, _ = call(state, 0, PairClaim(1, 2))  # wrong: seat 0 is out, pool top circle.2
    assert state.result is None  # moons are split between seats 2 and 3
    state, events = call(state, 3, PairClaim(1, 2))  # wrong: seat 3 out, pool top sun.2
    assert types(events)[-2:] == ["eliminated", "end"]
    result = state.result
    assert result is not None and result.ended_by is EndReason.DEAD_STATE
    assert result.winner is None  # seats 1 and 2 hold 3 cards each
    assert result.placings == (4, 1, 1, 3)


def test_S20_S21_adjudication_most_cards_wins() -> None:
    # A 2-player cycle after a capture: seat 1 holds more cards when the state repeats.
    state = start(SHAPES, 2, {0: ["circle.1"], 1: ["circle.2"]})
    state, _ = flip(state, 2)
    state, _ = call(state, 1, PairClaim(0, 1))
    while state.result is None:
        state, _ = flip(state)
    result = state.result
    assert result.ended_by in (EndReason.CYCLE, EndReason.DEAD_STATE)
    assert result.cards == (5, 7) and result.winner == 1 and result.placings == (2, 1)


def test_S20_S29_cycle_ends_the_game_when_the_whole_state_repeats() -> None:
    state = start(SHAPES, 2, {})  # seat 0 holds the .1 cards, seat 1 the .2 cards: never dead
    state, _ = flip(state, 13)
    assert state.result is None
    # Flip 14: both piles turned over once and (turn 0, one card face up each) repeats flip 2.
    state, events = flip(state)
    assert types(events) == ["recycle", "flip", "end"]
    assert state.result is not None and state.result.ended_by is EndReason.CYCLE
    assert state.result.placings == (1, 1) and state.result.winner is None


def test_S29_ignored_calls_do_not_start_a_fresh_history() -> None:
    state = start(SHAPES, 2, {})  # both seats flip the pictures in the same order
    state, _ = flip(state, 2)  # circle.1 and circle.2 on top
    seen = state.seq
    state, _ = flip(state, 1)  # covered
    same, events = call(state, 1, PairClaim(0, 1), seq=seen)
    assert same is state and events[0].reason == "late"
    state, _ = flip(state, 10)
    assert state.result is None
    state, _ = flip(state)  # flip 14 repeats flip 2's state, as with no call at all
    assert state.result is not None and state.result.ended_by is EndReason.CYCLE


def test_S29_the_seat_on_turn_is_part_of_the_state() -> None:
    state = start(SHAPES, 2, {})
    state, _ = flip(state, 10)
    state, events = call(state, 0, None, kind=CallKind.SNAP_POOL)  # wrong: 5 cards to a pool
    assert types(events) == ["pool", "wrong_call"] and state.card_count(0) == 1
    state, _ = flip(state, 2)  # seat 0 flips its only card, seat 1 its last face-down card
    before = (state.cs, state.ks)
    state, events = flip(state)  # seat 0 turns its one card over and flips it again
    assert types(events) == ["recycle", "flip"] and (state.cs, state.ks) == before
    assert state.result is None  # only the seat on turn differs: not a repeat


def test_S29_a_resolved_call_that_moved_nothing_starts_a_fresh_history() -> None:
    # Two seats of 26 cards and nothing but flips: the state after flip 2 comes back at flip 54.
    state = start(rules(slapjack=True), 2, {})
    alone, _ = flip(state, 54)
    assert alone.result is not None and alone.result.ended_by is EndReason.CYCLE and alone.flips == 54
    # Seat 0 has all 26 cards face up after flip 51; its wrong slap has no face-down card to give.
    state, _ = flip(state, 51)
    top = state.top(1)
    assert top is not None and state.deck.rank[top] != "J"  # so the slap on seat 1 is wrong
    state, events = call(state, 0, SlapClaim(1), kind=CallKind.SLAP)
    assert types(events) == ["wrong_call"] and events[0].penalty == "none"
    state, _ = flip(state, 3)  # flip 54: the state of flip 2 again, but from before the call
    assert state.result is None
    state, _ = flip(state, 48)
    assert state.result is None
    state, events = flip(state)  # flip 103: the state the wrong slap left comes back
    assert state.result is not None and state.result.ended_by is EndReason.CYCLE and state.flips == 103


def canonical(state: SnapState) -> tuple[object, ...]:
    """S29's comparison, computed independently from the top-first piles."""
    return (
        tuple((state.faceup(s), state.facedown(s)) for s in range(state.n)),
        tuple(p.cards for p in state.pools),
        state.central,
        state.central_hidden,
        state.active,
        state.turn,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_S29_cycle_detection_agrees_with_brute_force(players: int) -> None:
    rng = random.Random(players)
    temper = Temperament(call=0.2, wrong=0.02, late=0.02)
    ended_by_cycle = 0
    for _ in range(40):
        order = list(DECKS["shapes"].cards)
        rng.shuffle(order)
        state = new_game(SHAPES, Deal(players, tuple(order)), rng.randrange(players))
        history = [canonical(state)]
        while state.result is None:
            action = random_input(state, rng, temper)
            new, _ = apply(state, action)
            if new is state:
                continue  # an ignored call: no new state
            if not isinstance(action, Flip | Tick | CapReached):
                history = []  # S29: a resolved call starts a fresh history
            key = canonical(new) if new.result is None else canonical_before_end(new)
            repeated = key in history
            if new.result is not None and new.result.ended_by is EndReason.CYCLE:
                assert repeated
                ended_by_cycle += 1
            else:
                assert not repeated or new.result is not None
            history.append(key)
            state = new
    assert ended_by_cycle > 0


@pytest.mark.parametrize("name", sorted({**SMALL_SETS, **STANDARD_SETS, **COMBINED_SETS}))
def test_S29_the_kept_history_ends_every_variant_where_the_full_history_would(name: str) -> None:
    """The state keeps only the history's targets (ending.py); this keeps every state since the
    last resolved call and checks that both end the same games on the same input."""
    rules_ = {**SMALL_SETS, **STANDARD_SETS, **COMBINED_SETS}[name]
    rng = random.Random(name)
    small = DECKS[rules_.deck].size <= 12
    cycles = 0
    for game in range(40 if small else 8):
        players = players_for(rules_, game)
        temper = Temperament(call=rng.choice([0.0, 0.05, 0.3]), wrong=0.02, late=0.02)
        state = new_game(rules_, shuffled_deal(rules_, players, rng), rng.randrange(players))
        history = [canonical(state)]
        while state.result is None:
            action = random_input(state, rng, temper)
            new, _ = apply(state, action)
            if new is state:
                continue
            if not isinstance(action, Flip | Tick | CapReached):
                history = []
            key = canonical(new) if new.result is None else canonical_before_end(new)
            repeated = key in history and not rules_.single_pile  # no history there (doc, 9.)
            if new.result is not None and new.result.ended_by is EndReason.CYCLE:
                assert repeated
                cycles += 1
            elif new.result is None:
                assert not repeated
            history.append(key)
            state = new
    # Under feed_pool no state repeats (ending.py); small decks cycle often otherwise.
    if small and rules_.empty_facedown is not EmptyFacedown.FEED_POOL and not rules_.single_pile:
        assert cycles > 0


def canonical_before_end(state: SnapState) -> tuple[object, ...]:
    """The comparison key of a final state, with the turn it would have had."""
    turn = None
    if state.last_flipper is not None:
        for step in range(1, state.n + 1):
            if state.active[(state.last_flipper + step) % state.n]:
                turn = (state.last_flipper + step) % state.n
                break
    key = canonical(state)
    return (*key[:-1], turn)


def test_S30_cap_counts_extra_rounds_from_the_seat_after_the_capping_flip() -> None:
    capped = rules(max_flips=5, extra_rounds=1)
    state = start(capped, 3, {0: ["2C", "3C", "4C"], 1: ["5C", "6C", "7C"], 2: ["8C", "9C", "TC"]})
    state, events = flip(state, 5)  # flip 5 by seat 1 = C
    assert types(events)[-1] == "cap" and state.cap_seat == 1
    state, _ = flip(state, 3)  # seat 2 starts round 1, then seats 0 and 1
    assert state.result is None and state.flips == 8 and state.turn == 2
    state, events = apply(state, Flip(2))  # would start round 2: adjudicated instead
    assert types(events) == ["end"] and state.flips == 8
    assert state.result is not None and state.result.ended_by is EndReason.CAP


def test_S30_calls_on_the_last_flip_count() -> None:
    capped = rules(max_flips=2, extra_rounds=0)
    state = start(capped, 2, {0: ["7C", "2D"], 1: ["7D", "3D"]})
    state, _ = flip(state, 2)  # flip 2 is the cap; round 1 would start with seat 0
    state, events = call(state, 0, PairClaim(0, 1))
    assert types(events) == ["capture"]
    state, events = apply(state, Flip(0))
    assert types(events) == ["end"]
    assert state.result is not None and state.result.winner == 0  # 28 cards against 24


def test_S30_rounds_count_eliminated_seats_in_n() -> None:
    capped = rules(SHAPES, max_flips=1, extra_rounds=1)
    piles = {
        0: ["circle.1", "square.1", "star.1", "heart.1"],
        1: ["moon.1", "sun.1", "circle.2", "square.2"],
        2: ["star.2", "heart.2", "moon.2", "sun.2"],
    }
    state = start(capped, 3, piles)
    state, _ = flip(state, 1)  # C = seat 0
    state, _ = call(state, 2, PairClaim(0, 1))  # wrong: seat 2 has nothing face up
    state, _ = flip(state, 2)  # seats 1, 2 (round 1)
    state, _ = flip(state, 1)  # seat 0 is still round 1: position n - 1
    assert state.result is None
    state, events = flip(state)  # seat 1 would start round 2
    assert types(events) == ["end"]


def test_S30_online_time_cap_starts_counting_from_the_last_flipper() -> None:
    timed = rules(extra_rounds=1)
    state = start(timed, 3, {})
    state, _ = flip(state, 2)
    state, events = apply(state, CapReached())
    assert types(events) == ["cap"] and state.cap_seat == 1
    again, events = apply(state, CapReached())
    assert again is state and events == []
    state, _ = flip(state, 3)  # round 1: seats 2, 0, 1
    state, events = flip(state)
    assert types(events) == ["end"] and state.result is not None
    assert state.result.ended_by is EndReason.CAP


def test_S30_speed_one_tick_is_one_round() -> None:
    fast = rules(speed=True, max_flips=4, extra_rounds=1)
    state = start(fast, 2, {0: ["2C", "3C", "4C"], 1: ["5C", "6C", "7C"]})
    state, _ = apply(state, Tick())
    state, events = apply(state, Tick())
    assert types(events)[-1] == "cap" and state.flips == 4
    state, _ = apply(state, Tick())  # round 1
    assert state.result is None and state.flips == 6
    state, events = apply(state, Tick())
    assert types(events) == ["end"] and state.flips == 6
