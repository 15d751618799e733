"""Deck orders as a documented function of seeds: anyone can recompute a deal.

``shuffled(cards, seed, context)`` is a Fisher–Yates shuffle driven by HMAC-SHA-256 in counter mode:

1. ``key = seed`` (bytes: online play passes the server seed joined with every seated client's seed,
   see docs/architecture.md); ``context`` names what is dealt (``b"hand:3"``), so one seed deals
   every hand of a match differently.
2. Block ``i`` (``i = 0, 1, 2 …``) of the stream is ``HMAC-SHA-256(key, context || ":" || i)`` with
   ``i`` as 8 big-endian bytes; the stream is the blocks one after another.
3. A uniform number below ``m`` reads 8 bytes of the stream as a big-endian integer ``x`` and
   rejects it while ``x >= 2**64 - (2**64 % m)`` (no modulo bias).
4. For ``i`` from ``len(cards) - 1`` down to 1: ``j`` = a uniform number below ``i + 1``; swap the
   cards at ``i`` and ``j``.

Pure: stdlib ``hmac``/``hashlib`` only, no global randomness.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

_SPAN = 1 << 64


def _stream(seed: bytes, context: bytes) -> Iterator[int]:
    """8-byte big-endian integers from HMAC-SHA-256(seed, context || b":" || counter) blocks."""
    counter = 0
    while True:
        block = hmac.new(seed, context + b":" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for at in range(0, len(block), 8):
            yield int.from_bytes(block[at : at + 8], "big")
        counter += 1


def shuffled[T](cards: Sequence[T], seed: bytes, context: bytes = b"") -> tuple[T, ...]:
    """``cards`` in the order the seed deals them (see the module doc for the algorithm)."""
    if not isinstance(seed, bytes) or not seed:
        raise ValueError("a deal needs a non-empty seed of bytes")
    order = list(cards)
    numbers = _stream(seed, context)
    for i in range(len(order) - 1, 0, -1):
        m = i + 1
        limit = _SPAN - (_SPAN % m)
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % m
        order[i], order[j] = order[j], order[i]
    return tuple(order)
