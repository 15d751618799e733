"""Series status, clause by clause: rules/snap.md S39-S43 and rules/snapszer.md "Tournament series".

Placings are written per seat (seat 0 first); ``None`` marks a seat that sat out a sudden-death game.
"""

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.protocol import GameKind
from tournaments.competitions.series.checks import check_game_allowed, check_outcome, is_competition_ranking
from tournaments.competitions.series.fold import (
    coin_flip,
    seed_commitment,
    series_advance,
    series_games_counted,
    series_start,
    series_status,
)
from tournaments.competitions.series.values import (
    BEST_OF_3,
    BEST_OF_5,
    FIRST_TO_3,
    DecidedBy,
    Due,
    GameOutcome,
    SeriesError,
    SeriesErrorCode,
    SeriesKind,
    SeriesLength,
    SeriesProblem,
    SeriesStatus,
    series_length,
)


def g(*placings: int | None, wrong_calls: tuple[int | None, ...] | None = None) -> GameOutcome:
    return GameOutcome(tuple(placings), wrong_calls=wrong_calls)


def sd(*placings: int | None, wrong_calls: tuple[int | None, ...] | None = None) -> GameOutcome:
    return GameOutcome(tuple(placings), sudden_death=True, wrong_calls=wrong_calls)


def codes(problems: tuple[SeriesProblem, ...]) -> list[str]:
    return [str(p.code) for p in problems]


# -- S39 formats ------------------------------------------------------------------------------


def test_S39_the_three_formats() -> None:
    assert (BEST_OF_3.kind, BEST_OF_3.number, BEST_OF_3.label) == (SeriesKind.BEST_OF, 3, "best of 3")
    assert BEST_OF_5.max_normal_games == 5
    assert (FIRST_TO_3.label, FIRST_TO_3.max_normal_games) == ("first to 3", 7)  # S41 cap 2K+1
    assert SeriesLength.best_of(3) == BEST_OF_3 and SeriesLength.first_to(3) == FIRST_TO_3


def test_S39_a_length_is_stored_as_its_code_and_read_back() -> None:
    assert [length.code for length in (BEST_OF_3, BEST_OF_5, FIRST_TO_3)] == [
        "best_of_3",
        "best_of_5",
        "first_to_3",
    ]
    assert series_length("first_to_3") == FIRST_TO_3
    assert series_length(SeriesLength.best_of(7).code) == SeriesLength.best_of(7)


@pytest.mark.parametrize("code", ["", "best_of", "best_of_x", "best_of_-1", "last_to_3", "3"])
def test_S39_text_that_names_no_length_is_refused(code: str) -> None:
    with pytest.raises(ValueError, match="not a series length"):
        series_length(code)


def test_S39_a_stored_length_of_no_games_is_a_series_error() -> None:
    with pytest.raises(SeriesError) as exc:
        series_length("first_to_0")
    assert exc.value.code == SeriesErrorCode.INVALID_FORMAT


@pytest.mark.parametrize("number", [0, -1, True])
def test_S39_a_format_needs_at_least_one_game(number: int) -> None:
    with pytest.raises(SeriesError) as exc:
        SeriesLength(SeriesKind.BEST_OF, number)
    assert exc.value.code == SeriesErrorCode.INVALID_FORMAT


@pytest.mark.parametrize(("game", "seats"), [(GameKind.SNAP, 1), (GameKind.SNAP, 7), (GameKind.SNAPSZER, 3)])
def test_S1_seat_counts_are_refused_outside_the_game(game: GameKind, seats: int) -> None:
    with pytest.raises(SeriesError) as exc:
        series_start(BEST_OF_3, seats, game=game)
    assert exc.value.code == SeriesErrorCode.INVALID_SEAT_COUNT


# -- S40 best of N ----------------------------------------------------------------------------


def test_S40_best_of_3_stops_at_two_wins() -> None:
    status = series_status(BEST_OF_3, 2, [g(1, 2), g(1, 2)])
    assert status.decided and status.decided_by is DecidedBy.WINS
    assert (status.winner, status.placings, status.wins, status.games_played) == (0, (1, 2), (2, 0), 2)


def test_S40_best_of_3_goes_on_at_one_win_each() -> None:
    status = series_status(BEST_OF_3, 2, [g(1, 2), g(2, 1)])
    assert not status.decided and status.due is Due.GAME and status.due_seats == (0, 1)


