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

from tests.conftest import record_result, snap_win
from tests.tournaments.conftest import NEEDS_A_DATABASE_FILE
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
