"""Replays in headless Chromium, phone and desktop: from a finished game's end screen (a Snapszer
match against a bot, a four-seat Snap game) to its replay, stepped with the buttons, the keys and
the slider, the step kept in the address while the seat's view is switched, and "all cards"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.online.services import table_create
from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tests.games.online.finished_games import play_snap, play_snapszer
from tests.games.online.test_browser import DESKTOP, SHOTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _step(page: Any) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


def _to_replay(page: Any, server: str, game_id: int) -> int:
    """From the table's end screen to the replay (of the signed-in player's seat, 0); its last step."""
    page.goto(f"{server}/play/{game_id}/")
    page.locator("#ended .replay-link").click()
    page.wait_for_url(re.compile(rf"/play/{game_id}/replay/\?seat=0"))
    assert page.locator(".replay-seats a[aria-current=page]").get_attribute("data-viewer") == "0"
    return int(page.locator("#replay").get_attribute("data-steps")) - 1


def _step_through(page: Any, last: int) -> None:
    """The buttons, the keys and the slider move the step, the address and the highlighted line."""
    assert _step(page) == 0 and page.locator("#prev").is_disabled()
    page.locator("#next").click()
    assert _step(page) == 1 and "step=1" in page.url
    assert page.locator("#steps li.current").get_attribute("data-step") == "1"
    assert page.locator("#now").inner_text() == page.locator("#step-1").inner_text()
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    assert _step(page) == 3
    page.locator("body").press("ArrowLeft")
    assert _step(page) == 2
    page.locator("#last").click()
    assert _step(page) == last and page.locator("#next").is_disabled()
    page.locator("#slider").fill(str(last // 2))
    assert _step(page) == last // 2 and f"step={last // 2}" in page.url
    page.locator("#first").click()
    assert _step(page) == 0
    page.locator(f"#step-{last} a").click()  # a line of the list is a link to its step
    assert _step(page) == last


def _switch(page: Any, viewer: str) -> None:
    """Another seat's view keeps the step shown."""
    at = _step(page)
    page.locator(f".replay-seats a[data-viewer='{viewer}']").click()
    page.wait_for_url(re.compile(rf"seat={viewer}&step={at}$"))
    assert _step(page) == at
    assert page.locator(".replay-seats a[aria-current=page]").get_attribute("data-viewer") == viewer


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_replays_of_a_snapszer_match_and_a_snap_game_step_through_every_view(
    server: str, browser: Any, make_user: Any, device: dict[str, Any]
) -> None:
    anna = make_user("anna")
    snapszer = table_create(
        user=anna, kind="snapszer", options={"profile": "snapszer"}, seats=2, bots=["casual"]
    )
    play_snapszer(snapszer)
    snap = table_create(
        user=anna,
        kind="snap",
        options={"profile": "classic", "max_game_seconds": 30},
        seats=4,
        bots=["casual"] * 3,
    )
    play_snap(snap, seed=3)
    name = "phone" if device is PHONE else "desktop"
    page = signed_in_page(browser, server, "anna", device, then="/play/")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    # Snapszer: anna's hand face up, the bot's counted; "all cards" shows both hands and the stock.
    last = _to_replay(page, server, snapszer.pk)
    dealt = page.locator("#board .seat-0 .pcard").count()  # anna's dealt hand
    assert dealt >= 5 and page.locator("#board .seat-1 .backs i").count() == dealt
    assert page.locator("#board .seat-1 .pcard").count() == 0
    _step_through(page, last)
    assert "wins the match" in page.locator("#now").inner_text()
    page.locator("#first").click()
    _switch(page, "all")
    assert page.locator("#board .seat-0 .pcard").count() == dealt
    assert page.locator("#board .seat-1 .pcard").count() == dealt
    assert page.locator("#board .stock-cards .pcard").count() > 0
    page.screenshot(path=f"{SHOTS}/replay-snapszer-{name}.png", full_page=True)
    _switch(page, "1")

    # Snap: every seat's pile; "all cards" lists the face-down piles.
    last = _to_replay(page, server, snap.pk)
    assert page.locator("#board .seat").count() == 4
    _step_through(page, last)
    page.locator("#first").click()
    page.locator("body").press("ArrowRight")
    _switch(page, "all")
    assert page.locator("#board .facedown .pcard").count() > 0
    _switch(page, "2")
    assert page.locator("#board .facedown").count() == 0
    page.locator("#last").click()
    current = page.locator("#steps li.current")
    assert current.get_attribute("data-step") == str(last)
    assert page.evaluate(
        "() => { const l = document.getElementById('steps').getBoundingClientRect(),"
        " c = document.querySelector('#steps li.current').getBoundingClientRect();"
        " return c.top >= l.top && c.bottom <= l.bottom + 1; }"
    ), "the list scrolls to the current step"
    page.screenshot(path=f"{SHOTS}/replay-snap-{name}.png", full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], "the page is no wider than the screen"
    assert not errors, errors
    page.context.close()
