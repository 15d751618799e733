"""In Chromium, phone and desktop: "Practice against bots" from the lobby starts a game against bots
of the level pressed, the player plays it to the end screen, calling "Snap!" whenever the page shows
a match, and the end screen's link shows the reaction times of that game; "My Snap statistics" shows
the chart with her calls in it (screenshot: docs/snap-stats.png).

The clock runs at twice the speed (a one-minute game) against a beginner bot (770 ms on average, so
about 385 ms here, with a 15 % chance to miss a match): the test's calls, a frame or two after the
match shows, come first often enough that the chart is never empty."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine.snap.bots import LEVELS, BotLevel
from games.models import OnlineGame
from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tests.games.online.test_browser import DESKTOP, SHOTS

pytestmark = [
    pytest.mark.usefixtures("robot_speed"),
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


# What the page shows as a match, read as static/js/snap.js reads it: the tops of the piles still in
# play (``.pcard[data-card]``, "7H.2": rank, suit, deck copy) match on their rank in classic Snap;
# a picture deck's card (no suit letter) on its name. (tests/games/online/test_browser.py's wait
# compares whole cards, which in classic Snap only two copies of one card would ever satisfy.)
_MATCH_WAIT = """() => {
    if (!document.getElementById('ended').hidden) return 'ended';
    const t = document.getElementById('table');
    const flip = document.getElementById('flip');
    const keys = [...document.querySelectorAll('#seats .seat:not(.out) .pcard[data-card]')].map((c) => {
        const base = c.dataset.card.split('.')[0];
        return /^(10|[2-9TJQKA])[SHDC]$/.test(base) ? base.slice(0, -1) : base;
    });
    if (new Set(keys).size < keys.length && t.dataset.seq !== t.dataset.calledSeq) return 'match';
    if (!flip.disabled && !flip.hidden) return 'flip';
    return false;
}"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_practice_game_against_bots_ends_and_the_statistics_show_the_chart(  # noqa: PLR0917
    server: str, browser: Any, make_user: Any, device: dict[str, Any], settings: Any, monkeypatch: Any
) -> None:
    # The bot reacts in 3 s (its level's misses and false calls kept), so the human's calls are
    # the valid ones whatever the machine's load: under the parallel suite a loaded browser lost
    # every race to the beginner's 0.77 s and had nothing to chart (CI, phone and desktop).
    monkeypatch.setitem(LEVELS, "beginner", BotLevel("beginner", 3000, 0.15, 0.02))
    # The real clock (every time is an input, so a faster one changes nothing in the game, but it
    # halves the human's time to answer a match: with the suite in parallel workers, a loaded
    # browser lost every race to the bot at 2x and made no valid call to chart).
    settings.ONLINE_SNAP_CLOCK_SCALE = 1.0
    make_user("anna")
    name = "phone" if device is PHONE else "desktop"
    page = signed_in_page(browser, server, "anna", device, then="/play/")
    page.select_option("#practice-seats", "2")
    page.click("#practice button[value=beginner]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#seats .seat")
    presses = 0
    while True:
        what = page.wait_for_function(_MATCH_WAIT, timeout=90_000).json_value()
        if what == "ended":
            break
        try:  # the table may have moved on since the wait (a bot's call, an auto-flip)
            if what == "match":
                page.evaluate(
                    "() => { const t = document.getElementById('table'); t.dataset.calledSeq = t.dataset.seq; }"
                )
                page.keyboard.press("Space")
                if page.locator("#claims:not([hidden]) button").count():  # several claims: the first
                    page.locator("#claims button").first.click(timeout=1000)
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
    assert [s.bot_level for s in game.seats.all()] == ["", "beginner"]
    page.click("#ended a.stats-link")
    page.wait_for_url(re.compile(rf"/play/{game.pk}/stats/$"))
    page.wait_for_selector("#game-stats tr.mine")
    bars = page.locator("#reaction-chart svg rect.bar")
    assert bars.count() == 16
    # Her correct, timed calls are in the chart: some bar counts at least one.
    counts = [int(bars.nth(i).get_attribute("data-count") or "0") for i in range(16)]
    assert sum(counts) >= 1, counts
    page.goto(f"{server}/play/stats/")
    page.wait_for_selector("#reaction-chart svg")
    summary = page.locator("#snap-summary").inner_text()
    assert "/1" in summary  # one game played
    overall = page.locator("#reaction-chart svg rect.bar")
    assert sum(int(overall.nth(i).get_attribute("data-count") or "0") for i in range(overall.count())) == sum(
        counts
    )
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling
    page.screenshot(path=f"{SHOTS}/snap-stats-{name}.png", full_page=True)
    if device is DESKTOP:
        page.screenshot(path="docs/snap-stats.png", full_page=True)
