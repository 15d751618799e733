"""The variants table and the options that change what matches or where cards go."""

from __future__ import annotations

import random

import pytest

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap import (
    Call,
    CallKind,
    CentralClaim,
    EmptyFacedown,
    EndReason,
    Flip,
    MatchKey,
    PairClaim,
    PoolClaim,
    PoolMode,
    SlapClaim,
    Tick,
    Tie,
    apply,
    legal_actions,
    observe,
    recycle_due,
)
from games.engine.snap.playout import Temperament, random_game
from games.engine.snap.timing import LiveGame, TimedCall, TimedFlip
from tests.games.engine.snap.helpers import (
    CLASSIC,
    SHAPES,
    call,
    down,
    flip,
    pools,
    rules,
    stacked,
    start,
    types,
    up,
)

ANIMALS = rules(deck="animals", match_key=MatchKey.PICTURE_ID, picture=True)


def test_variant_picture_a_match_is_the_identical_picture() -> None:
    state = start(ANIMALS, 2, {0: ["cat.1", "dog.1"], 1: ["cat.2", "cow.1"]})
    state, _ = flip(state, 2)
    state, events = call(state, 1, PairClaim(0, 1))
    assert types(events) == ["capture"]
    state, _ = flip(state, 2)  # dog.1 vs cow.1
    state, events = call(state, 1, PairClaim(0, 1))
    assert types(events)[-1] == "wrong_call"


def test_S2_exact_card_matches_only_the_same_card_of_the_other_pack() -> None:
    exact = rules(deck="double104", match_key=MatchKey.EXACT_CARD)
    state = start(exact, 2, {0: ["7H.1", "7S.1"], 1: ["7H.2", "7C.1"]})
    state, _ = flip(state, 2)
    state, events = call(state, 0, PairClaim(0, 1))
    assert types(events) == ["capture"]
    state, _ = flip(state, 2)  # 7S.1 vs 7C.1: same rank, different card
    state, events = call(state, 0, PairClaim(0, 1))
    assert types(events)[-1] == "wrong_call"


def test_variant_speed_everyone_flips_on_a_tick_lower_seats_count_as_older() -> None:
    fast = rules(speed=True)
    state = start(fast, 3, {0: ["7C"], 1: ["7D"], 2: ["2H"]})
    assert state.turn is None and not [a for a in legal_actions(state, 0) if isinstance(a, Flip)]
    with pytest.raises(IllegalAction) as exc:
        apply(state, Flip(0))
    assert exc.value.code == "not_turn_based"
    state, events = apply(state, Tick())
    assert [(e.seat, e.card) for e in events] == [(0, "7C"), (1, "7D"), (2, "2H")]
    before = down(state, 2)
    state, events = call(state, 2, PairClaim(0, 1))
    assert down(state, 2) == [*before, "7C", "7D"]  # seat 0's pile counts as older


def test_variant_speed_tick_is_only_for_speed() -> None:
    with pytest.raises(IllegalAction) as exc:
        apply(start(CLASSIC, 2, {}), Tick())
    assert exc.value.code == "not_speed"


def test_variant_double_takes_the_top_facedown_card_of_each_other_owner() -> None:
    double = rules(double=True)
    state = start(double, 3, {0: ["7C", "KC"], 1: ["7D", "KD"], 2: ["2H", "3H"]})
    state, _ = flip(state, 2)
    before = down(state, 2)
    state, events = call(state, 2, PairClaim(0, 1))
    assert down(state, 2) == [*before, "7C", "7D", "KC", "KD"]  # packets, then extras, older first
    assert events[0].extra == 2 and events[0].cards == 4
    # The caller's own pile gives no extra card.
    state = start(double, 2, {0: ["7C", "KC"], 1: ["7D", "KD"]})
    state, _ = flip(state, 2)
    before = down(state, 0)
    state, events = call(state, 0, PairClaim(0, 1))
    assert down(state, 0) == [*before, "7C", "7D", "KD"] and events[0].extra == 1


