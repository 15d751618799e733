"""Headless Debian Chromium for browser tests, screenshots and the phone-flow timing script.

Playwright cannot download a browser here; it drives the system's ``/usr/bin/chromium`` with the
flags that keep it off the network and quiet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(playwright: Any) -> Any:
    """A headless Chromium browser from a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
