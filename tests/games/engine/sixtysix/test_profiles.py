"""The profile table of rules/snapszer.md, one test per row over every profile (one case per cell).

EXPECTED is typed from the rules file, not from the code: each test checks the option's value and
then the behaviour that the cell describes.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from games.engine.errors import InvalidRules
from games.engine.sixtysix import (
    PROFILES,
    Action,
    Bid,
    Card,
    Close,
    Declare,
    Exchange,
    HandResult,
    LeadMarriage,
    Phase,
    Reason,
    SixtySixRules,
    SixtySixState,
    legal_actions,
    match_apply,
    new_match,
    rules_from_options,
)
from tests.games.engine.sixtysix.helpers import act, advance, hand, recorded_playout

NAMES = ["snapszer", "snapszer-hu", "schnapsen", "sixty-six", "santase", "schnapsen-lite"]
# Row -> one value per profile, in NAMES order (rules/snapszer.md "Profiles").
EXPECTED: dict[str, list[Any]] = {
    "deck": [(24, 6, 12), (20, 5, 10), (20, 5, 10), (24, 6, 12), (24, 6, 12), (20, 5, 10)],
    "exchange_card": ["9", "J", "J", "9", "9", "J"],
    "exchange_needs_trick": [True, False, False, True, True, False],
    "min_talon": [(2, 2), (4, 4), (2, 2), (2, 2), (4, 4), (2, None)],
    "close_before_draw": [False, False, False, True, False, None],
    "close_at_trick_1": [True, True, True, True, False, None],
    "marriage_at_trick_1": [True, True, True, True, False, True],
    "marriage_after_close": [True, True, True, False, True, True],
    "marriage_lead": ["k_or_q", "k_or_q", "k_or_q", "k_or_q", "k_or_q", "k_only"],
    "marriage_scoring": [
        "immediate",
        "after_a_trick",
        "after_a_trick",
        "after_a_trick",
        "after_a_trick",
        "next_trick",
    ],
    "declare_when": ["any_time"] + ["after_trick_or_marriage"] * 4 + ["automatic"],
    "close_judged": ["at_closing", "final", "at_closing", "final", "final", None],
    "failed_close_three_if": ["closed_at_trick_1"] + ["opponent_had_no_trick"] * 3 + ["always", None],
    "loser_measure": ["card_points"] + ["points"] * 5,
    "wrong_declaration": ["two_or_three", "two_or_three", "two_or_three", "two", "two", None],
    "nobody_declares": ["more_card_points"]
    + ["last_trick_wins_1"] * 2
    + ["last_trick_bonus_10"] * 2
    + ["last_trick_wins_1"],
    "equal_points": ["pot", None, None, "redeal", "redeal", None],
    "bid": [None, 6, None, None, None, None],
    "match": [(7, 1), (7, 2), (7, 1), (7, 1), (11, 1), None],
    "next_dealer": ["alternate", "alternate", "alternate", "winner", "winner", "alternate"],
}


def cells(row: str) -> list[Any]:
    return [
        pytest.param(name, value, id=f"{row}-{name}")
        for name, value in zip(NAMES, EXPECTED[row], strict=True)
    ]


def start(name: str, hands24: tuple[str, str], hands20: tuple[str, str], trump: str) -> SixtySixState:
    """A fresh hand of profile ``name`` with seat 0 leading (bids passed in snapszer-hu)."""
    rules = PROFILES[name]
    state = hand(rules, *(hands24 if rules.deck_size == 24 else hands20), trump)
    return act(state, "0:pass", "1:pass") if state.phase is Phase.BIDDING else state


@functools.cache
def finished(name: str, avoid: tuple[type, ...] = ()) -> list[SixtySixState]:
    return [recorded_playout(PROFILES[name], seed, avoid)[2] for seed in range(400)]


def has(state: SixtySixState, action: Action) -> bool:
    return action in legal_actions(state, action.seat)


@pytest.mark.parametrize(("name", "value"), cells("deck"))
def test_cell_deck_hand_talon(name: str, value: tuple[int, int, int]) -> None:
    rules = PROFILES[name]
    assert (rules.deck_size, rules.hand_size, rules.talon_size) == value
    state = start(
        name, ("AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C"), ("AH 10H KH QH JH", "AC 10C KC QC JC"), "AD"
    )
    assert (len(state.all_cards()), len(state.hands[0]), state.talon_size) == value


@pytest.mark.parametrize(("name", "value"), cells("exchange_card"))
def test_cell_exchange_card(name: str, value: str) -> None:
    assert PROFILES[name].exchange_rank.value == value
    state = start(
        name, ("9D AH 10H KH QH JH", "AC 10C KC QC JC 9C"), ("JD AH 10H KH QH", "AC 10C KC QC JC"), "AD"
    )
    state = act(state, "0:AH", "1:QC")  # seat 0 wins a trick, so exchange_needs_trick does not matter
    after = act(state, "0:exchange")
    assert after.trump_card is not None and after.trump_card.name == f"{value}D"


@pytest.mark.parametrize(("name", "value"), cells("exchange_needs_trick"))
def test_cell_exchange_needs_trick(name: str, value: bool) -> None:
    assert PROFILES[name].exchange_needs_trick is value
    state = start(
        name, ("9D AH 10H KH QH JH", "AC 10C KC QC JC 9C"), ("JD AH 10H KH QH", "AC 10C KC QC JC"), "AD"
    )
    assert has(state, Exchange(0)) is (not value)


@pytest.mark.parametrize(("name", "value"), cells("min_talon"))
def test_cell_minimum_talon_for_exchange_and_close(name: str, value: tuple[int, int | None]) -> None:
    rules = PROFILES[name]
    assert (rules.min_talon_exchange, rules.min_talon_close) == value
    state = start(
        name, ("9D AH AC AS 10H 10C", "KH KC KS QH QC QS"), ("JD AH AC AS 10H", "KH KC KS QH QC"), "KD"
    )
    tricks = rules.talon_size // 2 - 1
    at_two = advance(state, tricks, keep="9D JD")
    assert at_two.talon_size == 2 and at_two.leader == 0
    assert has(at_two, Exchange(0)) is (value[0] <= 2)
    assert has(at_two, Close(0)) is (value[1] is not None and value[1] <= 2)
    at_four = advance(state, tricks - 1, keep="9D JD")
    assert has(at_four, Exchange(0)) and has(at_four, Close(0)) is (value[1] is not None)


@pytest.mark.parametrize(("name", "value"), cells("close_before_draw"))
def test_cell_close_before_draw(name: str, value: bool | None) -> None:
    assert PROFILES[name].close_before_draw is bool(value)
    state = start(
        name, ("AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C"), ("AH 10H KH QH JH", "AC 10C KC QC JC"), "AD"
    )
    after = act(state, "0:AH", "1:QC")
    assert (after.phase is Phase.DRAW) is bool(value)
    assert has(after, Close(0)) is (value is not None)  # before or after the draw, where closing exists


@pytest.mark.parametrize(("name", "value"), cells("close_at_trick_1"))
def test_cell_close_at_trick_1(name: str, value: bool | None) -> None:
    state = start(
        name, ("AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C"), ("AH 10H KH QH JH", "AC 10C KC QC JC"), "AD"
    )
    assert has(state, Close(0)) is bool(value)


def _marriage_hand(name: str) -> SixtySixState:
    return start(
        name, ("KH QH AC 10C JC 9C", "AS 10S KS QS JS 9S"), ("KH QH AC 10C JC", "AS 10S KS QS JS"), "AD"
    )


@pytest.mark.parametrize(("name", "value"), cells("marriage_at_trick_1"))
def test_cell_marriage_at_trick_1(name: str, value: bool) -> None:
    assert PROFILES[name].marriage_at_trick_1 is value
    assert has(_marriage_hand(name), LeadMarriage(0, _card("KH"))) is value


def _card(name: str) -> Card:
    from games.engine.sixtysix import parse_card

    return parse_card(name)


@pytest.mark.parametrize(("name", "value"), cells("marriage_after_close"))
def test_cell_marriages_after_close_or_exhaustion(name: str, value: bool) -> None:
    assert PROFILES[name].marriage_after_close is value
    state = start(
        name, ("KH QH AC AS 10C 10S", "9H JC 9S JS QC QS"), ("KH QH AC AS 10C", "JC JS QC QS JH"), "AD"
    )
    exhausted = advance(state, PROFILES[name].talon_size // 2, keep="KH QH")
    assert exhausted.talon_size == 0 and exhausted.leader == 0
    assert has(exhausted, LeadMarriage(0, _card("KH"))) is value


@pytest.mark.parametrize(("name", "value"), cells("marriage_lead"))
def test_cell_marriage_lead(name: str, value: str) -> None:
    assert PROFILES[name].marriage_lead.value == value
    state = _marriage_hand(name)
    if name == "santase":  # no marriage at trick 1: let seat 0 win one first
        state = act(state, "0:AC", "1:JS")
    assert has(state, LeadMarriage(0, _card("KH")))
    assert has(state, LeadMarriage(0, _card("QH"))) is (value == "k_or_q")


@pytest.mark.parametrize(("name", "value"), cells("marriage_scoring"))
def test_cell_marriage_scoring(name: str, value: str) -> None:
    assert PROFILES[name].marriage_scoring.value == value
    with_trick = act(_marriage_hand(name), "0:AC", "1:JS", "0:m:KH")  # seat 0 already holds a trick
    assert with_trick.points(0) == 13 + (0 if value == "next_trick" else 20)
    if PROFILES[name].marriage_at_trick_1:
        at_once = act(_marriage_hand(name), "0:m:KH")
        assert at_once.points(0) == (20 if value == "immediate" else 0)


@pytest.mark.parametrize(("name", "value"), cells("declare_when"))
def test_cell_declare_when(name: str, value: str) -> None:
    state = _marriage_hand(name)
    assert has(state, Declare(1)) is (value == "any_time")  # the dealer, not on lead, at trick 1
    after = act(state, "0:AC", "1:JS")
    assert has(after, Declare(0)) is (value != "automatic")  # the winner of a trick
    assert has(act(after, "0:10C"), Declare(0)) is (value == "any_time")  # after leading a plain card


def _closer_declared(s: SixtySixState) -> bool:
    r = s.result
    return (
        r is not None
        and r.reason is Reason.DECLARED
        and s.closing is not None
        and r.winner == s.closing.closer
    )


def _table(tricks: int, measure: int) -> int:
    return 3 if tricks == 0 else (2 if measure < 33 else 1)


@pytest.mark.parametrize(("name", "value"), cells("close_judged"))
def test_cell_close_judged(name: str, value: str | None) -> None:
    if value is None:
        assert PROFILES[name].min_talon_close is None
        return
    assert PROFILES[name].close_judged.value == value
    hands = [s for s in finished(name) if _closer_declared(s)]
    assert hands
    for s in hands:
        assert s.closing is not None and s.result is not None
        loser = 1 - s.closing.closer
        if value == "at_closing":
            expected = _table(s.closing.opponent_tricks, s.closing.opponent_measure)
        else:
            expected = _table(s.trick_counts[loser], s.measure(loser))
        assert s.result.game_points == expected


@pytest.mark.parametrize(("name", "value"), cells("failed_close_three_if"))
def test_cell_failed_close_three_if(name: str, value: str | None) -> None:
    if value is None:
        assert PROFILES[name].min_talon_close is None  # "—": no closing, so no failed close
        return
    assert PROFILES[name].failed_close_three_if.value == value
    failed = [s for s in finished(name) if s.result is not None and s.result.reason is Reason.FAILED_CLOSE]
    assert failed
    for s in failed:
        assert s.closing is not None and s.result is not None
        three = {
            "closed_at_trick_1": s.closing.tricks_played == 0,
            "opponent_had_no_trick": s.closing.opponent_tricks == 0,
            "always": True,
        }[value]
        assert s.result.game_points == (3 if three else 2)
        assert s.result.winner == 1 - s.closing.closer


@pytest.mark.parametrize(("name", "value"), cells("loser_measure"))
def test_cell_loser_measure(name: str, value: str) -> None:
    assert PROFILES[name].loser_measure.value == value
    declared = [
        s
        for s in finished(name, (Close,))
        if s.result is not None
        and s.result.reason in (Reason.DECLARED, Reason.REACHED_66)
        and s.closing is None
    ]
    assert declared
    for s in declared:
        assert s.result is not None and s.result.winner is not None
        loser = 1 - s.result.winner
        measure = s.card_points[loser] if value == "card_points" else s.points(loser)
        assert s.result.game_points == _table(s.trick_counts[loser], measure)


@pytest.mark.parametrize(("name", "value"), cells("wrong_declaration"))
def test_cell_wrong_declaration(name: str, value: str | None) -> None:
    if value is None:
        assert PROFILES[name].declare_when.value == "automatic"  # nobody declares in schnapsen-lite
        return
    wrong = [
        s for s in finished(name) if s.result is not None and s.result.reason is Reason.WRONG_DECLARATION
    ]
    assert wrong
    for s in wrong:
        assert s.result is not None and s.result.winner is not None
        no_trick = s.trick_counts[s.result.winner] == 0
        assert s.result.game_points == (3 if value == "two_or_three" and no_trick else 2)


@pytest.mark.parametrize(("name", "value"), cells("nobody_declares"))
def test_cell_nobody_declares(name: str, value: str) -> None:
    assert PROFILES[name].nobody_declares.value == value
    ends = [s for s in finished(name, (Close, Declare)) if s.result is not None and s.bidder is None]
    ends = [s for s in ends if s.result is not None and s.result.reason is not Reason.REACHED_66]
    assert ends
    for s in ends:
        assert s.result is not None
        last = s.tricks[-1].winner
        if value == "last_trick_wins_1":
            assert (s.result.winner, s.result.game_points, s.result.reason) == (last, 1, Reason.LAST_TRICK)
            continue
        if value == "last_trick_bonus_10":
            assert s.bonus == ((10, 0) if last == 0 else (0, 10))
            a, b = s.points(0), s.points(1)
        else:
            assert s.bonus == (0, 0)
            a, b = s.card_points
        if a != b:
            assert s.result.winner == (0 if a > b else 1) and s.result.reason is Reason.MORE_POINTS


@pytest.mark.parametrize(("name", "value"), cells("equal_points"))
def test_cell_equal_points(name: str, value: str | None) -> None:
    rules = PROFILES[name]
    assert rules.equal_points.value == (value or "none")
    ties = [s for s in finished(name, (Close, Declare)) if s.result is not None and s.result.winner is None]
    if value is None:
        assert ties == []  # the last trick always decides
        return
    assert ties, "no tie among the sample hands"
    for s in ties:
        assert s.result is not None
        assert s.result.reason is (Reason.TIE_POT if value == "pot" else Reason.DRAW)


@pytest.mark.parametrize(("name", "value"), cells("bid"))
def test_cell_bid(name: str, value: int | None) -> None:
    rules = PROFILES[name]
    assert rules.bid_points == value
    state = hand(
        rules,
        *(
            ("AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C")
            if rules.deck_size == 24
            else ("AH 10H KH QH JH", "AC 10C KC QC JC")
        ),
        "AD",
    )
    assert has(state, Bid(0)) is (value is not None)


@pytest.mark.parametrize(("name", "value"), cells("match"))
def test_cell_match(name: str, value: tuple[int, int] | None) -> None:
    rules = PROFILES[name]
    if value is None:
        assert rules.match is None
        with pytest.raises(InvalidRules):
            new_match(rules, 0)
        return
    assert rules.match is not None and (rules.match.target, rules.match.games_to_win) == value
    match = new_match(rules, 0)
    hands = 0
    while not match.is_over:
        match = match_apply(match, HandResult(0, 1, Reason.DECLARED, "", (0, 0), (0, 0), (0, 0)))
        hands += 1
    assert hands == value[0] * value[1]


@pytest.mark.parametrize(("name", "value"), cells("next_dealer"))
def test_cell_next_dealer(name: str, value: str) -> None:
    rules = PROFILES[name]
    assert rules.next_dealer.value == value
    if rules.match is None:
        assert name == "schnapsen-lite"  # single hands: the caller alternates, as the oracle's games do
        return
    match = match_apply(new_match(rules, 0), HandResult(0, 1, Reason.DECLARED, "", (0, 0), (0, 0), (0, 0)))
    assert match.dealer == (1 if value == "alternate" else 0)


# --- options: unknown and contradictory ones are refused with a clear message --------------------


def test_rules_from_options_overrides_a_profile() -> None:
    rules = rules_from_options({"match": {"target": 11}, "close_judged": "final"}, profile="snapszer")
    assert rules.match is not None and rules.match.target == 11 and rules.close_judged.value == "final"
    assert rules.deck_size == 24 and isinstance(rules, SixtySixRules)


@pytest.mark.parametrize(
    ("profile", "options", "message"),
    [
        ("snapszer", {"colour": "red"}, "unknown option 'colour'"),
        ("nope", {}, "unknown profile 'nope'"),
        ("snapszer", {"marriage_scoring": "later"}, "marriage_scoring must be one of"),
        ("snapszer", {"deck_size": 20}, "exchange_rank '9' needs the 24-card pack"),
        ("schnapsen", {"exchange_rank": "9"}, "20-card pack has no 9s"),
        ("schnapsen-lite", {"close_before_draw": True}, "close_before_draw needs closing"),
        ("schnapsen", {"min_talon_close": 12}, "min_talon_close must be empty"),
        ("schnapsen", {"equal_points": "pot"}, "equal_points must be 'none'"),
        ("sixty-six", {"equal_points": "pot"}, "needs next_dealer 'alternate'"),
        ("snapszer", {"nobody_declares": "last_trick_wins_1"}, "equal_points must be 'none'"),
        ("schnapsen-lite", {"min_talon_close": 2}, "'automatic' has no way to judge a close"),
        ("snapszer", {"exchange_needs_trick": "yes"}, "must be true or false"),
        ("snapszer", {"match": {"target": 7, "games_to_win": 2, "countdown": True}}, "countdown"),
        ("snapszer", {"match": {"goal": 7}}, "unknown keys"),
    ],
)
def test_options_refused_with_clear_messages(profile: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRules) as exc:
        rules_from_options(options, profile=profile)
    assert any(message in e for e in exc.value.errors), exc.value.errors


def test_profiles_are_frozen_and_serialisable() -> None:
    import dataclasses
    import json

    rules = PROFILES["snapszer"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deck_size = 20  # type: ignore[misc]
    for r in PROFILES.values():
        assert json.loads(json.dumps(r.to_dict()))["name"] == r.name
