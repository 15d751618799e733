"""Results as values (tournaments/competitions/results/values.py): invariants, the stored JSON (format 2), and
``from_engine`` building the same value a referee's entry gives for a finished engine game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.protocol import GameKind
from games.engine.sixtysix import (
    PROFILES,
    HandResult,
    MatchResult,
    Reason,
    SixtySixRules,
    apply,
    deck,
    legal_actions,
    match_fold,
    new_hand,
    seats_to_act,
)
from games.engine.snap import EndReason, SnapResult
from games.engine.snap.playout import random_game
from games.engine.snap.rules import rules_from_options
from tournaments.competitions.results.payload import ResultTable, parse_result, result_payload
from tournaments.competitions.results.values import (
    FORMAT_VERSION,
    SnapEnding,
    SnapszerHand,
    SnapszerMatchResult,
    SnapTableResult,
    VoidResult,
    result_from_engine,
    result_from_json,
)

LPS, DRAW, ADJ = SnapEnding.LAST_PLAYER_STANDING, SnapEnding.DRAW, SnapEnding.ADJUDICATED
CLASSIC = rules_from_options({}, profile="classic")


# --- Snap ----------------------------------------------------------------------------------------


def test_snap_placings_and_winner_follow_how_the_game_ended_S21_S28() -> None:
    lps = SnapTableResult(players=(1, 2, 3, 4), ending=LPS, eliminated=((3,), (1, 4)))
    assert lps.winner == 2 and lps.placings == {2: 1, 1: 2, 4: 2, 3: 4}
    draw = SnapTableResult(players=(1, 2, 3), ending=DRAW, eliminated=((3,), (1, 2)))
    assert draw.winner is None and draw.placings == {1: 1, 2: 1, 3: 3}  # S19
    adjudicated = SnapTableResult(
        players=(1, 2, 3, 4), ending=ADJ, eliminated=((4,),), card_counts={1: 9, 2: 20, 3: 9}
    )
    assert adjudicated.winner == 2 and adjudicated.placings == {2: 1, 1: 2, 3: 2, 4: 4}  # S20
    level = SnapTableResult(players=(1, 2), ending=ADJ, eliminated=(), card_counts={1: 26, 2: 26})
    assert level.winner is None and level.placings == {1: 1, 2: 1}  # S20: equal counts draw


def test_snap_wrong_calls_count_every_player_0_when_not_given_S42() -> None:
    value = SnapTableResult(players=(1, 2, 3), ending=LPS, eliminated=((3,), (1,)), wrong_calls={3: 2})
    assert value.wrong_calls == {1: 0, 2: 0, 3: 2}
    assert value == SnapTableResult(
        players=(1, 2, 3), ending=LPS, eliminated=((3,), (1,)), wrong_calls={1: 0, 2: 0, 3: 2}
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": (1,), "ending": LPS, "eliminated": ()},  # one player
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,),)},  # two left
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,), (3,))},  # out twice
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,), (9,))},  # a stranger
        {"players": (1, 2, 3), "ending": DRAW, "eliminated": ((3,), (1,), (2,))},  # last alone
        {"players": (1, 2, 3), "ending": DRAW, "eliminated": ((3,),)},  # not everyone out
        {"players": (1, 2, 3), "ending": ADJ, "eliminated": ((3,),), "card_counts": {1: 4}},
        {"players": (1, 2, 3), "ending": ADJ, "eliminated": ((3,),), "card_counts": {1: 4, 2: 0}},
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,), (1,)), "card_counts": {2: 3}},
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,), (1,)), "wrong_calls": {9: 1}},
        {"players": (1, 2, 3), "ending": LPS, "eliminated": ((3,), (1,)), "wrong_calls": {1: -1}},
    ],
)
def test_a_snap_value_that_breaks_the_rules_cannot_be_built(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"Snap result|did not play"):
        SnapTableResult(**kwargs)


# --- Snapszer ------------------------------------------------------------------------------------


def test_snapszer_match_winner_score_and_placings_X32() -> None:
    two_games = SnapszerMatchResult(players=(5, 6), games=((7, 5), (2, 7), (8, 0)))
    assert two_games.winner == 5 and two_games.loser == 6
    assert two_games.score == {5: 17, 6: 12} and two_games.placings == {5: 1, 6: 2}
    assert not two_games.entered_by_hand and two_games.wrong_calls is None
    swapped = two_games.in_seat_order((6, 5))
    assert swapped.games == ((5, 7), (7, 2), (0, 8)) and swapped.winner == 5
    assert swapped.in_seat_order((5, 6)) == two_games


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": (5, 5), "games": ((7, 3),)},
        {"players": (5, 6), "games": ()},
        {"players": (5, 6), "games": ((7, 7),)},  # no winner of the game
        {"players": (5, 6), "games": ((7, 3), (3, 7))},  # level in games
        {"players": (5, 6), "games": ((7, 3),), "pot_carried": -1},
        {"players": (5, 6), "games": ((7, 3),), "hands": (SnapszerHand(9, 3, Reason.DECLARED),)},
        {"players": (5, 6), "games": ((7, 3),), "hands": (SnapszerHand(None, 1, Reason.TIE_POT),)},
    ],
)
def test_a_snapszer_value_that_breaks_the_rules_cannot_be_built(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="Snapszer match"):
        SnapszerMatchResult(**kwargs)


# --- Stored JSON ---------------------------------------------------------------------------------

VALUES = [
    SnapTableResult(players=(1, 2, 3, 4), ending=LPS, eliminated=((3,), (1, 4)), wrong_calls={4: 1}),
    SnapTableResult(players=(1, 2, 3), ending=DRAW, eliminated=((3,), (1, 2))),
    SnapTableResult(players=(1, 2, 3, 4), ending=ADJ, eliminated=((4,),), card_counts={1: 9, 2: 20, 3: 9}),
    SnapszerMatchResult(players=(5, 6), games=((4, 7),), pot_carried=1),
    SnapszerMatchResult(players=(5, 6), games=((7, 5), (2, 7), (8, 0))),
    SnapszerMatchResult(
        players=(5, 6),
        games=((7, 2),),
        hands=(
            SnapszerHand(5, 3, Reason.DECLARED),
            SnapszerHand(None, 0, Reason.TIE_POT),
            SnapszerHand(6, 1, Reason.MORE_POINTS),
            SnapszerHand(5, 3, Reason.FAILED_CLOSE),
        ),
    ),
    VoidResult(corrected_game=2),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_value_reads_back_from_its_json_with_its_format_version(value: Any) -> None:
    data = value.to_json()
    assert data["v"] == FORMAT_VERSION
    assert result_from_json(data) == value


def test_the_stored_json_keeps_the_keys_raw_readers_use() -> None:
    snap = VALUES[0].to_json()
    assert snap["winner"] == 2 and snap["placings"] == {"2": 1, "1": 2, "4": 2, "3": 4}
    assert snap["eliminated"] == [[3], [1, 4]] and snap["wrong_calls"] == {"1": 0, "2": 0, "3": 0, "4": 1}
    match = VALUES[4].to_json()
    assert match["winner"] == 5 and match["score"] == {"5": 17, "6": 12} and len(match["games"]) == 3


@pytest.mark.parametrize(
    "data",
    [
        {"game": "snap", "ending": "draw", "eliminated": [[1, 2]], "placings": {"1": 1, "2": 1}},  # v1
        {"v": 3, "game": "snap"},
        {"v": 2, "game": "whist", "players": [1, 2]},
        {"v": 2, "game": "snap", "players": [1, 2], "ending": "draw"},  # eliminated missing
        {**VALUES[0].to_json(), "winner": 3},  # edited by hand: no longer what the result says
        {**VALUES[3].to_json(), "score": {"5": 7, "6": 4}},
    ],
)
def test_anything_but_a_consistent_version_2_row_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        result_from_json(data)


# --- from_engine: the same value as a referee's entry of the same game ---------------------------


def _snap_table(players: tuple[int, ...]) -> ResultTable:
    return ResultTable(kind=GameKind.SNAP, players=players)


@pytest.mark.parametrize("seed", [*range(60), 229])
def test_a_finished_snap_game_gives_the_engines_placings_winner_and_wrong_calls_S21(seed: int) -> None:
    n = 2 + seed % 5
    result = random_game(CLASSIC, n, random.Random(seed)).final.result
    assert isinstance(result, SnapResult)
    players = tuple(100 + 7 * seat for seat in range(n))  # any ids: seat -> player
    value = result_from_engine(result, players)
    assert isinstance(value, SnapTableResult)
    assert value.placings == {players[s]: place for s, place in enumerate(result.placings)}
    assert value.winner == (None if result.winner is None else players[result.winner])
    assert value.wrong_calls == {players[s]: count for s, count in enumerate(result.wrong_calls)}
    assert value.ending is {EndReason.LAST_PLAYER: LPS, EndReason.NOBODY_LEFT: DRAW}.get(result.ended_by, ADJ)
    # The same value a referee gets by entering what happened at the table.
    assert parse_result(result_payload(value), _snap_table(players)) == value
    assert result_from_json(value.to_json()) == value


def test_the_snap_seeds_above_cover_every_ending() -> None:
    endings = set()
    for seed in [*range(60), 229]:
        result = random_game(CLASSIC, 2 + seed % 5, random.Random(seed)).final.result
        assert result is not None
        endings.add(result_from_engine(result, range(10, 10 + len(result.placings))).ending)  # type: ignore[union-attr]
    assert endings == set(SnapEnding)


def test_from_engine_refuses_players_that_do_not_fit_the_seats() -> None:
    result = random_game(CLASSIC, 3, random.Random(1)).final.result
    assert result is not None
    with pytest.raises(ValueError, match="3 seats"):
        SnapTableResult.from_engine(result, (1, 2))


def _random_hand(rules: SixtySixRules, dealer: int, rng: random.Random) -> HandResult:
    pack = list(deck(rules.deck_size))
    rng.shuffle(pack)
    state = new_hand(rules, pack, dealer)
    while state.result is None:
        seat = seats_to_act(state)[0]
        state, _events = apply(state, rng.choice(legal_actions(state, seat)))
    return state.result


def _random_match(rules: SixtySixRules, rng: random.Random) -> MatchResult:
    first_dealer = rng.randrange(2)
    hands: list[HandResult] = []
    while match_fold(rules, first_dealer, hands).winner is None:
        hands.append(_random_hand(rules, rng.randrange(2), rng))
    return MatchResult.of(rules, first_dealer, hands)


@pytest.mark.parametrize("profile_name", ["snapszer", "snapszer-hu", "schnapsen", "sixty-six", "santase"])
@pytest.mark.parametrize("seed", range(4))
def test_a_match_played_through_the_66_engine_gives_its_hands_games_and_winner_X32(
    profile_name: str, seed: int
) -> None:
    rules = PROFILES[profile_name]
    match = _random_match(rules, random.Random(f"{profile_name}:{seed}"))
    players = (41, 17)
    value = result_from_engine(match, players)
    assert isinstance(value, SnapszerMatchResult)
    assert value.winner == players[match.winner] and value.games == match.game_scores
    assert value.hands is not None and len(value.hands) == len(match.hands)
    assert [h.reason for h in value.hands] == [h.reason for h in match.hands]
    # Entered hand by hand at a table, the same match reads into the same value (X33 accepts it).
    table = ResultTable(kind=GameKind.SNAPSZER, players=players, rules=rules)
    assert parse_result(result_payload(value), table) == value
    assert result_from_json(value.to_json()) == value


def test_from_engine_refuses_a_winner_the_games_do_not_give() -> None:
    rules = PROFILES["snapszer"]
    match = _random_match(rules, random.Random(3))
    forged = MatchResult(match.profile, match.first_dealer, 1 - match.winner, match.game_scores, match.hands)
    with pytest.raises(ValueError, match="winner"):
        SnapszerMatchResult.from_engine(forged, (1, 2))
