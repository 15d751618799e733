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


def test_two_sites_on_one_redis_do_not_hear_each_other() -> None:
    """Publish/subscribe channels belong to the Redis server, not to a database: the layer's prefix
    carries the URL's database number, so a site (or a test run) on another database of the same
    Redis, sending to a group of the same name, reaches only its own members."""
    from urllib.parse import urlsplit

    from channels_redis.pubsub import RedisPubSubChannelLayer

    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    database = urlsplit(settings.CHANNEL_LAYER_URL).path.strip("/") or "0"
    assert config["prefix"] == f"snapleague{database}:"

    async def scenario() -> tuple[dict, dict]:
        ours = get_channel_layer()
        theirs = RedisPubSubChannelLayer(hosts=config["hosts"], prefix=f"snapleague{database}x:")
        mine, other = await ours.new_channel(), await theirs.new_channel()
        await ours.group_add("online-1-owner", mine)
        await theirs.group_add("online-1-owner", other)
        await theirs.group_send("online-1-owner", {"type": "theirs"})
        await ours.group_send("online-1-owner", {"type": "ours"})
        got = await asyncio.wait_for(ours.receive(mine), 5), await asyncio.wait_for(theirs.receive(other), 5)
        await theirs.flush()
        return got

    assert asyncio.run(scenario()) == ({"type": "ours"}, {"type": "theirs"})
