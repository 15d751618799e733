"""In headless Chromium, on a phone and a desktop: the organiser creates a stage over some of the
tournament's players (unchecking the others), "Verify this draw" shows only the commitment, the
first round is published, and the page then shows the seed, the draw's input, the seeding order and
the same order recomputed from the seed, with both checks passed."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tests.tournaments.competitions.formats.checker import documented_draw
from tournaments.competitions.services import tournament_create, tournament_players_add
from tournaments.models import GameKind, Player, Stage

pytestmark = BROWSER_TEST


def _listed(page: Any, list_id: str) -> list[int]:
    return [
        int(x) for x in page.locator(f"#{list_id} li").evaluate_all("els => els.map(e => e.dataset.player)")
    ]


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_the_organiser_picks_the_players_and_anyone_can_verify_the_draw(
    server: str,
    browser: Any,
    club: Any,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    organiser = club.organisers.get()
    tournament = tournament_create(user=organiser, club=club, name="Cup", game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players[:7])
    page = signed_in_page(browser, server, organiser.username, device, then=f"/tournaments/{tournament.pk}/")

    # Every player is listed, checked; two are unchecked.
    form = page.locator("form[data-stage-form]")
    boxes = form.locator("input[name=players]")
    assert boxes.count() == 7
    assert all(boxes.nth(i).is_checked() for i in range(7))
    left_out = {players[1].pk, players[5].pk}
    for pk in left_out:
        form.locator(f"input[name=players][value='{pk}']").uncheck()
    form.locator("input[name=format][value=single_elimination]").check()
    form.locator("input[name=name]").fill("Knockout")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Preview the first round")
    stage = Stage.objects.get(tournament=tournament)
    chosen = [p.pk for p in players[:7] if p.pk not in left_out]
    assert sorted(stage.players) == sorted(chosen)

    # Before round 1: the commitment only.
    page.goto(f"{server}/stages/{stage.pk}/")
    page.click("#verify-draw")
    page.wait_for_selector("#draw-commitment")
    assert page.locator("#draw-commitment").inner_text() == stage.seed_commitment
    assert stage.seed not in page.content()
    assert page.locator("#draw-not-yet").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Round 1 published: the seed, the lists, both checks.
    page.goto(f"{server}/stages/{stage.pk}/preview/")
    page.click("button:has-text('Publish')")
    page.wait_for_selector(".bracket-scroll svg")
    page.click("#verify-draw")
    page.wait_for_selector("#draw-checks")
    seed = page.locator("#draw-seed").inner_text()
    assert hashlib.sha256(seed.encode()).hexdigest() == page.locator("#draw-commitment").inner_text()
    assert "✔ the seed matches the commitment" in page.locator("#draw-checks").inner_text()
    assert "✔ the seeding order is the draw of this seed" in page.locator("#draw-checks").inner_text()
    given, seeding = _listed(page, "draw-input"), _listed(page, "draw-seeding")
    assert sorted(given) == sorted(chosen) and not left_out & set(given)
    assert _listed(page, "draw-recomputed") == seeding == documented_draw()(seed, given)
    stage.refresh_from_db()
    assert seeding == stage.seeding
    assert page.locator("#draw-seed").is_visible() and page.locator("#draw-algorithm").is_visible()
    # The 64-digit seed and commitment wrap: nothing is wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.context.close()
