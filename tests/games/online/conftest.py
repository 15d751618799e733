"""Online play in tests: bots without delay, every owner stopped when a scenario ends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from channels.testing import WebsocketCommunicator

from games.online.owner import OWNERS
from snapleague.asgi import application

# The browser tests' uvicorn server and Chromium (tests/tournaments/competitions/test_browser.py).

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")


@pytest.fixture(autouse=True)
def _no_bot_delay(settings: Any) -> Iterator[None]:
    settings.ONLINE_BOT_DELAY = 0.0
    yield
    OWNERS.clear()
    # Each test's event loop (its uvicorn server's, or asyncio.run's) is a process of its own: the
    # next one gets its own layer. The Redis layer keeps a receive lock bound to the loop that
    # last received, which a finished test's loop may hold for ever ("bound to a different event
    # loop" in the next test); a real process has one loop.
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)


@pytest.fixture
def robot_speed(settings: Any) -> None:
    """A test that plays as fast as the frames come back is faster than the rate limit allows a
    person (BURST, REFILL_PER_SECOND)."""
    settings.ONLINE_SOCKET_RATE = (1000, 1000.0)


async def opened(game_id: int, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    sent = list(headers)
    if not any(name == b"origin" for name, _ in sent):
        sent.append(ORIGIN)
    if not any(name == b"host" for name, _ in sent):
        sent.append(HOST)
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=sent)
    connected, _ = await communicator.connect(timeout=10)  # a loaded machine's first Redis connection
    assert connected
    return communicator


async def receive(communicator: WebsocketCommunicator, timeout: float = 10) -> dict[str, Any]:
    frame: dict[str, Any] = await communicator.receive_json_from(timeout=timeout)
    return frame


async def send(communicator: WebsocketCommunicator, frame: Any) -> None:
    await communicator.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
