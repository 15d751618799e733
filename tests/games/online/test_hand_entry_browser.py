"""A hand played at a table, entered card by card in headless Chromium, phone and desktop: from
the lobby's link, the deal picked card by card, the play by its buttons (with an undo), saved,
its replay, and the expert's analysis asked for and shown (docs/analysis.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import analysis as web_analysis
from games.analysis import analysis_run
from games.engine.sixtysix.analysis import AnalysisBudget
from games.models import GameAnalysis, OnlineGame
from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tests.games.online.test_browser import DESKTOP, SHOTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

# tests/games/test_hand_entry.py's quick hand: seat 2 closes, shows the marriage in trumps and
# declares 66 after three tricks.
CARDS = {
    "#pick-hand_0": [
        "nine of clubs",
        "jack of clubs",
        "queen of clubs",
        "king of clubs",
        "nine of diamonds",
        "jack of diamonds",
    ],
    "#pick-hand_1": [
        "king of hearts",
        "queen of hearts",
        "ace of hearts",
        "ten of hearts",
        "ace of clubs",
        "ten of clubs",
    ],
}
PLAY = [
    ("#seat-1", "Close the stock"),
    ("#seat-1", "Show the marriage, lead the king of hearts"),
    ("#seat-0", "Play the nine of clubs"),
    ("#seat-1", "Play the ace of hearts"),
    ("#seat-0", "Play the jack of clubs"),
    ("#seat-1", "Play the ten of hearts"),
    ("#seat-0", "Play the queen of clubs"),
    ("#seat-1", "Declare 66"),
]


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_hand_is_entered_by_clicking_saved_and_analysed(
    server: str, browser: Any, make_user: Any, device: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_analysis, "BUDGET", AnalysisBudget(worlds=4, nodes=300))
    # The worker is this test: the request leaves the analysis pending, as a busy queue would.
    monkeypatch.setattr(web_analysis, "_enqueue", lambda game_id: None)
    make_user("anna")
    name = "phone" if device is PHONE else "desktop"
    page = signed_in_page(browser, server, "anna", device, then="/play/")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.get_by_role("link", name="Enter a hand played at a table").click()
    page.wait_for_url(re.compile(r"/play/hands/new/$"))
    page.get_by_label("Seat 1's name (optional)").fill("Zoli")
    page.get_by_label("Seat 2's name (optional)").fill("anna")
    page.get_by_label("seat 2", exact=True).check()
    # A card twice first: the form comes back with the field marked.
    for where, cards in CARDS.items():
        for card in cards:
            page.locator(where).get_by_label(f"the {card}", exact=True).check()
    page.locator("#trump").select_option(label="the ace of hearts")
    page.get_by_role("button", name="Start the play").click()
    assert "is chosen more than once" in page.locator("#pick-hand_1 .field-errors").inner_text()
    assert errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    errors.clear()  # the refused form's own status
    page.locator("#trump").select_option(label="the jack of hearts")
    page.get_by_role("button", name="Start the play").click()
    page.wait_for_selector("#position")
    assert "Trump: hearts" in page.locator("#position").inner_text()

    for where, button in PLAY[:3]:
        page.locator(where).get_by_role("button", name=button).click()
        page.wait_for_selector("#position")
    page.get_by_role("button", name="Undo").click()  # the nine of clubs taken back, and played again
    assert page.locator("#position").get_attribute("data-steps") == "2"
    for where, button in PLAY[2:]:
        page.locator(where).get_by_role("button", name=button).click()
        page.wait_for_selector("#position")
    assert page.locator("#position").get_attribute("data-over") == "true"
    assert "anna declares 66 with 70" in page.locator("#last-step").inner_text()
    page.screenshot(path=f"{SHOTS}/hand-entry-{name}.png", full_page=True)
    page.get_by_role("button", name="Save the hand").click()

    game = OnlineGame.objects.get(source=OnlineGame.Source.HAND)
    page.wait_for_url(re.compile(rf"/play/{game.pk}/replay/$"))
    assert "anna declares 66" in page.locator("#steps").inner_text()
    page.get_by_role("button", name="Analyse my decisions").click()
    page.wait_for_url(re.compile(rf"/play/{game.pk}/replay/\?seat=1#analysis"))
    assert GameAnalysis.objects.get(game=game).status == GameAnalysis.Status.PENDING
    analysis_run(game_id=game.pk)  # the task; the page polls every 2 s and shows the result
    page.wait_for_selector("#analysis[data-status=done]", timeout=20_000)
    assert page.locator("#analysis h3").first.inner_text() == "Hand 1"
    assert "anna:" in page.locator("#analysis .analysis-summary").first.inner_text()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], "the page is no wider than the screen"
    assert not errors, errors
    page.context.close()
