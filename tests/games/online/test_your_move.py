"""The "your move" notification (issue 25 item 5, docs/notifications.md): a person away from their online game is
told when the game waits for them, once per absence; a person at the table is not told."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.models import OnlineGame
from games.online.owner import owners_stop
from games.online.services import seat_join, table_create
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session
from tournaments.notifications.models import Event, Notification

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads"),
]


def _moves(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in frame["view"]["hand"].get("legal_actions", []) if a["type"] != "declare"]


async def _told(user_id: int, count: int, timeout: float = 5.0) -> list[Notification]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await sync_to_async(list)(Notification.objects.filter(user_id=user_id, event=Event.YOUR_MOVE))
        if len(found) >= count or loop.time() > deadline:
            return found
        await asyncio.sleep(0.05)


def test_the_seat_away_is_told_it_is_their_move_once_and_the_seat_present_never(make_user: Any) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2)
    seat_join(user=bence, token=game.invite_token, client_seed="ab" * 16)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    users = {0: anna, 1: bence}
    cookies = {0: session(anna), 1: session(bence)}

    async def scenario() -> None:
        sockets = {seat: await opened(game.pk, cookie) for seat, cookie in cookies.items()}
        frames = {seat: await receive(ws) for seat, ws in sockets.items()}
        mover = 0 if _moves(frames[0]) else 1
        away = 1 - mover
        try:
            await sockets[away].disconnect()  # the other player closes the page
            await asyncio.sleep(0.3)
            frame = frames[mover]
            await send(
                sockets[mover], {"type": "act", "version": frame["version"], "action": _moves(frame)[0]}
            )
            await receive(sockets[mover])
            (told,) = await _told(users[away].pk, 1)
            assert told.key == f"game:{game.pk}:1" and told.url == f"/play/{game.pk}/"
            assert told.params["opponents"] == [users[mover].get_username()]
            # Still away, and nothing new happens: not told again.
            assert len(await _told(users[away].pk, 2, timeout=0.5)) == 1
            # The person at the table was never told.
            assert await _told(users[mover].pk, 1, timeout=0.3) == []
        finally:
            await owners_stop()

    run(scenario)
