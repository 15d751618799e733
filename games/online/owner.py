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
import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionCode, ActionError
from games.engine_messages import action_error_message
from games.models import OnlineGame
from games.online import services
from games.online.groups import frame_key, frame_text, owner_group, view_group
from games.online.kinds import online_for
from games.online.lease import (
    RENEW_SECONDS,
    lease_acquire,
    lease_expires_in,
    lease_release,
    lease_renewer,
    leases_expired,
)
from games.online.series import series_game_deal_overdue, series_games_overdue
from games.online.tables import Entry, LiveTable, Refusal, log_writer, view_frame
from games.ports import tournament_port

__all__ = [
    "OWNERS",
    "GameOwner",
    "owner_ensure",
    "owners_stop",
    "sweeper_start",
    "view_frame",
]

logger = logging.getLogger(__name__)

SPECTATOR = _("You are watching this game: only its players can play.")
GAME_OVER = _("This game is over: no more moves can be played.")


OWNERS: dict[int, GameOwner] = {}
# Games whose live owner is in another process: until when (time.monotonic) its lease holds.
ELSEWHERE: dict[int, float] = {}

# The owner's clock (every time it puts into an input, and the absence timeout): tests replace it.
CLOCK: Callable[[], datetime] = timezone.now

# Presence (docs/online.md "Absent players"): each seated socket says "here" on connect, every
# HEARTBEAT_SECONDS and when a new owner asks (``game.who``), and "gone" when it closes. A socket
# not heard from for PRESENCE_STALE_SECONDS is gone (its process died without saying so).
HEARTBEAT_SECONDS = 5.0
PRESENCE_STALE_SECONDS = 3 * HEARTBEAT_SECONDS


def now() -> datetime:
    return CLOCK()


