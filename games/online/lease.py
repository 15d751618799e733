"""The one-owner rule: a lease row per live game (docs/online.md, "Owner and lease").

A process owns a game while its lease row names it and has not expired; it renews every
``RENEW_SECONDS``; another process may take a lease only once it has expired (``LEASE_SECONDS``).
Acquiring and renewing are one conditional UPDATE each, so two processes never both succeed.
A process renews all its owners' leases together (:class:`LeaseRenewer`, one transaction every
``RENEW_SECONDS``): the owners share one database thread, and one UPDATE per game per second,
awaited by each owner, filled it at a few dozen games (docs/benchmarks.md "Online play").
"""

from __future__ import annotations

import asyncio
import logging
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

from games.models import GameLease, OnlineGame

logger = logging.getLogger(__name__)

LEASE_SECONDS = 4.0  # a dead owner's games move on within 10 s (the sweeper: docs/online.md)
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


def lease_expires_in(game_id: int) -> float:
    """Seconds until ``game_id``'s lease expires (0 when it has or there is none): until then its
    holder is alive, and another process need not ask again (owner.py's ``owner_ensure``)."""
    expires = GameLease.objects.filter(game_id=game_id).values_list("expires_at", flat=True).first()
    if expires is None:
        return 0.0
    return max(0.0, min(LEASE_SECONDS, (expires - timezone.now()).total_seconds()))


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


def leases_expired() -> list[int]:
    """Live games that had an owner whose lease has expired or was released (its process died or
    stopped): the sweeper takes them over. A game never opened has no lease and waits for its
    first page (Snap's clock starts then)."""
    now = timezone.now()
    return list(
        GameLease.objects.filter(game__status=OnlineGame.Status.PLAYING)
        .filter(Q(expires_at__lte=now) | Q(owner=""))
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )


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
            .order_by("game_id")  # locked in one order by every process: no deadlock
            .values_list("game_id", flat=True)
        )
        if mine:
            GameLease.objects.filter(game_id__in=mine).update(
                expires_at=now + timedelta(seconds=LEASE_SECONDS)
            )
    return mine


class LeaseRenewer:
    """One event loop's owners' leases, renewed together by one task every ``RENEW_SECONDS`` (one
    transaction for all of them); an owner whose lease another process took finds its game in
    ``lost`` and stops. The owners never wait for a renewal: their inputs do not queue behind it."""

    def __init__(self) -> None:
        self.games: set[int] = set()
        self.lost: set[int] = set()
        self.task: asyncio.Task[None] | None = None

    def add(self, game_id: int) -> None:
        self.games.add(game_id)
        self.lost.discard(game_id)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def remove(self, game_id: int) -> None:
        self.games.discard(game_id)

    async def renew(self, owner: str = PROCESS_ID) -> None:
        games = sorted(self.games)
        if games:
            renewed = await database_sync_to_async(lease_renew_many)(games, owner)
            self.lost |= set(games) - renewed

    async def _run(self) -> None:
        while self.games:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew()
            except Exception:  # the database is down: the leases may expire, and be taken
                logger.exception("online play: renewing %s leases failed", len(self.games))


_RENEWERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LeaseRenewer] = weakref.WeakKeyDictionary()


def lease_renewer() -> LeaseRenewer:
    """The running event loop's renewer (tests run several loops, one after another)."""
    loop = asyncio.get_running_loop()
    renewer = _RENEWERS.get(loop)
    if renewer is None:
        renewer = _RENEWERS[loop] = LeaseRenewer()
    return renewer
