"""In Chromium, phone and desktop: "Practice against bots" from the lobby starts a game against bots
of the level pressed, the player plays it to the end screen, and the end screen's link shows the
reaction times of that game; "My Snap statistics" shows the chart (screenshot: docs/snap-stats.png)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import OnlineGame
from snapleague.chromium import CHROMIUM
from tests.games.online.test_browser import _SNAP_WAIT, DESKTOP, SHOTS
from tests.tournaments.test_browser import PHONE, signed_in_page

pytestmark = [
    pytest.mark.usefixtures("robot_speed"),
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_practice_game_against_bots_ends_and_the_statistics_show_the_chart(
    server: str, browser: Any, make_user: Any, device: dict[str, Any], settings: Any
) -> None:
    settings.ONLINE_SNAP_CLOCK_SCALE = 6.0  # the two-minute game in 20 s (every time is an input)
    make_user("anna")
    name = "phone" if device is PHONE else "desktop"
    page = signed_in_page(browser, server, "anna", device, then="/play/")
    page.select_option("#practice-seats", "2")
    page.click("#practice button[value=expert]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#seats .seat")
    presses = 0
    while True:
        what = page.wait_for_function(_SNAP_WAIT, timeout=90_000).json_value()
        if what == "ended":
            break
        try:  # the table may have moved on since the wait (a bot's call, an auto-flip)
            if what == "match":
                page.evaluate(
                    "() => { const t = document.getElementById('table'); t.dataset.calledSeq = t.dataset.seq; }"
                )
                page.keyboard.press("Space")
            elif device is PHONE:
                page.locator("#flip").tap(timeout=1000)
            else:
                page.keyboard.press("f")
        except Exception:
            continue
        presses += 1
        assert presses < 400
    page.wait_for_function("() => document.getElementById('table').dataset.finished === '1'")
    game = OnlineGame.objects.get()
    assert [s.bot_level for s in game.seats.all()] == ["", "expert"]
    page.click("#ended a.stats-link")
    page.wait_for_url(re.compile(rf"/play/{game.pk}/stats/$"))
    page.wait_for_selector("#game-stats tr.mine")
    assert page.locator("#reaction-chart svg rect.bar").count() == 16
    page.goto(f"{server}/play/stats/")
    page.wait_for_selector("#reaction-chart svg")
    summary = page.locator("#snap-summary").inner_text()
    assert "/1" in summary  # one game played
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling
    page.screenshot(path=f"{SHOTS}/snap-stats-{name}.png", full_page=True)
    if device is DESKTOP:
        page.screenshot(path="docs/snap-stats.png", full_page=True)