def test_variant_double_can_eliminate_an_owner() -> None:
    double = rules(double=True, deck="shapes", match_key=MatchKey.PICTURE_ID, picture=True)
    piles = {
        0: ["circle.1", "square.1", "star.1", "heart.1"],
        1: ["moon.1", "sun.1", "circle.2", "star.2"],
        2: ["square.2", "moon.2", "heart.2", "sun.2"],
    }
    state, _ = flip(start(double, 3, piles), 10)
    assert up(state, 0)[0] == "heart.1" and up(state, 2)[0] == "heart.2"
    assert down(state, 0) == [] and down(state, 2) == ["sun.2"]
    # Seat 1 wins 0-2: both piles, and seat 2's only face-down card; seat 0 has none to give.
    state, events = call(state, 1, PairClaim(0, 2))
    assert events[0].extra == 1 and events[0].cards == 8
    assert types(events) == ["capture", "eliminated", "end"] and events[1].seats == (0, 2)
    assert state.result is not None and state.result.winner == 1


def test_variant_single_pile_flips_onto_one_central_pile_and_the_caller_flips_next() -> None:
    single = rules(single_pile=True)
    state = start(single, 3, {0: ["4C", "9H"], 1: ["7D"], 2: ["7S"]})
    state, _ = flip(state, 3)  # 4C 7D 7S
    assert state.central == tuple(state.deck.index()[c] for c in ("7S", "7D", "4C"))
    assert observe(state, 0).central_top == "7S" and observe(state, 0).central_below == "7D"
    before = down(state, 0)
    state, events = call(state, 0, None)
    assert types(events) == ["capture"] and events[0].kind == "central"
    assert down(state, 0) == [*before, "4C", "7D", "7S"]  # the pile turned over
    assert state.turn == 0  # the caller flips next (an exception to S10)


def test_variant_single_pile_tie_leaves_the_pile_and_wrong_call_feeds_it() -> None:
    single = rules(single_pile=True)
    state = start(single, 3, {0: ["4C"], 1: ["7D", "QH"], 2: ["7S"]})
    state, _ = flip(state, 3)
    state, events = apply(state, Tie(state.seq, ((0, CentralClaim()), (1, CentralClaim()))))
    assert types(events) == ["tie"] and len(state.central) == 3 and state.turn == 0
    state, _ = flip(state, 2)  # 4C ... seat 0 flips a filler, seat 1 flips QH
    hidden_card = down(state, 2)[0]
    state, events = call(state, 2, None)  # wrong: the top two do not match
    assert types(events) == ["wrong_call"] and events[0].penalty == "card"
    assert state.central_hidden == 1 and state.deck.cards[state.central[-1]] == hidden_card
    assert hidden_card not in str(observe(state, 0).to_dict())


def test_variant_single_pile_player_without_facedown_cards_is_out_and_no_dead_state() -> None:
    single = rules(single_pile=True, deck="shapes", match_key=MatchKey.PICTURE_ID, picture=True)
    piles = {
        0: ["circle.1", "circle.2", "square.1", "square.2", "star.1", "star.2"],
        1: ["heart.1", "heart.2", "moon.1", "moon.2", "sun.1", "sun.2"],
    }
    state = start(single, 2, piles)  # would be a dead state in the other variants
    assert state.result is None
    state, _ = flip(state, 10)  # no two cards in a row match
    assert state.result is None
    state, events = flip(state)  # seat 0 flips its last card: out, seat 1 takes the centre
    assert types(events) == ["flip", "eliminated", "capture", "end"]
    assert state.result is not None and state.result.winner == 1
    assert state.result.ended_by is EndReason.LAST_PLAYER


def test_variant_slapjack_S31_slap_takes_a_jack_topped_pile() -> None:
    slap = rules(slapjack=True)
    state = start(slap, 3, {0: ["2C", "JC"], 1: ["3D"], 2: ["4H"]})
    state, _ = flip(state, 4)
    before = down(state, 1)
    state, events = call(state, 1, SlapClaim(0), kind=CallKind.SLAP)
    assert types(events) == ["capture"] and events[0].kind == "slap"
    assert down(state, 1) == [*before, "2C", "JC"]


