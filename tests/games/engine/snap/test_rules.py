"""Options and validate(): S1, S2, S16, S30 and the variants' combinations."""

from __future__ import annotations

import pytest

from games.engine.errors import InvalidRules
from games.engine.snap import (
    DECKS,
    PROFILES,
    EmptyFacedown,
    MatchKey,
    PoolCall,
    PoolMode,
    SnapRules,
    new_game,
    validate,
)
from games.engine.snap.decks import RANKS
from tests.games.engine.snap.helpers import CLASSIC, SHAPES, rules, stacked


def test_classic_profile_is_the_defaults() -> None:
    classic = PROFILES["classic"]
    assert classic == SnapRules()
    assert (classic.deck, classic.match_key, classic.pool_mode) == (
        "standard52",
        MatchKey.RANK,
        PoolMode.SEPARATE,
    )
    assert classic.empty_facedown is EmptyFacedown.RECYCLE
    assert classic.pool_call is PoolCall.FIRST_CALLER_TAKES_POOL_AND_PILE
    assert classic.flipper_may_call and classic.wrong_call_lockout_ms == 1000
    assert (classic.max_flips, classic.extra_rounds, classic.max_game_seconds) == (1000, 3, 720)
    assert validate(classic, 4) == ([], [])


@pytest.mark.parametrize("players", [1, 7])
def test_S1_two_to_six_players(players: int) -> None:
    errors, _ = validate(CLASSIC, players)
    assert errors and "2 to 6" in errors[0]
    for ok in range(2, 7):
        assert validate(CLASSIC, ok)[0] == []


def test_S1_one_standard_deck_no_jokers() -> None:
    deck = DECKS["standard52"]
    assert deck.size == 52 and len(set(deck.cards)) == 52
    assert sorted(set(deck.rank)) == sorted(RANKS)
    assert all(deck.rank.count(r) == 4 for r in RANKS)


def test_S2_exact_card_needs_double104() -> None:
    errors, _ = validate(rules(match_key=MatchKey.EXACT_CARD), 3)
    assert any("exact_card" in e for e in errors)
    assert validate(rules(match_key=MatchKey.EXACT_CARD, deck="double104"), 3)[0] == []
    with pytest.raises(InvalidRules):
        new_game(rules(match_key=MatchKey.EXACT_CARD), stacked(CLASSIC, 2, {}), 1)


def test_S2_picture_id_needs_a_picture_deck() -> None:
    assert any("picture" in e for e in validate(rules(match_key=MatchKey.PICTURE_ID), 2)[0])
    assert any("picture" in e for e in validate(rules(deck="animals"), 2)[0])
    assert validate(rules(deck="animals", match_key=MatchKey.PICTURE_ID, picture=True), 2)[0] == []
    assert validate(SHAPES, 2)[0] == []


def test_S2_unknown_deck_is_refused() -> None:
    assert any("unknown deck" in e for e in validate(rules(deck="tarot"), 2)[0])


def test_S16_flipper_may_not_call_refused_where_nobody_could_call() -> None:
    assert validate(rules(flipper_may_call=False), 3)[0] == []
    assert any("S16" in e for e in validate(rules(flipper_may_call=False, speed=True), 3)[0])
    bad = rules(flipper_may_call=False, pool_call=PoolCall.FLIPPER_TAKES_POOL)
    assert any("S16" in e for e in validate(bad, 3)[0])


def test_variant_speed_warns_above_three_players() -> None:
    assert validate(rules(speed=True), 3) == ([], [])
    errors, warnings = validate(rules(speed=True), 4)
    assert errors == [] and any("2 to 3" in w for w in warnings)


def test_S30_cap_options_checked_and_other_caps_warned() -> None:
    assert validate(rules(max_flips=0), 2)[0]
    assert validate(rules(extra_rounds=-1), 2)[0]
    errors, warnings = validate(rules(max_flips=50), 2)
    assert errors == [] and any("different profile" in w for w in warnings)


def test_variant_combinations_refused() -> None:
    assert validate(rules(single_pile=True, speed=True), 2)[0]
    assert validate(rules(single_pile=True, double=True), 2)[0]
    assert validate(rules(slapjack=True, deck="animals", match_key=MatchKey.PICTURE_ID, picture=True), 2)[0]


def test_rules_round_trip_through_dicts() -> None:
    odd = rules(pool_mode=PoolMode.SINGLE, empty_facedown=EmptyFacedown.FEED_POOL, double=True)
    assert SnapRules.from_dict(odd.to_dict()) == odd
    with pytest.raises(InvalidRules):
        SnapRules.from_dict({"no_such_option": 1})
    with pytest.raises(InvalidRules):
        SnapRules.from_dict({"pool_mode": "merged"})
