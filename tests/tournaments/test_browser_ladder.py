"""A player challenges someone above on the ladder, the challenged accepts, both report the score
and the ladder shows the new order, in headless Chromium on a phone and a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from snapleague.users import Account
from tests.tournaments.test_browser import (  # noqa: F401
    BROWSER_TEST,
    browser,
    on_phone_and_desktop,
    server,
    signed_in_page,
)
from tournaments.ladder import services
from tournaments.models import GameKind, LadderChallenge, Player

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_challenge_from_the_ladder_to_the_new_order(  # noqa: PLR0917
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
    organiser: Account,
    player_user: Account,
    make_user: Any,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    anna, bence, csilla, daniel = players[:4]
    ladder = services.ladder_create(user=organiser, club=anna.club, name="Ladder", game=GameKind.SNAPSZER)
    for player in (bence, csilla, daniel, anna):  # Anna (player_user) 4th
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)
    bence.user = make_user("bence")
    bence.save()

    page = signed_in_page(browser, server, player_user.username, device, then=f"/ladders/{ladder.pk}/")
    buttons = page.locator("#ladder button.challenge")
    expect(buttons).to_have_count(3)
    page.locator(f"#ladder li[data-player='{bence.pk}'] button.challenge").click()
    expect(page.locator(f"#ladder li[data-player='{bence.pk}'] .badge")).to_contain_text("Anna")
    expect(page.locator("#ladder button.challenge")).to_have_count(0)  # one open challenge at a time
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], width
    challenge = LadderChallenge.objects.get()

    other = signed_in_page(browser, server, "bence", device, then=f"/ladders/{ladder.pk}/mine/")
    other.click("button[value=accept]")
    expect(other.locator(".ladder-challenge")).to_contain_text("accepted")
    for reporter in (page, other):
        reporter.goto(f"{server}/ladders/{ladder.pk}/mine/")
        reporter.fill("input[name=challenger_wins]", "2")
        reporter.fill("input[name=challenged_wins]", "1")
        reporter.click("text=Report the score")
        expect(reporter.get_by_text("Score saved.")).to_be_visible()
    page.goto(f"{server}/ladders/{ladder.pk}/")
    expect(page.locator("#ladder li").first).to_contain_text("Anna")
    challenge.refresh_from_db()
    assert challenge.challenger_won
    page.context.close()
    other.context.close()
