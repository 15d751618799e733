"""Talking to the live-pages socket in tests: a communicator through the whole ASGI stack, and the
frames it exchanges."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from snapleague.asgi import application
from tournaments.models import Player, Series

# The live socket's tests: the watcher reads in a thread of its own, so they commit and share one
# connection on SQLite's in-memory database; it ticks every 20 ms instead of 150.
LIVE_TESTS = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads", "quick_watcher"),
]


@pytest.fixture
def quick_watcher(settings: Any) -> None:
    settings.LIVE_WATCH_SECONDS = 0.02


@pytest.fixture
def table(make_series: Callable[..., Series], players: list[Player]) -> Series:
    """A Snap table of four (Anna, Bence, Csilla, Dániel), no result yet."""
    return make_series(players[:4])


ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run an async scenario; its sync_to_async calls run back in this thread (this connection).

    Each run has an event loop of its own, and the Redis channel layer keeps a receive lock and
    connection pools bound to the loop that first used it: a layer kept from an earlier scenario
    fails with "bound to a different event loop" or times out (seen under load on PostgreSQL +
    Redis, and in hypothesis examples). So every scenario starts and ends with fresh layers."""
    channel_layers.backends.clear()
    try:
        async_to_sync(scenario)()
    finally:
        channel_layers.backends.clear()


def session(user: Any) -> tuple[bytes, bytes]:
    """The cookie header of a session of ``user`` (sync: make it before the scenario runs)."""
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def opened(*headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    """A connected communicator on /ws/live/ through snapleague.asgi.application, with ``headers``
    (the site's own Origin unless one is given)."""
    sent = list(headers)
    if not any(name == b"origin" for name, _ in sent):
        sent.append(ORIGIN)
    if not any(name == b"host" for name, _ in sent):
        sent.append(HOST)
    communicator = WebsocketCommunicator(application, "/ws/live/", headers=sent)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def ask(communicator: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    await communicator.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    answer: dict[str, Any] = await communicator.receive_json_from(timeout=5)
    return answer


async def still_answers(communicator: WebsocketCommunicator) -> None:
    assert await ask(communicator, {"type": "ping"}) == {"type": "pong"}


async def until_version(communicator: WebsocketCommunicator, topic: str, version: str) -> list[str]:
    """The versions pushed for ``topic`` until ``version`` arrives (fails after 10 s)."""
    seen: list[str] = []
    while version not in seen:
        frame = await communicator.receive_json_from(timeout=10)
        assert frame["type"] == "changed" and frame["topic"] == topic, frame
        seen.append(frame["version"])
    return seen
