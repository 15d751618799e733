"""Finished online games for tests: played to the end by bots in every seat through the owner's
live tables (``SnapszerTable``, ``SnapTable``) in virtual time, each entry logged with
``entries_append`` and the end stored with ``services.finish``, exactly as the owner does,
without sockets or an owner task (the replay tests, the permission matrix, the browser test)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from games.engine.snap.bots import LEVELS as SNAP_LEVELS
from games.models import OnlineGame
from games.online import services
from games.online.snap import SnapTable
from games.online.tables import Entry, SnapszerTable, entries_append


@contextmanager
def _loop() -> Iterator[Callable[[Coroutine[Any, Any, list[Entry]]], list[Entry]]]:
    """Runs a table's coroutines to the end on an event loop of its own thread (the caller's thread
    may be running one already: Playwright's sync API in the browser tests)."""
    loop = asyncio.new_event_loop()
    with ThreadPoolExecutor(1) as worker:
        try:
            yield lambda coroutine: worker.submit(loop.run_until_complete, coroutine).result()
        finally:
            worker.submit(loop.close).result()


def play_snapszer(game: OnlineGame, levels: tuple[str, str] = ("random", "heuristic")) -> Any:
    """Play a started Snapszer game to its end (bots of ``levels`` in both seats); its last state."""
    game.refresh_from_db()
    state, version = services.state_load(game)
    table = SnapszerTable(game, state, version, dict(enumerate(levels)))
    assert game.started_at is not None
    now = game.started_at
    with _loop() as run:
        while not table.is_terminal():
            now += timedelta(seconds=1)
            entries = run(table.due(now))
            assert entries, "a bot is always on move in a Snapszer match"
            entries_append(game.pk, entries)
    _finish(game, table.result())
    return table.state


def play_snap(game: OnlineGame, seed: int = 0) -> Any:
    """Play a started Snap game to its end, a bot of a level in every seat, in virtual time."""
    game.refresh_from_db()
    levels = list(SNAP_LEVELS)
    table = SnapTable(
        game,
        [],
        {s: levels[(seed + s) % len(levels)] for s in range(game.seat_count)},
        random.Random(seed),
    )
    assert game.started_at is not None
    now = game.started_at
    with _loop() as run:
        while not table.is_terminal():
            wait = table.wake_in(now)
            assert wait is not None, "a live Snap game always has a next timer"
            now += timedelta(seconds=wait)
            entries_append(game.pk, run(table.due(now)))
    _finish(game, table.result())
    return table.live.state


def _finish(game: OnlineGame, result: Any) -> None:
    services.finish(game_id=game.pk, result=result.to_dict(), engine_result=result)
    game.refresh_from_db()
