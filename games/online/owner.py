"""The owner of a live game: one asyncio task in one web process (lichess's shape).

It holds the state in memory, takes inputs in arrival order from its channel (the group
``owner_group(id)``), applies them through the engine, appends them to the log, takes a snapshot
every ``SNAPSHOT_EVERY`` actions, plays the bots' moves after ``settings.ONLINE_BOT_DELAY`` and sends
each seat, and the spectators, their own view (``engine.observe``) — nothing else leaves it.

Ownership is the lease (games/online/lease.py). :func:`owner_ensure` is called by every socket on
connect and before every input: when no live owner holds the lease (none yet, or its process died
and the lease expired) this process takes it and starts an owner from snapshot + log.
docs/online.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionCode, ActionError
from games.engine.protocol import Engine
from games.models import OnlineGame
from games.online import services
from games.online.bots import bot_move, bots_make
from games.online.lease import RENEW_SECONDS, lease_acquire, lease_release, lease_renew
from tournaments.engine_messages import action_error_message

logger = logging.getLogger(__name__)

NOT_YOUR_SEAT = _("You can only play the cards of your own seat.")
SPECTATOR = _("You are watching this game: only its players can play.")
NOT_STARTED = _("This game has not started yet.")


def owner_group(game_id: int) -> str:
    return f"online-{game_id}-owner"


def view_group(game_id: int, seat: int | None) -> str:
    return f"online-{game_id}-{'spectators' if seat is None else f'seat-{seat}'}"


OWNERS: dict[int, GameOwner] = {}


def view_frame(
    engine: Engine, state: Any, version: int, seat: int | None, *, finished: bool = False
) -> dict[str, Any]:
    """The one frame that carries game state to a client: ``engine.observe(state, seat)`` and the
    version it is at. Nothing else about the state ever leaves the owner (hidden information)."""
    return {
        "type": "view",
        "version": version,
        "finished": finished,  # True only once the end is stored (the result, the revealed seed)
        "view": engine.observe(state, seat).to_dict(),
    }


def bot_delay() -> float:
    return float(getattr(settings, "ONLINE_BOT_DELAY", 0.7))


class GameOwner:
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.layer = get_channel_layer()
        self.ready = asyncio.Event()
        self.stopped = False
        self.task: asyncio.Task[None] | None = None

    async def _load(self) -> None:
        def load() -> tuple[OnlineGame, Any, int, dict[int, str]]:
            game = OnlineGame.objects.get(pk=self.game_id)
            state, seq = services.state_load(game)
            levels = {s.number: s.bot_level for s in game.seats.all() if s.bot_level}
            return game, state, seq, levels

        self.game, self.state, self.seq, levels = await database_sync_to_async(load)()
        self.engine = services.engine_of(self.game)
        self.bots = bots_make(self.game.kind, self.game.options, levels, random.Random())
        self.levels = levels

    async def run(self) -> None:
        channel = ""
        reader: asyncio.Task[None] | None = None
        try:
            await self._load()
            channel = await self.layer.new_channel()
            await self.layer.group_add(owner_group(self.game_id), channel)
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            # One reader that is never cancelled mid-receive (a cancelled layer receive may drop a
            # message): the loop below waits on the local queue instead.
            reader = asyncio.get_running_loop().create_task(self._read(channel, inbox))
            self.ready.set()
            renew_at = time.monotonic() + RENEW_SECONDS
            # A bot is asked once per state (its answer only changes when the state does):
            # ``bot_at`` is when to ask, None when no bot has anything to do in this state.
            bot_at: float | None = time.monotonic() + bot_delay() if self.bots else None
            while not self.stopped:
                wake = min(renew_at, bot_at) if bot_at is not None else renew_at
                message = None
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(inbox.get(), max(0.001, wake - time.monotonic()))
                if time.monotonic() >= renew_at:
                    if not await database_sync_to_async(lease_renew)(self.game_id):
                        logger.warning("online game %s: lease lost, this owner stops", self.game_id)
                        break
                    renew_at = time.monotonic() + RENEW_SECONDS
                moved = False
                if message is not None:
                    moved = await self._handle(message)
                elif bot_at is not None and time.monotonic() >= bot_at:
                    bot_at = None
                    moved = await self._bot_turn()
                if self.engine.is_terminal(self.state):
                    await self._finish()
                    break
                if moved and self.bots:
                    bot_at = time.monotonic() + bot_delay()
        except services.StaleWrite:
            logger.warning("online game %s: another owner wrote first, this one stops", self.game_id)
        except Exception:
            logger.exception("online game %s: the owner failed", self.game_id)
        finally:
            self.stopped = True
            self.ready.set()
            if reader is not None:
                reader.cancel()
            if channel:
                await self.layer.group_discard(owner_group(self.game_id), channel)
            if OWNERS.get(self.game_id) is self:
                del OWNERS[self.game_id]
            await database_sync_to_async(lease_release)(self.game_id)

    async def _read(self, channel: str, inbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            inbox.put_nowait(await self.layer.receive(channel))

    # --- inputs -------------------------------------------------------------------------------

    async def _handle(self, message: dict[str, Any]) -> bool:
        """Answer one input; True when it moved the game."""
        kind = message.get("type")
        seat = message.get("seat")
        reply = message.get("reply", "")
        language = message.get("language") or settings.LANGUAGE_CODE
        if kind == "game.hello":
            await self._send(reply, self._view_frame(seat))
        elif kind == "game.act":
            return await self._act(message, seat, reply, language)
        return False

    async def _act(self, message: dict[str, Any], seat: int | None, reply: str, language: str) -> bool:
        if seat is None:
            await self._refuse(reply, language, "spectator", SPECTATOR)
            return False
        if message.get("version") != self.seq:
            await self._refuse(reply, language, ActionCode.STALE.value, None, ActionCode.STALE)
            return False
        try:
            action = self.engine.action_from_dict(message.get("action") or {})
            if getattr(action, "seat", seat) != seat:
                await self._refuse(reply, language, "not_your_seat", NOT_YOUR_SEAT)
                return False
            state, events = self.engine.apply(self.state, action)
        except ActionError as error:
            await self._refuse(reply, language, error.code.value, None, error)
            return False
        await self._commit(action, state, events, services.Sender(seat, message.get("user_id")))
        return True

    async def _bot_turn(self) -> bool:
        move = await asyncio.to_thread(bot_move, self.engine, self.state, self.bots)
        if move is None:
            return False
        seat, action = move
        state, events = self.engine.apply(self.state, action)
        await self._commit(action, state, events, services.Sender(seat, None, self.levels[seat]))
        return True

    async def _commit(self, action: Any, state: Any, events: list[Any], sender: services.Sender) -> None:
        seq = self.seq + 1
        snapshot = self.engine.to_snapshot(state) if seq % services.SNAPSHOT_EVERY == 0 else None
        await database_sync_to_async(services.log_append)(
            game_id=self.game_id,
            seq=seq,
            action=self.engine.action_to_dict(action),
            sender=sender,
            received_at=timezone.now(),
            events=[e.to_dict() for e in events],
            snapshot=snapshot,
        )
        self.state, self.seq = state, seq
        await self._broadcast()

    async def _finish(self) -> None:
        result = self.engine.result(self.state)
        await database_sync_to_async(services.finish)(
            game_id=self.game_id, result=result.to_dict() if result is not None else {}, engine_result=result
        )
        await self._broadcast(finished=True)

    # --- frames -------------------------------------------------------------------------------

    def _view_frame(self, seat: int | None, finished: bool = False) -> dict[str, Any]:
        return view_frame(self.engine, self.state, self.seq, seat, finished=finished)

    async def _broadcast(self, finished: bool = False) -> None:
        for seat in [*range(self.game.seat_count), None]:
            frame = self._view_frame(seat, finished)
            await self.layer.group_send(
                view_group(self.game_id, seat), {"type": "game.frame", "frame": frame}
            )

    async def _send(self, reply: str, frame: dict[str, Any]) -> None:
        if reply:
            await self.layer.send(reply, {"type": "game.frame", "frame": frame})

    async def _refuse(self, reply: str, language: str, code: str, message: Any, error: Any = None) -> None:
        """An error frame to ``reply`` only: ``message`` (lazy text), or the engine's translated
        message for ``error`` (an ActionError or an ActionCode)."""
        with translation.override(language):
            if message is None:
                text = action_error_message(error if isinstance(error, ActionError) else ActionError(error))
            else:
                text = str(message)
        await self._send(reply, {"type": "error", "code": code, "message": text, "version": self.seq})


async def owner_ensure(game_id: int) -> GameOwner | None:
    """This process's owner of ``game_id``, started if the lease is free (or expired); None when a
    live owner elsewhere holds it (inputs reach it over the channel layer)."""
    owner = OWNERS.get(game_id)
    if owner is not None and not owner.stopped:
        await owner.ready.wait()
        return owner
    status = await database_sync_to_async(
        lambda: OnlineGame.objects.filter(pk=game_id).values_list("status", flat=True).first()
    )()
    if status != OnlineGame.Status.PLAYING:
        return None
    if not await database_sync_to_async(lease_acquire)(game_id):
        return None
    owner = GameOwner(game_id)
    OWNERS[game_id] = owner
    owner.task = asyncio.get_running_loop().create_task(owner.run())
    await owner.ready.wait()
    return owner if not owner.stopped else None


async def owners_stop() -> None:
    """Stop every owner of this process (tests, and a process shutting down): their leases are
    released; another process takes the games over on their next input."""
    for owner in list(OWNERS.values()):
        owner.stopped = True
        if owner.task is not None:
            owner.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await owner.task
