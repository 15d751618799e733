"""A player challenges someone above on the ladder, the challenged accepts, both report the score
and the ladder shows the new order, in headless Chromium on a phone and a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tournaments.models import GameKind, LadderChallenge, Player
from tournaments.rankings.ladder import services

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_challenge_from_the_ladder_to_the_new_order(  # noqa: PLR0917
    browser: Any,
    server: str,
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


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_the_organiser_records_a_challenge_and_its_result_for_two_players(
    browser: Any,
    server: str,
    organiser: Account,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    anna, bence, csilla, daniel = players[:4]
    ladder = services.ladder_create(
        user=organiser, club=anna.club, name="Ladder", game=GameKind.SNAPSZER, reach=2
    )
    for player in (anna, bence, csilla, daniel):
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)

    page = signed_in_page(browser, server, organiser.username, device, then=f"/ladders/{ladder.pk}/")
    form = page.locator("#record-challenge")
    # Dániel (4th) may not reach Anna (1st) with a reach of 2: told next to the field.
    form.get_by_label("Challenger").select_option(label=f"4. {daniel.name}")
    form.get_by_label("Challenged (above)").select_option(label=f"1. {anna.name}")
    form.get_by_role("button", name="Record a challenge").click()
    expect(page.locator("#record-challenge .field-errors")).to_contain_text("at most 2 places above them")
    assert LadderChallenge.objects.count() == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], width
    # Bence instead: recorded, and it shows under the open challenges.
    form.get_by_label("Challenged (above)").select_option(label=f"2. {bence.name}")
    form.get_by_role("button", name="Record a challenge").click()
    expect(page.get_by_text(f"Challenge recorded: {daniel.name} challenges {bence.name}.")).to_be_visible()
    open_challenges = page.locator("#open-challenges")
    expect(open_challenges).to_contain_text(f"{daniel.name} → {bence.name}")
    # The organiser records the played score for both players: Dániel wins 2-1 and takes 2nd place.
    open_challenges.get_by_label(daniel.name).fill("2")
    open_challenges.get_by_label(bence.name).fill("1")
    open_challenges.get_by_role("button", name="Record the result").click()
    expect(page.get_by_text("Score saved.")).to_be_visible()
    expect(page.locator("#ladder li").nth(1)).to_contain_text(daniel.name)
    expect(page.locator("#open-challenges")).to_have_count(0)
    challenge = LadderChallenge.objects.get()
    assert (challenge.how, challenge.challenger_wins, challenge.challenged_wins) == ("played", 2, 1)
    page.context.close()