class GameOwner:
    def __init__(self, game_id: int, *, announce: bool = False) -> None:
        self.game_id = game_id
        self.announce = announce  # a takeover with no input: send every viewer the current frame
        self.layer = get_channel_layer()
        self.ready = asyncio.Event()
        self.stopped = False
        self.task: asyncio.Task[None] | None = None
        # seat -> {socket's reply channel: when last heard (time.monotonic: liveness is real time)};
        # seat -> since when nobody is there (the owner's clock: the absence timeout)
        self.sockets: dict[int, dict[str, float]] = {}
        self.away_since: dict[int, datetime] = {}
        # Seats told "your move" in their present absence, and how many times each was told.
        self.told: set[int] = set()
        self.times_told: dict[int, int] = {}
        self.seat_names: dict[int, str] = {}

    async def _load(self) -> None:
        def load() -> tuple[OnlineGame, LiveTable, dict[int, int], str, float]:
            game = OnlineGame.objects.get(pk=self.game_id)
            seats = list(game.seats.select_related("user"))
            humans = {s.number: s.user_id for s in seats if s.user_id is not None}
            self.seat_names = {
                s.number: s.user.get_username() if s.user is not None else f"bot ({s.bot_level})"
                for s in seats
                if not s.is_empty
            }
            levels = sorted((s.number, s.bot_level) for s in seats if s.bot_level)
            online = online_for(game.kind)
            # A stand-in plays at the table's chosen level (its bots'), or the game's default.
            level = levels[0][1] if levels else online.default_level
            return game, online.load(game), humans, level, services.absent_seconds_of(game)

        (
            self.game,
            self.table,
            self.humans,
            self.stand_in_level,
            self.absent_seconds,
        ) = await database_sync_to_async(load)()
        started = now()
        # Nobody has said "here" to this owner yet: every person's clock starts now (a takeover
        # gives the absent a new allowance; the sockets still open answer ``game.who`` at once).
        self.away_since = dict.fromkeys(self.humans, started)

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
            await self._ask_who()
            while not self.stopped:
                # Sleep until an input, the table's next deadline (a bot's move; Snap's timers), the
                # next absence timeout or a look at the lease, whichever comes first.
                due_in = self.table.wake_in(now())
                absent_in = self._absent_in(now())
                if absent_in is not None:
                    due_in = absent_in if due_in is None else min(due_in, absent_in)
                wait = RENEW_SECONDS if due_in is None else min(RENEW_SECONDS, due_in)
                message = None
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(inbox.get(), max(0.001, wait))
                if self.game_id in renewer.lost:
                    logger.warning("online game %s: lease lost, this owner stops", self.game_id)
                    break
                if message is not None:
                    await self._handle(message)
                if await self._absences():
                    await self._answer_after_end(inbox)
                    break  # a tournament game abandoned: its end is stored
                # What fell due runs even while inputs keep coming (a busy table must not starve
                # its timers; an input after a due timer is judged after it anyway, S38).
                due_in = self.table.wake_in(now())
                if due_in is not None and due_in <= 0 and not self.table.is_terminal():
                    await self._commit(await self.table.due(now()))
                if self.table.is_terminal():
                    await self._finish()
                    await self._answer_after_end(inbox)
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
        if seat in self.humans and reply:
            # Any word from a seated socket says it is here (a hello, an act, a round trip, a
            # heartbeat); "gone" says it closed.
            if kind == "game.presence" and not message.get("here"):
                self.sockets.get(seat, {}).pop(reply, None)
            else:
                self.sockets.setdefault(seat, {})[reply] = time.monotonic()
            await self._presence_changed(seat, message.get("user_id"))
        if kind == "game.presence":
            return None
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
                    now(),
                )
            except Refusal as refusal:
                return await self._refuse(reply, language, refusal)
            except ActionError as error:
                return await self._refuse(reply, language, Refusal(error.code.value, error=error))
            await self._commit(entries)
        elif kind == "game.rtt" and seat is not None and type(message.get("rtt_ms")) is int:
            entries = self.table.round_trip(seat, message.get("user_id"), message["rtt_ms"], now())
            await self._commit(entries)

    async def _answer_after_end(self, inbox: asyncio.Queue[dict[str, Any]]) -> None:
        """The game has ended: an act that was waiting behind the last one is answered with an
        error (its sender learns it was not played), not left without an answer."""
        while not inbox.empty():
            message = inbox.get_nowait()
            if message.get("type") == "game.act":
                language = message.get("language") or settings.LANGUAGE_CODE
                await self._refuse(message.get("reply", ""), language, Refusal("finished", GAME_OVER))

    # --- presence and absence (docs/online.md "Absent players") --------------------------------

    async def _ask_who(self) -> None:
        """A new owner asks every seat's open sockets to say they are here (and after a takeover
        by the sweeper shows them where the game is: a page waiting on a dead owner plays on)."""
        if self.announce:
            await self._broadcast()
        if self.humans:
            await self.layer.group_send(view_group(self.game_id), {"type": "game.who"})

    def _here(self, seat: int) -> bool:
        sockets = self.sockets.get(seat, {})
        for channel, heard in list(sockets.items()):
            if time.monotonic() - heard > PRESENCE_STALE_SECONDS:
                del sockets[channel]  # its process died without a word: away from now
        return bool(sockets)

    async def _presence_changed(self, seat: int, user_id: int | None) -> None:
        at = now()
        if self._here(seat):
            self.away_since.pop(seat, None)
            self.told.discard(seat)
            if seat in self.table.seating.stand_ins and not self.table.is_terminal():
                # The player is back: the seat is theirs again (logged, like the stand-in).
                await self._commit(self.table.stand_in(seat, None, services.Sender(seat, user_id), at))
        else:
            self.away_since.setdefault(seat, at)

    def _absent_in(self, at: datetime) -> float | None:
        """Seconds until the next seat's absence times out (None: nobody is away)."""
        due = [
            self.absent_seconds - (at - since).total_seconds()
            for seat, since in self.away_since.items()
            if seat not in self.table.seating.stand_ins
        ]
        return max(0.0, min(due)) if due else None

    async def _absences(self) -> bool:
        """Seats away longer than ``absent_seconds``: a bot stands in (casual), or the game is
        abandoned and the absent forfeit (a tournament series game). True when the game ended."""
        at = now()
        for seat in list(self.humans):
            if not self._here(seat):
                self.away_since.setdefault(seat, at)
        timed_out = [
            seat
            for seat, since in sorted(self.away_since.items())
            if seat not in self.table.seating.stand_ins
            and (at - since).total_seconds() >= self.absent_seconds
        ]
        if not timed_out or self.table.is_terminal():
            return False
        if self.game.series_id is not None:
            # A no-show is a forfeit: every seat away at this moment (all of them: a double forfeit).
            away = sorted(self.away_since)
            await self._commit([self.table.abandon(away, at)])
            await database_sync_to_async(services.abandon)(game_id=self.game_id, seats=away)
            await self._broadcast(finished=True)
            return True
        for seat in timed_out:
            logger.info(
                "online game %s: seat %s is away, a %s bot stands in", self.game_id, seat, self.stand_in_level
            )
            await self._commit(self.table.stand_in(seat, self.stand_in_level, services.Sender(None), at))
        return False

    async def _commit(self, entries: list[Entry]) -> None:
        """Append the entries to the log (each moves the version by one), then send every viewer
        its frame. A write that finds another owner's row raises StaleWrite: this owner stops."""
        if not entries:
            return
        await log_writer().append(self.game_id, entries)
        await self._broadcast()
        await self._tell_to_move()

    async def _tell_to_move(self) -> None:
        """A person away from the table whose move it is hears of it (a notification: in-app,
        e-mail, push by their choice), once per absence: being back re-arms it."""
        waiting = [
            seat
            for seat in self.table.waiting_for(self.humans)
            if seat not in self.told and not self._here(seat)
        ]
        for seat in waiting:
            self.told.add(seat)
            self.times_told[seat] = turn = self.times_told.get(seat, 0) + 1
            opponents = [name for number, name in sorted(self.seat_names.items()) if number != seat]
            try:
                await database_sync_to_async(tournament_port().player_to_move)(
                    user_id=self.humans[seat], game_id=self.game_id, turn=turn, opponents=opponents
                )
            except Exception:  # telling must never stop the game
                logger.exception(
                    "online game %s: could not tell seat %s it is their move", self.game_id, seat
                )

    async def _finish(self) -> None:
        result = self.table.result()
        await database_sync_to_async(services.finish)(
            game_id=self.game_id, result=result.to_dict() if result is not None else {}, engine_result=result
        )
        await self._broadcast(finished=True)

    # --- frames -------------------------------------------------------------------------------

    async def _broadcast(self, finished: bool = False) -> None:
        """Every viewer's frame in one message to the game's sockets (one publish per change on
        Redis, not one per seat: online load benchmark, docs/benchmarks.md "Online play"); each
        socket forwards only its own viewer's frame (consumers.py ``game_frames``), encoded here once."""
        frames = {
            frame_key(seat): frame_text(self.table.frame(seat, finished=finished))
            for seat in [*range(self.game.seat_count), None]
        }
        await self.layer.group_send(view_group(self.game_id), {"type": "game.frames", "frames": frames})

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
                    error if isinstance(error, ActionError) else ActionError(error or ActionCode.MALFORMED),
                    self.game.kind,
                )
            else:
                text = str(refusal.message)
        frame = {"type": "error", "code": refusal.code, "message": text, "version": self.table.version}
        await self._send(reply, frame)


