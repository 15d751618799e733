"""The big screen in headless Chromium at 1920×1080: it cycles by itself, follows a result recorded
meanwhile without a reload, answers the desk's keys, respects prefers-reduced-motion, and leaves
its picture in docs/big-screen.png (the README shows it)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from snapleague.chromium import CHROMIUM
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.services import stage_rounds_generate, tournament_create, tournament_players_add
from tournaments.competitions.stages.create import stage_create
from tournaments.models import Club, GameKind, Player, Round, Series, Stage, StageFormat
from tournaments.nights import services as session_services

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

FULL_HD = {"viewport": {"width": 1920, "height": 1080}}
SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "big-screen.png"


def _thursday_league(club: Club, players: list[Player]) -> tuple[Account, Stage]:
    """A Snapszer league of the eight ``players`` with its rounds drawn, and its organiser."""
    organiser = club.organisers.get()
    tournament = tournament_create(
        user=organiser, club=club, name="Thursday Snapszer", game=GameKind.SNAPSZER
    )
    tournament_players_add(user=organiser, tournament=tournament, players=players)
    stage = stage_create(
        user=organiser, tournament=tournament, name="League", format=StageFormat.ROUND_ROBIN, options={}
    )
    stage_rounds_generate(user=organiser, stage_id=stage.pk)
    return organiser, stage


def _round_one(stage: Stage) -> list[Series]:
    return list(Series.objects.filter(stage=stage, round__number=1).order_by("table"))


def _first_seat_wins(organiser: Account, series: Series, *, game_number: int) -> None:
    seated = [seat.player for seat in series.seats.order_by("seat")]
    record_result(user=organiser, series_id=series.pk, game_number=game_number, result=snapszer_win(*seated))


def _live_screen(chromium: Any, url: str) -> tuple[Any, Any]:
    """A full-HD page on ``url`` once the screen listens for its results (its context to close)."""
    context = chromium.new_context(**FULL_HD)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.snapLive && snapLive.subscribed().length === 1")
    return context, page


def _assert_readable_from_afar(page: Any) -> None:
    """A player's name is at least 36 px tall at 1920×1080 (read from 5 m), and the page fits the
    screen without scrolling."""
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.screen-seats li')).fontSize)")
    assert size >= 36
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")


@pytest.mark.django_db(transaction=True)
def test_the_big_screen_cycles_follows_a_result_and_answers_the_desk(
    server: str,
    browser: Any,
    club: Any,
    referee: Any,
    players: list[Player],
) -> None:
    # Given a running Snapszer league of eight (four tables), one game already recorded;
    organiser, stage = _thursday_league(club, players)
    tournament = stage.tournament
    tables = _round_one(stage)
    _first_seat_wins(organiser, tables[0], game_number=1)
    _first_seat_wins(organiser, tables[1], game_number=1)
    _first_seat_wins(organiser, tables[1], game_number=2)

    # When the screen is opened by nobody signed in, at full HD, turning every 5 seconds,
    context, page = _live_screen(browser, f"{server}/tournaments/{tournament.pk}/screen/?seconds=5")
    assert page.evaluate("document.body.dataset.current") == "tables-1"
    assert page.locator("[data-panel]:not([hidden])").count() == 1
    page.evaluate("window.notReloaded = true")

    # then it turns to the standings by itself, and back to the tables;
    page.wait_for_function("() => document.body.dataset.current === 'standings-0-1'")
    assert page.locator("[data-panel='tables-1']").is_hidden()
    page.wait_for_function("() => document.body.dataset.current === 'tables-1'")

    # and a result recorded meanwhile shows on it without a reload (table 1: 2 games to 0, decided).
    table_one = page.locator(".screen-table[data-table='1']")
    assert "playing" in (table_one.get_attribute("class") or "")
    _first_seat_wins(organiser, tables[0], game_number=2)
    page.wait_for_function(
        "() => document.querySelector(\".screen-table[data-table='1']\").classList.contains('decided')"
    )
    winner = tables[0].seats.get(seat=0).player.name
    assert winner in (page.locator(".screen-table[data-table='1'] li.won").text_content() or "")
    assert page.evaluate("window.notReloaded") is True
    assert "2 of 4 tables still to finish" in (page.locator(".screen-open").text_content() or "")

    # The desk: space pauses (and says so), → and ← move by hand.
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('[data-screen-pause]').ariaPressed === 'true'")
    assert page.locator("[data-screen-paused]").is_visible()
    shown = page.evaluate("document.body.dataset.current")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.body.dataset.current !== '{shown}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.current === '{shown}'")
    if shown != "tables-1":
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.body.dataset.current === 'tables-1'")

    # Large type, no scrolling.
    _assert_readable_from_afar(page)
    assert (
        page.evaluate("getComputedStyle(document.querySelector('[data-panel]:not([hidden])')).animationName")
        == "screen-in"
    )
    # The picture for the README: a fresh screen that will not turn while it is taken, once its
    # panel has faded in.
    page.goto(f"{server}/tournaments/{tournament.pk}/screen/?seconds=600")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    context.close()

    # With prefers-reduced-motion, panels change without animation.
    calm = browser.new_context(**FULL_HD, reduced_motion="reduce")
    calm_page = calm.new_page()
    calm_page.goto(f"{server}/tournaments/{tournament.pk}/screen/")
    assert (
        calm_page.evaluate(
            "getComputedStyle(document.querySelector('[data-panel]:not([hidden])')).animationName"
        )
        == "none"
    )
    calm.close()


SESSION_SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "session-screen.png"


@pytest.mark.django_db(transaction=True)
def test_a_sessions_big_screen_shows_its_round_at_its_tables_and_follows_a_result(
    server: str,
    browser: Any,
    club: Any,
    players: list[Player],
) -> None:
    # Given a league of eight whose rounds 1 and 2 are scheduled in tonight's session, played at the
    # session's four named tables,
    organiser, stage = _thursday_league(club, players)
    tournament = stage.tournament
    session = session_services.session_create(
        user=organiser,
        tournament=tournament,
        name="Club night",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    session_services.session_stations_set(
        user=organiser,
        session_id=session.pk,
        stations=session_services.parse_stations("11 Window\n12 Fireplace\n13 Bar\n14 Door"),
    )
    for number in (1, 2):
        one = Round.objects.get(stage=stage, number=number)
        session_services.session_round_schedule(user=organiser, session_id=session.pk, round_id=one.pk)
    tables = _round_one(stage)
    _first_seat_wins(organiser, tables[0], game_number=1)

    # When the session's screen is opened by nobody signed in, at full HD,
    context, page = _live_screen(browser, f"{server}/sessions/{session.pk}/screen/?seconds=600")
    # then it shows round 1 at the session's tables, by their names,
    assert "Club night" in (page.locator(".screen-head h1").text_content() or "")
    first = page.locator(".screen-table[data-table='1']")
    assert "Table 11 · Window" in (first.locator(".screen-table-no").text_content() or "")
    assert "Table 14 · Door" in (
        page.locator(".screen-table[data-table='4'] .screen-table-no").text_content() or ""
    )
    page.evaluate("window.notReloaded = true")
    # and follows a result recorded meanwhile without a reload.
    _first_seat_wins(organiser, tables[0], game_number=2)
    page.wait_for_function(
        "() => document.querySelector(\".screen-table[data-table='1']\").classList.contains('decided')"
    )
    assert page.evaluate("window.notReloaded") is True
    assert "3 of 4 tables still to finish" in (page.locator(".screen-open").text_content() or "")
    # Readable from the back of the room: large names, no scrolling at 1920×1080.
    _assert_readable_from_afar(page)
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")
    page.screenshot(path=str(SESSION_SCREENSHOT))
    context.close()
