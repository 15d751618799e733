"""Dealing and turns: S3, S4, S5, S7, S8, S9, S10, S22, S23."""

from __future__ import annotations

import pytest

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap import (
    Deal,
    EmptyFacedown,
    EndReason,
    Flip,
    PairClaim,
    SnapResult,
    apply,
    new_game,
    next_dealer,
    observe,
)
from games.engine.snap.decks import DECKS
from tests.games.engine.snap.helpers import CLASSIC, SHAPES, call, down, flip, pools, rules, start, types, up


def test_S4_deal_clockwise_from_dealers_left_last_card_on_top() -> None:
    order = DECKS["standard52"].cards
    state = new_game(CLASSIC, Deal(3, order), dealer=1)
    # card i goes to seat (1 + 1 + i) mod 3: seat 2 gets cards 0, 3, 6 ..., seat 0 gets 1, 4, ...
    assert down(state, 2)[-1] == order[0] and down(state, 2)[-2] == order[3]
    assert down(state, 0)[-1] == order[1] and down(state, 1)[-1] == order[2]
    # The last card dealt to a seat is the first it flips.
    assert down(state, 2)[0] == order[51] and down(state, 0)[0] == order[49]
    # Uneven piles: 52 = 3 * 17 + 1, the first seat after the dealer gets the extra card.
    assert [state.card_count(s) for s in range(3)] == [17, 17, 18]


def test_S4_deal_must_be_the_whole_deck() -> None:
    order = DECKS["standard52"].cards
    with pytest.raises(InvalidAction) as exc:
        new_game(CLASSIC, Deal(2, order[:-1]), 0)
    assert exc.value.code is ActionCode.BAD_DEAL
    with pytest.raises(InvalidAction):
        new_game(CLASSIC, Deal(2, (*order[:-1], order[0])), 0)
    with pytest.raises(InvalidAction):
        new_game(CLASSIC, Deal(2, (*order[:-1], "ZZ")), 0)
    with pytest.raises(InvalidAction) as exc:
        new_game(CLASSIC, Deal(2, order), 2)
    assert exc.value.code is ActionCode.NO_SUCH_SEAT


def test_S3_winner_deals_next_and_a_draw_keeps_the_dealer() -> None:
    won = SnapResult(2, EndReason.LAST_PLAYER, False, ((0,), (1,)), (3, 2, 1), (0, 0, 52), (0, 0, 0))
    drawn = SnapResult(None, EndReason.NOBODY_LEFT, False, ((0, 1, 2),), (1, 1, 1), (0, 0, 0), (1, 0, 0))
    assert next_dealer(won, dealer=0) == 2
    assert next_dealer(drawn, dealer=1) == 1


def test_S7_dealers_left_flips_first_then_clockwise() -> None:
    state = start(CLASSIC, 3, {}, dealer=1)
    assert state.turn == 2
    with pytest.raises(IllegalAction) as exc:
        apply(state, Flip(0))
    assert exc.value.code == "not_your_turn"
    state, _ = flip(state)
    assert state.turn == 0
    state, _ = flip(state)
    assert state.turn == 1


def test_S8_flip_moves_top_facedown_onto_faceup() -> None:
    state = start(CLASSIC, 2, {0: ["5H", "9C"]})
    state, events = flip(state)
    assert up(state, 0) == ["5H"] and down(state, 0)[0] == "9C"
    assert types(events) == ["flip"] and events[0].to_dict() == {
        "type": "flip",
        "seq": 1,
        "seat": 0,
        "card": "5H",
        "flip": 1,
    }


def test_S5_only_top_and_sizes_of_faceup_piles_are_visible() -> None:
    state = start(CLASSIC, 2, {0: ["5H", "9C"], 1: ["KD", "2S"]})
    state, _ = flip(state, 4)
    view = observe(state, 1).to_dict()
    pile0 = view["piles"][0]
    assert pile0 == {
        "seat": 0,
        "active": True,
        "facedown": 24,
        "faceup": 2,
        "top": "9C",
        "match": "9",  # what the top matches on (its rank under match_key = rank)
        "top_flip": 3,
    }
    assert "5H" not in str(view)  # covered: no longer visible


