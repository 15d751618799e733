"""A game of Snapszer is a match (X32): hands dealt one after another from a seed or recorded
deals, scored into the match, and the contract's doors onto it (options, views, actions)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.dealing import shuffled
from games.engine.errors import ActionCode, IllegalAction, InvalidAction, InvalidRules, Problem
from games.engine.sixtysix import (
    PROFILES,
    Bid,
    Declare,
    MatchRecordProblem,
    MatchResult,
    Pass,
    Phase,
    PlayCard,
    Reason,
    SixtySixRulesProblem,
    deck,
    new_hand,
    parse_card,
    rules_from_options,
)
from games.engine.sixtysix.contract import ENGINE
from games.engine.sixtysix.game import (
    HandDealt,
    MatchEnded,
    MatchScored,
    SixtySixGame,
    deal_for,
    game_apply,
    game_from_setup,
    game_result,
    game_rules,
    game_setup,
    new_game,
)
from games.engine.sixtysix.rules import options_of
from games.engine.sixtysix.snapshot import game_from_snapshot, game_to_snapshot, hand_to_snapshot
from tests.games.engine.sixtysix.helpers import quiet_choice

SEED = b"a documented seed"


def start(profile: str = "snapszer", dealer: int = 0, **options: object) -> SixtySixGame:
    return ENGINE.new_game({"profile": profile, **options}, seats=2, dealer=dealer, seed=SEED)


def wrong_declaration(game: SixtySixGame, seat: int) -> tuple[SixtySixGame, list[object]]:
    """End the hand at once: ``seat`` declares with 0 points (X27: the other seat scores 3)."""
    state, events = ENGINE.apply(game, Declare(seat))
    return state, list(events)


def problem_codes(exc: pytest.ExceptionInfo[InvalidRules]) -> list[object]:
    return [p.code for p in exc.value.errors if isinstance(p, Problem)]


# --- the deal -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_X4_the_first_dealer_deals_hand_1_from_the_seed(dealer: int) -> None:
    game = start(dealer=dealer)
    rules = PROFILES["snapszer"]
    expected = new_hand(rules, shuffled(deck(24), SEED, b"hand:1"), dealer)
    assert hand_to_snapshot(game.hand) == hand_to_snapshot(expected)
    assert game.hand.leader == 1 - dealer  # X6: the non-dealer leads
    assert game.hand_number == 1 and game.hands == () and game.match.scores == (0, 0)


def test_X32_each_hand_is_dealt_from_the_seed_with_its_own_number_and_the_deal_alternates() -> None:
    game = start(dealer=1)
    game, events = wrong_declaration(game, 0)  # hand 1: seat 1 scores 3
    assert [type(e) for e in events[-3:]] == [type(events[-3]), MatchScored, HandDealt]
    dealt = events[-1]
    assert isinstance(dealt, HandDealt) and dealt.hand == 2 and dealt.dealer == 0
    expected = new_hand(PROFILES["snapszer"], shuffled(deck(24), SEED, b"hand:2"), 0)
    assert hand_to_snapshot(game.hand) == hand_to_snapshot(expected)
    assert dealt.trump_card is game.hand.trump_card
    assert game.hand_number == 2 and game.match.scores == (0, 3)
    assert deal_for(PROFILES["snapszer"], SEED, 2) == shuffled(deck(24), SEED, b"hand:2")


def test_X32_sixty_six_the_winner_deals_next() -> None:
    game = start("sixty-six", dealer=0)
    rng = random.Random(5)
    while game.hand_number == 1:  # nobody may declare before a trick: play the hand out
        game, _ = ENGINE.apply(game, quiet_choice(game.hand, rng))
    (result,) = game.hands
    if result.winner is None:  # X29: a draw is dealt again by the same dealer
        assert game.hand.dealer == 0
    else:
        assert game.hand.dealer == result.winner


def test_X32_a_match_ends_when_a_seat_reaches_the_target_and_nothing_is_dealt_after() -> None:
    game = start(dealer=0)
    scores = []
    for _ in range(3):  # seat 0 declares wrongly three times: 3 + 3 + 3 for seat 1
        game, events = wrong_declaration(game, 0)
        scores.append(game.match.scores)
    assert scores == [(0, 3), (0, 6), (0, 9)]
    assert [type(e) for e in events[-2:]] == [MatchScored, MatchEnded]
    assert not any(isinstance(e, HandDealt) for e in events)
    ended = events[-1]
    assert isinstance(ended, MatchEnded) and ended.winner == 1 and ended.game_scores == ((0, 9),)
    assert ENGINE.is_terminal(game) and game.hand_number == 3 and game.hand.result == game.hands[-1]
    assert ENGINE.legal_actions(game, 0) == ENGINE.legal_actions(game, 1) == []
    result = ENGINE.result(game)
    assert result == MatchResult.of(PROFILES["snapszer"], 0, game.hands)
    assert (
        result is not None
        and result.winner == 1
        and [h.reason for h in result.hands] == [Reason.WRONG_DECLARATION] * 3
    )
    with pytest.raises(IllegalAction) as exc:
        ENGINE.apply(game, Declare(1))
    assert exc.value.code is ActionCode.GAME_OVER
    with pytest.raises(InvalidAction) as bad_seat:
        ENGINE.apply(game, Declare(2))
    assert bad_seat.value.code is ActionCode.NO_SUCH_SEAT


def test_X32_snapszer_hu_two_games_of_7_make_the_match() -> None:
    """Every hand is bid by the dealer (X31: 6 game points either way), so each game of 7 takes two
    or three hands, and the match two or three games; scores restart at 0-0 for each game."""
    game = start("snapszer-hu")
    rng = random.Random(7)
    while not game.is_terminal:
        hand = game.hand
        if hand.phase is Phase.BIDDING:
            seat = hand.bid_turn
            assert seat is not None
            action = Bid(seat) if seat == hand.dealer else Pass(seat)
        else:
            action = quiet_choice(hand, rng)
        game, _ = ENGINE.apply(game, action)
    assert {h.reason for h in game.hands} <= {Reason.BID_WON, Reason.BID_LOST}
    assert all(h.game_points == 6 for h in game.hands) and 4 <= len(game.hands) <= 9
    winner = game.match.winner
    assert winner is not None and game.match.games_won[winner] == 2
    assert 2 <= len(game.match.game_scores) <= 3
    assert all(max(g) in (12, 18) and min(g) in (0, 6) for g in game.match.game_scores)


def test_X32_the_match_is_the_fold_of_its_hands() -> None:
    rng = random.Random(3)
    game = ENGINE.new_game({"profile": "santase"}, seats=2, dealer=1, seed=b"fold")
    while not game.is_terminal:
        game, _ = ENGINE.apply(game, quiet_choice(game.hand, rng))
    result = ENGINE.result(game)
    assert result is not None and result.profile == "santase" and result.first_dealer == 1
    assert result.hands == game.hands and max(result.game_scores[0]) >= 11


# --- recorded deals -----------------------------------------------------------------------------


def _names(cards: object) -> list[str]:
    return [c.name for c in cards]  # type: ignore[attr-defined]


def test_recorded_deals_are_played_in_order() -> None:
    rules = PROFILES["snapszer"]
    deals = [_names(deal_for(rules, b"x", n)) for n in (1, 2, 3)]
    game = ENGINE.new_game({}, seats=2, dealer=0, deals=deals)
    for number in (1, 2, 3):  # X5: the non-dealer's cards are 1-3 and 7-9 of the order (24 cards)
        nondealer = 1 - game.hand.dealer
        assert game.hand.dealer == (number - 1) % 2  # X32: the deal alternates from dealer 0
        assert _names(game.hand.hands[nondealer]) == [deals[number - 1][i] for i in (0, 1, 2, 6, 7, 8)]
        if number < 3:
            game, _ = wrong_declaration(game, 0)


def test_recorded_deals_that_run_out_or_are_not_the_pack_are_bad_deals() -> None:
    rules = PROFILES["snapszer"]
    one = [_names(deal_for(rules, b"x", 1))]
    game = ENGINE.new_game({}, seats=2, dealer=0, deals=one)
    with pytest.raises(InvalidAction) as exc:
        wrong_declaration(game, 0)  # ends hand 1: there is no deal for hand 2
    assert exc.value.code is ActionCode.BAD_DEAL and "hand 2" in exc.value.detail
    for bad in (
        [one[0][:-1]],
        [[*one[0][:-1], one[0][0]]],
        [[*one[0][:-1], "ZZ"]],
        ["AH KH"],
        [],
        [[1] * 24],
    ):
        with pytest.raises(InvalidAction) as refused:
            ENGINE.new_game({}, seats=2, dealer=0, deals=bad)
        assert refused.value.code is ActionCode.BAD_DEAL
    twenty = [_names(deal_for(PROFILES["schnapsen"], b"x", 1))]
    with pytest.raises(InvalidAction, match="24-card pack"):
        ENGINE.new_game({}, seats=2, dealer=0, deals=twenty)


def test_a_record_ends_after_its_recorded_hands_decided_or_not_X32() -> None:
    """A record (hands played at a table, entered card by card) is over after the hand of its last
    recorded deal: no deal is asked for, the hand is held, and no match result is made up."""
    rules = PROFILES["snapszer"]
    deals = [_names(deal_for(rules, b"x", n)) for n in (1, 2)]
    setup = {
        "options": {"profile": "snapszer"},
        "seats": 2,
        "dealer": 0,
        "seed": None,
        "deals": deals[:1],
        "record": True,
    }
    game = game_from_setup(setup)
    assert game.record and not game.is_terminal and game.hand_number == 1
    over, events = wrong_declaration(game, 0)
    assert over.is_terminal and over.hand.result is not None and over.hand_number == 1
    assert [e.to_dict()["type"] for e in events][-1] == "match_scored"  # no hand_dealt, no match_ended
    assert game_result(over) is None and over.match.scores == (0, 3)  # X27: a wrong declaration gives 3
    with pytest.raises(IllegalAction) as refused:
        game_apply(over, Declare(1))
    assert refused.value.code is ActionCode.GAME_OVER
    assert game_setup(over) == setup  # the setup says it is a record; a snapshot keeps it
    again = game_from_snapshot(game_to_snapshot(over))
    assert again.is_terminal and game_to_snapshot(again) == game_to_snapshot(over)
    # Two recorded hands: the first deals the second as usual.
    two, events = wrong_declaration(game_from_setup({**setup, "deals": deals}), 0)
    assert not two.is_terminal and isinstance(events[-1], HandDealt)
    with pytest.raises(ValueError, match="recorded deals"):
        new_game(rules, profile="snapszer", first_dealer=0, seed=b"s", record=True)
    with pytest.raises(ValueError, match="true or false"):
        game_from_setup({**setup, "record": "yes"})
    # Setups of games that are not records are as they were: no "record" key.
    assert "record" not in game_setup(ENGINE.new_game({}, seats=2, dealer=0, deals=deals))


def test_a_game_needs_one_source_of_deals_and_a_seat_that_exists() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        ENGINE.new_game({}, seats=2, dealer=0)
    with pytest.raises(ValueError, match="exactly one"):
        ENGINE.new_game({}, seats=2, dealer=0, seed=b"s", deals=[])
    with pytest.raises(ValueError, match="non-empty bytes"):
        ENGINE.new_game({}, seats=2, dealer=0, seed=b"")
    for dealer in (2, -1, True):
        with pytest.raises(InvalidAction) as exc:
            ENGINE.new_game({}, seats=2, dealer=dealer, seed=b"s")
        assert exc.value.code is ActionCode.NO_SUCH_SEAT


# --- options ------------------------------------------------------------------------------------


def test_options_are_a_profile_and_its_rule_options() -> None:
    profile, rules = game_rules({"profile": "schnapsen", "match": 11})
    assert profile == "schnapsen" and rules == rules_from_options({"match": 11}, profile="schnapsen")
    assert game_rules({}) == ("snapszer", PROFILES["snapszer"])
    assert game_rules({"profile": None})[0] == "snapszer"
    game = start("santase", match={"target": 5})
    assert game.rules.match is not None and game.rules.match.target == 5


def test_X32_single_hand_profiles_have_no_game() -> None:
    """A tournament series counts matches: `schnapsen-lite` (single hands) is refused with the
    match module's code, and a schnapsen-lite with a match is a game like any other."""
    with pytest.raises(InvalidRules) as exc:
        ENGINE.check_options({"profile": "schnapsen-lite"}, 2)
    assert problem_codes(exc) == [MatchRecordProblem.NO_MATCH]
    assert exc.value.errors[0].params == {"profile": "schnapsen-lite"}  # type: ignore[attr-defined]
    with pytest.raises(InvalidRules):
        ENGINE.new_game({"profile": "schnapsen-lite"}, seats=2, dealer=0, seed=SEED)
    ENGINE.check_options({"profile": "schnapsen-lite", "match": 7}, 2)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"profile": "bezique"}, SixtySixRulesProblem.UNKNOWN_PROFILE),
        ({"profile": ["snapszer"]}, SixtySixRulesProblem.UNKNOWN_PROFILE),
        ({"profile": 7}, SixtySixRulesProblem.UNKNOWN_PROFILE),
        ({"colour": "red"}, SixtySixRulesProblem.UNKNOWN_OPTION),
        ({"match": 0}, SixtySixRulesProblem.MATCH_TARGET),
        ({"match": None}, SixtySixRulesProblem.POT_NEEDS_MATCH),
        ({"profile": "schnapsen", "match": None}, MatchRecordProblem.NO_MATCH),
    ],
)
def test_check_options_reports_coded_problems(options: dict[str, object], code: object) -> None:
    with pytest.raises(InvalidRules) as exc:
        ENGINE.check_options(options, 2)
    assert code in problem_codes(exc)


