"""X19-X30: closing, declaring 66, the end of a hand and its game points."""

from __future__ import annotations

import random

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Close,
    Declare,
    Phase,
    Reason,
    SixtySixState,
    apply,
    legal_actions,
    new_hand,
    rules_from_options,
)
from games.engine.sixtysix.rules import LoserMeasure
from tests.games.engine.sixtysix.helpers import (
    act,
    advance,
    find_hand,
    hand,
    names,
    quiet_choice,
    random_deal,
    recorded_playout,
)

# --- a closing scenario, worked out by hand ------------------------------------------------------
# snapszer, diamonds trumps. Seat 0 closes before trick 1, then:
#   m:QD (40, immediate) 9H -> seat 0 +3      points 43
#   AH JH                -> seat 0 +13     points 56
#   QS AS                -> seat 1 +14     (seat 1's first trick)
#   KS KD (must trump)   -> seat 0 +8      points 64
#   AC 9C                -> seat 0 +11     points 75
CLOSE_SEQUENCE = ("0:close", "0:m:QD", "1:9H", "0:AH", "1:JH", "0:QS", "1:AS", "1:KS", "0:KD", "0:AC", "1:9C")


def _closing(profile: str = "snapszer", **options: object) -> SixtySixState:
    rules = rules_from_options(options, profile=profile) if options else PROFILES[profile]
    return hand(rules, "AH 10H AC KD QD QS", "9H JH 9C AS JS KS", "AD")


def test_X19_leader_may_close_an_open_talon_and_nobody_draws_after() -> None:
    state = _closing()
    assert Close(0) in legal_actions(state, 0) and Close(1) not in legal_actions(state, 1)
    closed = act(state, "0:close", "0:AH", "1:JH")
    assert closed.talon_size == 12 and len(closed.hands[0]) == 5  # no draw after a closed trick
    assert Close(0) not in legal_actions(closed, 0)


def test_X19_closing_with_one_face_down_card_where_minimum_is_open() -> None:
    state = advance(hand("snapszer", "AH AC AS 10H 10C 10S", "9H 9C 9S JH JC JS", "KD"), 5)
    assert state.talon_size == 2
    assert Close(state.leader) in legal_actions(state, state.leader)


def test_X19_santase_needs_four_cards_to_close() -> None:
    state = advance(act(hand("santase", "AH AC AS 10H 10C 10S", "9H 9C 9S JH JC JS", "KD")), 4)
    assert state.talon_size == 4 and Close(state.leader) in legal_actions(state, state.leader)
    state = advance(state, 1)
    assert state.talon_size == 2 and Close(state.leader) not in legal_actions(state, state.leader)


def test_X20_closer_scores_on_the_opponent_at_closing() -> None:
    over = act(_closing(), *CLOSE_SEQUENCE, "0:declare")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.points[0]) == (0, Reason.DECLARED, 75)
    assert over.result.game_points == 3  # seat 1 had no trick when the talon was closed


def test_X20_closer_scores_on_the_final_state_where_close_judged_is_final() -> None:
    over = act(_closing(close_judged="final"), *CLOSE_SEQUENCE, "0:declare")
    assert over.result is not None
    assert over.result.game_points == 2  # now seat 1 has a trick and 14 card points


def test_X21_closer_who_never_declares_fails() -> None:
    state = act(_closing(), *CLOSE_SEQUENCE, "0:10H", "1:JS")
    assert state.phase is Phase.AFTER_LAST
    over = act(state, "0:pass", "1:pass")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (1, Reason.FAILED_CLOSE, 3)


def test_X21_closer_who_declares_wrongly_fails() -> None:
    over = act(_closing(), "0:close", "0:m:QD", "1:9H", "0:declare")  # 43 < 66
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (1, Reason.FAILED_CLOSE, 3)


def test_X21_opponent_declaring_correctly_first_beats_the_closer() -> None:
    state = hand("snapszer", "9H JH 9C JC 9S JS", "AH 10H AC 10C AS 10S", "AD")
    state = act(state, "0:close", "0:9H", "1:AH", "1:AC", "0:9C", "1:AS", "0:9S")
    state = act(state, "1:10H", "0:JH", "1:10C", "0:JC", "1:10S", "0:JS")
    assert state.points(1) == 69
    over = act(state, "1:declare")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (1, Reason.FAILED_CLOSE, 3)


def test_X21_seed_gives_two_when_closed_after_the_first_trick() -> None:
    over = act(_closing(), "0:AH", "1:JH", "0:close", "0:declare")
    assert over.result is not None and over.result.reason is Reason.FAILED_CLOSE
    assert over.result.game_points == 2  # seat 1 had no trick, but that is not the seed's test


