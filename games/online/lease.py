"""The one-owner rule: a lease row per live game (docs/online.md, "Owner and lease").

A process owns a game while its lease row names it and has not expired; it renews every
``RENEW_SECONDS``; another process may take a lease only once it has expired (``LEASE_SECONDS``).
Acquiring and renewing are one conditional UPDATE each, so two processes never both succeed.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import GameLease, OnlineGame

LEASE_SECONDS = 4.0
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
