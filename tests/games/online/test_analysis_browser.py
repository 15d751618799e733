"""The expert's analysis in headless Chromium, phone and desktop: a Snapszer match finished against
a bot, "Analyse my decisions" on its replay, the pending panel polled by htmx until the task has
run, then the hand summaries and a note on the replay step of each decision (docs/analysis.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import analysis as web_analysis
from games.analysis import analysis_run
from games.engine.sixtysix.analysis import AnalysisBudget
from games.models import GameAnalysis
from games.online.services import table_create
from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tests.games.online.finished_games import play_snapszer
from tests.games.online.test_browser import DESKTOP, SHOTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_player_asks_for_the_analysis_and_reads_it_on_the_replay(
    server: str, browser: Any, make_user: Any, device: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_analysis, "BUDGET", AnalysisBudget(worlds=6, nodes=400))
    # The worker is this test: the request leaves the analysis pending, as a busy queue would.
    monkeypatch.setattr(web_analysis, "_enqueue", lambda game_id: None)
    anna = make_user("anna")
    game = table_create(user=anna, kind="snapszer", options={"profile": "snapszer"}, seats=2, bots=["casual"])
    play_snapszer(game, levels=("casual", "heuristic"))
    name = "phone" if device is PHONE else "desktop"
    page = signed_in_page(browser, server, "anna", device, then=f"/play/{game.pk}/replay/")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.get_by_role("button", name="Analyse my decisions").click()
    page.wait_for_url(re.compile(rf"/play/{game.pk}/replay/\?seat=0#analysis"))
    panel = page.locator("#analysis")
    assert panel.get_attribute("data-status") == "pending"
    assert "Analysing…" in panel.inner_text()
    assert GameAnalysis.objects.get(game=game).status == GameAnalysis.Status.PENDING

    analysis_run(game_id=game.pk)  # the task; the page polls every 2 s and shows the result
    page.wait_for_selector("#analysis[data-status=done]", timeout=20_000)
    assert page.locator("#analysis h3").first.inner_text() == "Hand 1"
    assert "game points given away" in page.locator("#analysis .analysis-summary").first.inner_text()
    decisions = page.locator("#analysis .analysis-decisions li[data-step]")
    assert decisions.count() > 0
    # A decision's line shows its step on the board, with the expert's note under the step's text.
    first = decisions.first
    step = first.get_attribute("data-step")
    first.locator("a").click()
    page.wait_for_function(f"() => document.getElementById('replay').dataset.step === '{step}'")
    note = page.locator("#step-analysis")
    assert note.is_visible() and note.inner_text() == first.get_attribute("data-note")
    assert note.inner_text().startswith(f"Step {step}, anna: chose ")
    page.locator("#prev").click()
    assert not note.is_visible() or page.locator(f"#analysis li[data-step='{int(step) - 1}']").count() == 1
    mistake = page.locator("#analysis li.mistake")
    if mistake.count():
        assert "game points on average" in mistake.first.inner_text()
    page.locator(f"#analysis li[data-step='{step}'] a").click()
    page.locator("#analysis").scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/analysis-{name}.png", full_page=True)
    if device is DESKTOP:
        page.screenshot(path="docs/analysis.png", full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], "the page is no wider than the screen"
    assert not errors, errors
    page.context.close()
