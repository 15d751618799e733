"""The crash test (issue 14): two real uvicorn processes on PostgreSQL + Redis, games played over
real websockets, the process owning them killed with SIGKILL mid-play. Every game continues on the
other process within 10 s (its sweeper takes the expired leases over, with no input needed), no
action a client saw accepted is lost, the state is the replay of the whole log, and the games end.

Run only on PostgreSQL + Redis (several processes need a database and a channel layer they share).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from games.engine.protocol import engine_for
from games.engine.snap.timing import TimingRules, replay_timed, timed_input_from_dict
from games.models import OnlineGame
from games.online.services import CONTROL_ROWS, seat_join, state_load, table_create
from tests.games.online.socket_player import Client, finished, game_version, owner_pid
from tests.tournaments.conftest import _database_url
from tests.tournaments.live_sockets import run, session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not settings.CHANNEL_LAYER_URL,
        reason="the crash test runs two web processes: it needs PostgreSQL and a Redis channel layer",
    ),
]

ROOT = Path(__file__).resolve().parents[3]
SNAPSZER = engine_for("snapszer")
SNAP = engine_for("snap")
TAKEOVER_SECONDS = 10.0  # the bound


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Web:
    """One uvicorn process serving snapleague.asgi:application (its lifespan starts the sweeper)."""

    def __init__(self, tmp_path: Path, name: str) -> None:
        self.port = _free_port()
        self.log_path = tmp_path / f"{name}.log"
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "DATABASE_POOL": "0",
            "CHANNEL_LAYER_URL": settings.CHANNEL_LAYER_URL,
            "ONLINE_BOT_DELAY": "0.05",
            "ONLINE_SNAP_CLOCK_SCALE": "2",
            "ONLINE_SWEEP_SECONDS": "2",
            "DEBUG": "1",
        }
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "snapleague.asgi:application",
                    *("--host", "127.0.0.1", "--port", str(self.port)),
                    *("--log-level", "warning", "--lifespan", "on"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, self.log_path.read_text()[-3000:]
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                break
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.1)

    def url(self, game_id: int) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}/"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    ssl = None

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def webs(tmp_path: Path) -> Iterator[list[Web]]:
    started: list[Web] = []
    try:
        started += [Web(tmp_path, "web-a"), Web(tmp_path, "web-b")]
        yield started
    finally:
        for web in started:
            web.stop()
            print(web.log_path.read_text()[-3000:])


def test_kill_9_the_owner_and_every_game_continues_with_nothing_lost(webs: list[Web], make_user: Any) -> None:
    anna, bence, csilla, dora = (make_user(n) for n in ("anna", "bence", "csilla", "dora"))
    snapszer_bots = [
        table_create(user=user, kind="snapszer", options={}, seats=2, bots=["casual"])
        for user in (anna, bence)
    ]
    snap = table_create(
        user=csilla,
        kind="snap",
        options={"profile": "classic", "max_game_seconds": 30},
        seats=4,
        bots=["club"] * 3,
    )
    duel = table_create(user=anna, kind="snapszer", options={}, seats=2)
    seat_join(user=dora, token=duel.invite_token)
    cookies = {u.pk: session(u)[1].decode() for u in (anna, bence, csilla, dora)}
    a, b = webs
    clients = [
        Client(webs, 0, snapszer_bots[0].pk, cookies[anna.pk], plays=True),
        Client(webs, 0, snapszer_bots[1].pk, cookies[bence.pk], plays=True),
        Client(webs, 0, snap.pk, cookies[csilla.pk], plays=False),  # its seat's turns time out (S36)
        Client(webs, 0, duel.pk, cookies[anna.pk], plays=True),
        Client(webs, 1, duel.pk, cookies[dora.pk], plays=True),  # the other player on the other process
    ]
    games = [g.pk for g in (*snapszer_bots, snap, duel)]
    figures: dict[int, float] = {}

    async def scenario() -> None:
        tasks = [asyncio.create_task(c.run()) for c in clients[:3]]
        tasks.append(asyncio.create_task(clients[3].run()))
        deadline = time.monotonic() + 30
        while await sync_to_async(owner_pid)(duel.pk) != a.process.pid:  # Anna's socket started it on A
            assert time.monotonic() < deadline, "the duel did not start on A"
            await asyncio.sleep(0.1)
        tasks.append(asyncio.create_task(clients[4].run()))
        # Mid-play: every game has moved a few times, none has ended.
        deadline = time.monotonic() + 60
        while not all([await sync_to_async(game_version)(g) >= 6 for g in games]):
            assert time.monotonic() < deadline, "the games did not start"
            await asyncio.sleep(0.1)
        # Every game still being played is A's (a game against bots may already have ended: its
        # lease is released; the duel is played on across the kill at least).
        owners = {}
        for g in games:
            pid = await sync_to_async(owner_pid)(g)
            if pid is None and await sync_to_async(finished)(g):
                continue
            owners[g] = pid
        assert set(owners.values()) == {a.process.pid}, owners
        a.process.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        a.process.wait()
        # What A left (read after its death: B cannot move a game before A's lease expires). A
        # game against bots may have ended on A in the moment before the kill, its lease not yet
        # released: it has nothing to continue.
        before = {g: await sync_to_async(game_version)(g) for g in owners}
        live = [g for g in owners if not await sync_to_async(finished)(g)]
        assert duel.pk in live, live
        # Each game continues on B: its version moves on (nobody needs to send anything).
        while len(figures) < len(live):
            for g in live:
                if g not in figures and (await sync_to_async(game_version)(g) > before[g]):
                    figures[g] = time.monotonic() - killed_at
            assert time.monotonic() - killed_at < 30, f"not taken over: {set(live) - set(figures)}"
            await asyncio.sleep(0.05)
        # Every game is B's now, or has ended: the owner is read before the status, so a game that
        # ends between the two reads is seen ended.
        for g in games:
            pid = await sync_to_async(owner_pid)(g)
            assert pid == b.process.pid or await sync_to_async(finished)(g), (g, pid)
        # ... and ends.
        deadline = time.monotonic() + 240
        while not all([await sync_to_async(finished)(g) for g in games]):
            assert time.monotonic() < deadline, "the games did not finish"
            await asyncio.sleep(0.2)
        await asyncio.wait_for(asyncio.gather(*tasks), 30)

    run(scenario)
    print("takeover after kill -9 (s):", {g: round(t, 2) for g, t in figures.items()})
    assert max(figures.values()) < TAKEOVER_SECONDS, figures
    for client in clients:
        game = OnlineGame.objects.get(pk=client.game_id)
        log = dict(game.log.values_list("seq", "action"))
        for seq, action in client.acked:  # every action a client saw accepted is in the log
            assert log[seq] == action, (game.pk, seq, action, log.get(seq), "\n".join(client.trace[-40:]))
    for game_id in (*[g.pk for g in snapszer_bots], duel.pk):
        game = OnlineGame.objects.get(pk=game_id)
        actions = [
            a
            for a in game.log.order_by("seq").values_list("action", flat=True)
            if a["type"] not in CONTROL_ROWS
        ]
        state, version = state_load(game)
        replayed = SNAPSZER.replay(game.setup, [SNAPSZER.action_from_dict(a) for a in actions])
        assert version == game.version == game.log.count()
        assert SNAPSZER.to_snapshot(state) == SNAPSZER.to_snapshot(replayed)
        assert SNAPSZER.is_terminal(replayed) and game.result == SNAPSZER.result(replayed).to_dict()
    game = OnlineGame.objects.get(pk=snap.pk)
    setup = game.setup
    dealt = SNAP.new_game(
        setup["options"], seats=setup["seats"], dealer=setup["dealer"], seed=bytes.fromhex(setup["seed"])
    )
    inputs = [
        timed_input_from_dict(a)
        for a in game.log.order_by("seq").values_list("action", flat=True)
        if a["type"] not in CONTROL_ROWS
    ]
    replayed = replay_timed(
        dealt.rules, dealt.deal, setup["dealer"], inputs, timing=TimingRules(**setup["timing"])
    )
    assert replayed.state.result is not None and game.result == replayed.state.result.to_dict()
    assert sum(len(c.acked) for c in clients) > 0
