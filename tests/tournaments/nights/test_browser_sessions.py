"""A club night in headless Chromium, on a phone and a desktop: the organiser plans two sessions,
sets up the tables, schedules round 1, checks players in at the desk (searching, one tap each),
closes check-in (the one who did not come is a no-show), and a player follows their next table.

Screenshots of the desk, the tonight page and the next-table card go to docs/ (the README shows
them); set ``SNAPLEAGUE_SCREENSHOTS=var/screenshots`` to write them elsewhere.
"""

from __future__ import annotations

import io
import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from tests.browser import BROWSER_TEST, DESKTOP, PHONE, on_phone_and_desktop, signed_in_page
from tournaments.competitions.services import (
    tournament_create,
    tournament_players_add,
    tournament_referee_add,
)
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.models import Forfeit, GameKind, Player, Round, Series, Session
from tournaments.nights import services as session_services

pytestmark = BROWSER_TEST

SHOTS = Path(os.environ.get("SNAPLEAGUE_SCREENSHOTS", "docs"))


def _local(delta: timedelta) -> str:
    return (timezone.localtime() + delta).strftime("%Y-%m-%dT%H:%M")


def _spring_league(club: Any, players: list[Player], referee: Any = None) -> tuple[Any, Any, Any]:
    """The club's organiser, a Snapszer tournament of ``players`` (and ``referee``) and its
    round-robin stage with round 1 published."""
    organiser = club.organisers.get()
    tournament = tournament_create(user=organiser, club=club, name="Spring League", game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players)
    if referee is not None:
        tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin"
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    return organiser, tournament, stage


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_club_night_from_the_desk_to_the_next_table_card(
    server: str,
    browser: Any,
    club: Any,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    kind = "phone" if device is PHONE else "desktop"
    four = players[:4]
    anna = four[0]  # players[0] has an account (player_user)
    organiser, tournament, stage = _spring_league(club, four)
    first = Round.objects.get(stage=stage, number=1)
    annas = Series.objects.get(round=first, seats__player=anna)
    opponent = next(s.player for s in annas.seats.all() if s.player_id != anna.pk)
    other = Series.objects.exclude(pk=annas.pk).get(round=first)
    here, away = (s.player for s in other.seats.order_by("seat"))

    page = signed_in_page(browser, server, organiser.username, device, then=f"/tournaments/{tournament.pk}/")

    # Two sessions from the tournament page; one in the past is refused first, with the reason.
    form = page.locator("#session-form")
    form.locator("input[name=name]").fill("Too late")
    form.locator("input[name=starts_at]").fill(_local(-timedelta(days=1)))
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Choose a time from now on.")
    for name, delta in [("Thursday night", timedelta(hours=3)), ("Friday night", timedelta(days=1, hours=3))]:
        page.goto(f"{server}/tournaments/{tournament.pk}/")
        form = page.locator("#session-form")
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=starts_at]").fill(_local(delta))
        form.locator("input[name=venue]").fill("Club room")
        form.locator("button[type=submit]").click()
        page.wait_for_selector(f"h1:has-text('{name}')")
    assert list(Session.objects.filter(tournament=tournament).values_list("name", flat=True)) == [
        "Thursday night",
        "Friday night",
    ]
    thursday = Session.objects.get(name="Thursday night")

    # Tables, then round 1 into Thursday: its series get the tables in order.
    page.goto(f"{server}/sessions/{thursday.pk}/")
    page.locator("textarea[name=stations]").fill("1 Window\n2 Bar")
    page.click("button:has-text('Set up the tables')")
    page.wait_for_selector("text=2 tables set up.")
    page.locator("select[name=round]").select_option(str(first.pk))
    page.click("button:has-text('Schedule')")
    page.wait_for_selector("text=is scheduled in this session")
    page.wait_for_selector("#tonight .tonight-table >> text=Table 1 · Window")

    # The desk: search narrows the list as one types; one tap checks a player in.
    page.click("#open-desk")
    page.wait_for_selector("#desk-rows")
    rows = page.locator(".desk-row")
    assert rows.count() == 4
    count = page.locator("#desk-count")
    assert count.inner_text().startswith("0 of 4 players checked in")
    # The counter follows every tap and every undo, without a reload.
    page.locator(f"#desk-{away.pk} button").click()
    page.wait_for_selector(f"#desk-{away.pk}.here")
    page.wait_for_function(
        "() => document.querySelector('#desk-count').innerText.startsWith('1 of 4 players checked in')"
    )
    page.locator(f"#desk-{away.pk} button").click()
    page.wait_for_selector(f"#desk-{away.pk}:not(.here)")
    page.wait_for_function(
        "() => document.querySelector('#desk-count').innerText.startsWith('0 of 4 players checked in')"
    )
    for number, player in enumerate([anna, opponent, here], start=1):
        page.fill("#desk-q", player.name[:3])
        page.wait_for_function(
            "n => document.querySelectorAll('.desk-row').length === n",
            arg=sum(1 for p in four if player.name[:3].casefold() in p.name.casefold()),
        )
        page.locator(f"#desk-{player.pk} button").click()
        page.wait_for_selector(f"#desk-{player.pk}.here")
        page.wait_for_function(
            "n => document.querySelector('#desk-count').innerText.startsWith(n + ' of 4 players checked in')",
            arg=number,
        )
    page.fill("#desk-q", "")
    page.wait_for_function("() => document.querySelectorAll('.desk-row').length === 4")
    assert page.locator(".desk-row.here").count() == 3
    page.screenshot(path=str(SHOTS / f"sessions-desk-{kind}.png"), full_page=True)

    # Close check-in: the one who did not come forfeits their series.
    page.goto(f"{server}/sessions/{thursday.pk}/")
    page.click("#close-check-in")
    page.wait_for_selector("text=Check-in closed: 1 series decided by a no-show.")
    assert list(Forfeit.objects.filter(series=other).values_list("player_id", flat=True)) == [away.pk]
    other.refresh_from_db()
    assert other.status == Series.Status.DECIDED and other.placings == {str(here.pk): 1}
    # Closed too early: reopening (behind its confirmation) takes the no-show back; closing again
    # records it again.
    page.click("#reopen-check-in summary")
    page.click("#reopen-check-in-confirm")
    page.wait_for_selector("text=Check-in reopened: 1 no-show taken back")
    assert not Forfeit.objects.filter(series=other).exists()
    page.click("#close-check-in")
    page.wait_for_selector("text=Check-in closed: 1 series decided by a no-show.")
    assert list(Forfeit.objects.filter(series=other).values_list("player_id", flat=True)) == [away.pk]
    page.wait_for_selector(f"#tonight >> text={away.name} did not come")
    page.screenshot(path=str(SHOTS / f"sessions-tonight-{kind}.png"), full_page=True)
    page.context.close()

    # Anna's home page: her next table, with her opponent, the time and the series' score.
    player_page = signed_in_page(browser, server, anna.user.username, device, then="/")
    card = player_page.locator("#next-table")
    card.wait_for()
    text = card.inner_text()
    assert "Table" in text and opponent.name in text and "Thursday night" in text
    assert re.search(r"\d{1,2}:\d{2}", text)
    station = Series.objects.select_related("station").get(pk=annas.pk).station
    assert station is not None and str(station) in text
    card.screenshot(path=str(SHOTS / f"sessions-next-table-{kind}.png"))
    # The tonight page follows a result by itself (the live push, or its poller).
    player_page.click("#next-table >> text=Tonight")
    player_page.wait_for_selector("#tonight")
    from tests.conftest import record_result, snapszer_win

    record_result(user=organiser, series_id=annas.pk, game_number=1, result=snapszer_win(anna, opponent))
    player_page.wait_for_function(
        "() => [...document.querySelectorAll('#tonight .tonight-table')].some(e => /Anna\\s*1/.test(e.innerText))",
        timeout=20_000,
    )
    player_page.screenshot(path=str(SHOTS / f"player-tonight-{kind}.png"), full_page=True)
    # The series decided (2–0), her next table moves on and the standings put her on top.
    record_result(user=organiser, series_id=annas.pk, game_number=2, result=snapszer_win(anna, opponent))
    player_page.goto(f"{server}/")
    player_page.wait_for_selector("#next-table")
    assert opponent.name not in player_page.locator("#next-table").inner_text()
    player_page.goto(f"{server}/stages/{stage.pk}/standings/")
    player_page.wait_for_function(
        "(name) => { const r = document.querySelector('#standings tbody tr'); return r && r.innerText.includes(name); }",
        arg=anna.name,
        timeout=20_000,
    )
    player_page.screenshot(path=str(SHOTS / f"player-standings-{kind}.png"), full_page=True)
    # Her own page: she replaces her calendar's address (a link shared by mistake).
    player_page.goto(f"{server}/players/{anna.pk}/")
    before = player_page.locator("#player-calendar").get_attribute("href")
    player_page.click("#calendar-replace summary")
    player_page.click("#calendar-replace-confirm")
    player_page.wait_for_selector("text=Your calendar has a new address")
    after = player_page.locator("#player-calendar").get_attribute("href")
    assert before and after and before != after
    player_page.context.close()


