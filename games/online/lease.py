"""The one-owner rule: a lease row per live game (docs/online.md, "Owner and lease").

A process owns a game while its lease row names it and has not expired; it renews every
``RENEW_SECONDS``; another process may take a lease only once it has expired (``LEASE_SECONDS``).
Acquiring and renewing are one conditional UPDATE each, so two processes never both succeed.
A process's owners renew through :func:`lease_renew_batched`: the renewals asked for while one
is in flight go to the database together (the owners share one database thread; one UPDATE per
game per second filled it at a few dozen games, docs/benchmarks.md "Online play").
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import weakref
from collections.abc import Collection
from datetime import timedelta

from channels.db import database_sync_to_async
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import GameLease

LEASE_SECONDS = 5.0
RENEW_SECONDS = 1.0
PROCESS_ID = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"


def lease_acquire(game_id: int, owner: str = PROCESS_ID) -> bool:
    """Take (or keep) the lease of ``game_id`` for ``owner``: True when ``owner`` now holds it."""
    now = timezone.now()
    try:
        with transaction.atomic():
            GameLease.objects.get_or_create(game_id=game_id, defaults={"owner": "", "expires_at": now})
    except IntegrityError:  # another process created it at the same moment
        pass
    taken = (
        GameLease.objects.filter(game_id=game_id)
        .filter(Q(owner=owner) | Q(expires_at__lte=now) | Q(owner=""))
        .update(owner=owner, expires_at=now + timedelta(seconds=LEASE_SECONDS))
    )
    return taken == 1


def lease_renew(game_id: int, owner: str = PROCESS_ID) -> bool:
    """Extend ``owner``'s lease; False when it is no longer ``owner``'s (it expired and was taken)."""
    now = timezone.now()
    return (
        GameLease.objects.filter(game_id=game_id, owner=owner, expires_at__gt=now).update(
            expires_at=now + timedelta(seconds=LEASE_SECONDS)
        )
        == 1
    )


def lease_release(game_id: int, owner: str = PROCESS_ID) -> None:
    GameLease.objects.filter(game_id=game_id, owner=owner).update(owner="", expires_at=timezone.now())


def lease_renew_many(game_ids: Collection[int], owner: str = PROCESS_ID) -> set[int]:
    """Extend ``owner``'s leases of ``game_ids`` at once: the ids whose lease still names ``owner``
    (the others expired and were taken by another process: their owners stop). A lease that
    expired while its renewal waited behind a busy database but that nobody took is still this
    owner's (taking it would have written another name), so it is renewed: a slow moment does not
    stop every owner of the process. The rows are locked first, so a lease cannot be taken
    between the check and the renewal."""
    now = timezone.now()
    with transaction.atomic():
        mine = set(
            GameLease.objects.select_for_update()
            .filter(game_id__in=list(game_ids), owner=owner)
            .values_list("game_id", flat=True)
        )
        if mine:
            GameLease.objects.filter(game_id__in=mine).update(
                expires_at=now + timedelta(seconds=LEASE_SECONDS)
            )
    return mine


class _Renewals:
    """One event loop's pending renewals: every renewal asked for while a batch is in the
    database waits for the next batch, which takes them all."""

    def __init__(self) -> None:
        self.waiting: dict[int, list[asyncio.Future[bool]]] = {}
        self.flushing: asyncio.Task[None] | None = None

    async def renew(self, game_id: int, owner: str) -> bool:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self.waiting.setdefault(game_id, []).append(future)
        if self.flushing is None or self.flushing.done():
            self.flushing = loop.create_task(self._flush(owner))
        return await future

    async def _flush(self, owner: str) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, {}
            try:
                renewed = await database_sync_to_async(lease_renew_many)(list(batch), owner)
            except Exception as error:  # the database is down: every owner waiting hears it
                for futures in batch.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(error)
                continue
            for game_id, futures in batch.items():
                for future in futures:
                    if not future.done():
                        future.set_result(game_id in renewed)


_RENEWALS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Renewals] = weakref.WeakKeyDictionary()


async def lease_renew_batched(game_id: int, owner: str = PROCESS_ID) -> bool:
    """:func:`lease_renew` for an owner task, batched with the other owners' renewals."""
    loop = asyncio.get_running_loop()
    renewals = _RENEWALS.get(loop)
    if renewals is None:
        renewals = _RENEWALS[loop] = _Renewals()
    return await renewals.renew(game_id, owner)
