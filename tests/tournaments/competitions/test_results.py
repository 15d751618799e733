"""Reading and checking a submitted result into a value (tournaments/competitions/results/payload.py), at the
edge, before anything is stored."""

from __future__ import annotations

import pytest

from games.engine.protocol import GameKind
from games.engine.sixtysix import Reason, profile
from tournaments.competitions.results.payload import ResultInvalid, ResultTable, parse_result
from tournaments.competitions.results.values import SnapszerHand

SNAP = ResultTable(kind=GameKind.SNAP, players=(1, 2, 3, 4), names={1: "A", 2: "B", 3: "C", 4: "D"})
SNAPSZER = ResultTable(
    kind=GameKind.SNAPSZER, players=(1, 2), names={1: "A", 2: "B"}, rules=profile("snapszer")
)
HU = ResultTable(kind=GameKind.SNAPSZER, players=(1, 2), names={1: "A", 2: "B"}, rules=profile("snapszer-hu"))


def test_snap_last_player_standing_places_in_reverse_elimination_order() -> None:
    data = parse_result({"ending": "last_player_standing", "eliminated": [3, 1, 4]}, SNAP)
    assert data.winner == 2
    assert data.placings == {2: 1, 4: 2, 1: 3, 3: 4}


def test_snap_players_out_together_share_a_placing_S28() -> None:
    data = parse_result({"ending": "last_player_standing", "eliminated": [[3, 1], 4]}, SNAP)
    assert data.placings == {2: 1, 4: 2, 3: 3, 1: 3}


def test_snap_draw_has_no_winner_and_the_last_group_shares_first_S19() -> None:
    data = parse_result({"ending": "draw", "eliminated": [3, [1, 2, 4]]}, SNAP)
    assert data.winner is None
    assert data.placings == {1: 1, 2: 1, 4: 1, 3: 4}


def test_snap_adjudication_ranks_by_card_count_S20() -> None:
    data = parse_result(
        {"ending": "adjudicated", "eliminated": [4], "card_counts": {"1": 10, "2": 30, "3": 12}}, SNAP
    )
    assert data.winner == 2
    assert data.placings == {2: 1, 3: 2, 1: 3, 4: 4}


def test_snap_adjudication_with_equal_top_counts_is_a_draw_S20() -> None:
    data = parse_result(
        {"ending": "adjudicated", "eliminated": [4, 3], "card_counts": {"1": 26, "2": 26}}, SNAP
    )
    assert data.winner is None
    assert data.placings == {1: 1, 2: 1, 3: 3, 4: 4}


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"ending": "won"}, "ending"),
        ({"ending": "last_player_standing", "eliminated": [3, 1]}, "eliminated"),  # two left
        ({"ending": "last_player_standing", "eliminated": [3, 3, 1]}, "eliminated"),  # listed twice
        ({"ending": "last_player_standing", "eliminated": [3, 1, 99]}, "eliminated"),  # not at the table
        ({"ending": "draw", "eliminated": [3, 1, 2, 4]}, "eliminated"),  # last group of one
        (
            {"ending": "adjudicated", "eliminated": [4], "card_counts": {"1": 10, "2": 0, "3": 5}},
            "card_counts",
        ),
        ({"ending": "adjudicated", "eliminated": [4, 3, 2], "card_counts": {"1": 10}}, "card_counts"),
        ({"ending": "last_player_standing", "eliminated": [3, 1, 4], "card_counts": {"2": 3}}, "card_counts"),
    ],
)
def test_snap_bad_results_name_the_field(raw: dict, field: str) -> None:
    with pytest.raises(ResultInvalid) as exc:
        parse_result(raw, SNAP)
    assert field in exc.value.fields
    assert all(str(message) for message in exc.value.fields[field])


def test_snapszer_score_records_the_winner() -> None:
    data = parse_result({"score": {"1": 4, "2": 7}}, SNAPSZER)
    assert data.winner == 2
    assert data.placings == {2: 1, 1: 2}


def test_snapszer_unfinished_match_is_refused_X33() -> None:
    with pytest.raises(ResultInvalid) as exc:
        parse_result({"score": {"1": 6, "2": 4}}, SNAPSZER)
    assert str(exc.value.fields["score"][0]) == "6–4: nobody has reached 7, so the match is not over yet."


