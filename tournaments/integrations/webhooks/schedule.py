"""When a failed delivery is tried again (pure: the caller passes the random source).

Exponential backoff with "equal jitter": the n-th wait is ``min(cap, base * 2**(n-1))``, of which
the first half is fixed and the second half random. The fixed half keeps retries from coming
back at once after an outage; the random half spreads the deliveries that failed together.
"""

from __future__ import annotations

import random


def retry_delay(attempt: int, *, base: float, cap: float, rng: random.Random) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1 for the first): between half
    and all of ``min(cap, base * 2**(attempt - 1))``."""
    if attempt < 1:
        raise ValueError(f"attempt numbers start at 1, not {attempt}")
    ceiling = min(cap, base * 2.0 ** min(attempt - 1, 62))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


def retry_bounds(attempt: int, *, base: float, cap: float) -> tuple[float, float]:
    """The least and the most :func:`retry_delay` waits after ``attempt`` (for docs and tests)."""
    ceiling = min(cap, base * 2.0 ** min(attempt - 1, 62))
    return ceiling / 2, ceiling
