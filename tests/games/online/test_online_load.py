"""The online load benchmark's clients (benchmarks/online_load.py) play one Snapszer and one
four-seat Snap game end to end over real websockets against uvicorn serving the application, so
the script does not rot. No timing is asserted (figures are in docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from benchmarks.online_load import (
    Players,
    Pool,
    SeatClient,
    Stats,
    seat_play,
    sign_in,
    tables_create,
    tables_fresh,
)
from games.models import GameLogEntry, OnlineGame

pytestmark = pytest.mark.usefixtures("robot_speed")

SCALE = 20.0  # the Snap game clock runs 20 times faster; the client bots' delays are 1/20


def test_the_benchmark_clients_play_a_snapszer_and_a_snap_game_to_the_end(
    server: str, make_user: Any, settings: Any
) -> None:
    settings.ONLINE_SNAP_CLOCK_SCALE = SCALE
    names = [make_user(f"onload-{n:03d}").username for n in range(1, 5)]
    make_user("someone-else")  # not a benchmark account: its tables are not the benchmark's
    [snapszer_id] = tables_create("snapszer", 1, names)
    [snap_id] = tables_create("snap", 1, names)
    pool = Pool({"snapszer": tables_fresh("snapszer"), "snap": tables_fresh("snap")})
    sessions = {name: sign_in(server, name, "pw-for-tests-only") for name in names}
    snapszer, snap = pool.take("snapszer"), pool.take("snap")
    assert snapszer is not None and snap is not None
    assert (snapszer.game_id, snap.game_id) == (snapszer_id, snap_id)
    assert len(snapszer.usernames) == 2 and len(set(snap.usernames)) == 4
    assert pool.take("snap") is None
    stats = Stats()

    async def play() -> list[SeatClient]:
        fast = Players(server, sessions, stats, asyncio.Event(), pace=0, give_up=30)
        snap_pace = Players(server, sessions, stats, fast.stop, pace=1 / SCALE, give_up=30)
        seats = [seat_play(fast, snapszer, n) for n in range(2)]
        seats += [seat_play(snap_pace, snap, n) for n in range(4)]
        return await asyncio.wait_for(asyncio.gather(*seats), timeout=240)

    clients = asyncio.run(play())

    assert dict(stats.errors) == {}
    assert [c.finished for c in clients] == [True] * 6
    for game_id in (snapszer_id, snap_id):
        game = OnlineGame.objects.get(pk=game_id)
        assert game.status == OnlineGame.Status.FINISHED
        assert GameLogEntry.objects.filter(game=game).count() == game.version > 0
    actions = {(s.kind, s.action) for s in stats.samples}
    assert ("snapszer", "play") in actions and ("snap", "flip") in actions
    # Every Snapszer action was acknowledged: one sample per logged action (nobody else played),
    # and one per refusal (both seats may pass after a hand's last trick: the second is stale).
    assert set(stats.refusals) <= {"stale", "not_started", "finished", "call_refused", "flip_refused", "late"}
    snapszer_samples = [s for s in stats.samples if s.kind == "snapszer" and "refused" not in s.action]
    assert len(snapszer_samples) == OnlineGame.objects.get(pk=snapszer_id).version
    assert all(s.latency >= 0 for s in stats.samples)