@pytest.mark.parametrize(("opponent_trick", "expected"), [(False, 3), (True, 2)])
def test_X21_schnapsen_gives_three_if_the_opponent_had_no_trick(opponent_trick: bool, expected: int) -> None:
    state = hand("schnapsen", "AH JD AC KD QD", "JH QH QC AD JC", "AS")
    moves = ["0:AH", "1:JH"] + (["0:JD", "1:AD", "1:QC", "0:AC"] if opponent_trick else [])
    over = act(state, *moves, "0:close", "0:declare")
    assert over.result is not None and over.result.reason is Reason.FAILED_CLOSE
    assert (over.result.winner, over.result.game_points) == (1, expected)


def test_X21_santase_failed_close_always_three() -> None:
    state = hand("santase", "AH 10H AC KD QD 9S", "JH QH QC JC JD 9H", "AS")
    state = act(state, "0:AH", "1:JH")
    over = act(state, "0:close", "0:declare")
    assert over.result is not None and over.result.game_points == 3


@pytest.mark.parametrize(("closer_trick", "expected"), [(False, 3), (True, 2)])
def test_X22_closers_opponent_declaring_wrongly_pays_the_closer(closer_trick: bool, expected: int) -> None:
    moves = ["0:AH", "1:9H"] if closer_trick else []
    over = act(_closing(), *moves, "0:close", "1:declare")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (
        0,
        Reason.WRONG_DECLARATION,
        expected,
    )


def test_X23_reaching_66_in_the_closed_phase_does_not_end_it_the_first_declaration_does() -> None:
    state = act(_closing(), *CLOSE_SEQUENCE)
    assert state.points(0) == 75 and state.phase is Phase.LEAD  # nothing ended at 66
    over = act(state, "1:declare")  # any_time: seat 1 declares first, wrongly
    assert (
        over.result is not None and over.result.winner == 0 and over.result.reason is Reason.WRONG_DECLARATION
    )


# --- declaring -----------------------------------------------------------------------------------
# schnapsen, diamonds trumps; worked out by hand: the stock is KC 10D KD QD JD 10S KS QS JS.
# Seat 0 takes AH JH, 10H QH, AC JC, 10C QC (13 each = 52), then AS QS: 66 exactly.
REACH_66 = ("0:AH", "1:JH", "0:10H", "1:QH", "0:AC", "1:JC", "0:10C", "1:QC", "0:AS", "1:QS")


def _reach() -> SixtySixState:
    return act(hand("schnapsen", "AH 10H AC 10C AS", "JH QH JC QC KH", "AD"), *REACH_66)


def test_X24_reaching_66_ends_nothing_and_a_silent_player_plays_on() -> None:
    state = _reach()
    assert state.points(0) == 66 and state.phase is Phase.LEAD
    assert Declare(0) in legal_actions(state, 0)
    played_on = act(state, "0:KC")
    assert played_on.phase is Phase.FOLLOW and Declare(0) not in legal_actions(played_on, 0)


def test_X24_declaring_66_ends_the_hand() -> None:
    over = act(_reach(), "0:declare")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (0, Reason.DECLARED, 3)
    assert legal_actions(over, 0) == [] and legal_actions(over, 1) == []


def test_X24_schnapsen_lite_ends_automatically_at_66() -> None:
    over = act(hand("schnapsen-lite", "AH 10H AC 10C AS", "JH QH JC QC KH", "AD"), *REACH_66)
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (0, Reason.REACHED_66, 3)


def test_X24a_after_the_last_trick_declare_or_pass() -> None:
    state = advance(hand("schnapsen", "AH 10H AC 10C AS", "JH QH JC QC KH", "AD"), 10)
    assert state.phase is Phase.AFTER_LAST
    winner = state.tricks[-1].winner
    assert names(legal_actions(state, winner)) == {"declare", "pass"}
    assert legal_actions(state, 1 - winner) == []  # X26: the loser's windows are closed
    over = act(state, f"{winner}:pass")
    assert over.result is not None and over.result.reason is Reason.LAST_TRICK


