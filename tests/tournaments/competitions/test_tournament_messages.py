"""The pure tournament modules' problems reach people as translated messages
(tournaments/competitions/messages.py), the way test_engine_messages.py checks the engines'.

(a) every code of series/, standings/ and formats/ (examples for the formats' codes in
tests/tournaments/competitions/formats/examples.py) has a message, and a real call that reports
it; (b) every message formats with the extras its code declares, and reads as a referee would say
it (players by name, games counted from 1); (c) the API and the pages answer with messages from
the translation catalogue (the "hu" test catalogue marks each message it translates).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

import tournaments.competitions.formats
import tournaments.competitions.series
import tournaments.competitions.standings
from tests.codes import import_all, subclass_members
from tests.conftest import record_result, snap_win
from tests.tournaments.competitions.formats.examples import EXAMPLES as FORMAT_EXAMPLES
from tournaments.competitions.formats.base import FormatErrorCode
from tournaments.competitions.formats.round_robin import (
    PairingError,
    PairingErrorCode,
    round_robin_schedule,
    snap_tables,
)
from tournaments.competitions.messages import (
    FALLBACK,
    MESSAGES,
    series_error_message,
    series_problem_message,
    tournament_error_message,
)
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.results.values import SnapEnding, SnapTableResult
from tournaments.competitions.series.checks import check_game_allowed, check_outcome
from tournaments.competitions.series.fold import series_start, series_status
from tournaments.competitions.series.values import (
    BEST_OF_3,
    GameOutcome,
    SeriesError,
    SeriesErrorCode,
    SeriesLength,
    SeriesProblem,
)
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.standings.chain import SeriesRecord, StandingsErrorCode
from tournaments.competitions.standings.stage import round_robin_standings
from tournaments.competitions.standings.tables import table_standings
from tournaments.models import Entry, Game, GameKind, GameResult, Player, Series, Stage, StageFormat


def tournament_error_codes() -> list[TournamentErrorCode]:
    """Every member of every ``TournamentErrorCode`` subclass of the pure packages (series/,
    standings/ and formats/), found by importing them all."""
    import_all(
        packages=[
            tournaments.competitions.formats,
            tournaments.competitions.series,
            tournaments.competitions.standings,
        ]
    )
    return subclass_members(TournamentErrorCode)


# --- real calls that report each code ------------------------------------------------------------


def _raised(call: Callable[[], object]) -> Sequence[SeriesProblem | TournamentInputError]:
    """The problems a pure call raises (a SeriesError's problems, or the error itself)."""
    try:
        call()
    except SeriesError as exc:
        return exc.problems
    except TournamentInputError as exc:
        return [exc]
    return []


def g(*placings: int | None, **extra: Any) -> GameOutcome:
    return GameOutcome(tuple(placings), **extra)


def sd(*placings: int | None, **extra: Any) -> GameOutcome:
    return GameOutcome(tuple(placings), sudden_death=True, **extra)


START_2 = series_start(BEST_OF_3, 2)
START_3 = series_start(BEST_OF_3, 3)
SNAPSZER = series_start(BEST_OF_3, 2, game=GameKind.SNAPSZER)
# Seats 0 and 1 won a game each, game 3 was drawn between seats 0 and 2: 0 and 1 play sudden death.
LEVEL_0_1 = series_status(BEST_OF_3, 3, [g(1, 2, 3), g(2, 1, 3), g(1, 3, 1)])
# Three drawn sudden-death games and equal wrong calls for seats 0 and 1: only the coin is left.
COIN_DUE = series_status(
    BEST_OF_3,
    3,
    [
        g(1, 2, 3),
        g(2, 1, 3),
        g(3, 2, 1),
        sd(1, 1, 1, wrong_calls=(0, 0, 1)),
        sd(1, 1, 1, wrong_calls=(0, 0, 1)),
        sd(1, 1, 1, wrong_calls=(1, 1, 1)),
    ],
)


def _table(seats: tuple[str, ...], games: Sequence[GameOutcome]) -> SeriesRecord:
    return SeriesRecord(seats=seats, length=BEST_OF_3, games=tuple(games))


def _two_seat(entrants: list[str], series: Sequence[SeriesRecord] = (), **kwargs: Any) -> object:
    return round_robin_standings(entrants, series, game=GameKind.SNAP, stage_seed="s", **kwargs)


S, T, P = SeriesErrorCode, StandingsErrorCode, PairingErrorCode
EXAMPLES: list[tuple[TournamentErrorCode, Callable[[], Sequence[SeriesProblem | TournamentInputError]]]] = [
    (S.INVALID_FORMAT, lambda: _raised(lambda: SeriesLength.best_of(0))),
    (S.INVALID_SEAT_COUNT, lambda: _raised(lambda: series_start(BEST_OF_3, 7))),
    (S.INVALID_SEAT_COUNT, lambda: _raised(lambda: series_start(BEST_OF_3, 3, game=GameKind.SNAPSZER))),
    (S.SERIES_DECIDED, lambda: _raised(lambda: series_status(BEST_OF_3, 2, [g(1, 2), g(1, 2), g(2, 1)]))),
    (S.AWAITING_COIN_FLIP, lambda: check_game_allowed(COIN_DUE, [0, 1])),
    (S.WRONG_NUMBER_OF_SEATS, lambda: check_outcome(START_3, g(1, 2))),
    (S.NOT_SEATED, lambda: _raised(lambda: GameOutcome.from_players(["7", "8"], {"7": 1, "9": 2}))),
    (S.UNKNOWN_SEAT, lambda: check_game_allowed(START_3, [0, 1, 5])),
    (S.DUPLICATE_SEAT, lambda: check_game_allowed(START_3, [0, 1, 1])),
    (S.ALL_SEATS_PLAY, lambda: check_game_allowed(START_3, [0, 1])),
    (S.SUDDEN_DEATH_SEATS, lambda: check_game_allowed(LEVEL_0_1, [0, 1, 2], sudden_death=True)),
    (S.SUDDEN_DEATH_DUE, lambda: check_game_allowed(LEVEL_0_1, [0, 1], sudden_death=False)),
    (S.SUDDEN_DEATH_NOT_DUE, lambda: check_game_allowed(START_3, [0, 1, 2], sudden_death=True)),
    (S.INVALID_PLACINGS, lambda: check_outcome(START_2, g(1, 3))),
    (S.SNAPSZER_NO_DRAW, lambda: check_outcome(SNAPSZER, g(1, 1))),
    (S.INVALID_WRONG_CALLS, lambda: check_outcome(SNAPSZER, g(1, 2, wrong_calls=(0, 1)))),
    (S.INVALID_WRONG_CALLS, lambda: check_outcome(START_2, g(1, 2, wrong_calls=(0, -1)))),
    (S.INVALID_GAME_POINTS, lambda: check_outcome(START_2, g(1, 2, game_points=(7, 1)))),
    (S.INVALID_GAME_POINTS, lambda: check_outcome(SNAPSZER, g(1, 2, game_points=(7, None)))),
    (T.INVALID_CHAIN, lambda: _raised(lambda: _two_seat(["A", "B"], chain=["no_such_tiebreak"]))),
    (T.INVALID_CHAIN, lambda: _raised(lambda: _two_seat(["A", "B"], chain=["series_won", "series_won"]))),
    (
        T.INVALID_CHAIN,
        lambda: _raised(lambda: _two_seat(["A", "B"], chain=["placing_sum", "series_placing"])),
    ),
    (T.UNKNOWN_PLAYER, lambda: _raised(lambda: _two_seat(["A", "B"], byes=["Z"]))),
    (T.SERIES_SEATS, lambda: _raised(lambda: _two_seat(["A", "B"], [_table(("A", "Z"), [])]))),
    (T.DUPLICATE_ENTRANT, lambda: _raised(lambda: _two_seat(["A", "A"]))),
    (
        T.INVALID_SERIES,
        lambda: _raised(lambda: _two_seat(["A", "B"], [_table(("A", "B"), [g(1, 2), g(1, 2), g(1, 2)])])),
    ),
    (
        T.INVALID_SERIES,
        lambda: _raised(lambda: table_standings(_table(tuple("ABCDEFG"), []), stage_seed="s")),
    ),
    (P.TOO_FEW_ENTRANTS, lambda: _raised(lambda: round_robin_schedule([1]))),
    (P.DUPLICATE_ENTRANT, lambda: _raised(lambda: round_robin_schedule([1, 2, 1]))),
    (P.INVALID_TABLE_SIZE, lambda: _raised(lambda: snap_tables([1, 2, 3], table_size=7))),
    (P.TABLE_OF_ONE, lambda: _raised(lambda: snap_tables([1, 2, 3, 4, 5], table_size=2))),
    *FORMAT_EXAMPLES,  # the formats' codes and the standings codes they brought
]


def example_problems() -> list[tuple[TournamentErrorCode, SeriesProblem | TournamentInputError]]:
    """``(code, problem)`` for each example: the problem of that code the call reported."""
    found = []
    for code, call in EXAMPLES:
        matching = [p for p in call() if p.code == code and type(p.code) is type(code)]
        assert matching, f"{code}: the example reported no such problem"
        found.append((code, matching[0]))
    return found


EXAMPLE_PROBLEMS = example_problems()
IDS = [f"{c}-{i}" for i, (c, _p) in enumerate(EXAMPLE_PROBLEMS)]


def _message(problem: SeriesProblem | TournamentInputError, **names: Any) -> str:
    if isinstance(problem, SeriesProblem):
        return series_problem_message(problem, **names)
    return tournament_error_message(problem, player_names=names.get("player_names"))


# --- (a) every code has a message and a real example ---------------------------------------------


def test_every_code_has_a_message_and_every_message_a_code() -> None:
    codes = tournament_error_codes()
    assert {type(c) for c in codes} == {
        SeriesErrorCode,
        StandingsErrorCode,
        PairingErrorCode,
        FormatErrorCode,
    }
    assert [c for c in codes if c not in MESSAGES] == []
    assert [c for c in MESSAGES if c not in codes] == []


def test_every_code_has_a_real_call_that_reports_it() -> None:
    assert {c for c, _call in EXAMPLES} == set(tournament_error_codes())


def test_an_error_with_other_extras_than_its_code_declares_is_a_bug() -> None:
    with pytest.raises(TypeError):
        SeriesProblem(S.ALL_SEATS_PLAY, "text", {"players": [1]})
    with pytest.raises(TypeError):
        PairingError(P.TOO_FEW_ENTRANTS, "text")


# --- (b) every message formats with its code's extras --------------------------------------------


# That each message formats with exactly its code's extras, and that a code two modules share is
# one problem with one message, is checked for every code of every enum in test_engine_messages.py.


@pytest.mark.parametrize(("code", "problem"), EXAMPLE_PROBLEMS, ids=IDS)
def test_real_problems_become_messages_not_the_modules_english(code: Any, problem: Any) -> None:
    message = _message(problem, seat_names=("Anna", "Bence", "Csilla"))
    assert message and "%(" not in message and message != str(FALLBACK)
    assert "seat 1" not in message and "seat 2" not in message  # seats in the series read as names


def test_seats_read_as_the_players_in_them() -> None:
    (problem,) = check_game_allowed(LEVEL_0_1, [0, 1, 2], sudden_death=True)
    names = ("Anna", "Bence", "Csilla")
    assert series_problem_message(problem, seat_names=names) == (
        "A sudden-death game is played only by the players level at the top: Anna, Bence."
    )
    assert "seat 1, seat 2." in series_problem_message(problem)  # no names given: counted from 1
    (outside,) = check_game_allowed(START_3, [0, 1, 5])
    assert series_problem_message(outside, seat_names=names).endswith(": seat 6.")


def test_per_seat_values_are_listed_by_player() -> None:
    (problem,) = check_outcome(START_2, g(1, 2, wrong_calls=(0, -1)))
    assert series_problem_message(problem, seat_names=("Anna", "Bence")).startswith(
        "Wrong calls (Anna 0, Bence -1) are recorded only in Snap"
    )


def test_a_game_is_numbered_from_1_and_the_decision_is_in_words() -> None:
    with pytest.raises(SeriesError) as exc:
        series_status(BEST_OF_3, 2, [g(1, 2), g(1, 2), g(2, 1)])
    assert exc.value.game_index == 2
    assert series_error_message(exc.value, seat_names=("Anna", "Bence")) == (
        "Game 3: The series was already decided before this game: Anna had won it on wins."
    )


def test_players_and_series_read_as_names_and_numbers() -> None:
    (error,) = _raised(lambda: _two_seat(["1", "2"], [_table(("1", "2"), []), _table(("1", "9"), [])]))
    assert isinstance(error, TournamentInputError)
    assert tournament_error_message(error, player_names={"1": "Anna", "9": "Zoé"}) == (
        "Series 2 must seat two different entrants of the round robin, not Anna, Zoé."
    )


def test_a_series_that_cannot_be_counted_says_why() -> None:
    (error,) = _raised(lambda: _two_seat(["A", "B"], [_table(("A", "B"), [g(1, 2), g(1, 2), g(1, 2)])]))
    assert isinstance(error, TournamentInputError)
    assert tournament_error_message(error, player_names={"A": "Anna"}) == (
        "Series 1 cannot be counted. Game 3: The series was already decided before this game: Anna "
        "had won it on wins."
    )


def test_allowed_values_read_as_a_choice() -> None:
    (problem,) = _raised(lambda: series_start(BEST_OF_3, 7))
    assert _message(problem) == "A series of this game is played by 2, 3, 4, 5 or 6 players, not 7."


def test_an_uncoded_problem_is_logged_and_shown_as_a_general_message(caplog: Any) -> None:
    problem = SeriesProblem(S.SNAPSZER_NO_DRAW, "text")
    object.__setattr__(problem, "code", "made_up")
    with caplog.at_level(logging.ERROR, logger="tournaments.competitions.messages"):
        assert series_problem_message(problem) == str(FALLBACK)
    assert "made_up" in caplog.text


# --- (c) through the API and the pages, with the test catalogue ----------------------------------

HU = {"HTTP_ACCEPT_LANGUAGE": "hu"}


@pytest.mark.parametrize(("code", "problem"), EXAMPLE_PROBLEMS, ids=IDS)
def test_every_message_is_looked_up_in_the_catalogue(hu_catalogue: None, code: Any, problem: Any) -> None:
    with translation.override("hu"):
        message = _message(problem)
    assert message.startswith("[hu] ")
    if "decided_by" in code.param_names:
        assert "[hu] on wins" in message


VOID_HU = (
    "[hu] With this correction the series is decided after game 2: Anna won it [hu] on wins. The "
    "games recorded after it would be voided: [hu] game 3. To save the correction, confirm that they "
    'are voided (tick “Void the games played after the decision”, or send "void_later_games": true); '
    "voided games stay in the history."
)


@pytest.fixture
def decided_after_three(make_series: Callable[..., Series], players: list[Player], referee: Any) -> Series:
    """A Snap table of four, best of 3: Anna, Bence, Anna (decided on wins after game 3)."""
    table = make_series(players[:4])
    a, b, c, d = players[:4]
    for number, result in enumerate([snap_win(a, b, c, d), snap_win(b, a, c, d), snap_win(a, b, c, d)], 1):
        record_result(user=referee, series_id=table.pk, game_number=number, result=result)
    return table


def test_api_a_correction_that_breaks_the_series_names_the_game_and_the_player(
    hu_catalogue: None, decided_after_three: Series, players: list[Player], organiser: Any
) -> None:
    a, b, c, d = players[:4]
    client = APIClient()
    client.force_authenticate(organiser)
    body = {"game": 2, "expected_version": 1, "reason": "misread", "result": snap_win(a, b, c, d)}
    response = client.post(f"/api/series/{decided_after_three.pk}/results/", body, format="json", **HU)
    assert response.status_code == 400
    assert response.json()["code"] == "correction_breaks_series"
    assert response.json()["message"] == VOID_HU
    assert response.json()["fields"] == {
        "void_later_games": ["[hu] Tick this to void [hu] game 3 and save the correction."]
    }
    assert response.json()["extra"] == {"void_games": [3]}
    assert GameResult.objects.filter(confirmed=True).count() == 3
    assert not GameResult.objects.filter(void=True).exists()


def test_page_a_correction_that_breaks_the_series_shows_the_catalogue_message(
    hu_catalogue: None, decided_after_three: Series, players: list[Player], organiser: Any
) -> None:
    _a, b, c, d = players[:4]
    client = Client()
    client.force_login(organiser)
    form = {
        "game": 2,
        "expected_version": 1,
        "client_key": "c1",
        "reason": "misread",
        "ending": "last_player_standing",
    }
    form.update({f"out_{b.pk}": 1, f"out_{c.pk}": 2, f"out_{d.pk}": 3})  # Anna left: she won game 2
    response = client.post(f"/series/{decided_after_three.pk}/games/2/correct/", form, **HU)
    assert response.status_code == 400
    page = response.content.decode()
    assert html.escape(VOID_HU) in page
    assert "[hu] Tick this to void [hu] game 3 and save the correction." in page
    assert 'name="void_later_games"' in page  # the checkbox to confirm with
    assert not GameResult.objects.filter(void=True).exists()


@pytest.fixture
def broken_series(make_series: Callable[..., Series], players: list[Player]) -> Series:
    """Anna won three games of a best of 3, stored round the service (as a shell or an import
    could): game 3 came after the decision."""
    a, b, c, d = players[:4]
    table = make_series(players[:4])
    for number in (1, 2, 3):
        game = Game.objects.create(series=table, number=number, seats=[p.pk for p in players[:4]])
        value = SnapTableResult(
            players=(a.pk, b.pk, c.pk, d.pk),
            ending=SnapEnding.LAST_PLAYER_STANDING,
            eliminated=((b.pk,), (c.pk,), (d.pk,)),
        )
        assert value.placings == {a.pk: 1, d.pk: 2, c.pk: 3, b.pk: 4}
        GameResult.objects.create(game=game, version=1, confirmed=True, data=value.to_json())
    return table


def test_series_page_shows_a_broken_series_in_the_catalogues_words(
    hu_catalogue: None, broken_series: Series, referee: Any
) -> None:
    """Stored games that no longer make a series are explained on the series page and its record
    page, never a 500."""
    table = broken_series
    client = Client()
    client.force_login(referee)
    expected = (
        "[hu] Game 3: [hu] The series was already decided before this game: Anna had won it [hu] on wins."
    )
    for url in (f"/series/{table.pk}/", f"/series/{table.pk}/record/"):
        response = client.get(url, **HU)
        assert response.status_code == 200
        assert expected in response.content.decode(), url


def test_api_a_new_game_for_a_broken_series_is_a_409_from_the_catalogue_not_a_500(
    hu_catalogue: None, broken_series: Series, players: list[Player], referee: Any
) -> None:
    client = APIClient()
    client.force_authenticate(referee)
    body = {"game": 4, "result": snap_win(*players[:4])}
    response = client.post(f"/api/series/{broken_series.pk}/results/", body, format="json", **HU)
    assert response.status_code == 409
    assert response.json()["code"] == "series_inconsistent"
    assert response.json()["message"] == (
        "[hu] The games recorded so far do not make a valid series, so no game can be added until an "
        "organiser puts them right. [hu] Game 3: [hu] The series was already decided before this "
        "game: Anna had won it [hu] on wins."
    )
    assert GameResult.objects.count() == 3


@pytest.fixture
def lonely_stage(make_tournament: Callable[..., Any], players: list[Player], organiser: Any) -> Stage:
    """A Snap stage at tables of 2 with three players entered: someone would sit alone."""
    tournament = make_tournament(game=GameKind.SNAP)
    for seed, player in enumerate(players[:3], start=1):
        Entry.objects.create(tournament=tournament, player=player, seed=seed)
    return stage_create(
        user=organiser,
        tournament=tournament,
        name="League",
        format=StageFormat.ROUND_ROBIN,
        options={"table_size": 2},
    )


def test_api_rounds_that_cannot_be_paired_answer_from_the_catalogue(
    hu_catalogue: None, lonely_stage: Stage, organiser: Any
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/stages/{lonely_stage.pk}/rounds/", **HU)
    assert response.status_code == 400
    assert response.json()["code"] == "table_of_one"
    assert response.json()["message"] == (
        "[hu] At tables of 2, one of the 3 players would sit alone: enter one more player, or create "
        "the stage with a larger table size."
    )
    assert not Series.objects.filter(stage=lonely_stage).exists()


def test_page_rounds_that_cannot_be_paired_flash_the_catalogue_message(
    hu_catalogue: None, make_tournament: Callable[..., Any], players: list[Player], organiser: Any
) -> None:
    tournament = make_tournament(game=GameKind.SNAPSZER)
    Entry.objects.create(tournament=tournament, player=players[0], seed=1)
    stage = stage_create(user=organiser, tournament=tournament, name="League", format=StageFormat.ROUND_ROBIN)
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/stages/{stage.pk}/rounds/", follow=True, **HU)
    assert (
        "[hu] A round robin needs at least 2 players; entered so far: 1. Enter more players first."
        in response.content.decode()
    )
    assert not Series.objects.filter(stage=stage).exists()
