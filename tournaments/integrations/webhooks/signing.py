"""The ``Snapleague-Signature`` header (pure: no Django, no clock of its own).

    Snapleague-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)>

The signed text is the timestamp, a full stop and the body's exact bytes, so a receiver checks
both that the body is ours and that it is fresh (``tolerance``: a replayed old request fails).
The same scheme as Stripe's, so receivers' existing code fits. docs/webhooks.md shows how to check
it in a few lines.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

HEADER = "Snapleague-Signature"
SCHEME = "v1"
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh endpoint secret: 32 random bytes, URL-safe, with a recognisable prefix."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA-256 of ``"<timestamp>." + body`` under ``secret`` (its UTF-8 bytes)."""
    signed = str(int(timestamp)).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    """The header's value: ``t=<timestamp>,v1=<signature>``."""
    return f"t={int(timestamp)},{SCHEME}={signature(secret, timestamp, body)}"


def verify(secret: str, header: str, body: bytes, *, now: int, tolerance: int = 300) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` and its timestamp is within ``tolerance``
    seconds of ``now``. Any ``v1`` value may match (room for signing with two secrets at once)."""
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, _sep, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == SCHEME:
            candidates.append(value)
    if timestamp is None or not candidates or abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)
