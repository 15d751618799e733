"""snapleague/sockets.py ``Socket``: a socket hands each message to its handler at once.

Channels' consumers hop to the database thread before every message they dispatch (to close stale
connections); under load every frame a socket forwarded waited there behind the game owners' log
writes (docs/benchmarks.md, "Online play: the hop back out"). The project's sockets do
their database work through ``database_sync_to_async``, which closes stale connections itself."""

from __future__ import annotations

from typing import Any

import channels.consumer
import pytest
from asgiref.sync import async_to_sync

from games.online.consumers import GameConsumer
from tournaments.live.consumers import LiveConsumer


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each hop to the database thread that Channels' dispatch makes, recorded instead of made."""
    made: list[str] = []

    async def hop() -> None:
        made.append("database thread")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)
    return made


@pytest.mark.parametrize("socket_class", [GameConsumer, LiveConsumer])
def test_a_socket_hands_a_message_to_its_handler_without_a_database_hop(
    socket_class: type[Any], hops: list[str]
) -> None:
    socket = socket_class()
    handled: list[dict[str, Any]] = []

    async def handler(message: dict[str, Any]) -> None:
        handled.append(message)

    socket.game_frames = handler  # a broadcast of a game's frames (games/online/owner.py)
    async_to_sync(socket.dispatch)({"type": "game.frames", "frames": {"0": "{}"}})
    assert handled == [{"type": "game.frames", "frames": {"0": "{}"}}]
    assert hops == []
    with pytest.raises(ValueError, match=r"No handler for message type nobody\.listens"):
        async_to_sync(socket.dispatch)({"type": "nobody.listens"})


def test_the_base_consumer_would_have_hopped(hops: list[str]) -> None:
    """The hop this avoids is real: Channels' own dispatch makes it (a check on the check above)."""
    consumer = channels.consumer.AsyncConsumer()

    async def handler(message: dict[str, Any]) -> None:
        return None

    consumer.game_frames = handler  # type: ignore[attr-defined]
    async_to_sync(consumer.dispatch)({"type": "game.frames"})
    assert hops == ["database thread"]
