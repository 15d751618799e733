"""The Redis channel layer survives an idle channel (CHANNEL_LAYER_URL set: CI's PostgreSQL + Redis run).

channels_redis waits for a message with a blocking BZPOPMIN of 5 s; redis-py 8 times a read out
after 5 s by default, so a receive on a channel idle that long raised ``redis.exceptions.
TimeoutError`` ("Timeout reading from …"), killing the socket's consumer or the game owner's reader.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

pytestmark = pytest.mark.skipif(not settings.CHANNEL_LAYER_URL, reason="needs CHANNEL_LAYER_URL (Redis)")


def test_a_receive_waits_through_an_idle_channel_and_gets_the_late_message() -> None:
    async def scenario() -> dict:
        layer = get_channel_layer()
        channel = await layer.new_channel()

        async def late() -> None:
            await asyncio.sleep(7)  # longer than one BZPOPMIN wait and redis-py's default read timeout
            await layer.send(channel, {"type": "late"})

        sender = asyncio.create_task(late())
        message = await asyncio.wait_for(layer.receive(channel), timeout=20)
        await sender
        return message

    assert asyncio.run(scenario()) == {"type": "late"}