def test_S9_recycle_turns_the_pile_over_without_shuffling() -> None:
    state = start(SHAPES, 2, {0: ["circle.1", "square.1", "star.1", "heart.1", "moon.1", "sun.1"]})
    state, _ = flip(state, 12)  # both piles are now all face up
    assert up(state, 0) == ["sun.1", "moon.1", "heart.1", "star.1", "square.1", "circle.1"]
    state, events = flip(state)
    assert types(events) == ["recycle", "flip"]
    assert events[1].card == "circle.1"  # the first card flipped is the next to flip
    assert up(state, 0) == ["circle.1"] and down(state, 0) == [
        "square.1",
        "star.1",
        "heart.1",
        "moon.1",
        "sun.1",
    ]


def test_S9_S22_recycle_shuffle_takes_the_order_as_an_input() -> None:
    shuffle = rules(SHAPES, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE)
    state = start(shuffle, 2, {0: ["circle.1", "square.1", "star.1", "heart.1", "moon.1", "sun.1"]})
    state, _ = flip(state, 12)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Flip(0))
    assert exc.value.code == "order_required"
    with pytest.raises(InvalidAction) as bad:
        apply(state, Flip(0, ("circle.1",)))
    assert bad.value.code is ActionCode.BAD_ORDER
    order = ("moon.1", "circle.1", "sun.1", "star.1", "heart.1", "square.1")
    state, events = apply(state, Flip(0, order))
    assert types(events) == ["recycle", "flip"] and events[0].shuffled
    assert events[1].card == "moon.1" and down(state, 0) == list(order[1:])


def test_S9_an_order_is_refused_when_no_shuffled_recycle_is_due() -> None:
    state = start(CLASSIC, 2, {})
    with pytest.raises(IllegalAction) as exc:
        apply(state, Flip(0, ("AC",)))
    assert exc.value.code is ActionCode.ORDER_NOT_DUE


def test_S9_feed_pool_sends_the_faceup_pile_to_a_new_pool_and_the_player_is_out() -> None:
    feed = rules(SHAPES, empty_facedown=EmptyFacedown.FEED_POOL)
    piles = {
        0: ["circle.1", "square.1", "star.1"],
        1: ["heart.1", "moon.1", "sun.1"],
        2: ["circle.2", "heart.2", "moon.2"],
        3: ["square.2", "star.2", "sun.2"],
    }
    state = start(feed, 4, piles)
    state, _ = flip(state, 12)
    state, events = flip(state)  # seat 0 has no face-down card
    assert types(events) == ["pool", "eliminated"]
    assert pools(state) == [["star.1", "square.1", "circle.1"]]
    assert not state.active[0] and state.turn == 1 and state.flips == 13  # S30: counts as a flip


def test_S10_calls_never_change_the_turn() -> None:
    state = start(CLASSIC, 3, {0: ["7H"], 1: ["7S"], 2: ["2D"]})
    state, _ = flip(state, 2)
    assert state.turn == 2
    state, events = call(state, 2, PairClaim(0, 1))
    assert types(events) == ["capture"] and state.turn == 2
    state, events = call(state, 0, PairClaim(1, 2))  # a wrong call
    assert types(events) == ["wrong_call"] and state.turn == 2


def test_S23_piles_are_top_first_and_turning_over_reverses() -> None:
    state = start(SHAPES, 2, {0: ["circle.1", "square.1", "star.1"]})
    state, _ = flip(state, 5)
    assert up(state, 0) == ["star.1", "square.1", "circle.1"]
    assert state.faceup(0) == tuple(reversed(state.cs[0][: state.ks[0]]))
    assert down(state, 0) == ["heart.1", "moon.1", "sun.1"]  # the filler cards, in deck order