@pytest.mark.parametrize("seats", [1, 3, 0, True])
def test_the_66_family_is_for_two_seats(seats: int) -> None:
    assert ENGINE.seat_range() == (2, 2)
    with pytest.raises(ValueError, match="2 seats"):
        ENGINE.check_options({}, seats)
    with pytest.raises(ValueError, match="2 seats"):
        ENGINE.new_game({}, seats=seats, dealer=0, seed=SEED)


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize(
    "options", [{}, {"match": 11}, {"name": "club rules"}, {"match": {"target": 5, "games_to_win": 2}}]
)
def test_options_of_gives_back_the_rules_name_and_all(profile: str, options: dict[str, object]) -> None:
    rules = rules_from_options(options, profile=profile)
    again = rules_from_options(json.loads(json.dumps(options_of(rules, profile))), profile=profile)
    assert again == rules and again.name == rules.name and again.notes == rules.notes


def test_game_setup_is_json_and_replays_the_game() -> None:
    game = start("schnapsen", dealer=1, match=9)
    setup = ENGINE.game_setup(game)
    assert json.loads(json.dumps(setup)) == setup
    assert setup == {
        "options": {
            "profile": "schnapsen",
            "match": {"target": 9, "games_to_win": 1, "countdown": False},
            "name": "schnapsen+custom",
        },
        "seats": 2,
        "dealer": 1,
        "seed": SEED.hex(),
        "deals": None,
    }
    rng = random.Random(1)
    actions = []
    while not game.is_terminal:
        action = quiet_choice(game.hand, rng)
        actions.append(action)
        game, _ = ENGINE.apply(game, action)
    assert ENGINE.to_snapshot(ENGINE.replay(setup, actions)) == ENGINE.to_snapshot(game)
    result = ENGINE.result(game)
    assert result is not None and result.profile == "schnapsen+custom"