def test_S40_drawn_games_count_as_games_without_a_winner() -> None:
    # Two draws, then one win: after N = 3 games the series stops with 1 win against 0.
    status = series_status(BEST_OF_3, 2, [g(1, 1), g(1, 1), g(2, 1)])
    assert status.wins == (0, 1) and status.normal_games == 3
    assert status.decided and status.winner == 1 and status.decided_by is DecidedBy.WINS


def test_S40_majority_ends_a_multi_seat_series_early() -> None:
    # Best of 5 at a table of 4: three wins is more than 5/2.
    status = series_status(BEST_OF_5, 4, [g(1, 2, 3, 4), g(1, 3, 2, 4), g(1, 4, 3, 2)])
    assert status.decided and status.winner == 0 and status.normal_games == 3


def test_S40_is_read_literally_no_stop_when_a_leader_is_merely_out_of_reach() -> None:
    # Best of 5, 3 seats, after 4 games: 2-0-0 with two draws. Nobody can catch seat 0 in the one
    # game left, but S40 stops only at more than N/2 wins or after N games.
    status = series_status(BEST_OF_5, 3, [g(1, 2, 3), g(1, 1, 3), g(1, 3, 2), g(1, 1, 1)])
    assert status.wins == (2, 0, 0) and status.due is Due.GAME


def test_S40_level_leaders_play_sudden_death_only_among_themselves() -> None:
    status = series_status(BEST_OF_3, 3, [g(1, 2, 3), g(2, 1, 3), g(1, 1, 3)])
    assert status.wins == (1, 1, 0)
    assert status.due is Due.SUDDEN_DEATH and status.due_seats == (0, 1)
    assert not status.decided and status.placings is None


def test_S40_all_games_drawn_makes_every_seat_a_leader() -> None:
    status = series_status(BEST_OF_3, 3, [g(1, 1, 1)] * 3)
    assert status.due is Due.SUDDEN_DEATH and status.due_seats == (0, 1, 2)


# -- S41 first to K ---------------------------------------------------------------------------


def test_S41_first_to_3_stops_at_three_wins() -> None:
    games = [g(1, 2), g(2, 1), g(1, 2), g(1, 1), g(1, 2)]
    assert series_status(FIRST_TO_3, 2, games[:4]).due is Due.GAME  # 2-1 and a draw
    status = series_status(FIRST_TO_3, 2, games)
    assert status.decided and status.winner == 0 and status.wins == (3, 1)


def test_S41_cap_at_2k_plus_1_games_then_sudden_death_among_the_leaders() -> None:
    rotate = [g(1, 2, 3), g(2, 1, 3), g(2, 3, 1)] * 2  # 2 wins each after 6 games
    assert series_status(FIRST_TO_3, 3, rotate).due is Due.GAME
    status = series_status(FIRST_TO_3, 3, [*rotate, g(1, 1, 1)])  # game 7 = 2K+1, drawn
    assert status.normal_games == 7 and status.wins == (2, 2, 2)
    assert status.due is Due.SUDDEN_DEATH and status.due_seats == (0, 1, 2)


def test_S41_a_single_leader_at_the_cap_wins_on_wins() -> None:
    games = [g(1, 2, 3), g(1, 2, 3), g(2, 1, 3), g(3, 2, 1), g(1, 1, 3), g(1, 1, 1), g(1, 1, 1)]
    status = series_status(FIRST_TO_3, 3, games)
    assert status.wins == (2, 1, 1)
    assert status.decided and status.winner == 0 and status.decided_by is DecidedBy.WINS


# -- S42 sudden death -------------------------------------------------------------------------

LEVEL_AT_TWO = [g(1, 2, 3), g(2, 1, 3), g(1, 1, 3)]  # best of 3, 3 seats: seats 0 and 1 level on 1 win


def test_S42_a_sudden_death_game_decides() -> None:
    status = series_status(BEST_OF_3, 3, [*LEVEL_AT_TWO, sd(2, 1, None)])
    assert status.decided and status.decided_by is DecidedBy.SUDDEN_DEATH and status.winner == 1
    assert status.placings == (2, 1, 3)
    assert (
        status.wins == (1, 1, 0) and status.sudden_death_wins == (0, 1, 0) and status.games_won == (1, 2, 0)
    )


