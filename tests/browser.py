"""What every browser test shares (a pytest plugin, registered in tests/conftest.py): the devices,
the marks of a browser test module, and the ``browser`` and ``server`` fixtures.

Playwright drives Debian's chromium (``apt-get install chromium``; ``playwright install`` cannot
download a browser here). The server is uvicorn, as ``bin/run`` starts it, serving
``snapleague.asgi.application`` (pages and websockets) in a thread of this process, so it sees the
test database. One Chromium per test process (``_chromium`` in tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections

from snapleague.asgi import application
from snapleague.chromium import CHROMIUM

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# A browser test module's marks (``pytestmark = BROWSER_TEST``) and its test on both devices.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
on_phone_and_desktop = pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])


@pytest.fixture
def browser(
    _chromium: tuple[Any, asyncio.AbstractEventLoop], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """The worker's Chromium (``_chromium``), for one test: the contexts and pages the test opens
    are closed after it, so the next test starts with no cookies, storage or pages of this one."""
    chromium, loop = _chromium
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here around it
    # are ordinary blocking calls, not calls from a coroutine.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # The test runs on in Playwright's greenlet, whose context can still hold the connection
    # of an earlier browser test module: start afresh.
    # (Not on SQLite, where the in-memory test database lives in the connection.)
    if connections["default"].vendor == "postgresql":
        connections.close_all()
    asyncio._set_running_loop(loop)
    try:
        assert chromium.is_connected(), "the worker's Chromium has gone (see the earlier browser test)"
        yield chromium
    finally:
        try:
            for context in chromium.contexts:
                context.close()
        finally:
            asyncio._set_running_loop(None)


@pytest.fixture
def server(_end_live_server_sessions: None, one_connection_for_all_threads: None) -> Iterator[str]:
    """uvicorn serving the whole ASGI application (and static files) on a free port, in a thread;
    yields its base URL. pytest-django's ``live_server`` is WSGI: it cannot serve websockets."""
    with serving() as base:
        yield base


@contextmanager
def serving() -> Iterator[str]:
    """``server`` for any scope: a module that shares one world between its tests serves it once."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(ASGIStaticFilesHandler(application), lifespan="off", log_level="warning")
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uvicorn_server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=15)
        listening.close()


def signed_in_page(browser: Any, server: str, username: str, device: dict[str, Any], then: str = "/") -> Any:
    """A page of a new browser context of ``device``, signed in as ``username`` through the login
    page and sent on to ``then`` (the tests' accounts share one password)."""
    context = browser.new_context(**device)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{server}/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(re.escape(then) + "$"))
    return page
