"""Snapszer against a bot in headless Chromium, phone and desktop: create the table in the lobby,
play the match to its end screen, its log and snapshots in the database, the deal verifiable.
Two browser contexts play each other through an invitation link."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import GameLogEntry, GameSnapshot, OnlineGame
from snapleague.chromium import CHROMIUM
from tests.tournaments.test_browser import PHONE, signed_in_page

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = "var/screenshots"


pytestmark = [
    pytest.mark.usefixtures("robot_speed"),
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _logged_in(browser: Any, server: str, username: str, device: dict[str, Any]) -> Any:
    return signed_in_page(browser, server, username, device, then="/play/")


def _play_one(page: Any) -> int | None:
    """Make one move when it is this page's turn: the number of moves made (0 or 1), None once
    the end screen shows."""
    page.wait_for_function(
        "() => !document.getElementById('ended').hidden ||"
        " document.querySelector('#hand button.legal:not(:disabled), #actions button:not([data-action=declare]):not(:disabled)')"
    )
    if page.locator("#ended").is_visible():
        return None
    # One step in the page (a view frame may re-render the table between two Playwright calls):
    # click the first legal card, else the first action that is not a declaration.
    before = page.evaluate(
        """() => {
        const el = document.querySelector('#hand button.legal:not(:disabled)') ||
                   document.querySelector('#actions button:not([data-action=declare]):not(:disabled)');
        if (!el) return null;
        const v = document.getElementById('table').dataset.version;
        el.click();
        return v;
    }"""
    )
    if before is None:  # re-rendered between the wait and the click: look again
        return 0
    try:
        page.wait_for_function(
            "v => document.getElementById('table').dataset.version !== v || !document.getElementById('ended').hidden",
            arg=before,
        )
    except Exception:
        raise AssertionError(page.locator("#status").inner_text()) from None
    return 1


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_snapszer_match_against_a_bot_is_played_to_the_end(
    server: str, browser: Any, make_user: Any, device: dict[str, Any], settings: Any
) -> None:
    make_user("anna")
    page = _logged_in(browser, server, "anna", device)
    name = "phone" if device is PHONE else "desktop"
    page.screenshot(path=f"{SHOTS}/online-lobby-{name}.png", full_page=True)
    page.select_option("#level", "random")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#hand button.pcard")
    page.screenshot(path=f"{SHOTS}/online-table-{name}.png", full_page=True)
    moves = 0
    while (made := _play_one(page)) is not None:
        moves += made
        assert moves < 400
    page.screenshot(path=f"{SHOTS}/online-ended-{name}.png", full_page=True)
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.FINISHED
    assert game.result is not None and game.result["winner"] in (0, 1)
    ended = page.locator("#ended").inner_text()
    assert ("won" in ended) == (game.result["winner"] == 0)
    # each of her taps is logged, unless the page sent it on a view already outdated (refused stale)
    assert 0 < GameLogEntry.objects.filter(game=game, user__username="anna").count() <= moves
    assert GameLogEntry.objects.filter(game=game).count() == game.version
    assert GameSnapshot.objects.filter(game=game).exists()
    page.goto(f"{server}/play/{game.pk}/verify/")
    assert page.locator("#checks").inner_text().count("✔") == 2
    page.screenshot(path=f"{SHOTS}/online-verify-{name}.png", full_page=True)


def test_two_people_play_each_other_through_an_invitation(server: str, browser: Any, make_user: Any) -> None:
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#opponent", "person")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.wait_for_selector("#hand button.pcard")
    anna.wait_for_selector("#hand button.pcard")  # her page reloads once the table has started
    for _ in range(6):  # a few moves each, whoever's turn it is
        for page in (anna, bence):
            if page.locator("#hand button.legal:not(:disabled)").count():
                _play_one(page)
    game = OnlineGame.objects.get()
    users = set(GameLogEntry.objects.filter(game=game).values_list("user__username", flat=True))
    assert users == {"anna", "bence"}


# --- Snap in real time ---------------------------------------------------------------------------

_SNAP_WAIT = """() => {
    if (!document.getElementById('ended').hidden) return 'ended';
    const flip = document.getElementById('flip');
    const t = document.getElementById('table');
    const tops = [...document.querySelectorAll('#seats .seat:not(.out) .pcard[data-card]')]
        .map((c) => c.dataset.card.split('.')[0]);
    if (new Set(tops).size < tops.length && t.dataset.seq !== t.dataset.calledSeq) return 'match';
    if (!flip.disabled && !flip.hidden) return 'flip';
    return false;
}"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_snap_game_against_three_bots_is_played_to_the_end(
    server: str, browser: Any, make_user: Any, device: dict[str, Any]
) -> None:
    """A short Snap game (the 12-card shapes deck, a 30 s time cap) at real speed against three
    expert bots: she flips when it is her turn (a tap on Flip, or F) and calls with the space bar
    when two tops match; the game ends by itself (the owner's timers, the bots) on the end screen."""
    make_user("anna")
    page = _logged_in(browser, server, "anna", device)
    name = "phone" if device is PHONE else "desktop"
    page.select_option("#snap-variant", "shapes")
    page.select_option("#snap-seats", "4")
    page.select_option("#snap-length", "30")
    page.select_option("#snap-level", "expert")
    page.click("#new-snap-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#seats .seat")
    page.wait_for_function("() => document.getElementById('table').dataset.rtt !== undefined")  # lag shown
    page.screenshot(path=f"{SHOTS}/snap-table-{name}.png", full_page=True)
    presses = {"flip": 0, "match": 0}
    deadline = 90_000
    while True:
        what = page.wait_for_function(_SNAP_WAIT, timeout=deadline).json_value()
        if what == "ended":
            break
        if what == "match":
            page.evaluate(
                "() => { const t = document.getElementById('table'); t.dataset.calledSeq = t.dataset.seq; }"
            )
            page.keyboard.press("Space")
            if page.locator("#claims:not([hidden]) button").count():
                try:  # several claims match: pick the first
                    page.locator("#claims button").first.click(timeout=1000)
                except Exception:
                    continue
        elif device is PHONE:
            try:  # the turn may have moved on since the wait (a bot's call, an auto-flip)
                page.locator("#flip").tap(timeout=1000)
            except Exception:
                continue
        else:
            page.keyboard.press("f")
        presses[what] += 1
        assert sum(presses.values()) < 300
    page.screenshot(path=f"{SHOTS}/snap-ended-{name}.png", full_page=True)
    page.wait_for_function("() => document.getElementById('table').dataset.finished === '1'")
    game = OnlineGame.objects.get()
    assert game.kind == "snap" and game.status == OnlineGame.Status.FINISHED and game.result is not None
    ended = page.locator("#ended").inner_text()
    assert ended.count("\n") >= 4 and page.locator("#ended tr").count() == 5  # a row per seat
    assert ("You won" in ended) == (game.result["winner"] == 0)
    mine = GameLogEntry.objects.filter(game=game, user__username="anna")
    assert mine.filter(action__type="flip").exists() and mine.filter(action__type="rtt").exists()
    assert presses["flip"] > 0
    assert GameLogEntry.objects.filter(game=game).count() == game.version


