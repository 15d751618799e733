"""allauth's rate limits count in the cache: each test starts with none counted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _rate_limits_reset() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _mail_sent_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test runs in one transaction that never commits: the mail's task is sent at once."""
    monkeypatch.setattr("tournaments.accounts.mail.after_commit", lambda callback: callback())
