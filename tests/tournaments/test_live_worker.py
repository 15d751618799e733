"""Across processes: standings stored by a real Celery worker (another process) reach a socket
that follows the stage, through this process's version watcher.

No eager tasks: the result commits here, the worker (a subprocess on the configured broker) stores
the standings, and the watcher here sees both in the database. On PostgreSQL + Redis (broker and
CHANNEL_LAYER_URL) in CI; the embedded default's path (SQLite file + the file broker) with
``SQLITE_TEST_NAME=/tmp/… bin/test tests/tournaments/test_live_worker.py``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from tests.conftest import record_result, snap_win
from tests.tournaments.conftest import NEEDS_A_DATABASE_FILE
from tests.tournaments.live_sockets import ask, opened
from tournaments.models import Player, Series, Stage

pytestmark = [pytest.mark.worker, NEEDS_A_DATABASE_FILE]


@pytest.mark.django_db(transaction=True)
def test_standings_stored_by_the_worker_are_pushed_to_a_subscriber(
    worker: subprocess.Popen[bytes], make_series: Callable[..., Series], referee: Any, players: list[Player]
) -> None:
    series = make_series(players[:4])
    a, b, c, d = players[:4]
    topic = f"stage:{series.stage_id}"

    async def scenario() -> list[str]:
        communicator = await opened()
        assert (await ask(communicator, {"type": "subscribe", "topic": topic}))["version"] == "0.0"
        await sync_to_async(record_result)(
            user=referee, series_id=series.pk, game_number=1, result=snap_win(a, b, c, d)
        )
        pushed: list[str] = []
        while "1.1" not in pushed:  # the worker starts, then stores (60 s: a cold start on 2 cores)
            frame = await communicator.receive_json_from(timeout=60)
            assert (frame["type"], frame["topic"]) == ("changed", topic), frame
            pushed.append(frame["version"])
        await communicator.disconnect()
        return pushed

    pushed = async_to_sync(scenario)()
    assert worker.poll() is None, "the worker exited"
    # The result (1.0) and then the worker's standings (1.1), unless both landed within one tick.
    assert pushed in (["1.0", "1.1"], ["1.1"])
    stage = Stage.objects.get(pk=series.stage_id)
    assert (stage.results_version, stage.standings_version) == (1, 1)