def test_a_snap_table_for_people_is_joined_by_link_and_filled_with_bots(
    server: str, browser: Any, make_user: Any
) -> None:
    """Anna opens a three-seat Snap table for people on her phone, Bence joins by the link on a
    desktop, and she fills the last seat with a bot: the game starts on both pages."""
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#snap-seats", "3")
    anna.select_option("#snap-opponent", "person")
    anna.click("#new-snap-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    anna.screenshot(path=f"{SHOTS}/snap-waiting-phone.png", full_page=True)
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.wait_for_url(re.compile(r"/play/\d+/$"))
    assert bence.locator("#fill-bots").count() == 0  # only the table's creator fills it
    anna.reload()
    assert "1 more player" in anna.locator("#waiting").inner_text()
    anna.select_option("#fill-level", "beginner")
    anna.click("#fill-bots")
    for page in (anna, bence):  # Bence's page reloads by itself once the table has started
        page.wait_for_function("() => document.querySelectorAll('#seats .seat').length === 3")
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.PLAYING
    assert [s.bot_level for s in game.seats.all()] == ["", "", "beginner"]
    names = anna.locator("#seats .seat-name").all_inner_texts()
    assert names[0].startswith("anna") and names[1] == "bence" and "beginner" in names[2]


def test_an_absent_players_seat_shows_its_bot_and_comes_back(
    server: str, browser: Any, make_user: Any, monkeypatch: Any
) -> None:
    """The lobby's absence option; Bence's page closes; past the timeout (the owner's clock moved
    on, no waiting) Anna's page names "bence (bot playing)"; Bence opens the table again: his seat."""
    import time

    from games.online import owner as owner_module
    from tests.games.online.test_absence import Clock

    clock = Clock()
    monkeypatch.setattr(owner_module, "CLOCK", clock)
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#opponent", "person")
    anna.fill("#absent", "10")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.wait_for_selector("#hand button.pcard")
    anna.wait_for_selector("#hand button.pcard")
    game = OnlineGame.objects.get()
    assert game.options["absent_seconds"] == 10
    table_url = bence.url
    bence.close()
    deadline = time.monotonic() + 15
    while 1 not in getattr(owner_module.OWNERS.get(game.pk), "away_since", {}):
        assert time.monotonic() < deadline, "the owner did not hear Bence leave"
        time.sleep(0.05)
    clock.forward(11)
    anna.wait_for_function(
        "() => document.getElementById('opponent').textContent.includes('bence (bot playing)')"
    )
    anna.screenshot(path=f"{SHOTS}/online-bot-playing-phone.png", full_page=True)
    again = _logged_in(browser, server, "bence", DESKTOP)
    again.goto(table_url)
    again.wait_for_selector("#hand button.pcard")
    anna.wait_for_function("() => !document.getElementById('opponent').textContent.includes('bot playing')")
    kinds = [
        a["bot"]
        for a in GameLogEntry.objects.filter(game=game, action__type="stand_in").values_list(
            "action", flat=True
        )
    ]
    assert kinds == ["casual", None]