# --- views --------------------------------------------------------------------------------------


def test_the_spectator_sees_the_table_and_no_hand_card() -> None:
    game = start(dealer=0)
    lead = game.hand.hands[1][0]
    game, _ = ENGINE.apply(game, PlayCard(1, lead))
    view = ENGINE.observe(game, None).to_dict()
    table = view["hand"]
    assert view["seat"] is None and table["seat"] is None and "hand" not in table
    assert table["hand_sizes"] == [6, 5] and table["lead_card"] == lead.name
    assert table["trump_card"] == game.hand.trump_card.name  # type: ignore[union-attr]
    assert table["talon_size"] == 12 and "legal_actions" not in table
    hidden = {c.name for h in game.hand.hands for c in h} | {c.name for c in game.hand.stock}
    assert not hidden & set(json.dumps(view).replace('"', " ").replace(",", " ").split())
    assert view["match"]["scores"] == [0, 0] and view["hands"] == [] and view["hand_number"] == 1


def test_a_seat_sees_its_hand_and_the_match() -> None:
    game, _ = wrong_declaration(start(dealer=0), 1)
    view = ENGINE.observe(game, 1)
    assert view.hand_number == 2 and view.match.scores == (3, 0)
    assert [h.reason for h in view.hands] == [Reason.WRONG_DECLARATION]
    data = view.to_dict()
    assert data["hand"]["hand"] == sorted(c.name for c in game.hand.hands[1])
    assert data["hand"]["opponent_hand_size"] == 6 and data["hands"][0]["game_points"] == 3
    with pytest.raises(InvalidAction) as exc:
        ENGINE.observe(game, 2)
    assert exc.value.code is ActionCode.NO_SUCH_SEAT


