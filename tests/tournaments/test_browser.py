"""End to end in headless Chromium on a phone-sized screen: the referee records, the standings follow.

Playwright drives Debian's chromium (``apt-get install chromium``; ``playwright install`` cannot
download a browser here). The live server runs in a thread of this process with Celery eager, so
the standings task runs on commit exactly as the worker would run it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from snapleague.chromium import CHROMIUM, launch
from tournaments.models import GameKind, GameResult, Player, Series, StageFormat
from tournaments.services import (
    stage_create,
    stage_rounds_generate,
    tournament_create,
    tournament_players_add,
    tournament_referee_add,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]


@pytest.fixture(scope="module", autouse=True)
def _end_live_server_sessions(django_db_blocker: Any) -> Iterator[None]:
    """On PostgreSQL with psycopg's pool, a connection of the live server's request threads outlives
    them (seen: one idle session after the browser and the threads are gone), and the test
    database could not be dropped at the end. After this module, end the other sessions of the test
    database (all of them this run's: the name is the test database's own), then close the pool,
    which still holds the ended ones, so that the next tests start from a fresh one."""
    yield
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        connections.close_all()
        if hasattr(connection, "close_pool"):
            connection.close_pool()


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls made here around it
    # are ordinary blocking calls, not calls from a coroutine.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.mark.django_db(transaction=True)
def test_the_referee_records_a_result_on_a_phone_and_the_standings_change_live(
    live_server: Any, browser: Any, club: Any, referee: Any, players: list[Player]
) -> None:
    # Given a Snap league with one table of four, paired, and no result yet.
    organiser = club.organisers.get()
    tournament = tournament_create(user=organiser, club=club, name="Phone league", game=GameKind.SNAP)
    tournament_players_add(user=organiser, tournament=tournament, players=players[:4])
    tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
    stage = stage_create(
        user=organiser, tournament=tournament, name="League", format=StageFormat.ROUND_ROBIN, options={}
    )
    stage_rounds_generate(user=organiser, stage_id=stage.pk)
    series = Series.objects.get(stage=stage)
    seated = [s.player for s in series.seats.order_by("seat")]

    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    referee_page = context.new_page()
    referee_page.goto(f"{live_server.url}/accounts/login/?next=/series/{series.pk}/record/")
    referee_page.fill("input[name=username]", "referee")
    referee_page.fill("input[name=password]", "pw-for-tests-only")
    referee_page.tap("button[type=submit]")
    referee_page.wait_for_url(re.compile(rf"^[^?]*/series/{series.pk}/record/$"))  # not ?next=

    # A second tab watches the standings; it must update without being reloaded.
    standings_page = context.new_page()
    standings_page.goto(f"{live_server.url}/stages/{stage.pk}/standings/")
    assert standings_page.locator("text=No standings yet").is_visible()
    standings_page.evaluate("window.notReloaded = true")

    # When the referee taps the players in the order they went out (the last one is left: the winner).
    for player in reversed(seated[1:]):
        referee_page.locator("button.tap", has_text=player.name).tap()
    assert referee_page.locator("#preview").inner_text().endswith(seated[0].name)
    started = time.perf_counter()
    referee_page.locator("button.submit").dblclick()  # a double tap records once
    referee_page.wait_for_url(re.compile(rf"^[^?]*/series/{series.pk}/$"))
    assert "Game 1 recorded." in referee_page.content()

    # Then the standings tab shows the new table by itself, within a couple of seconds.
    winner_row = standings_page.locator("#standings tbody tr").first
    winner_row.wait_for(state="visible", timeout=10_000)
    followed = time.perf_counter() - started
    print(f"standings followed the result in {followed:.2f}s")
    assert seated[0].name in winner_row.inner_text()
    assert standings_page.evaluate("window.notReloaded") is True
    assert "Version 1" in standings_page.locator("#standings .version").inner_text()
    assert GameResult.objects.filter(game__series=series).count() == 1
    for page in (standings_page, referee_page):
        page.goto("about:blank")  # stop polling before the server and its connections go away
    context.close()