async def owner_ensure(game_id: int, *, announce: bool = False) -> GameOwner | None:
    """This process's owner of ``game_id``, started if the lease is free (or expired); None when a
    live owner elsewhere holds it (inputs reach it over the channel layer)."""
    owner = OWNERS.get(game_id)
    if owner is not None and not owner.stopped:
        await owner.ready.wait()
        return owner
    if ELSEWHERE.get(game_id, 0.0) > time.monotonic():
        return None  # a live owner in another process holds the lease: no need to ask again yet
    status = await database_sync_to_async(
        lambda: OnlineGame.objects.filter(pk=game_id).values_list("status", flat=True).first()
    )()
    if status != OnlineGame.Status.PLAYING:
        return None
    if not await database_sync_to_async(lease_acquire)(game_id):
        # Held by a live owner elsewhere until its lease expires (renewed every second while it
        # lives): this process's sockets send there without asking the database on every input.
        # Once it has expired, the next input asks again and takes the game over if it is dead.
        ELSEWHERE[game_id] = time.monotonic() + await database_sync_to_async(lease_expires_in)(game_id)
        return None
    ELSEWHERE.pop(game_id, None)
    # The lease is this process's (it may already have been): another socket of this process may
    # have started the owner during the awaits above (the players of a table connect at once), and
    # a second owner would answer every input again and stop the first one with a stale write.
    owner = OWNERS.get(game_id)
    if owner is not None and not owner.stopped:
        await owner.ready.wait()
        return owner
    owner = GameOwner(game_id, announce=announce)
    OWNERS[game_id] = owner
    owner.task = asyncio.get_running_loop().create_task(owner.run())
    await owner.ready.wait()
    return owner if not owner.stopped else None