def test_snapszer_hands_fold_into_the_score_with_the_pot_X29() -> None:
    hands = [
        {"winner": 1, "points": 3},
        {"winner": None},
        {"winner": 2, "points": 2},
        {"winner": 1, "points": 3},
        {"winner": 2, "points": 1},
        {"winner": 1, "points": 1},
    ]
    data = parse_result({"hands": hands}, SNAPSZER)
    assert data.score == {1: 7, 2: 4}  # 2's first win takes the pot of 1: 2 + 1
    assert data.hands is not None and data.hands[1] == SnapszerHand(None, 0, Reason.TIE_POT)


@pytest.mark.parametrize(
    ("score", "pot", "fragment"),
    [
        ({"1": 7, "2": 7}, 0, "only one player can have 7 or more"),
        ({"1": 10, "2": 4}, 0, "at most 9"),
        ({"1": 11, "2": 4}, 2, None),  # X33: the pot carried into the deciding hand allows more
    ],
)
def test_snapszer_score_limits_X33(score: dict, pot: int, fragment: str | None) -> None:
    raw = {"score": score, "pot_carried": pot}
    if fragment is None:
        assert parse_result(raw, SNAPSZER).winner == 1
        return
    with pytest.raises(ResultInvalid) as exc:
        parse_result(raw, SNAPSZER)
    assert fragment in str(exc.value.fields["score"])


def test_snapszer_hands_after_the_match_was_won_are_refused_X33() -> None:
    hands = [
        {"winner": 1, "points": 3},
        {"winner": 1, "points": 3},
        {"winner": 1, "points": 1},
        {"winner": 2, "points": 1},
    ]
    with pytest.raises(ResultInvalid) as exc:
        parse_result({"hands": hands}, SNAPSZER)
    assert "already decided" in str(exc.value.fields["hands"])


def test_snapszer_hand_with_an_impossible_award_is_refused() -> None:
    with pytest.raises(ResultInvalid) as exc:  # the bid's 6 does not exist in the seed's snapszer
        parse_result({"hands": [{"winner": 1, "points": 6, "reason": "bid_won"}]}, SNAPSZER)
    assert "bid" in str(exc.value.fields["hands"])


def test_snapszer_hu_records_two_games_of_7_X32() -> None:
    data = parse_result({"games": [{"1": 7, "2": 5}, {"1": 2, "2": 7}, {"1": 8, "2": 0}]}, HU)
    assert data.winner == 1 and data.score == {1: 17, 2: 12}
    with pytest.raises(ResultInvalid):  # 1-1 in games: not over
        parse_result({"games": [{"1": 7, "2": 5}, {"1": 2, "2": 7}]}, HU)


@pytest.mark.parametrize(
    ("game", "profile", "options", "table_size", "fragment"),
    [
        ("snap", "classic", {}, None, None),
        ("snap", "classic", {"match_key": "exact_card"}, None, "exact_card needs deck double104"),
        ("snap", "classic", {"match_key": "exact_card", "deck": "double104"}, None, None),
        ("snap", "classic", {"no_such_option": 1}, None, "unknown option"),
        ("snap", "lightning", {}, None, "unknown Snap profile"),
        ("snap", "classic", {"speed": True}, 4, None),  # a warning (speed is for 2-3), not an error
        ("snapszer", "snapszer-hu", {}, None, None),
        ("snapszer", "snapszer", {"match": 0}, None, "positive"),
        ("snapszer", "bezique", {}, None, "unknown profile"),
    ],
)
def test_tournament_rules_are_checked_by_the_engines(
    game: str, profile: str, options: dict, table_size: int | None, fragment: str | None
) -> None:
    from tournaments.competitions.outcomes import rules_problems

    problems = rules_problems(game, profile, options, table_size=table_size)
    if fragment is None:
        assert problems == []
    else:
        assert any(fragment in p for p in problems), problems


def test_snapszer_hands_without_reasons_take_the_reason_their_points_allow_X31() -> None:
    hu = HU
    game = [{"winner": 1, "points": 6}, {"winner": 1, "points": 1}]  # a bid won, then one more point
    with pytest.raises(ResultInvalid):  # one game of 7 is not a snapszer-hu match (two games of 7)
        parse_result({"hands": game}, hu)
    data = parse_result({"hands": game + game}, hu)
    assert data.hands is not None
    assert [h.reason for h in data.hands] == ["bid_won", "declared", "bid_won", "declared"]
    assert data.games == ((7, 0), (7, 0))
    assert data.winner == 1


def test_snapszer_a_6_without_a_bid_in_the_profile_is_refused() -> None:
    with pytest.raises(ResultInvalid):
        parse_result({"hands": [{"winner": 1, "points": 6}, {"winner": 1, "points": 1}]}, SNAPSZER)