def test_S31_owner_may_not_slap_own_jack_and_a_slap_is_a_call_for_flipper_rule() -> None:
    slap = rules(slapjack=True, flipper_may_call=False)
    state = start(slap, 3, {0: ["JC"], 1: ["3D"], 2: ["4H"]})
    state, _ = flip(state)
    same, events = call(state, 0, SlapClaim(0), kind=CallKind.SLAP)
    assert same is state and events[0].reason in ("own_pile", "flipper")
    state, _ = flip(state)  # seat 1 flips: seat 0 is no longer the flipper
    same, events = call(state, 0, SlapClaim(0), kind=CallKind.SLAP)
    assert same is state and events[0].reason == "own_pile"
    same, events = call(state, 1, SlapClaim(0), kind=CallKind.SLAP)
    assert same is state and events[0].reason == "flipper"


def test_S31_a_slap_names_a_pile_a_slap_naming_none_is_malformed() -> None:
    slap = rules(slapjack=True)
    state = start(slap, 3, {0: ["JC"], 1: ["3D"], 2: ["4H"]})
    state, _ = flip(state)  # a Jack on seat 0: a slap naming seat 0 would take it
    bare = Call(1, CallKind.SLAP, None, state.seq)
    with pytest.raises(InvalidAction) as exc:
        apply(state, bare)
    assert exc.value.code is ActionCode.MALFORMED
    assert bare not in legal_actions(state, 1)
    assert Call(1, CallKind.SLAP, SlapClaim(0), state.seq) in legal_actions(state, 1)
    # The timing layer refuses it at the door, before it is logged.
    game = LiveGame(slap, stacked(slap, 3, {0: ["JC"]}), 2)
    game.feed(TimedFlip(100, 0))
    with pytest.raises(InvalidAction) as exc:
        game.feed(TimedCall(400, 1, CallKind.SLAP, None, game.state.seq, 250))
    assert exc.value.code is ActionCode.MALFORMED and len(game.log) == 1


def test_S31_random_play_never_sends_a_slap_without_its_pile() -> None:
    slap = rules(slapjack=True)
    rng = random.Random(31)
    slaps = 0
    for _ in range(30):
        for action in random_game(slap, 3, rng, Temperament(call=0.6, bare=0.9)).inputs:
            if isinstance(action, Call) and action.kind is CallKind.SLAP:
                assert isinstance(action.claim, SlapClaim)
                slaps += 1
    assert slaps > 0


def test_S31_wrong_slap_gives_the_slappers_top_facedown_card_to_the_owner() -> None:
    slap = rules(slapjack=True)
    state = start(slap, 3, {0: ["2C"], 1: ["3D", "9S"], 2: ["4H"]})
    state, _ = flip(state, 2)
    before = down(state, 0)
    state, events = call(state, 1, SlapClaim(0), kind=CallKind.SLAP)
    assert types(events) == ["wrong_call"] and events[0].penalty == "card"
    assert down(state, 0) == [*before, "9S"] and down(state, 1)[0] != "9S"


def test_S31_slaps_do_not_tie_the_earlier_arrival_wins() -> None:
    slap = rules(slapjack=True)
    state = start(slap, 3, {0: ["JC"], 1: ["3D"], 2: ["4H"]})
    state, _ = flip(state, 3)
    state, events = apply(state, Tie(state.seq, ((2, SlapClaim(0)), (1, SlapClaim(0)))))
    assert types(events) == ["ignored_call", "capture"] and events[1].seat == 2


def test_S20_slapjack_a_held_jack_keeps_the_game_alive() -> None:
    slap = rules(slapjack=True)
    state = start(slap, 2, {})
    assert state.result is None


