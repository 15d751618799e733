"""The browser fixtures of the tournament browser tests (uvicorn in a thread, headless Chromium)."""

from tests.tournaments.competitions.test_browser import browser, server  # noqa: F401
