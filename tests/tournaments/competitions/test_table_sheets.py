"""Table sheets (issue 15): one card per table of a round with its players in seat order, who deals
first, a line per game the series can need, and a QR code that encodes that series' result form;
printable on A4 and Letter (headless Chromium prints them to PDF, phone and desktop show them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.competitions.table_sheets import game_lines, qr_svg
from tournaments.models import GameKind, Series, SeriesFormat, Tournament

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def _round(
    cup: Callable[..., Tournament], organiser: Any, players: int, game: str = GameKind.SNAPSZER
) -> Any:
    tournament = cup(players, game=game, prefix="S")
    stage = stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 3}
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    return stage


@pytest.mark.django_db
def test_each_table_gets_its_players_first_dealer_lines_and_the_qr_of_its_result_form(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    stage = _round(cup, organiser, 7)  # 3 tables and a bye
    page = Client().get(f"/stages/{stage.pk}/rounds/1/sheets/").content.decode()
    sections = re.findall(
        r'<section class="sheet" data-series="(\d+)" data-url="([^"]+)">(.*?)</section>', page, re.S
    )
    series = list(Series.objects.filter(stage=stage).exclude(table=None).order_by("table"))
    assert [int(pk) for pk, _url, _body in sections] == [s.pk for s in series] and len(series) == 3
    for (pk, url, body), one in zip(sections, series, strict=True):
        assert url == f"http://testserver/series/{pk}/record/"
        # The code drawn is the code of that URL (and of no other table's).
        assert str(qr_svg(url, title=str(one.table))) in body
        seated = [s.player.name for s in one.seats.order_by("seat")]
        assert body.index(seated[0]) < body.index("deals first") < body.index(seated[1])
        assert body.count("<tr><td>") - len(seated) == game_lines(one) == 3  # best of 3: three lines
    assert "this round has no table" not in page.lower()


@pytest.mark.django_db
def test_lines_per_series_length(make_series: Callable[..., Series], players: list[Any]) -> None:
    two = make_series(players[:2], game=GameKind.SNAPSZER)
    for code, expected in [
        (SeriesFormat.BEST_OF_3, 3),
        (SeriesFormat.BEST_OF_5, 5),
        (SeriesFormat.FIRST_TO_3, 5),
    ]:
        two.format = code
        assert game_lines(two) == expected
    four = make_series(players[:4], game=GameKind.SNAP)
    four.format, four.seat_count = SeriesFormat.FIRST_TO_3, 4
    assert game_lines(four) == 9  # 4 players, 2 wins each at most before someone's third


@pytest.mark.django_db
def test_an_unknown_paper_is_a4_and_the_round_page_links_the_sheets_for_referees_only(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    stage = _round(cup, organiser, 4)
    stage.tournament.referees.add(referee)
    assert (
        'class="sheets paper-a4"'
        in Client().get(f"/stages/{stage.pk}/rounds/1/sheets/?paper=tabloid").content.decode()
    )
    assert "Print table sheets" not in Client().get(f"/stages/{stage.pk}/rounds/1/").content.decode()
    client = Client()
    client.force_login(referee)
    assert "Print table sheets" in client.get(f"/stages/{stage.pk}/rounds/1/").content.decode()
    assert qr_svg("http://x/", title="1") != qr_svg("http://y/", title="1")


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_sheets_show_on_screen_and_print_on_a4_and_letter(
    browser: Any,
    server: str,
    device: dict[str, Any],
    cup: Callable[..., Tournament],
    organiser: Any,
) -> None:
    stage = _round(cup, organiser, 10)  # five tables: three pages of two
    page = signed_in_page(browser, server, "organiser", device, then=f"/stages/{stage.pk}/rounds/1/")
    page.get_by_role("link", name="Print table sheets").click()
    page.wait_for_selector(".sheet svg.qr")
    assert page.locator(".sheet").count() == 5
    widths = page.eval_on_selector_all(".sheet", "els => els.map(e => e.getBoundingClientRect().right)")
    assert max(widths) <= device["viewport"]["width"]  # nothing wider than a phone
    page.screenshot(
        path=f"var/screenshots/table-sheets-{'phone' if device is PHONE else 'desktop'}.png", full_page=True
    )
    a4 = page.pdf(prefer_css_page_size=True)
    page.get_by_role("link", name="Letter").click()
    page.wait_for_selector(".sheets.paper-letter")
    letter = page.pdf(prefer_css_page_size=True)
    # A PDF's page boxes, in points: A4 is 595 × 842, Letter 612 × 792; two sheets a page.
    assert _page_sizes(a4) == [(595, 842)] * 3
    assert _page_sizes(letter) == [(612, 792)] * 3


def _page_sizes(pdf: bytes) -> list[tuple[int, int]]:
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]
