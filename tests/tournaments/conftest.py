"""Fixtures of the tournament tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection

from snapleague.celery import app as celery_app
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tests.tournaments.accounts.smtp_server import smtp  # noqa: F401  (a fixture: a loopback SMTP server)
from tests.tournaments.integrations.webhook_receiver import receiver  # noqa: F401  (a fixture: a local HTTP receiver)
from tests.tournaments.live_sockets import quick_watcher, table  # noqa: F401  (fixtures of the live socket's tests)
from tournaments.competitions.services import tournament_players_enter
from tournaments.models import GameKind, Player, Series, Tournament

ROOT = Path(__file__).resolve().parents[2]

# Tests marked ``worker`` start a Celery worker in another process, which cannot open SQLite's
# in-memory test database.
NEEDS_A_DATABASE_FILE = pytest.mark.skipif(
    connection.vendor == "sqlite" and not connection.settings_dict.get("TEST", {}).get("NAME"),
    reason="a worker process cannot see SQLite's in-memory test database: run with DATABASE_URL "
    "(PostgreSQL) and CELERY_BROKER_URL (Redis), as .ci/run does, or set SQLITE_TEST_NAME",
)


@pytest.fixture
def recorded_wrongly(make_series: Callable[..., Series], players: list[Player], referee: Any) -> Series:
    """A best of 3 of Snapszer recorded Bence, Anna (wrongly: Bence won it), Bence: Bence 2-1 after
    three games, where game 2 corrected to Bence decides it 2-0 and voids game 3."""
    anna, bence = players[:2]
    series = make_series([anna, bence], game=GameKind.SNAPSZER)
    won = [snapszer_win(bence, anna), snapszer_win(anna, bence, 4), snapszer_win(bence, anna, 2)]
    for number, result in enumerate(won, start=1):
        record_result(user=referee, series_id=series.pk, game_number=number, result=result)
    return series


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
def start_worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Starts real Celery worker subprocesses against the configured broker and the test database
    (``beat=True``: with beat, its reconciler every second; ``queues``: the queues it consumes, both
    by default); all are stopped at the end. Tasks stop running eagerly in this process."""
    started: list[tuple[subprocess.Popen[bytes], Path]] = []

    def start(*, beat: bool = False, queues: str = "stages,background") -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": django_settings.CELERY_BROKER_URL,
            "DATABASE_POOL": "0",
            "STANDINGS_RECONCILE_SECONDS": "1" if beat else "3600",
        }
        log_path = tmp_path / f"worker-{len(started)}.log"
        beat_args = ["--beat", "--schedule", str(tmp_path / f"beat-{len(started)}")] if beat else []
        with log_path.open("wb") as log:
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
                    f"--queues={queues}",  # both by default, as bin/run's two workers together
                    f"--hostname=w{len(started)}-{os.getpid()}@%h",
                    *beat_args,
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # beat's child goes with it (killpg below)
            )
        started.append((process, log_path))
        return process

    celery_app.conf.task_always_eager = False
    try:
        yield start
    finally:
        for process, log_path in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # anything left in its group
            print(log_path.read_text()[-3000:])


@pytest.fixture
def worker(start_worker: Callable[..., subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """A real Celery worker subprocess against the configured broker and the test database; tasks
    stop running eagerly in this process."""
    return start_worker()


@pytest.fixture
def cup(make_tournament: Callable[..., Tournament], organiser: Account) -> Callable[..., Tournament]:
    """A tournament (draft) with ``players`` entered, named P001, P002 … (``prefix`` instead of P)
    in seed order."""

    def make(players: int, game: str = GameKind.SNAPSZER, prefix: str = "P") -> Tournament:
        tournament = make_tournament(game=game)
        tournament_players_enter(
            user=organiser,
            tournament=tournament,
            new_names=[f"{prefix}{n:03d}" for n in range(1, players + 1)],
        )
        return tournament

    return make
