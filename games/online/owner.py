"""The owner of a live game: one asyncio task in one web process (lichess's shape).

It holds the game's live table in memory (games/online/tables.py: what differs between games),
takes inputs in arrival order from its channel (the group ``owner_group(id)``), lets the table
answer them, appends what they made to the log, wakes when the table has something due with no
input (a bot's move; Snap's timers: auto-flip, decisions after the tie window, reveal jitter, the
time cap) and sends each seat, and the spectators, their own frame (``engine.observe`` of the
seat) — nothing else leaves it.

Ownership is the lease (games/online/lease.py). :func:`owner_ensure` is called by every socket on
connect and before every input: when no live owner holds the lease (none yet, or its process died
and the lease expired) this process takes it and starts an owner from snapshot + log.
docs/online.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionCode, ActionError
from games.models import OnlineGame
from games.online import services
from games.online.lease import RENEW_SECONDS, lease_acquire, lease_release, lease_renewer
from games.online.tables import Entry, LiveTable, Refusal, online_for, view_frame
from tournaments.engine_messages import action_error_message

__all__ = ["OWNERS", "GameOwner", "owner_ensure", "owner_group", "owners_stop", "view_frame", "view_group"]

logger = logging.getLogger(__name__)

SPECTATOR = _("You are watching this game: only its players can play.")
NOT_STARTED = _("This game has not started yet.")


def owner_group(game_id: int) -> str:
    return f"online-{game_id}-owner"


def view_group(game_id: int, seat: int | None) -> str:
    return f"online-{game_id}-{'spectators' if seat is None else f'seat-{seat}'}"


OWNERS: dict[int, GameOwner] = {}


class GameOwner:
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.layer = get_channel_layer()
        self.ready = asyncio.Event()
        self.stopped = False
        self.task: asyncio.Task[None] | None = None

    async def _load(self) -> None:
        def load() -> tuple[OnlineGame, LiveTable]:
            game = OnlineGame.objects.get(pk=self.game_id)
            return game, online_for(game.kind).load(game)

        self.game, self.table = await database_sync_to_async(load)()

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
            renewer = lease_renewer()  # renews this process's leases, all at once
            renewer.add(self.game_id)
            self.ready.set()
            while not self.stopped:
                # Sleep until an input, the table's next deadline (a bot's move; Snap's timers) or
                # a look at the lease, whichever comes first.
                due_in = self.table.wake_in(timezone.now())
                wait = RENEW_SECONDS if due_in is None else min(RENEW_SECONDS, due_in)
                message = None
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(inbox.get(), max(0.001, wait))
                if self.game_id in renewer.lost:
                    logger.warning("online game %s: lease lost, this owner stops", self.game_id)
                    break
                if message is not None:
                    await self._handle(message)
                # What fell due runs even while inputs keep coming (a busy table must not starve
                # its timers; an input after a due timer is judged after it anyway, S38).
                due_in = self.table.wake_in(timezone.now())
                if due_in is not None and due_in <= 0 and not self.table.is_terminal():
                    await self._commit(await self.table.due(timezone.now()))
                if self.table.is_terminal():
                    await self._finish()
                    break
        except services.StaleWrite:
            logger.warning("online game %s: another owner wrote first, this one stops", self.game_id)
        except Exception:
            logger.exception("online game %s: the owner failed", self.game_id)
        finally:
            self.stopped = True
            self.ready.set()
            with contextlib.suppress(RuntimeError):  # no running loop: nothing was added
                lease_renewer().remove(self.game_id)
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

    async def _handle(self, message: dict[str, Any]) -> None:
        """Answer one input: log what it made, or refuse it to its sender only."""
        kind = message.get("type")
        seat = message.get("seat")
        reply = message.get("reply", "")
        language = message.get("language") or settings.LANGUAGE_CODE
        if kind == "game.hello":
            await self._send(reply, self.table.frame(seat))
        elif kind == "game.act":
            if seat is None:
                return await self._refuse(reply, language, Refusal("spectator", SPECTATOR))
            try:
                entries = self.table.act(
                    seat,
                    message.get("user_id"),
                    message.get("version"),
                    message.get("action") or {},
                    timezone.now(),
                )
            except Refusal as refusal:
                return await self._refuse(reply, language, refusal)
            except ActionError as error:
                return await self._refuse(reply, language, Refusal(error.code.value, error=error))
            await self._commit(entries)
        elif kind == "game.rtt" and seat is not None and type(message.get("rtt_ms")) is int:
            entries = self.table.round_trip(seat, message.get("user_id"), message["rtt_ms"], timezone.now())
            await self._commit(entries)

    async def _commit(self, entries: list[Entry]) -> None:
        """Append the entries to the log (each moves the version by one), then send every viewer
        its frame. A write that finds another owner's row raises StaleWrite: this owner stops."""
        if not entries:
            return
        for entry in entries:
            await database_sync_to_async(services.log_append)(
                game_id=self.game_id,
                seq=entry.seq,
                action=entry.action,
                sender=entry.sender,
                received_at=entry.received_at,
                events=entry.events,
                snapshot=entry.snapshot,
            )
        await self._broadcast()

    async def _finish(self) -> None:
        result = self.table.result()
        await database_sync_to_async(services.finish)(
            game_id=self.game_id, result=result.to_dict() if result is not None else {}, engine_result=result
        )
        await self._broadcast(finished=True)

    # --- frames -------------------------------------------------------------------------------

    async def _broadcast(self, finished: bool = False) -> None:
        for seat in [*range(self.game.seat_count), None]:
            frame = self.table.frame(seat, finished=finished)
            await self.layer.group_send(
                view_group(self.game_id, seat), {"type": "game.frame", "frame": frame}
            )

    async def _send(self, reply: str, frame: dict[str, Any]) -> None:
        if reply:
            await self.layer.send(reply, {"type": "game.frame", "frame": frame})

    async def _refuse(self, reply: str, language: str, refusal: Refusal) -> None:
        """An error frame to ``reply`` only: the refusal's lazy text, or the engine's translated
        message for its ActionError or ActionCode."""
        with translation.override(language):
            if refusal.message is None:
                error = refusal.error
                text = action_error_message(
                    error if isinstance(error, ActionError) else ActionError(error or ActionCode.MALFORMED)
                )
            else:
                text = str(refusal.message)
        frame = {"type": "error", "code": refusal.code, "message": text, "version": self.table.version}
        await self._send(reply, frame)


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
    # The lease is this process's (it may already have been): another socket of this process may
    # have started the owner during the awaits above (the players of a table connect at once), and
    # a second owner would answer every input again and stop the first one with a stale write.
    owner = OWNERS.get(game_id)
    if owner is not None and not owner.stopped:
        await owner.ready.wait()
        return owner
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