def test_S42_a_drawn_sudden_death_game_is_replayed_at_most_twice() -> None:
    once = series_status(BEST_OF_3, 3, [*LEVEL_AT_TWO, sd(1, 1, None)])
    assert (once.due, once.due_seats, once.replays_left) == (Due.SUDDEN_DEATH_REPLAY, (0, 1), 1)
    twice = series_status(BEST_OF_3, 3, [*LEVEL_AT_TWO, sd(1, 1, None), sd(1, 1, None)])
    assert (twice.due, twice.replays_left) == (Due.SUDDEN_DEATH_REPLAY, 0)
    thrice = series_status(BEST_OF_3, 3, [*LEVEL_AT_TWO, *[sd(1, 1, None)] * 3])
    assert thrice.due is Due.COIN_FLIP  # no wrong calls recorded: table play
    assert codes(check_game_allowed(thrice, [0, 1], sudden_death=True)) == ["awaiting_coin_flip"]


def test_S42_a_replay_is_played_by_the_seats_that_shared_first_place() -> None:
    status = series_status(BEST_OF_3, 3, [g(1, 2, 3), g(2, 1, 3), g(3, 2, 1), sd(1, 1, 3)])
    assert status.due is Due.SUDDEN_DEATH_REPLAY and status.due_seats == (0, 1)
    done = series_status(BEST_OF_3, 3, [g(1, 2, 3), g(2, 1, 3), g(3, 2, 1), sd(1, 1, 3), sd(1, 2, None)])
    # seat 2 lost the first sudden-death game: third, whatever its placing sum says
    assert done.winner == 0 and done.placings == (1, 2, 3)


def test_S42_fewer_wrong_calls_in_the_series_decides_after_the_replays() -> None:
    games = [
        g(1, 2, 3, wrong_calls=(2, 0, 1)),
        g(2, 1, 3, wrong_calls=(0, 1, 0)),
        g(1, 1, 3),  # a game without recorded wrong calls adds nothing
        *[sd(1, 1, None, wrong_calls=(0, 0, None))] * 2,
        sd(1, 1, None, wrong_calls=(0, 2, None)),
    ]
    status = series_status(BEST_OF_3, 3, games)  # seat 0: 2 wrong calls, seat 1: 3
    assert status.wrong_calls == (2, 3, 1) and status.wrong_calls_recorded
    assert status.decided and status.decided_by is DecidedBy.WRONG_CALLS and status.winner == 0
    assert status.placings == (1, 2, 3)


def _coin_by_hand(seed: str, seats: list[int]) -> int:
    digest = hashlib.sha256(f"{seed}|{','.join(str(s) for s in sorted(seats))}".encode()).digest()
    return sorted(seats)[int.from_bytes(digest, "big") % len(seats)]


def test_S42_the_coin_flip_is_drawn_from_the_series_seed() -> None:
    games = [*LEVEL_AT_TWO, *[sd(1, 1, None)] * 3]
    pending = series_status(BEST_OF_3, 3, games)
    assert pending.due is Due.COIN_FLIP and pending.due_seats == (0, 1) and not pending.decided
    for seed in ["series-17-a", "series-17-b", "x"]:
        status = series_status(BEST_OF_3, 3, games, seed=seed)
        assert status.decided and status.decided_by is DecidedBy.COIN_FLIP
        assert status.winner == _coin_by_hand(seed, [0, 1])
        loser = 1 - status.winner
        assert status.placings is not None
        assert (status.placings[status.winner], status.placings[loser], status.placings[2]) == (1, 2, 3)


def test_S42_the_coin_flip_depends_on_the_seed_and_picks_every_seat() -> None:
    winners = {coin_flip(f"seed-{i}", [1, 3, 4]) for i in range(60)}
    assert winners == {1, 3, 4}
    assert coin_flip("s", [4, 1, 3]) == coin_flip("s", (1, 3, 4)) == _coin_by_hand("s", [1, 3, 4])
    with pytest.raises(ValueError):
        coin_flip("s", [2, 2])


def test_S42_seed_commitment_is_the_published_sha256() -> None:
    assert seed_commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


# -- S43 series placings ----------------------------------------------------------------------