def test_variant_silent_a_bare_call_may_take_a_pair_or_a_pool() -> None:
    silent = rules(silent=True)
    state = start(silent, 2, {0: ["9C", "2D"], 1: ["4D", "9H"]})
    state, _ = flip(state)
    state, _ = call(state, 0, None, kind=CallKind.SNAP_POOL)  # wrong: pool [9C]
    state, _ = flip(state, 2)  # 4D 2D
    state, _ = flip(state, 1)  # 9H matches the pool
    state, events = call(state, 0, None)  # a hand slap: the pool claim is found
    assert types(events) == ["capture"] and events[0].kind == "snap_pool"
    state2 = start(silent, 2, {0: ["9C"], 1: ["9H"]})
    state2, _ = flip(state2, 2)
    state2, events = call(state2, 1, PairClaim(0, 1), kind=CallKind.SNAP_POOL)
    assert types(events) == ["capture"]


def test_variant_animal_a_call_with_another_players_sound_is_wrong() -> None:
    animal = rules(animal=True)
    state = start(animal, 2, {0: ["7C"], 1: ["7D"]})
    state, _ = flip(state, 2)
    _wrong, events = call(state, 0, PairClaim(0, 1), sound=1)
    assert types(events) == ["pool", "wrong_call"] and events[1].reason == "wrong_sound"
    state, events = call(state, 0, PairClaim(0, 1), sound=0)
    assert types(events) == ["capture"]


def test_S6_pool_mode_single_puts_new_pool_cards_on_the_one_pool() -> None:
    single = rules(pool_mode=PoolMode.SINGLE)
    state = start(single, 2, {0: ["9C", "2D"], 1: ["4D", "5H"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))  # pool [9C]
    state, _ = flip(state)
    state, events = call(state, 1, PairClaim(0, 1))  # onto it
    assert types(events) == ["pool_grown", "wrong_call"] and pools(state) == [["4D", "9C"]]


def test_S6_separate_pools_never_merge() -> None:
    state = start(CLASSIC, 2, {0: ["9C", "2D"], 1: ["4D", "5H"]})
    state, _ = flip(state)
    state, _ = call(state, 0, PairClaim(0, 1))
    state, _ = flip(state)
    state, _ = call(state, 1, PairClaim(0, 1))
    assert pools(state) == [["9C"], ["4D"]]


def test_S12_snap_pool_with_a_claim_must_name_an_existing_pool() -> None:
    state = start(CLASSIC, 2, {0: ["9C"], 1: ["4D"]})
    state, _ = flip(state, 2)
    state, events = apply(state, Call(0, CallKind.SNAP_POOL, PoolClaim(3, 0), state.seq))
    assert types(events)[-1] == "wrong_call"


def test_variant_speed_recycles_on_a_tick_with_shuffle_orders_and_feed_pool() -> None:
    shuffled = rules(SHAPES, speed=True, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE)
    state = start(shuffled, 2, {})
    for _ in range(6):
        state, _ = apply(state, Tick())
    assert recycle_due(state) == [0, 1]
    with pytest.raises(IllegalAction) as exc:
        apply(state, Tick())
    assert exc.value.code == "order_required"
    order0 = ("sun.1", "moon.1", "heart.1", "star.1", "square.1", "circle.1")
    order1 = ("circle.2", "square.2", "star.2", "heart.2", "moon.2", "sun.2")
    state, events = apply(state, Tick(((0, order0), (1, order1))))
    assert types(events) == ["recycle", "flip", "recycle", "flip"]
    assert [e.card for e in events if e.type == "flip"] == ["sun.1", "circle.2"]
    fed = rules(SHAPES, speed=True, empty_facedown=EmptyFacedown.FEED_POOL)
    state = start(fed, 3, {})
    for _ in range(4):
        state, _ = apply(state, Tick())
    state, events = apply(state, Tick())  # every seat's face-down pile is empty: all feed pools
    assert types(events)[:3] == ["pool", "pool", "pool"]
    assert state.result is not None and state.result.ended_by is EndReason.NOBODY_LEFT
