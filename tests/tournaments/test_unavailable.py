"""A database or broker that does not answer: the API and the pages answer 503 with Retry-After in the
client's language, never 500; a result committed while the broker is down is kept and answered 201,
and the beat reconciler brings the standings up to date once the broker is back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from snapleague.errors import RETRY_AFTER_SECONDS
from tests.conftest import snap_win
from tournaments import tasks
from tournaments.models import GameResult, Series, Stage


def _database_down(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


@pytest.fixture
def table(make_series: Callable[..., Series], players: list) -> Series:
    return make_series(players[:4])


def test_the_api_answers_503_with_retry_after_when_the_database_is_down(
    hu_catalogue: None, table: Series, referee: Any, players: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.competitions.api.results.result_record", _database_down)
    client = APIClient()
    client.force_authenticate(referee)

    response = client.post(
        f"/api/series/{table.pk}/results/",
        {"game": 1, "result": snap_win(*players[:4])},
        format="json",
        HTTP_ACCEPT_LANGUAGE="hu",
    )

    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = response.json()
    assert body["code"] == "unavailable" and body["extra"] == {"retry_after_s": RETRY_AFTER_SECONDS}
    assert body["message"].startswith("[hu] snapleague cannot reach its database")
    assert GameResult.objects.count() == 0


def test_a_page_answers_503_with_retry_after_when_the_database_is_down(
    table: Series, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("snapleague.views.clubs_list", _database_down)

    response = Client().get("/")

    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "cannot reach its database" in response.content.decode()


def test_integrity_errors_stay_bugs_not_503(
    table: Series, referee: Any, players: list, monkeypatch: Any
) -> None:
    from django.db import IntegrityError

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise IntegrityError("duplicate key")

    monkeypatch.setattr("tournaments.competitions.api.results.result_record", broken)
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(referee)
    response = client.post(
        f"/api/series/{table.pk}/results/", {"game": 1, "result": snap_win(*players[:4])}, format="json"
    )
    assert response.status_code == 500


def test_a_result_recorded_while_the_broker_is_down_is_kept_and_the_reconciler_catches_up(
    table: Series,
    referee: Any,
    players: list,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[str] = []

    def broker_down(*_args: Any) -> None:
        sent.append("refused")
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as down:
        down.setattr(tasks.stage_standings_recompute_task, "delay", broker_down)
        down.setattr(tasks.stage_advance_task, "delay", broker_down)
        client = APIClient()
        client.force_authenticate(referee)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/api/series/{table.pk}/results/",
                {"game": 1, "result": snap_win(*players[:4])},
                format="json",
                HTTP_IDEMPOTENCY_KEY="while-down",
            )

    assert response.status_code == 201, response.json()
    assert sent == ["refused"]  # one attempt; the stage task was not tried against a dead broker
    stage = Stage.objects.get(pk=table.stage_id)
    assert (stage.results_version, stage.standings_version) == (1, 0)

    assert tasks.standings_reconcile_task() == [stage.pk]  # beat, once the broker is back (eager here)

    stage.refresh_from_db()
    assert stage.standings_version == 1
    assert stage.standing_rows.order_by("position").first().player_id == players[0].pk