def test_S43_wins_then_sudden_death_result_then_sum_of_placings() -> None:
    games = [g(1, 2, 3, 4), g(2, 1, 4, 3), g(3, 4, 1, 2), sd(2, 1, 2, None)]
    status = series_status(BEST_OF_3, 4, games)
    # wins 1,1,1,0; seat 1 wins sudden death; seats 0 and 2 share 2nd in it: placing sums 6 < 8
    assert status.placing_sums == (6, 7, 8, 9)
    assert status.placings == (2, 1, 3, 4)


def test_S43_seats_equal_on_every_key_share_a_placing() -> None:
    status = series_status(BEST_OF_3, 3, [g(1, 2, 3), g(1, 3, 2)])
    assert status.placings == (1, 2, 2)
    assert is_competition_ranking(status.placings)


def test_S43_sum_of_placings_orders_the_seats_below_the_winner() -> None:
    status = series_status(BEST_OF_3, 4, [g(1, 2, 4, 3), g(1, 3, 2, 4)])
    assert status.placing_sums == (2, 5, 6, 7)  # seats 1-3 have no win: the sums alone order them
    assert status.placings == (1, 2, 3, 4)


# -- Snapszer ----------------------------------------------------------------------------------


def test_snapszer_series_is_counted_in_matches() -> None:
    matches = [
        GameOutcome((1, 2), game_points=(7, 3)),
        GameOutcome((2, 1), game_points=(5, 7)),
        GameOutcome((1, 2), game_points=(8, 0)),
    ]
    status = series_status(BEST_OF_3, 2, matches, game=GameKind.SNAPSZER)
    assert status.decided and status.winner == 0 and status.placings == (1, 2)
    assert status.game_points == (20, 10) and status.game_points_recorded


def test_snapszer_match_cannot_be_drawn() -> None:
    status = series_start(BEST_OF_3, 2, game=GameKind.SNAPSZER)
    assert codes(check_outcome(status, g(1, 1))) == ["snapszer_no_draw"]


def test_snapszer_level_series_is_settled_by_one_sudden_death_match() -> None:
    best_of_4 = SeriesLength.best_of(4)
    level = [g(1, 2), g(2, 1), g(1, 2), g(2, 1)]
    status = series_status(best_of_4, 2, level, game=GameKind.SNAPSZER)
    assert status.due is Due.SUDDEN_DEATH and status.replays_left == 0
    done = series_status(best_of_4, 2, [*level, sd(2, 1)], game=GameKind.SNAPSZER)
    assert done.decided and done.decided_by is DecidedBy.SUDDEN_DEATH and done.winner == 1


def test_snapszer_and_snap_extras_are_refused_in_the_other_game() -> None:
    snapszer = series_start(BEST_OF_3, 2, game=GameKind.SNAPSZER)
    snap = series_start(BEST_OF_3, 2)
    assert codes(check_outcome(snapszer, g(1, 2, wrong_calls=(0, 1)))) == ["invalid_wrong_calls"]
    assert codes(check_outcome(snap, GameOutcome((1, 2), game_points=(7, 1)))) == ["invalid_game_points"]


# -- the validator the result service calls ---------------------------------------------------


def test_a_decided_series_refuses_another_game() -> None:
    status = series_status(BEST_OF_3, 2, [g(1, 2), g(1, 2)])
    problems = check_game_allowed(status, [0, 1])
    assert codes(problems) == ["series_decided"]
    assert problems[0].message == "This series is already decided."
    with pytest.raises(SeriesError) as exc:
        series_advance(status, g(2, 1))
    assert exc.value.code == SeriesErrorCode.SERIES_DECIDED


def test_a_history_with_a_game_after_the_decision_is_refused_with_its_index() -> None:
    # e.g. a corrected game 2 now ends the series before game 3, which was already recorded
    with pytest.raises(SeriesError) as exc:
        series_status(BEST_OF_3, 2, [g(1, 2), g(1, 2), g(2, 1)])
    assert exc.value.code == SeriesErrorCode.SERIES_DECIDED and exc.value.game_index == 2


def test_sudden_death_is_played_only_by_the_tied_seats() -> None:
    status = series_status(BEST_OF_3, 3, LEVEL_AT_TWO)
    assert codes(check_game_allowed(status, [0, 1, 2])) == ["sudden_death_seats"]
    assert codes(check_game_allowed(status, [0, 1])) == []
    assert codes(check_game_allowed(status, [0, 1], sudden_death=False)) == ["sudden_death_due"]
    assert codes(check_outcome(status, sd(1, 2, 3))) == ["sudden_death_seats"]


