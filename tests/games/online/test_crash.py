"""The crash test (issue 14): two real uvicorn processes on PostgreSQL + Redis, games played over
real websockets, the process owning them killed with SIGKILL mid-play. Every game continues on the
other process within 10 s (its sweeper takes the expired leases over, with no input needed), no
action a client saw accepted is lost, the state is the replay of the whole log, and the games end.

Run only on PostgreSQL + Redis (several processes need a database and a channel layer they share).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.engine.protocol import engine_for
from games.engine.snap.timing import TimingRules, replay_timed, timed_input_from_dict
from games.models import GameLease, OnlineGame
from games.online.services import CONTROL_ROWS, seat_join, state_load, table_create
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


class Client:
    """A page at a table: it plays its seat's first legal action (Snapszer) whenever it is on move,
    and moves to the other process when its socket drops (as a page reloads behind a balancer).

    ``acked``: (seq, action) of every act it saw accepted. The owner answers acts in the order it
    takes inputs, with the broadcast of the version it made or an error to the sender only (a bot
    acting in the same version makes it stale); so an act sent at version v counts as accepted once
    a view of v + 2 came with no error for it before. An act still open when the socket drops
    counts for nothing, and so does one sent for the version the game ended on: the end at v + 1
    may be its own move or another seat's (a bot declaring 66 first), and the "game over" answer
    to a move that lost that race may come after the last view, when this page stops reading."""

    def __init__(self, webs: list[Web], first: int, game_id: int, cookie: tuple[bytes, bytes], plays: bool):
        self.webs, self.at, self.game_id, self.plays = webs, first, game_id, plays
        self.cookie = cookie[1].decode()
        self.acked: list[tuple[int, dict[str, Any]]] = []
        self.pending: list[tuple[int, dict[str, Any]]] = []  # sent, not yet answered for certain
        self.version = -1
        self.finished = False

    async def run(self) -> None:
        while not self.finished:
            web = self.webs[self.at]
            if web.process.poll() is not None:  # that process is dead: the other one
                self.at = 1 - self.at
                continue
            try:
                async with connect(
                    web.url(self.game_id),
                    origin=f"http://127.0.0.1:{web.port}",  # type: ignore[arg-type]
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=5,
                ) as ws:
                    if self.version >= 0:
                        await ws.send(json.dumps({"type": "resync", "version": self.version}))
                    await self._play(ws)
            except (ConnectionClosed, OSError, TimeoutError):
                self.pending = []
                await asyncio.sleep(0.2)

    async def _play(self, ws: Any) -> None:
        while not self.finished:
            try:
                raw = await asyncio.wait_for(ws.recv(), 3)
            except TimeoutError:  # nothing came (an owner died, no lease yet): ask again, and
                # play again what got no answer (as the page does: its buttons come back)
                self.pending = []
                await ws.send(json.dumps({"type": "resync", "version": self.version}))
                continue
            frame = json.loads(raw)
            if frame["type"] == "error":
                # Refused (stale: the only refusal of a legal act): the owner answers acts in the
                # order it takes them, and every act before it was accepted or refused already.
                if self.pending:
                    self.pending.pop(0)
                continue
            if frame["type"] == "ping":
                await ws.send(json.dumps({"type": "pong", "t": frame["t"]}))
                continue
            if frame["type"] != "view" or frame["version"] < self.version:
                continue
            self.version = frame["version"]
            self.finished = frame["finished"]
            while self.pending and self.version >= self.pending[0][0] + 1:
                self.acked.append(self.pending.pop(0))
            legal = [
                a for a in frame["view"].get("hand", {}).get("legal_actions", []) if a["type"] != "declare"
            ]
            # One act per version: a new one once the version the last one would make is seen.
            if self.plays and legal and not self.finished and all(p[0] <= self.version for p in self.pending):
                action = legal[0]
                self.pending.append((frame["version"] + 1, action))
                await ws.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))


def _version(game_id: int) -> int:
    return OnlineGame.objects.get(pk=game_id).version


def _owner_pid(game_id: int) -> int | None:
    lease = GameLease.objects.filter(game_id=game_id).first()
    if lease is None or not lease.owner:
        return None
    return int(lease.owner.split(":")[1])


def _finished(game_id: int) -> bool:
    return OnlineGame.objects.get(pk=game_id).status == OnlineGame.Status.FINISHED


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
    cookies = {u.pk: session(u) for u in (anna, bence, csilla, dora)}
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
        while await sync_to_async(_owner_pid)(duel.pk) != a.process.pid:  # Anna's socket started it on A
            assert time.monotonic() < deadline, "the duel did not start on A"
            await asyncio.sleep(0.1)
        tasks.append(asyncio.create_task(clients[4].run()))
        # Mid-play: every game has moved a few times, none has ended.
        deadline = time.monotonic() + 60
        while not all([await sync_to_async(_version)(g) >= 6 for g in games]):
            assert time.monotonic() < deadline, "the games did not start"
            await asyncio.sleep(0.1)
        # Every game still being played is A's (a game against bots may already have ended: its
        # lease is released; the duel is played on across the kill at least).
        owners = {}
        for g in games:
            pid = await sync_to_async(_owner_pid)(g)
            if pid is None and await sync_to_async(_finished)(g):
                continue
            owners[g] = pid
        assert set(owners.values()) == {a.process.pid}, owners
        live = list(owners)
        assert duel.pk in live, live
        before = {g: await sync_to_async(_version)(g) for g in live}
        a.process.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        a.process.wait()
        # Each game continues on B: its version moves on (nobody needs to send anything).
        while len(figures) < len(live):
            for g in live:
                if g not in figures and (await sync_to_async(_version)(g) > before[g]):
                    figures[g] = time.monotonic() - killed_at
            assert time.monotonic() - killed_at < 30, f"not taken over: {set(live) - set(figures)}"
            await asyncio.sleep(0.05)
        assert {
            g: await sync_to_async(_owner_pid)(g) for g in games if not await sync_to_async(_finished)(g)
        } == {g: b.process.pid for g in games if not await sync_to_async(_finished)(g)}
        # ... and ends.
        deadline = time.monotonic() + 240
        while not all([await sync_to_async(_finished)(g) for g in games]):
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
            assert log[seq] == action, (game.pk, seq, action, log.get(seq))
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