async def owners_stop() -> None:
    """Stop every owner of this process (tests, and a process shutting down): their leases are
    released; another process takes the games over on their next input."""
    ELSEWHERE.clear()
    for owner in list(OWNERS.values()):
        owner.stopped = True
        if owner.task is not None:
            owner.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await owner.task


# --- the sweeper: a dead owner's games continue with no input ------------------------------------

SWEEP_SECONDS = 2.0


async def sweep_once() -> list[int]:
    """Take over every live game whose lease expired (its owner's process died): this process
    starts an owner from snapshot + log; and deal the series games whose players did not all
    press "Play" in time. Two sweepers racing for a game: the lease's conditional
    UPDATE makes one winner. Returns the games this call started."""
    started = []
    # A series game whose players have not all pressed "Play" in time is dealt, and its owner
    # started here: the missing players are absent at the table (docs/online.md "Absent players").
    at = now()
    for game_id in await database_sync_to_async(series_games_overdue)(at):
        dealt = await database_sync_to_async(series_game_deal_overdue)(game_id, at)
        if dealt and await owner_ensure(game_id, announce=True) is not None:
            started.append(game_id)
    for game_id in await database_sync_to_async(leases_expired)():
        if game_id in OWNERS and not OWNERS[game_id].stopped:
            continue
        if await owner_ensure(game_id, announce=True) is not None:
            logger.info("online game %s: taken over by the sweeper", game_id)
            started.append(game_id)
    return started


async def _sweep_forever(every: float) -> None:
    while True:
        # Jitter: the processes' sweeps drift apart instead of all asking at the same moment.
        await asyncio.sleep(every * random.uniform(0.75, 1.25))
        try:
            await sweep_once()
        except Exception:  # a database hiccup: try again next round
            logger.exception("the lease sweeper failed; it tries again")


SWEEPER: list[asyncio.Task[None]] = []


def sweeper_start() -> asyncio.Task[None] | None:
    """Start this process's sweeper once (the ASGI lifespan's startup, snapleague/asgi.py), every
    ``ONLINE_SWEEP_SECONDS`` (2 by default; 0 turns it off)."""
    every = float(getattr(settings, "ONLINE_SWEEP_SECONDS", SWEEP_SECONDS))
    if every <= 0:
        return None
    if SWEEPER and not SWEEPER[0].done():
        return SWEEPER[0]
    SWEEPER[:] = [asyncio.get_running_loop().create_task(_sweep_forever(every))]
    return SWEEPER[0]


async def sweeper_stop() -> None:
    for task in SWEEPER:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    SWEEPER.clear()