def test_a_normal_game_is_played_by_every_seat_and_is_not_sudden_death() -> None:
    status = series_start(BEST_OF_3, 3)
    assert codes(check_game_allowed(status, [0, 2])) == ["all_seats_play"]
    assert codes(check_game_allowed(status, [0, 1, 2], sudden_death=True)) == ["sudden_death_not_due"]
    assert codes(check_game_allowed(status, [0, 1, 1, 5])) == ["unknown_seat", "duplicate_seat"]


@pytest.mark.parametrize("placings", [(1, 1, 2), (0, 1, 2), (2, 3, 4), (1, 3, 3)])
def test_placings_must_be_a_competition_ranking(placings: tuple[int, int, int]) -> None:
    assert codes(check_outcome(series_start(BEST_OF_3, 3), g(*placings))) == ["invalid_placings"]


def test_placings_must_cover_every_seat() -> None:
    assert codes(check_outcome(series_start(BEST_OF_3, 3), g(1, 2))) == ["wrong_number_of_seats"]


def test_wrong_calls_must_match_the_seats_that_played() -> None:
    status = series_status(BEST_OF_3, 3, LEVEL_AT_TWO)
    assert codes(check_outcome(status, sd(1, 2, None, wrong_calls=(0, 1, 0)))) == ["invalid_wrong_calls"]
    assert codes(check_outcome(status, sd(1, 2, None, wrong_calls=(0, -1, None)))) == ["invalid_wrong_calls"]
    assert codes(check_outcome(status, sd(1, 2, None, wrong_calls=(0, 1, None)))) == []


@pytest.mark.parametrize(
    ("places", "valid"),
    [
        ((1,), True),
        ((1, 1, 3), True),
        ((1, 2, 2, 4), True),
        ((2, 1), True),
        ((1, 1, 1), True),
        ((1, 2, 2, 3), False),
        ((), False),
    ],
)
def test_competition_ranking_check(places: tuple[int, ...], valid: bool) -> None:
    assert is_competition_ranking(places) is valid


# -- properties ---------------------------------------------------------------------------------

formats = st.one_of(st.integers(1, 7).map(SeriesLength.best_of), st.integers(1, 4).map(SeriesLength.first_to))


@st.composite
def played_series(draw: st.DrawFn) -> tuple[SeriesStatus, list[GameOutcome], str | None]:
    """A series played out by random legal outcomes until decided (or waiting for its coin)."""
    game = draw(st.sampled_from(GameKind))
    seats = 2 if game is GameKind.SNAPSZER else draw(st.integers(2, 6))
    seed = draw(st.one_of(st.none(), st.text(max_size=8)))
    status = series_start(draw(formats), seats, game=game)
    games: list[GameOutcome] = []
    while status.due in (Due.GAME, Due.SUDDEN_DEATH, Due.SUDDEN_DEATH_REPLAY):
        playing = status.due_seats
        if game is GameKind.SNAPSZER:
            scores = draw(st.permutations(range(len(playing))))
        else:  # small score range: draws and shared places are common
            scores = draw(st.lists(st.integers(0, 2), min_size=len(playing), max_size=len(playing)))
        placings: list[int | None] = [None] * seats
        for seat, score in zip(playing, scores, strict=True):
            placings[seat] = 1 + sum(1 for other in scores if other > score)
        outcome = GameOutcome(tuple(placings), sudden_death=status.due is not Due.GAME)
        assert check_outcome(status, outcome) == ()
        status = series_advance(status, outcome, seed=seed)
        games.append(outcome)
    return status, games, seed


