"""Through a real Celery worker: a committed result reaches the standings via the broker.

The worker is a subprocess started against the configured broker and the test database; nothing
runs eagerly. On PostgreSQL + Redis in CI; on SQLite only with a file test database
(SQLITE_TEST_NAME) and the file broker, since another process cannot see an in-memory database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from snapleague.celery import app as celery_app
from tests.conftest import record_result, snap_win
from tournaments.models import Series, Stage

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        connection.vendor == "sqlite" and not connection.settings_dict.get("TEST", {}).get("NAME"),
        reason="a worker process cannot see SQLite's in-memory test database: run with DATABASE_URL "
        "(PostgreSQL) and CELERY_BROKER_URL (Redis), as .ci/run does, or set SQLITE_TEST_NAME",
    ),
]


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "DATABASE_POOL": "0",
        "STANDINGS_RECONCILE_SECONDS": "3600",
    }
    log = (tmp_path / "worker.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "snapleague",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    celery_app.conf.task_always_eager = False
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        print((tmp_path / "worker.log").read_text()[-3000:])


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
