"""Players report, opponents confirm, on two phones (issue 26, "Done when"): Anna reports the
deciding game; Bence sees the notification, opens it and confirms with one tap; the standings move.
Then the same with Bence disputing with his own version and a referee deciding from the queue."""

from __future__ import annotations

import re
from typing import Any

import pytest

from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.services import tournament_create, tournament_players_enter
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Club, GameKind, GameResult, Player, ResultMode, Series

pytestmark = [*BROWSER_TEST, pytest.mark.django_db(transaction=True)]


def _duel(
    club: Club, organiser: Account, anna_user: Account, bence_user: Account, referee: Account
) -> Series:
    tournament = tournament_create(user=organiser, club=club, name="Friday Snapszer", game=GameKind.SNAPSZER)
    tournament.result_mode = ResultMode.CONFIRM
    tournament.save()
    tournament.referees.add(referee)
    anna = Player.objects.create(club=club, name="Anna", user=anna_user)
    bence = Player.objects.create(club=club, name="Bence", user=bence_user)
    tournament_players_enter(user=organiser, tournament=tournament, players=[anna, bence])
    stage = stage_create(user=organiser, tournament=tournament, name="Final", format="round_robin")
    (round_,) = stage_round_publish(user=organiser, stage_id=stage.pk)
    series = Series.objects.get(round=round_)
    # Game 1 is in already (Anna 7–3): game 2 decides the series.
    record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(anna, bence))
    return series


@pytest.fixture
def duel(
    club: Club, organiser: Account, player_user: Account, make_user: Any, referee: Account
) -> tuple[Series, Account, Account, Account]:
    bence_user = make_user("bence")
    return _duel(club, organiser, player_user, bence_user, referee), player_user, bence_user, referee


def _report(page: Any, series: Series, winner: Player, loser: Player, points: int) -> None:
    page.fill(f"input[name=score_{winner.pk}]", "7")
    page.fill(f"input[name=score_{loser.pk}]", str(points))
    page.locator("button.submit").click()
    page.wait_for_url(re.compile(rf"/series/{series.pk}/$"))


def _open_notification(page: Any, server: str, series: Series) -> None:
    """From any page: the header's count, the list, the notification, the series."""
    page.goto(f"{server}/")
    assert int(page.locator("#unread-count").inner_text()) >= 1
    page.click("#notifications-link")
    page.locator("#notifications li[data-event=result_to_confirm] a").first.click()
    page.wait_for_url(re.compile(rf"/series/{series.pk}/$"))


@on_phone_and_desktop
def test_anna_reports_bence_confirms_from_the_notification_and_the_standings_move(
    browser: Any, server: str, duel: tuple[Series, Account, Account, Account], device: dict[str, Any]
) -> None:
    series, player_user, bence_user, _referee = duel
    anna, bence = Player.objects.get(name="Anna"), Player.objects.get(name="Bence")

    a = signed_in_page(browser, server, player_user.username, device, then=f"/series/{series.pk}/")
    a.click("#report-game")
    _report(a, series, anna, bence, 4)
    a.get_by_text("it counts once your opponent confirms it").wait_for()
    assert "Waiting for your opponent to confirm." in a.locator("#reports").inner_text()
    assert not GameResult.objects.filter(game__number=2).exists()  # not counted yet

    b = signed_in_page(browser, server, bence_user.username, device)
    _open_notification(b, server, series)
    assert "Anna 7–4 Bence" in b.locator("#reports").inner_text()
    b.click("#confirm-report")
    b.get_by_text("Game 2 confirmed.").wait_for()
    assert "reported by player, confirmed by bence" in b.locator("#series-live").inner_text()
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED

    b.goto(f"{server}/stages/{series.stage_id}/standings/")
    b.wait_for_function(
        "(name) => { const r = document.querySelector('#standings tbody tr'); return r && r.innerText.includes(name); }",
        arg="Anna",
        timeout=20_000,
    )


@on_phone_and_desktop
def test_bence_disputes_and_a_referee_decides_from_the_queue(
    browser: Any, server: str, duel: tuple[Series, Account, Account, Account], device: dict[str, Any]
) -> None:
    series, player_user, bence_user, referee = duel
    anna, bence = Player.objects.get(name="Anna"), Player.objects.get(name="Bence")

    a = signed_in_page(browser, server, player_user.username, device, then=f"/series/{series.pk}/report/")
    _report(a, series, anna, bence, 4)

    b = signed_in_page(browser, server, bence_user.username, device)
    _open_notification(b, server, series)
    b.click("#dispute-report")
    b.wait_for_url(re.compile(rf"/series/{series.pk}/report/\?game=2$"))
    _report(b, series, bence, anna, 5)
    b.get_by_text("Game 2 is disputed").wait_for()
    assert "The versions disagree" in b.locator("#reports").inner_text()

    r = signed_in_page(
        browser, server, referee.username, device, then=f"/tournaments/{series.stage.tournament_id}/"
    )
    r.click("#disputes-link")
    versions = r.locator(".dispute .version")
    assert versions.count() == 2
    assert (
        "Anna 7–4 Bence" in versions.nth(0).inner_text() and "Bence 7–5 Anna" in versions.nth(1).inner_text()
    )
    versions.nth(0).locator("input[name=note]").fill("Both agreed after a recount")
    versions.nth(0).locator("button.decide-with").click()
    r.get_by_text("Game 2 decided.").wait_for()
    assert r.locator("#no-disputes").count() == 1
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings == {str(anna.pk): 1, str(bence.pk): 2}
    # Both players are told what was decided.
    b.goto(f"{server}/notifications/")
    assert "Decided" in b.locator("#notifications li[data-event=dispute_decided]").inner_text()
