"""The rating plot in headless Chromium, on a phone and a desktop: drawn server-side, fits the
screen, and each point takes the reader to the series that moved it (no script on the page).

``SNAPLEAGUE_SCREENSHOTS=1`` writes the desktop shot to docs/ratings-plot.png.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from snapleague.users import Account
from tests.browser import PHONE
from tests.conftest import snapszer_win
from tests.tournaments.rankings.ratings import test_services as history
from tournaments.models import Club, GameKind, Player, Tournament

ROOT = Path(__file__).resolve().parents[4]
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _season(organiser: Account) -> tuple[Club, dict[str, Player]]:
    """Ten club days of Snapszer among six players (three series each day, won 2-0), the stronger
    players (earlier in the list) winning more often, so the plot has something to show."""
    club, players = history._club(organiser, "season")
    tournament = Tournament.objects.create(
        club=club, name="Autumn league", game=GameKind.SNAPSZER, rules_profile="snapszer"
    )
    rng = random.Random(17)
    names = history.NAMES
    for day in range(10):
        order = names[:]
        rng.shuffle(order)
        for table in range(3):
            a, b = sorted(order[2 * table : 2 * table + 2], key=names.index)
            favourite = rng.random() < 0.7
            winner, loser = (players[a], players[b]) if favourite else (players[b], players[a])
            series = history._series(tournament, day, 1, table + 1, [winner, loser])
            for number in (1, 2):
                history.record_result(
                    user=organiser,
                    series_id=series.pk,
                    game_number=number,
                    result=snapszer_win(winner, loser, rng.randint(0, 6)),
                )
    return club, players


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_rating_plot_fits_the_screen_and_links_to_what_moved_it(
    server: str,
    browser: Any,
    organiser: Account,
    device: dict[str, Any],
) -> None:
    # Given a player with ten club days of Snapszer;
    _club, players = _season(organiser)
    anna = players["Anna"]
    context = browser.new_context(**device)
    context.set_default_timeout(15_000)
    page = context.new_page()

    # When they open the player's page,
    page.goto(f"{server}/players/{anna.pk}/")
    plot = page.locator("svg.rating-plot")
    plot.wait_for()

    # Then the plot is there, one point per club day, within the screen's width;
    points = page.locator("svg.rating-plot a circle.point")
    assert points.count() == page.locator(".rating-moves > li").count() >= 5
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"]
    box = plot.bounding_box()
    assert box is not None and box["width"] <= device["viewport"]["width"]
    if device is DESKTOP and os.environ.get("SNAPLEAGUE_SCREENSHOTS"):
        page.locator("section.rating-history").screenshot(path=str(ROOT / "docs" / "ratings-plot.png"))

    # and tapping a point shows the series that moved it.
    points.nth(2).click()
    page.wait_for_function("() => location.hash === '#rating-snapszer-3'")
    moved = page.locator("#rating-snapszer-3")
    moved.wait_for()
    assert moved.locator("a[href*='/series/']").count() >= 1
    page.wait_for_function(  # scrolled into view
        "() => { const r = document.querySelector('#rating-snapszer-3').getBoundingClientRect();"
        " return r.bottom > 0 && r.top < window.innerHeight; }"
    )
    context.close()
