"""A correction that decides a series earlier voids the games played after it (docs/results.md).

The scenario of the brief: a best of 3 of Snapszer between Anna and Bence. Bence won game 1; the
referee recorded game 2 for Anna, but Bence won it, so the series was over 2-0 and game 3 (recorded
for Bence) should never have been played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from snapleague.errors import ApplicationError, Conflict
from snapleague.users import Account
from tests.conftest import record_result
from tests.conftest import snapszer_win as win
from tournaments.competitions.results.values import VoidResult
from tournaments.competitions.services import stage_standings_recompute
from tournaments.competitions.stages.advance import stage_advance
from tournaments.models import GameResult, Player, Series, Stage, StandingRow

HU = {"HTTP_ACCEPT_LANGUAGE": "hu"}


@pytest.fixture
def series(recorded_wrongly: Series) -> Series:
    """Bence, Anna (wrongly), Bence: recorded as Bence 2-1 after three games."""
    return recorded_wrongly


def _api(user: Account) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _correct_game_2(client: APIClient, series: Series, players: list[Player], **body: Any) -> Any:
    anna, bence = players[:2]
    payload = {"game": 2, "expected_version": 1, "reason": "Bence won game 2", "result": win(bence, anna, 4)}
    return client.post(f"/api/series/{series.pk}/results/", payload | body, format="json")


def _versions(series: Series, number: int) -> list[tuple[int, bool, bool]]:
    return list(
        GameResult.objects.filter(game__series=series, game__number=number)
        .order_by("version")
        .values_list("version", "confirmed", "void")
    )


def test_api_without_confirmation_names_the_games_and_saves_nothing(
    series: Series, players: list[Player], organiser: Any
) -> None:
    results_version = Stage.objects.get(pk=series.stage_id).results_version
    response = _correct_game_2(_api(organiser), series, players)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "correction_breaks_series"
    assert body["extra"] == {"void_games": [3]}
    assert "decided after game 2: Bence won it on wins" in body["message"]
    assert "voided: game 3" in body["message"] and '"void_later_games": true' in body["message"]
    assert body["fields"] == {"void_later_games": ["Tick this to void game 3 and save the correction."]}
    assert _versions(series, 2) == [(1, True, False)] and _versions(series, 3) == [(1, True, False)]
    assert Stage.objects.get(pk=series.stage_id).results_version == results_version


def test_api_with_confirmation_voids_game_3_and_the_standings_count_it_for_nothing(
    series: Series,
    players: list[Player],
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    anna, bence = players[:2]
    stage = Stage.objects.get(pk=series.stage_id)
    # before: Anna has game 2. The tasks the fixture's results sent run (as the worker would after
    # their commit), so the stage waits for none and the correction sends its own.
    stage_advance(stage_id=stage.pk, claim=True)
    assert stage_standings_recompute(stage_id=stage.pk, claim=True)
    assert StandingRow.objects.get(stage=stage, player=anna).values["games_won"] == 1
    client = _api(organiser)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = _correct_game_2(client, series, players, void_later_games=True)
    assert response.status_code == 201, response.json()
    assert response.json()["version"] == 2 and response.json()["void"] is False
    # The standings task, enqueued on commit as for any result; it enqueues the club's ratings.
    assert len(callbacks) == 2
    # history kept: game 2 has both versions, game 3 its result and then a void version on top
    assert _versions(series, 2) == [(1, False, False), (2, True, False)]
    assert _versions(series, 3) == [(1, False, False), (2, True, True)]
    void = GameResult.objects.get(game__series=series, game__number=3, void=True)
    assert (void.recorded_by, void.reason, void.source) == (organiser, "Bence won game 2", "organiser")
    assert void.value == VoidResult(corrected_game=2)
    # one result transaction, one step of results_version
    stage.refresh_from_db()
    assert stage.results_version == 4
    assert stage.standings_version == 4
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED
    assert series.placings == {str(bence.pk): 1, str(anna.pk): 2}
    rows = {row.player_id: row.values for row in StandingRow.objects.filter(stage=stage)}
    assert (rows[bence.pk]["games_won"], rows[anna.pk]["games_won"]) == (2, 0)
    assert (rows[bence.pk]["series_won"], rows[anna.pk]["series_won"]) == (1, 0)
    # the API shows the void game and the void version
    games = client.get(f"/api/games/?series={series.pk}").json()
    games = games.get("results", games)
    game_3 = next(g for g in games if g["number"] == 3)
    assert game_3["voided"] is True
    assert game_3["void"]["reason"] == "Bence won game 2" and game_3["void"]["corrected_game"] == 2
    assert game_3["void"]["recorded_by"] == organiser.username
    assert not next(g for g in games if g["number"] == 1)["voided"]
    results = client.get(f"/api/results/?game__series={series.pk}&void=true").json()
    results = results.get("results", results)
    assert [(r["game"], r["version"], r["void"], r["confirmed"]) for r in results] == [(3, 2, True, True)]


def test_the_same_idempotency_key_replays_the_correction_and_voids_nothing_more(
    series: Series, players: list[Player], organiser: Any
) -> None:
    client = _api(organiser)
    first = _correct_game_2(client, series, players, void_later_games=True, client_key="fix-2")
    again = _correct_game_2(client, series, players, void_later_games=True, client_key="fix-2")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]
    assert _versions(series, 3) == [(1, False, False), (2, True, True)]
    assert Stage.objects.get(pk=series.stage_id).results_version == 4


def test_a_stale_correction_after_the_voiding_is_a_409(
    series: Series, players: list[Player], organiser: Any
) -> None:
    client = _api(organiser)
    assert _correct_game_2(client, series, players, void_later_games=True).status_code == 201
    stale = _correct_game_2(client, series, players, void_later_games=True, reason="me too")
    assert stale.status_code == 409
    assert stale.json()["code"] == "result_conflict" and stale.json()["extra"] == {"version": 2}
    assert _versions(series, 3) == [(1, False, False), (2, True, True)]


def test_a_voided_game_is_recorded_again_once_a_correction_makes_it_needed(
    hu_catalogue: None, series: Series, players: list[Player], organiser: Any, referee: Any
) -> None:
    anna, bence = players[:2]
    record_result(
        user=organiser,
        series_id=series.pk,
        game_number=2,
        result=win(bence, anna, 4),
        expected_version=1,
        reason="Bence won game 2",
        void_later_games=True,
    )
    # while the series is decided, the void game cannot be recorded again
    with pytest.raises(Conflict) as exc:
        record_result(
            user=organiser, series_id=series.pk, game_number=3, result=win(bence, anna),
            expected_version=2, reason="try",
        )  # fmt: skip
    assert exc.value.code == "game_void"
    # game 1 was Anna's after all: 1-1, so game 3 is needed again
    record_result(
        user=organiser,
        series_id=series.pk,
        game_number=1,
        result=win(anna, bence),
        expected_version=1,
        reason="Anna won game 1",
    )
    series.refresh_from_db()
    assert series.status == Series.Status.PLAYING and series.placings == {}
    with translation.override("hu"), pytest.raises(Conflict) as exc:  # a referee is told who can
        record_result(user=referee, series_id=series.pk, game_number=3, result=win(bence, anna))
    assert exc.value.code == "result_conflict" and exc.value.extra == {"version": 2}
    assert str(exc.value.message).startswith("[hu] Game 3 was voided by a correction.")
    record, created = record_result(
        user=organiser,
        series_id=series.pk,
        game_number=3,
        result=win(bence, anna, 2),
        expected_version=2,
        reason="game 3 counts again",
    )
    assert created and record.version == 3 and not record.void
    assert _versions(series, 3) == [(1, False, False), (2, False, True), (3, True, False)]
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings[str(bence.pk)] == 1


def test_a_correction_that_breaks_the_series_otherwise_is_still_refused(
    make_series: Callable[..., Series], players: list[Player], referee: Any, organiser: Any
) -> None:
    """Voiding is only for games after the decision: a sudden-death game whose leaders are no longer
    level is not fixed by it."""
    a, b, c, d = players[:4]
    table = make_series(players[:4])
    games = [
        {"ending": "last_player_standing", "eliminated": [d.pk, c.pk, b.pk]},
        {"ending": "last_player_standing", "eliminated": [d.pk, c.pk, a.pk]},
        {"ending": "draw", "eliminated": [d.pk, [a.pk, b.pk, c.pk]]},
        {"ending": "last_player_standing", "eliminated": [b.pk]},  # sudden death: Anna v Bence
    ]
    for number, result in enumerate(games, start=1):
        record_result(user=referee, series_id=table.pk, game_number=number, result=result)
    with pytest.raises(ApplicationError) as exc:  # Csilla wins game 3: three level leaders
        record_result(
            user=organiser,
            series_id=table.pk,
            game_number=3,
            result={"ending": "last_player_standing", "eliminated": [d.pk, a.pk, b.pk]},
            expected_version=1,
            reason="misread",
            void_later_games=True,
        )
    assert exc.value.code == "correction_breaks_series" and "void_games" not in exc.value.extra
    assert not GameResult.objects.filter(void=True).exists()


# --- the pages ----------------------------------------------------------------------------------


def _form(players: list[Player], **extra: Any) -> dict[str, Any]:
    anna, bence = players[:2]
    form = {
        "game": 2,
        "expected_version": 1,
        "client_key": "page-1",
        "reason": "Bence won game 2",
        "mode": "score",
        f"score_{bence.pk}": 7,
        f"score_{anna.pk}": 4,
        "pot_carried": 0,
    }
    return form | extra


def test_page_correction_without_the_checkbox_is_refused_and_offers_it(
    hu_catalogue: None, series: Series, players: list[Player], organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    form_page = client.get(f"/series/{series.pk}/games/2/correct/").content.decode()
    assert 'name="void_later_games"' in form_page  # later games exist: the checkbox is offered
    response = client.post(f"/series/{series.pk}/games/2/correct/", _form(players), **HU)
    assert response.status_code == 400
    page = response.content.decode()
    assert "[hu] With this correction the series is decided after game 2" in page
    assert "[hu] Tick this to void [hu] game 3 and save the correction." in page
    assert 'name="void_later_games"' in page
    assert not GameResult.objects.filter(void=True).exists()
    assert _versions(series, 2) == [(1, True, False)]


def test_page_correction_with_the_checkbox_voids_and_every_page_shows_it(
    series: Series, players: list[Player], organiser: Any
) -> None:
    anna = players[0]
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/series/{series.pk}/games/2/correct/", _form(players, void_later_games="on"))
    assert response.status_code == 302
    assert _versions(series, 3) == [(1, False, False), (2, True, True)]
    series_page = client.get(f"/series/{series.pk}/").content.decode()
    assert "Voided" in series_page and "when game 2 was corrected" in series_page
    assert f"by {organiser.username}" in series_page and "Bence won game 2" in series_page
    assert "Played after the series was decided, so it counts for nothing. Voided" in series_page
    player_page = client.get(f"/players/{anna.pk}/").content.decode()
    assert "Voided" in player_page and "Bence won game 2" in player_page
    assert "<strong>0</strong>/2" in player_page  # games won / played: the void game is not counted
    tournament_page = client.get(f"/tournaments/{series.stage.tournament_id}/").content.decode()
    assert "Game 3 voided" in tournament_page and "Bence won game 2" in tournament_page


def test_a_void_game_is_recorded_again_from_the_page_starting_from_its_old_result(
    series: Series, players: list[Player], organiser: Any
) -> None:
    anna, bence = players[:2]
    fix = {"expected_version": 1, "reason": "Bence won game 2", "void_later_games": True}
    record_result(user=organiser, series_id=series.pk, game_number=2, result=win(bence, anna, 4), **fix)
    client = Client()
    client.force_login(organiser)
    url = f"/series/{series.pk}/games/3/correct/"
    assert 'name="score_' not in client.get(url).content.decode()  # decided before game 3: nothing to enter
    fix = {"expected_version": 1, "reason": "Anna won game 1"}
    record_result(user=organiser, series_id=series.pk, game_number=1, result=win(anna, bence), **fix)
    page = client.get(url).content.decode()  # 1-1: game 3 is the next game again
    assert 'name="expected_version" value="2"' in page  # it corrects the void version
    assert f'name="score_{bence.pk}" value="7"' in page and f'name="score_{anna.pk}" value="2"' in page
    form = {
        "game": 3,
        "expected_version": 2,
        "client_key": "again",
        "mode": "score",
        "reason": "counts again",
    }
    form.update({f"score_{bence.pk}": 7, f"score_{anna.pk}": 2, "pot_carried": 0})
    assert client.post(url, form).status_code == 302
    assert _versions(series, 3) == [(1, False, False), (2, False, True), (3, True, False)]
