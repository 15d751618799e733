"""A knockout's standings page in headless Chromium on a phone and a desktop: the bracket's order
(champion, runner-up, the third-place series, then by round) and, under each name, how the player
went out (issue 23, item 2)."""

from __future__ import annotations

from typing import Any

import pytest

from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tests.tournaments.competitions.test_bracket_placings import _third_place_cup
from tournaments.models import Player

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_knockouts_standings_page_follows_the_bracket(
    browser: Any,
    server: str,
    organiser: Account,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    stage, order = _third_place_cup(organiser, players[0].club, players)
    page = signed_in_page(browser, server, organiser.username, device, then=f"/stages/{stage.pk}/standings/")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 5
    assert "Finish" in page.locator("#standings thead").inner_text()
    whys = [
        None,
        "runner-up",
        "third place: lost a semi-final",
        "lost the third-place series",
        "eliminated in round 1",
    ]
    for index, (player, why) in enumerate(zip(order, whys, strict=True)):
        row = rows.nth(index)
        assert row.locator("td.rank").inner_text() == str(index + 1)
        assert player.name in row.locator("td.name").inner_text()
        if why is not None:
            assert row.locator("small.why").inner_text() == why
            assert row.locator("td.decider").count() == 1  # the finish column marks the decider
    # Nothing wider than the screen (the phone scrolls the table inside its wrapper).
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
