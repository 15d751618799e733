"""Token values, pure: making one, its display prefix, its digest, and when it expires.

A token is ``snl_`` and 43 URL-safe characters (32 random bytes, 256 bits). Such a value cannot be
guessed, so one SHA-256 is the right storage: a slow password hash protects guessable secrets, and
would cost every API request what HTTP Basic costs (docs/api-tokens.md). The first 12 characters
(``snl_`` + 8) are stored as they are, to find the row and to show which token is which.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import date, datetime, time, timedelta, tzinfo

PREFIX = "snl_"
PREFIX_LENGTH = 12  # "snl_" and the first 8 random characters: shown, and the lookup key
TOKEN_BYTES = 32
TOKEN_PATTERN = re.compile(r"^snl_[A-Za-z0-9_-]{43}$")

# The longest life a token may be given (issue 23: at most a year).
MAX_DAYS = 365
EXPIRY_CHOICES_DAYS = (30, 90, 365)


def token_new() -> str:
    """A new raw token (shown once, never stored)."""
    return PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def token_well_formed(raw: str) -> bool:
    return bool(TOKEN_PATTERN.match(raw))


def token_prefix(raw: str) -> str:
    return raw[:PREFIX_LENGTH]


def token_digest(raw: str) -> str:
    """The SHA-256 of the token, in hex: what the database keeps."""
    return hashlib.sha256(raw.encode()).hexdigest()


def digests_match(stored: str, presented: str) -> bool:
    """Constant-time comparison, so the answer's timing tells nothing of a stored digest."""
    return secrets.compare_digest(stored.encode(), presented.encode())


def expiry_in_days(now: datetime, days: int) -> datetime:
    return now + timedelta(days=days)


def expiry_on(day: date, zone: tzinfo) -> datetime:
    """A token "until" a date works through that whole day in ``zone``: it expires at the next midnight."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)


def last_date_allowed(today: date) -> date:
    return today + timedelta(days=MAX_DAYS)
