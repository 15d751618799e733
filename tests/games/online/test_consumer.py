"""The game socket: views, actions, every error frame, hidden information (docs/online.md)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import GameLogEntry, OnlineGame
from games.online.owner import owners_stop
from games.online.services import table_create
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads"),
]


def test_a_player_against_a_bot_gets_the_view_and_plays_a_legal_card(make_user: Any) -> None:
    anna = make_user("anna")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2, bots=["random"])
    assert game.status == OnlineGame.Status.PLAYING
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        frame = await receive(ws)
        while True:
            assert frame["type"] == "view", frame
            assert frame["view"]["seat"] == 0
            legal = [a for a in frame["view"]["hand"].get("legal_actions", []) if a["type"] != "declare"]
            if legal:
                break
            frame = await receive(ws)
        version = frame["version"]
        await send(ws, {"type": "act", "version": version, "action": legal[0]})
        answer = await receive(ws)
        while answer["version"] == version:  # the hello's answer may come after the bot's move
            answer = await receive(ws)
        assert answer["type"] == "view" and answer["version"] == version + 1, answer
        await ws.disconnect()
        await owners_stop()

    run(scenario)
    assert GameLogEntry.objects.filter(game=game).count() >= 1


def test_a_bot_that_moves_first_moves_after_its_delay(make_user: Any, settings: Any) -> None:
    """The bot leads the first trick (it does not deal) after ``ONLINE_BOT_DELAY``, with no input."""
    settings.ONLINE_BOT_DELAY = 0.3
    anna = make_user("anna")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2, bots=["random"])
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        first = await receive(ws)
        assert first["version"] == 0
        moved = await receive(ws, timeout=5)
        assert moved["version"] == 1
        await ws.disconnect()
        await owners_stop()

    run(scenario)
    assert GameLogEntry.objects.get(game=game, seq=1).bot_level == "random"