def test_X24a_snapszer_both_may_declare_or_pass_in_any_order_and_a_pass_is_final() -> None:
    state = advance(hand("snapszer", "AH 10H AC 10C AS KD", "JH QH JC QC KH 9S", "AD"), 12)
    assert state.phase is Phase.AFTER_LAST
    assert names(legal_actions(state, 0)) == names(legal_actions(state, 1)) == {"declare", "pass"}
    one_passed = act(state, "1:pass")
    assert legal_actions(one_passed, 1) == [] and names(legal_actions(one_passed, 0)) == {"declare", "pass"}
    over = act(one_passed, "0:pass")
    assert over.result is not None and over.result.reason in (Reason.MORE_POINTS, Reason.TIE_POT)


def test_X25_either_player_may_declare_between_lead_and_reply() -> None:
    state = act(_closing(), "0:AH")
    assert Declare(1) in legal_actions(state, 1) and Declare(0) in legal_actions(state, 0)
    over = act(state, "1:declare")  # seat 1 has nothing: wrong
    assert over.result is not None and over.result.winner == 0
    assert over.result.card_points == (0, 0) and over.lead_card is not None  # the AH counts for no one


def test_X25_the_first_declaration_ends_the_hand_even_if_the_other_holds_66() -> None:
    # Seat 1 holds 69 after the last trick but seat 0 (the closer) declares first, wrongly.
    state = hand("snapszer", "9H JH 9C JC 9S JS", "AH 10H AC 10C AS 10S", "AD")
    state = act(state, "0:close", "0:9H", "1:AH", "1:AC", "0:9C", "1:AS", "0:9S")
    state = act(state, "1:10H", "0:JH", "1:10C", "0:JC", "1:10S", "0:JS")
    over = act(state, "0:declare")
    assert over.result is not None and over.result.winner == 1 and over.result.reason is Reason.FAILED_CLOSE


def test_X26_windows_after_a_trick_or_a_marriage_lead_only() -> None:
    state = hand("schnapsen", "KH QH AC 10C JC", "AH 10H KS QS JS", "AD")
    assert Declare(0) not in legal_actions(state, 0)  # no trick won yet
    shown = act(state, "0:m:KH")
    assert Declare(0) in legal_actions(shown, 0)  # after leading from a marriage
    assert Declare(1) not in legal_actions(shown, 1)  # never the follower
    plain = act(state, "0:AC")
    assert Declare(0) not in legal_actions(plain, 0)
    after_trick = act(plain, "1:JS")
    assert Declare(0) in legal_actions(after_trick, 0)


@pytest.mark.parametrize(("profile", "expected"), [("schnapsen", 3), ("sixty-six", 2), ("snapszer", 3)])
def test_X27_wrong_declaration_other_had_no_trick(profile: str, expected: int) -> None:
    state = (
        hand(profile, "KH QH AC 10C JC 9C", "AH 10H KS QS JS 9S", "AD") if profile != "schnapsen" else None
    )
    if state is None:
        state = hand(profile, "KH QH AC 10C JC", "AH 10H KS QS JS", "AD")
    over = act(state, "0:m:KH", "0:declare")
    assert over.result is not None
    assert (over.result.winner, over.result.reason, over.result.game_points) == (
        1,
        Reason.WRONG_DECLARATION,
        expected,
    )


def test_X27_wrong_declaration_gives_two_when_the_other_has_a_trick() -> None:
    state = act(hand("snapszer", "KH QH AC 10C JC 9C", "AH 10H KS QS JS 9S", "AD"), "0:AC", "1:9S")
    over = act(state, "1:declare")  # seat 1 has nothing; seat 0 has a trick
    assert over.result is not None and (over.result.winner, over.result.game_points) == (0, 2)


def _passed_out(profile: str, wanted: object = None) -> SixtySixState:
    def ok(s: SixtySixState) -> bool:
        return s.closing is None and (wanted is None or (s.result is not None and s.result.reason is wanted))

    return find_hand(PROFILES[profile], ok, avoid=(Declare, Close))[2]


def test_X28_snapszer_more_card_points_wins_by_the_table() -> None:
    state = _passed_out("snapszer", Reason.MORE_POINTS)
    assert state.result is not None
    won = [sum(t.lead.value + t.follow.value for t in state.tricks if t.winner == s) for s in (0, 1)]
    winner = 0 if won[0] > won[1] else 1
    assert state.result.winner == winner and won[0] != won[1]
    loser_tricks = sum(1 for t in state.tricks if t.winner != winner)
    expected = 3 if loser_tricks == 0 else (2 if won[1 - winner] < 33 else 1)
    assert state.result.game_points == expected


