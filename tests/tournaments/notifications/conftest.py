"""allauth's rate limits count in the cache (one confirmation mail per address every few minutes):
each test starts with none counted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _rate_limits_reset() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()
