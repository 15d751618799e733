"""X32-X33: matches as a fold over hand results, and checking recorded scores."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalAction, InvalidRules
from games.engine.sixtysix import (
    PROFILES,
    HandResult,
    MatchResult,
    Reason,
    RecordedHand,
    match_apply,
    match_fold,
    match_hands_valid,
    match_score_valid,
    new_match,
    rules_from_options,
)


def won(seat: int, points: int, reason: Reason = Reason.DECLARED) -> HandResult:
    return HandResult(seat, points, reason, "", (0, 0), (0, 0), (0, 0))


def tie(reason: Reason) -> HandResult:
    return HandResult(None, 0, reason, "", (0, 0), (0, 0), (0, 0))


def test_X32_snapszer_first_to_7_and_the_deal_alternates() -> None:
    match = new_match(PROFILES["snapszer"], first_dealer=1)
    dealers = []
    for result in [won(0, 3), won(1, 2), won(0, 3)]:
        dealers.append(match.dealer)
        match = match_apply(match, result)
    assert dealers == [1, 0, 1] and match.scores == (6, 2) and not match.is_over
    match = match_apply(match, won(0, 1))
    assert match.winner == 0 and match.scores == (7, 2)
    with pytest.raises(IllegalAction):
        match_apply(match, won(1, 1))


def test_X32_snapszer_option_11() -> None:
    rules = rules_from_options({"match": {"target": 11}})
    assert not match_fold(rules, 0, [won(0, 3)] * 3).is_over
    assert match_fold(rules, 0, [won(0, 3)] * 4).winner == 0


def test_X29_pot_goes_to_the_next_winner_and_counts_toward_the_target() -> None:
    match = match_fold(
        PROFILES["snapszer"], 0, [won(0, 3), won(0, 3), tie(Reason.TIE_POT), tie(Reason.TIE_POT)]
    )
    assert match.pot == 2 and match.scores == (6, 0) and match.dealer == 0  # 4 hands: the deal alternated
    match = match_apply(match, won(1, 1))
    assert match.scores == (6, 3) and match.pot == 0  # 1 + the pot of 2
    match = match_apply(match, tie(Reason.TIE_POT))
    match = match_apply(match, won(0, 1))
    assert match.winner == 0 and match.scores == (8, 3)


def test_X32_schnapsen_counts_down_and_the_loser_gets_a_bummerl() -> None:
    match = match_fold(PROFILES["schnapsen"], 0, [won(1, 3), won(0, 2)])
    assert match.remaining == (5, 4)
    match = match_fold(PROFILES["schnapsen"], 0, [won(1, 3), won(1, 3), won(1, 1)])
    assert match.winner == 1 and match.bummerl == 0 and match.remaining == (7, 0)


def test_X32_snapszer_hu_two_games_of_7_scores_restart() -> None:
    rules = PROFILES["snapszer-hu"]
    match = match_fold(rules, 0, [won(0, 6), won(0, 1)])
    assert match.games_won == (1, 0) and match.scores == (0, 0) and not match.is_over
    assert match.dealer == 0  # two hands: the deal keeps alternating across games
    match = match_fold(
        rules, 0, [won(0, 6), won(0, 1), won(1, 6), won(1, 3), won(0, 6, Reason.BID_WON), won(0, 3)]
    )
    assert match.games_won == (2, 1) and match.winner == 0
    assert match.game_scores == ((7, 0), (0, 9), (9, 0))


def test_X32_sixty_six_winner_deals_and_a_draw_is_redealt_by_the_same_dealer() -> None:
    match = new_match(PROFILES["sixty-six"], first_dealer=0)
    match = match_apply(match, won(1, 2))
    assert match.dealer == 1
    match = match_apply(match, tie(Reason.DRAW))
    assert match.dealer == 1 and match.scores == (0, 2)
    with pytest.raises(IllegalAction):
        match_apply(match, tie(Reason.TIE_POT))  # sixty-six has no pot


def test_X32_santase_to_11_winner_deals() -> None:
    match = match_fold(PROFILES["santase"], 0, [won(0, 3), won(0, 3), won(0, 3)])
    assert match.scores == (9, 0) and not match.is_over and match.dealer == 0
    assert match_fold(PROFILES["santase"], 0, [won(0, 3)] * 4).winner == 0


def test_X32_schnapsen_lite_has_no_match() -> None:
    with pytest.raises(InvalidRules, match="single hands"):
        new_match(PROFILES["schnapsen-lite"], 0)


@pytest.mark.parametrize(
    ("profile", "score", "pot", "ok"),
    [
        ("snapszer", (7, 3), 0, True),
        ("snapszer", (9, 6), 0, True),  # 6 + 3 is the most one hand can bring
        ("snapszer", (10, 6), 0, False),
        ("snapszer", (10, 6), 1, True),  # a pot of 1 carried into the last hand
        ("snapszer", (6, 3), 0, False),  # nobody reached 7
        ("snapszer", (7, 7), 0, False),  # both reached it
        ("schnapsen", (7, 0), 1, False),  # no pot in schnapsen
        ("santase", (13, 10), 0, True),
        ("santase", (14, 10), 0, False),
        ("sixty-six", (-1, 7), 0, False),
    ],
)
def test_X33_recorded_score(profile: str, score: tuple[int, int], pot: int, ok: bool) -> None:
    problems = match_score_valid(PROFILES[profile], score, pot_carried=pot)
    assert (problems == []) is ok, problems
    assert all(isinstance(p, str) and p for p in problems)


@pytest.mark.parametrize(
    ("games", "ok"),
    [
        ([(7, 3), (7, 2)], True),
        ([(7, 3), (4, 7), (12, 6)], True),  # 6 + 6 with the bid
        ([(7, 3), (4, 7), (13, 6)], False),
        ([(7, 3)], False),  # the match is not over
        ([(7, 3), (7, 2), (7, 1)], False),  # decided after two games
        ([(7, 3), (3, 7)], False),
    ],
)
def test_X33_snapszer_hu_records_each_game(games: list[tuple[int, int]], ok: bool) -> None:
    problems = match_score_valid(PROFILES["snapszer-hu"], games)
    assert (problems == []) is ok, problems


def test_X33_messages_say_what_is_wrong() -> None:
    (problem,) = match_score_valid(PROFILES["snapszer"], (10, 6))
    assert "at most 9" in problem
    assert "no match" in match_score_valid(PROFILES["schnapsen-lite"], (7, 0))[0]


def test_X33_table_play_recorded_hand_by_hand() -> None:
    rules = PROFILES["snapszer"]
    good = [RecordedHand(0, 3, Reason.DECLARED), RecordedHand(None, 0, Reason.TIE_POT)]
    good.append(RecordedHand(0, 3, Reason.MORE_POINTS))  # 3 + 3 + the pot of 1 = 7
    assert match_hands_valid(rules, good) == []
    assert "not decided" in match_hands_valid(rules, good[:2])[0]
    bad_points = [RecordedHand(0, 4, Reason.DECLARED)]
    assert "1 or 2 or 3" in match_hands_valid(rules, bad_points)[0]
    assert "no bid" in match_hands_valid(rules, [RecordedHand(0, 6, Reason.BID_WON)])[0]
    too_many = [*good, RecordedHand(1, 1, Reason.MORE_POINTS)]
    assert "already decided" in match_hands_valid(rules, too_many)[0]
    assert match_hands_valid(PROFILES["sixty-six"], [RecordedHand(1, 3, Reason.WRONG_DECLARATION)]) != []


def test_X33_accepts_a_profile_name() -> None:
    assert match_score_valid("santase", (11, 4)) == []
    assert "unknown profile 'whist'" in match_score_valid("whist", (7, 0))[0]
    assert (
        match_hands_valid(
            "schnapsen", [RecordedHand(0, 3, Reason.DECLARED)] * 2 + [RecordedHand(0, 1, Reason.LAST_TRICK)]
        )
        == []
    )


def test_X32_a_match_result_holds_every_hand_and_the_winner() -> None:
    rules = PROFILES["snapszer"]
    hands = [won(0, 3), won(1, 2), won(0, 3), won(0, 1)]
    result = MatchResult.of(rules, 1, hands)
    assert result.winner == 0 and result.game_scores == ((7, 2),) and result.hands == tuple(hands)
    assert result.to_dict()["hands"][1]["winner"] == 1
    with pytest.raises(ValueError, match="do not decide"):
        MatchResult.of(rules, 1, hands[:3])
