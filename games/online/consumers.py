"""The game socket, ``/ws/games/<id>/``: one per player or spectator.

Client -> server (JSON text, at most ``MAX_MESSAGE_CHARS``):

    {"type": "act", "version": 12, "action": {"type": "play", "seat": 0, "card": "AH"}}
    {"type": "resync", "version": 11}     -> the full current view
    {"type": "ping", "t": 123}            -> {"type": "pong", "t": 123}
    {"type": "pong", "t": 456}            answers the server's ping (a real-time game, S33)

A real-time game's seated socket (Snap, ``ping_seconds``) is pinged by the server,
``{"type": "ping", "t": 456}``; the round trip of the matching pong goes to the owner (the timing
layer's ``RoundTrip``) and back to the client as ``{"type": "rtt", "rtt_ms": 42}`` (its lag
indicator). A pong that answers no ping of this socket is ignored.

Server -> client: ``{"type": "view", "version", "finished", "view"}`` on connect and after every
accepted action (``view`` is ``engine.observe(state, seat)`` of this socket's seat: never more),
and ``{"type": "error", "code", "message", "version"}`` for a refused frame (the message in the
visitor's language). A refusal disturbs nobody: the game and the other sockets go on.

A socket may be opened while the table still waits for its players (the waiting page,
``static/js/waiting.js``): it hears nothing until the last seat is taken, then
``{"type": "started"}`` (or, when it connects after the start, the first view).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.models import OnlineGame
from games.online.groups import frame_key, frame_text, owner_group, view_group
from games.online.kinds import online_for
from games.online.owner import HEARTBEAT_SECONDS, owner_ensure
from snapleague.sockets import Allowance, Socket, scope_language

MAX_MESSAGE_CHARS = 2048
BURST = 20  # frames at once (a reconnect's resync and a few quick taps) ...
REFILL_PER_SECOND = 5.0  # ... then this many a second: a person taps a card a second at most

ERRORS = {
    "malformed": _(
        "The server could not read this message: send a JSON object whose type is act, resync or ping."
    ),
    "too_large": _("This message is too long."),
    "flooding": _("Too many messages: wait a moment before sending more."),
    "not_started": _("This game has not started yet."),
    "finished": _("This game is over: no more moves can be played."),
}


class GameConsumer(Socket):
    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.language = scope_language(self.scope)
        burst, per_second = getattr(settings, "ONLINE_SOCKET_RATE", (BURST, REFILL_PER_SECOND))
        self.allowance = Allowance(burst, per_second, burst, time.monotonic())
        self.flooding = False
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None

        def seat_of() -> tuple[str | None, int | None]:
            game = OnlineGame.objects.filter(pk=self.game_id).first()
            if game is None:
                return None, None
            seat = (
                game.seats.filter(user_id=user_id).values_list("number", flat=True).first()
                if user_id
                else None
            )
            return game.kind, seat

        kind, self.seat = await database_sync_to_async(seat_of)()
        if kind is None:
            await self.close(code=4404)
            return
        self.ping_seconds = online_for(kind).ping_seconds
        self.ping_sent: int | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.user_id = user_id
        self.group = view_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._to_owner("game.hello")  # also says this seat is here
        if self.seat is not None:
            self.pinger = asyncio.get_running_loop().create_task(self._heartbeat())

    async def disconnect(self, code: int) -> None:
        if getattr(self, "pinger", None) is not None:
            self.pinger.cancel()  # type: ignore[union-attr]
            with contextlib.suppress(asyncio.CancelledError):
                await self.pinger  # type: ignore[misc]
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.seat is not None:  # the owner counts this seat's absence from now
                await self.channel_layer.group_send(owner_group(self.game_id), self._presence(here=False))

    def _presence(self, *, here: bool) -> dict[str, Any]:
        return {
            "type": "game.presence",
            "here": here,
            "seat": self.seat,
            "user_id": self.user_id,
            "reply": self.channel_name,
        }

    async def _heartbeat(self) -> None:
        """A seated socket's beat, now and every ``HEARTBEAT_SECONDS``: it tells the owner this seat
        is here (docs/online.md "Absent players"; asking ``owner_ensure`` first, so a beat also
        takes a dead owner's game over), and in a real-time game pings the page to measure its
        round trip (S33: every ``ping_seconds``)."""
        every = min(self.ping_seconds or HEARTBEAT_SECONDS, HEARTBEAT_SECONDS)
        while True:
            if self.ping_seconds:
                self.ping_sent = int(time.monotonic() * 1000)
                await self._send({"type": "ping", "t": self.ping_sent})
            await asyncio.sleep(every)
            await self._to_owner("game.presence", here=True)

    async def game_who(self, event: dict[str, Any]) -> None:
        """A new owner asks who is here: a seated socket answers at once."""
        if self.seat is not None:
            await self.channel_layer.group_send(owner_group(self.game_id), self._presence(here=True))

    async def _pong(self, t: Any) -> None:
        if self.ping_sent is None or t != self.ping_sent:
            return  # answers no ping of ours (or one already answered): a client cannot make up a lag
        rtt = int(time.monotonic() * 1000) - self.ping_sent
        self.ping_sent = None
        await self._send({"type": "rtt", "rtt_ms": rtt})
        await self._to_owner("game.rtt", rtt_ms=rtt)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.allowance.take(time.monotonic()):
            if not self.flooding:
                self.flooding = True
                await self._error("flooding")
            return
        self.flooding = False
        if text_data is None:
            return await self._error("malformed")
        if len(text_data) > MAX_MESSAGE_CHARS:
            return await self._error("too_large")
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            return await self._error("malformed")
        if not isinstance(message, dict):
            return await self._error("malformed")
        kind = message.get("type")
        if kind == "ping":
            t = message.get("t")
            return await self._send({"type": "pong", "t": t if isinstance(t, (int, float)) else None})
        if kind == "resync":
            return await self._to_owner("game.hello")
        if kind == "pong":
            return await self._pong(message.get("t"))
        version = message.get("version")
        action = message.get("action")
        if kind != "act" or not isinstance(action, dict) or type(version) is not int:
            return await self._error("malformed")
        await self._to_owner("game.act", version=version, action=action)

    async def _to_owner(self, kind: str, **fields: Any) -> None:
        owned = await owner_ensure(self.game_id) is not None
        if not owned and kind == "game.hello" and await self._finished_view():
            return
        if not owned and kind == "game.act":
            status = await database_sync_to_async(
                lambda: OnlineGame.objects.filter(pk=self.game_id).values_list("status", flat=True).first()
            )()
            if status == OnlineGame.Status.FINISHED:
                return await self._error("finished")
            if status != OnlineGame.Status.PLAYING:
                return await self._error("not_started")
        await self.channel_layer.group_send(
            owner_group(self.game_id),
            {
                "type": kind,
                "seat": self.seat,
                "user_id": self.user_id,
                "reply": self.channel_name,
                "language": self.language,
                **fields,
            },
        )

    async def _finished_view(self) -> bool:
        """A finished game has no owner: its last view is read from snapshot + log here."""

        def read() -> dict[str, Any] | None:
            game = OnlineGame.objects.filter(pk=self.game_id, status=OnlineGame.Status.FINISHED).first()
            if game is None:
                return None
            return online_for(game.kind).load(game).frame(self.seat, finished=True)

        frame = await database_sync_to_async(read)()
        if frame is not None:
            await self._send(frame)
        return frame is not None

    async def game_frame(self, event: dict[str, Any]) -> None:
        """A frame for this socket alone (an answer to its hello or resync, an error)."""
        await self._send(event["frame"])

    async def game_started(self, event: dict[str, Any]) -> None:
        """The table has just started (services.table_started_announce): a waiting page moves on."""
        await self._send({"type": "started"})

    async def game_frames(self, event: dict[str, Any]) -> None:
        """A broadcast: only this viewer's own frame leaves for the page (its seat's view, or the
        spectators'); the other seats' frames never reach the socket."""
        frame = event["frames"].get(frame_key(self.seat))
        if frame is not None:
            await self.send(text_data=frame)

    async def _error(self, code: str) -> None:
        with translation.override(self.language):
            text = str(ERRORS[code])
        await self._send({"type": "error", "code": code, "message": text, "version": None})

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=frame_text(frame))