@settings(max_examples=300, deadline=None)
@given(played_series())
def test_property_a_decided_series_has_competition_placings_and_refuses_more(
    played: tuple[SeriesStatus, list[GameOutcome], str | None],
) -> None:
    status, games, seed = played
    assert status.normal_games <= status.length.max_normal_games
    assert status.sudden_death_games <= (3 if status.game is GameKind.SNAP else 1)
    assert series_status(status.length, status.seat_count, games, game=status.game, seed=seed) == status
    if status.due is Due.COIN_FLIP:
        assert seed is None
        return
    assert status.decided and status.placings is not None and status.winner is not None
    assert is_competition_ranking(status.placings)
    assert status.placings.count(1) == 1 and status.placings[status.winner] == 1
    assert status.wins[status.winner] == max(status.wins)
    if status.decided_by is DecidedBy.WINS:
        assert status.wins.count(max(status.wins)) == 1
    assert codes(check_game_allowed(status, range(status.seat_count))) == ["series_decided"]
    with pytest.raises(SeriesError):
        series_status(status.length, status.seat_count, [*games, games[0]], game=status.game, seed=seed)


def test_an_outcome_can_be_built_from_values_keyed_by_player() -> None:
    outcome = GameOutcome.from_players(
        ["ann", "bob", "cy"], {"cy": 1, "ann": 2}, sudden_death=True, wrong_calls={"ann": 1, "cy": 0}
    )
    assert outcome == GameOutcome((2, None, 1), sudden_death=True, wrong_calls=(1, None, 0))
    with pytest.raises(SeriesError) as exc:
        GameOutcome.from_players(["ann", "bob"], {"ann": 1, "zed": 2})
    assert exc.value.code == SeriesErrorCode.NOT_SEATED and exc.value.problem.extra == {"players": ["zed"]}


def test_S42_wrong_calls_can_leave_two_of_three_for_the_coin() -> None:
    all_level = [g(1, 2, 3), g(2, 1, 3), g(3, 2, 1)]  # one win each
    drawn = [sd(1, 1, 1, wrong_calls=(0, 0, 1))] * 2 + [sd(1, 1, 1, wrong_calls=(1, 1, 1))]
    status = series_status(BEST_OF_3, 3, [*all_level, *drawn], seed="k")
    assert status.wrong_calls == (1, 1, 3)
    assert status.decided_by is DecidedBy.COIN_FLIP and status.winner == _coin_by_hand("k", [0, 1])
    assert status.placings is not None
    loser = 1 - status.winner
    assert (status.placings[status.winner], status.placings[loser], status.placings[2]) == (1, 2, 3)


# -- games played after the decision (a correction voids them) ---------------------------------


def test_every_game_counts_while_the_series_was_not_decided_before_it() -> None:
    games = [g(1, 2), g(2, 1), g(1, 2)]
    assert series_games_counted(BEST_OF_3, 2, games) == 3
    assert series_games_counted(BEST_OF_3, 2, games[:1]) == 1
    assert series_games_counted(BEST_OF_3, 2, []) == 0


def test_games_after_the_deciding_game_do_not_count() -> None:
    # game 2 corrected: seat 0 won games 1 and 2, so game 3 (and 4) were played after the decision
    games = [g(1, 2), g(1, 2), g(2, 1), g(2, 1)]
    counted = series_games_counted(BEST_OF_3, 2, games)
    assert counted == 2
    status = series_status(BEST_OF_3, 2, games[:counted])
    assert status.decided and status.winner == 0 and status.placings == (1, 2)


def test_a_sudden_death_decision_leaves_later_games_uncounted() -> None:
    games = [*LEVEL_AT_TWO, sd(1, 2, None), sd(2, 1, None)]
    assert series_games_counted(BEST_OF_3, 3, games) == len(LEVEL_AT_TWO) + 1


def test_a_due_coin_flip_decides_before_a_later_game_only_with_the_seed() -> None:
    games = [*LEVEL_AT_TWO, *[sd(1, 1, None)] * 3]
    later = [*games, sd(1, 2, None)]
    assert series_games_counted(BEST_OF_3, 3, later, seed="k") == len(games)
    with pytest.raises(SeriesError) as exc:  # without the seed nobody can say the flip was due
        series_games_counted(BEST_OF_3, 3, later)
    assert exc.value.code == SeriesErrorCode.AWAITING_COIN_FLIP


def test_other_problems_in_the_counted_games_are_still_refused() -> None:
    with pytest.raises(SeriesError) as exc:  # game 3 must be sudden death between the leaders
        series_games_counted(BEST_OF_3, 3, [*LEVEL_AT_TWO, g(1, 2, 3)])
    assert exc.value.game_index == len(LEVEL_AT_TWO)
    assert exc.value.code == SeriesErrorCode.SUDDEN_DEATH_DUE