@pytest.mark.parametrize("profile", ["schnapsen", "snapszer-hu"])
def test_X28_last_trick_wins_one(profile: str) -> None:
    state = _passed_out(profile, Reason.LAST_TRICK)
    assert state.result is not None and state.bidder is None
    assert (state.result.winner, state.result.game_points, state.result.reason) == (
        state.tricks[-1].winner,
        1,
        Reason.LAST_TRICK,
    )


@pytest.mark.parametrize("profile", ["sixty-six", "santase"])
def test_X28_ten_for_the_last_trick_then_more_points(profile: str) -> None:
    state = _passed_out(profile, Reason.MORE_POINTS)
    assert state.result is not None
    last = state.tricks[-1].winner
    assert state.bonus[last] == 10 and state.bonus[1 - last] == 0
    points = state.result.points
    assert points[last] == state.card_points[last] + state.marriage_points[last] + 10
    assert state.result.winner == (0 if points[0] > points[1] else 1)


def test_X28_no_ten_after_a_close() -> None:
    def closed_out(s: SixtySixState) -> bool:
        return s.closing is not None and s.result is not None and s.result.reason is Reason.FAILED_CLOSE

    state = find_hand(PROFILES["sixty-six"], closed_out, avoid=(Declare,))[2]
    assert state.bonus == (0, 0)


def test_X29_seed_equal_60_60_goes_into_the_pot() -> None:
    state = _passed_out("snapszer", Reason.TIE_POT)
    assert state.card_points == (60, 60)
    assert state.result is not None and state.result.winner is None and state.result.game_points == 0


def test_X29_sixty_six_equal_points_is_a_draw() -> None:
    state = _passed_out("sixty-six", Reason.DRAW)
    assert state.result is not None and state.result.points[0] == state.result.points[1]


def test_X30_no_trick_scores_three_even_with_marriage_points() -> None:
    state = hand("snapszer", "KH QH 9C JC 9S JS", "AH 10H AC 10C AS 10S", "AD")
    state = act(state, "0:m:KH", "1:AH", "1:AC", "0:9C", "1:AS", "0:9S", "1:10C", "0:JC", "1:10S", "0:JS")
    state = act(state, "1:10H", "0:QH")
    assert state.points(1) == 74 and state.points(0) == 20 and state.trick_counts[0] == 0
    over = act(state, "1:declare")
    assert over.result is not None and over.result.game_points == 3


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "sixty-six", "santase", "snapszer-hu"])
def test_X30_declared_hands_follow_the_table(profile: str) -> None:
    rules = PROFILES[profile]
    checked = 0
    for seed in range(150):
        _, _, state = recorded_playout(rules, seed, avoid=(Close,))
        result = state.result
        if result is None or result.reason is not Reason.DECLARED or state.closing is not None:
            continue
        loser = 1 - (result.winner or 0)
        measure = state.card_points[loser]
        if rules.loser_measure is LoserMeasure.POINTS:
            measure = state.points(loser)
        expected = 3 if state.trick_counts[loser] == 0 else (2 if measure < 33 else 1)
        assert result.game_points == expected, seed
        checked += 1
    assert checked >= 10


def test_loser_measure_card_points_in_the_seed_points_elsewhere() -> None:
    # Find a declared hand whose loser has a trick, card points under 33 and points of 33 or more.
    def split(s: SixtySixState) -> bool:
        r = s.result
        if r is None or r.reason is not Reason.DECLARED or r.winner is None or s.closing is not None:
            return False
        loser = 1 - r.winner
        return s.trick_counts[loser] > 0 and s.card_points[loser] < 33 <= s.points(loser)

    deal, actions, state = find_hand(PROFILES["snapszer"], split)
    assert state.result is not None and state.result.game_points == 2
    as_points = new_hand(rules_from_options({"loser_measure": "points"}), deal, dealer=1)
    for action in actions:
        as_points, _ = apply(as_points, action)
    assert as_points.result is not None and as_points.result.game_points == 1


def test_X25_both_hold_66_whoever_declares_first_wins() -> None:
    rules = PROFILES["snapszer"]
    for seed in range(100):  # find a random hand (nobody declaring) where both reach 66
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), dealer=1)
        while state.phase is not Phase.OVER and min(state.points(0), state.points(1)) < 66:
            state, _ = apply(state, quiet_choice(state, rng, avoid=(Declare,)))
        if state.phase is not Phase.OVER:
            break
    else:
        raise AssertionError("no hand where both reach 66")
    for first in (0, 1):
        over, _ = apply(state, Declare(first))
        assert over.result is not None and over.result.winner == first
        assert over.result.reason in (Reason.DECLARED, Reason.FAILED_CLOSE)