def _decoded_qr(png: bytes) -> list[str]:
    """The texts of the QR codes in a screenshot, read by zxing-cpp (a real decoder, as a phone's
    camera app would read the printed sheet)."""
    import zxingcpp
    from PIL import Image

    return [code.text for code in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_referee_records_from_the_qr_code_of_a_table_sheet(
    server: str,
    browser: Any,
    *,
    club: Any,
    referee: Any,
    players: list[Player],
    device: dict[str, Any],
) -> None:
    kind = "phone" if device is PHONE else "desktop"
    # Given tonight's session of a Snapszer league of four (best of 3), round 1 at two named tables,
    organiser, tournament, stage = _spring_league(club, players[:4], referee=referee)
    session = session_services.session_create(
        user=organiser,
        tournament=tournament,
        name="Thursday night",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    session_services.session_stations_set(
        user=organiser, session_id=session.pk, stations=session_services.parse_stations("1 Window\n2 Bar")
    )
    first = Round.objects.get(stage=stage, number=1)
    session_services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    window = Series.objects.get(round=first, station__name="Window")
    winner, loser = (seat.player for seat in window.seats.order_by("seat"))

    # The desk prints the round's table sheets (a desktop browser): the referee's phone reads the
    # QR code on the Window table's sheet,
    desk = signed_in_page(browser, server, organiser.username, DESKTOP, then=f"/sessions/{session.pk}/")
    desk.click("text=Print table sheets")
    desk.wait_for_url(re.compile(rf"/stages/{stage.pk}/rounds/1/sheets/"))
    sheet = desk.locator(f".sheet[data-series='{window.pk}']")
    assert "Table 1 · Window" in sheet.locator(".sheet-table").inner_text()
    sheet.screenshot(path=str(SHOTS / f"referee-qr-sheet-{kind}.png"))
    codes = _decoded_qr(sheet.locator(".sheet-qr svg").screenshot())
    assert codes == [f"{server}/series/{window.pk}/record/"]
    desk.context.close()

    # opens the address it holds, signs in as the referee and lands on that series' result form;
    phone = browser.new_context(**device)
    phone.set_default_timeout(15_000)
    page = phone.new_page()
    page.goto(codes[0])
    page.fill("input[name=username]", referee.username)
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf"^[^?]*/series/{window.pk}/record/$"))
    assert winner.name in page.content() and loser.name in page.content()
    page.screenshot(path=str(SHOTS / f"referee-qr-form-{kind}.png"), full_page=True)

    # records the two games of the series (7–3, 7–5),
    for number, points in ((1, 3), (2, 5)):
        page.goto(codes[0])
        page.fill(f"input[name=score_{winner.pk}]", "7")
        page.fill(f"input[name=score_{loser.pk}]", str(points))
        page.locator("button.submit").click()
        page.wait_for_url(re.compile(rf"^[^?]*/series/{window.pk}/$"))
        page.wait_for_selector(f"text=Game {number} recorded.")
    window.refresh_from_db()
    assert window.status == Series.Status.DECIDED and window.placings == {str(winner.pk): 1, str(loser.pk): 2}

    # and the standings show it: the winner on top with a series won, the loser with one played.
    page.goto(f"{server}/stages/{stage.pk}/standings/")
    page.wait_for_function(
        "(name) => { const r = document.querySelector('#standings tbody tr'); return r && r.innerText.includes(name); }",
        arg=winner.name,
        timeout=20_000,
    )
    assert loser.name in page.locator("#standings tbody").inner_text()
    page.screenshot(path=str(SHOTS / f"referee-qr-standings-{kind}.png"), full_page=True)
    phone.close()
