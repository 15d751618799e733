"""An organiser creates a season (a wrong date first: the error shows next to the field) and reads
its table, in headless Chromium on a phone and a desktop."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tests.tournaments.rankings.seasons_world import played_tournament
from tournaments.models import Player, Season

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_an_organiser_creates_a_season_and_reads_its_table(
    browser: Any,
    server: str,
    organiser: Account,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    anna, bence, csilla, daniel = players[:4]
    club = anna.club
    for name, day, order in [
        ("January Cup", datetime.date(2027, 1, 10), [anna, bence, csilla, daniel]),
        ("February Cup", datetime.date(2027, 2, 10), [bence, csilla, anna, daniel]),
    ]:
        played_tournament(organiser=organiser, name=name, day=day, order=order)

    page = signed_in_page(browser, server, organiser.username, device, then=f"/clubs/{club.slug}/")
    page.click("#club-seasons")
    page.wait_for_url(re.compile(r"/seasons/$"))
    page.click("text=New season")
    page.wait_for_selector("#season-form")
    page.fill("input[name=name]", "Spring 2027")
    page.fill("input[name=starts_on]", "2027-06-30")
    page.fill("input[name=ends_on]", "2027-01-01")
    page.fill("input[name=best_results]", "2")
    page.click("#season-form button[type=submit]")
    error = page.wait_for_selector(".field.has-error .field-errors")
    assert "cannot end before it starts" in error.inner_text()
    assert not Season.objects.exists()

    page.fill("input[name=starts_on]", "2027-01-01")
    page.fill("input[name=ends_on]", "2027-06-30")
    page.click("#season-form button[type=submit]")
    page.wait_for_selector("#season-table")
    season = Season.objects.get()
    assert season.best_results == 2
    rows = page.locator("#season-table tbody tr")
    assert rows.count() == 4
    # Anna 25 + 15, Bence 18 + 25, Csilla 15 + 18, Dániel 12 + 12.
    first = rows.nth(0).inner_text()
    assert "Bence" in first and "43" in first
    assert "Dániel" in rows.nth(3).inner_text()
    # The table scrolls inside its frame: the page itself is no wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], width
    page.context.close()
