"""A page at an online game's table, played by a script over a real websocket: the crash test
(test_crash.py, two uvicorn processes) and the two-hosts failover test (tests/deploy/, through
Caddy) play their games with it and check that every act it saw accepted is in the game's log; and the reads of a game both poll."""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from collections.abc import Sequence
from typing import Any, Protocol

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from games.models import GameLease, OnlineGame


class Endpoint(Protocol):
    """Where a page's socket connects: a web process, or the load balancer in front of several."""

    origin: str  # the Origin the page sends: the site's own
    ssl: ssl.SSLContext | None

    def url(self, game_id: int) -> str: ...

    def alive(self) -> bool: ...


class Client:
    """A page at a table: it plays its seat's first legal action (Snapszer) whenever it is on move,
    and moves to the next endpoint when its socket drops and its endpoint is dead (as a page reloads
    behind a balancer); through a balancer (one endpoint) it reconnects to the same address.

    ``acked``: (seq, action) of every act it saw accepted. The owner answers acts in the order it
    takes inputs, with the broadcast of the version it made or an error to the sender only (a bot
    acting in the same version makes it stale); so an act sent at version v counts as accepted once
    a view of v + 2 came with no error for it before. An act still open when the socket drops
    counts for nothing, and so does one sent for the version the game ended on: the end at v + 1
    may be its own move or another seat's (a bot declaring 66 first), and the "game over" answer
    to a move that lost that race may come after the last view, when this page stops reading.

    Nor does a pass: after the last trick both seats may pass (X24a), in either order, so when one
    seat's pass is lost on its way to an owner that dies, the other seat's pass makes the same
    version and the versions alone cannot tell them apart (the crash test once failed so: the log
    held the other seat's act at the seq this page counted as its own; a pass is the only act that
    can do that). Every other act is open to the seat on move alone, and nothing but that act makes
    the version it would make.

    ``trace``: what the page sent and received, for the message of a failed check."""

    def __init__(self, webs: Sequence[Endpoint], first: int, game_id: int, cookie: str, plays: bool):
        self.webs, self.at, self.game_id, self.plays = webs, first, game_id, plays
        self.cookie = cookie  # the Cookie header's value
        self.connects = 0  # sockets opened (1 + reconnections)
        self.reconnected_at: list[float] = []  # time.monotonic() of each reconnection
        self.acked: list[tuple[int, dict[str, Any]]] = []
        self.pending: list[tuple[int, dict[str, Any]]] = []  # sent, not yet answered for certain
        self.version = -1
        self.finished = False
        self.trace: list[str] = []  # time.monotonic(), then what was sent or received

    async def run(self) -> None:
        while not self.finished:
            web = self.webs[self.at]
            if not web.alive():  # that process is dead: the other one
                self.at = (self.at + 1) % len(self.webs)
                continue
            try:
                async with connect(
                    web.url(self.game_id),
                    origin=web.origin,  # type: ignore[arg-type]
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=5,
                    ssl=web.ssl,
                ) as ws:
                    self.connects += 1
                    if self.connects > 1:
                        self.reconnected_at.append(time.monotonic())
                    if self.version >= 0:
                        await ws.send(json.dumps({"type": "resync", "version": self.version}))
                    await self._play(ws)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:  # or a 502
                self.trace.append(f"{time.monotonic():.3f} closed: {error!r}")
                self.pending = []
                await asyncio.sleep(0.2)

    async def _play(self, ws: Any) -> None:
        while not self.finished:
            try:
                raw = await asyncio.wait_for(ws.recv(), 3)
            except TimeoutError:  # nothing came (an owner died, no lease yet): ask again, and
                # play again what got no answer (as the page does: its buttons come back)
                self.pending = []
                self.trace.append(f"{time.monotonic():.3f} nothing for 3 s: resync at {self.version}")
                await ws.send(json.dumps({"type": "resync", "version": self.version}))
                continue
            frame = json.loads(raw)
            self.trace.append(f"{time.monotonic():.3f} from web {self.at}: {raw[:160]}")
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
                seq, action = self.pending.pop(0)
                if action["type"] != "pass":  # open to both seats at once (above)
                    self.acked.append((seq, action))
                    self.trace.append(f"{time.monotonic():.3f} acked {seq} {action}")
            legal = [
                a for a in frame["view"].get("hand", {}).get("legal_actions", []) if a["type"] != "declare"
            ]
            # One act per version: a new one once the version the last one would make is seen.
            if self.plays and legal and not self.finished and all(p[0] <= self.version for p in self.pending):
                action = legal[0]
                self.pending.append((frame["version"] + 1, action))
                await ws.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))
                self.trace.append(f"{time.monotonic():.3f} act at {frame['version']}: {action}")


def game_version(game_id: int) -> int:
    return OnlineGame.objects.get(pk=game_id).version


def owner_pid(game_id: int) -> int | None:
    """The pid of the web process holding the game's lease (``GameLease.owner`` is host:pid:…)."""
    lease = GameLease.objects.filter(game_id=game_id).first()
    if lease is None or not lease.owner:
        return None
    return int(lease.owner.split(":")[1])


def finished(game_id: int) -> bool:
    return OnlineGame.objects.get(pk=game_id).status == OnlineGame.Status.FINISHED