def test_match_events_are_json() -> None:
    game, events = wrong_declaration(start(dealer=0), 0)
    dicts = [json.loads(json.dumps(e.to_dict())) for e in events]  # type: ignore[attr-defined]
    assert dicts[-2] == {"type": "match_scored", "hand": 1, "scores": [0, 3], "games_won": [0, 0], "pot": 0}
    assert dicts[-1] == {
        "type": "hand_dealt",
        "hand": 2,
        "dealer": 1,
        "trump_card": game.hand.trump_card.name,  # type: ignore[union-attr]
    }


# --- actions ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({}, ActionCode.MALFORMED),
        ({"type": "play", "seat": 0}, ActionCode.MALFORMED),
        ({"type": "play", "seat": 0, "card": "ZZ"}, ActionCode.MALFORMED),
        ({"type": "play", "seat": 0, "card": 5}, ActionCode.MALFORMED),
        ({"type": "play", "seat": "0", "card": "KH"}, ActionCode.MALFORMED),
        ({"type": "play", "seat": True, "card": "KH"}, ActionCode.MALFORMED),
        ({"type": "play", "seat": 2, "card": "KH"}, ActionCode.NO_SUCH_SEAT),
        ({"type": "close", "seat": -1}, ActionCode.NO_SUCH_SEAT),
        ({"type": "close", "seat": 0, "card": "KH"}, ActionCode.MALFORMED),
        ({"type": "marriage", "seat": 0, "card": "KH", "also": 1}, ActionCode.MALFORMED),
        ({"type": "fold", "seat": 0}, ActionCode.MALFORMED),
        ({"type": None, "seat": 0}, ActionCode.MALFORMED),
        ({"type": ["play"], "seat": 0}, ActionCode.MALFORMED),
    ],
)
def test_a_malformed_action_is_an_invalid_action(data: dict[str, object], code: ActionCode) -> None:
    with pytest.raises(InvalidAction) as exc:
        ENGINE.action_from_dict(data)
    assert exc.value.code is code


def test_an_action_that_is_not_a_mapping_is_malformed() -> None:
    for data in (["play", 0, "KH"], "play:KH", None):
        with pytest.raises(InvalidAction) as exc:
            ENGINE.action_from_dict(data)  # type: ignore[arg-type]
        assert exc.value.code is ActionCode.MALFORMED


def test_actions_round_trip_through_json() -> None:
    game = start()
    rng = random.Random(2)
    seen = 0
    while not game.is_terminal and seen < 400:
        for seat in (0, 1):
            for action in ENGINE.legal_actions(game, seat):
                data = json.loads(json.dumps(ENGINE.action_to_dict(action)))
                assert ENGINE.action_from_dict(data) == action
                seen += 1
        game, _ = ENGINE.apply(game, quiet_choice(game.hand, rng))
    assert seen >= 400
    assert ENGINE.action_from_dict({"type": "play", "seat": 1, "card": "10h"}) == PlayCard(
        1, parse_card("10H")
    )
