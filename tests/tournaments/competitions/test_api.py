"""The result and standings endpoints, end to end through DRF and the error handler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from snapleague.users import Account
from tests.conftest import snap_win
from tournaments.models import GameResult, Series


@pytest.fixture
def table(make_series: Callable[..., Series], players: list) -> Series:
    return make_series(players[:4])


def _client(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _post(client: APIClient, series: Series, body: dict, key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/series/{series.pk}/results/", body, format="json", **headers)


def test_referee_submits_a_result_and_reads_the_standings(
    table: Series, referee: Any, players: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(_client(referee), table, {"game": 1, "result": snap_win(*players[:4])}, key="k1")
    assert response.status_code == 201, response.json()
    assert response.json()["version"] == 1 and response.json()["game"] == 1
    standings = _client().get(f"/api/stages/{table.stage_id}/standings/").json()
    assert standings["results_version"] == standings["standings_version"] == 1
    assert [row["player"] for row in standings["rows"]][:1] == [players[0].pk]
    assert standings["rows"][0]["values"]["games_won"] == 1


def test_the_same_idempotency_key_returns_the_first_response(
    table: Series, referee: Any, players: list
) -> None:
    client = _client(referee)
    first = _post(client, table, {"game": 1, "result": snap_win(*players[:4])}, key="tap")
    again = _post(client, table, {"game": 1, "result": snap_win(*players[:4])}, key="tap")
    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert GameResult.objects.count() == 1


def test_bad_input_is_a_400_with_field_errors(table: Series, referee: Any) -> None:
    response = _post(_client(referee), table, {"game": 0})
    body = response.json()
    assert response.status_code == 400
    assert body["code"] == "invalid" and {"game", "result"} <= set(body["fields"])


def test_a_body_that_is_not_json_is_a_400_in_the_clients_language(
    hu_catalogue: None, table: Series, referee: Any
) -> None:
    response = _client(referee).post(
        f"/api/series/{table.pk}/results/",
        "{game: 1",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="hu",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert response.json()["message"] == (
        "[hu] The request body could not be read: send a JSON object with the header "
        "Content-Type: application/json."
    )  # not the parser's English ("JSON parse error - Expecting property name ...")


def test_an_impossible_result_is_a_400_naming_the_field(table: Series, referee: Any, players: list) -> None:
    response = _post(
        _client(referee),
        table,
        {"game": 1, "result": {"ending": "last_player_standing", "eliminated": [players[0].pk]}},
    )
    assert response.status_code == 400
    assert response.json()["code"] == "result_invalid"
    assert "eliminated" in response.json()["fields"]


def test_a_second_result_for_the_same_game_is_a_409_with_the_current_version(
    table: Series, referee: Any, players: list
) -> None:
    _post(_client(referee), table, {"game": 1, "result": snap_win(*players[:4])})
    response = _post(_client(referee), table, {"game": 1, "result": snap_win(*players[:4])})
    assert response.status_code == 409
    assert response.json()["code"] == "result_conflict"
    assert response.json()["extra"] == {"version": 1}


@pytest.mark.parametrize(("who", "status"), [("other_referee", 403), ("player_user", 403), (None, 403)])
def test_only_referees_of_the_tournament_and_organisers_may_submit(
    table: Series, players: list, who: str | None, status: int, request: Any
) -> None:
    user = request.getfixturevalue(who) if who else None
    response = _post(_client(user), table, {"game": 1, "result": snap_win(*players[:4])})
    assert response.status_code == status
    assert set(response.json()) == {"code", "message", "fields", "extra"}
    assert not GameResult.objects.exists()


def test_unknown_series_and_stage_are_404(referee: Any) -> None:
    assert (
        _client(referee)
        .post("/api/series/999999/results/", {"game": 1, "result": {}}, format="json")
        .status_code
        == 404
    )
    response = _client().get("/api/stages/999999/standings/")
    assert response.status_code == 404 and response.json()["code"] == "stage_not_found"


def test_openapi_schema_is_served(db: Any) -> None:
    response = _client().get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/series/{series_id}/results/" in response.content
