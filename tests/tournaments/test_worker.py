"""Through a real Celery worker: a committed result reaches the standings via the broker.

The worker is a subprocess started against the configured broker and the test database; nothing
runs eagerly. On PostgreSQL + Redis in CI; on SQLite only with a file test database
(SQLITE_TEST_NAME) and the file broker, since another process cannot see an in-memory database.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest
from kombu.exceptions import OperationalError as BrokerError

from tests.conftest import record_result, snap_win
from tests.tournaments.conftest import NEEDS_A_DATABASE_FILE
from tournaments import tasks
from tournaments.models import Series, Stage

pytestmark = [pytest.mark.worker, NEEDS_A_DATABASE_FILE]


@pytest.mark.django_db(transaction=True)
def test_standings_version_follows_a_committed_result(
    worker: subprocess.Popen[bytes], make_series: Callable[..., Series], referee: Any, players: list
) -> None:
    series = make_series(players[:4])
    a, b, c, d = players[:4]
    record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(a, b, c, d))
    record_result(user=referee, series_id=series.pk, game_number=2, result=snap_win(a, d, c, b))
    deadline = time.monotonic() + 60
    stage = Stage.objects.get(pk=series.stage_id)
    while time.monotonic() < deadline and worker.poll() is None:
        stage.refresh_from_db()
        if stage.standings_version == stage.results_version == 2:
            break
        time.sleep(0.1)
    assert worker.poll() is None, "the worker exited"
    assert (stage.results_version, stage.standings_version) == (2, 2)
    assert stage.standing_rows.order_by("position").first().player_id == a.pk


def _caught_up(stage: Stage, version: int, worker: subprocess.Popen[bytes], timeout: float = 60) -> float:
    """Seconds until the stage's standings reach ``version`` (the test fails after ``timeout``)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout and worker.poll() is None:
        stage.refresh_from_db()
        if stage.standings_version == stage.results_version == version:
            return time.monotonic() - started
        time.sleep(0.1)
    assert worker.poll() is None, "the worker exited"
    raise AssertionError(f"standings at {stage.standings_version}, results at {stage.results_version}")


@pytest.mark.django_db(transaction=True)
def test_results_recorded_while_the_worker_is_down_reach_the_standings_when_it_returns(
    start_worker: Callable[..., subprocess.Popen[bytes]],
    make_series: Callable[..., Series],
    referee: Any,
    players: list,
) -> None:
    series = make_series(players[:4])
    a, b, c, d = players[:4]
    first = start_worker()
    record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(a, b, c, d))
    stage = Stage.objects.get(pk=series.stage_id)
    _caught_up(stage, 1, first)

    first.kill()  # kill -9: the worker is gone, the broker is not
    first.wait()
    record_result(user=referee, series_id=series.pk, game_number=2, result=snap_win(a, d, c, b))
    time.sleep(1)
    stage.refresh_from_db()
    assert (stage.results_version, stage.standings_version) == (2, 1), "nobody computed it meanwhile"

    _caught_up(stage, 2, start_worker())  # the broker kept the message for the next worker

    assert stage.standing_rows.order_by("position").first().player_id == a.pk


@pytest.mark.django_db(transaction=True)
def test_the_beat_reconciler_repairs_standings_whose_message_was_lost(
    start_worker: Callable[..., subprocess.Popen[bytes]],
    make_series: Callable[..., Series],
    referee: Any,
    players: list,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    series = make_series(players[:4])
    a, b, c, d = players[:4]

    def broker_down(*_args: Any) -> None:
        raise BrokerError("Error 111 connecting to the broker. Connection refused.")

    with monkeypatch.context() as down:  # the result commits; its message never reaches a broker
        down.setattr(tasks.stage_standings_recompute_task, "delay", broker_down)
        down.setattr(tasks.stage_advance_task, "delay", broker_down)
        record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(a, b, c, d))
    stage = Stage.objects.get(pk=series.stage_id)
    assert (stage.results_version, stage.standings_version) == (1, 0)

    _caught_up(stage, 1, start_worker(beat=True))  # beat's reconciler, every second here

    assert stage.standing_rows.order_by("position").first().player_id == a.pk
