"""Groups → playoff: each group's own table, with who goes to the playoff and why (issue 23 item 6),
in ``GET /api/stages/{id}/standings/`` (``groups``), the export, and on the standings page. Before,
the stage had one table for everyone and nothing said who qualified.

8 players in groups of 4 (manual seeding, snake: A = P001 P004 P005 P008, B = P002 P003 P006
P007), the top 2 through; ``play_open_series`` lets the name that sorts first win, so each group
ends in name order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from snapleague.chromium import CHROMIUM
from snapleague.users import Account
from tests.browser import PHONE
from tests.conftest import play_open_series
from tournaments.competitions.stages.withdrawals import stage_withdraw
from tournaments.models import Player, Series, Tournament

pytestmark = pytest.mark.django_db
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def _id(name: str) -> int:
    return int(Player.objects.get(name=name).pk)


@pytest.fixture
def groups_stage(cup: Callable[..., Tournament], organiser: Account) -> int:
    tournament = cup(8)
    client = APIClient()
    client.force_authenticate(organiser)
    created = client.post(
        "/api/stages/",
        {
            "tournament": tournament.pk,
            "name": "Groups",
            "format": "groups_playoff",
            "options": {"group_size": 4, "advance": 2, "seeding": "manual"},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    stage = int(created.json()["id"])
    assert client.post(f"/api/stages/{stage}/rounds/").status_code == 201  # the 3 group rounds
    return stage


def _standings(stage: int) -> dict[str, Any]:
    response = APIClient().get(f"/api/stages/{stage}/standings/")
    assert response.status_code == 200
    return response.json()


def _play_groups(stage: int, organiser: Account, capture: Any) -> None:
    with capture(execute=True):
        play_open_series(stage, organiser)


def test_each_group_has_its_own_table_and_its_qualifiers_so_far(groups_stage: int) -> None:
    body = _standings(groups_stage)
    assert [g["label"] for g in body["groups"]] == ["A", "B"]
    a, b = body["groups"]
    assert {r["player_name"] for r in a["rows"]} == {"P001", "P004", "P005", "P008"}
    assert {r["player_name"] for r in b["rows"]} == {"P002", "P003", "P006", "P007"}
    assert a["advance"] == 2 and a["complete"] is False and len(a["qualifiers"]) == 2
    assert a["chain"] == ["series_won", "head_to_head", "buchholz", "sonneborn_berger", "coin_flip"]
    in_line = [r for r in a["rows"] if r["qualified"]]
    assert [r["player"] for r in in_line] == a["qualifiers"]
    assert all("so far" in r["reason"] for r in in_line)
    assert all(r["reason"] == "" for r in a["rows"] if not r["qualified"])
    assert "rows" in body  # the stage's own table stays where it was


def test_when_the_groups_end_the_qualifiers_are_the_players_the_playoff_seats(
    groups_stage: int, organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    _play_groups(groups_stage, organiser, django_capture_on_commit_callbacks)
    a, b = _standings(groups_stage)["groups"]
    assert a["complete"] is True and b["complete"] is True
    assert [r["player_name"] for r in a["rows"]] == ["P001", "P004", "P005", "P008"]
    assert a["qualifiers"] == [_id("P001"), _id("P004")]
    assert b["qualifiers"] == [_id("P002"), _id("P003")]
    assert [r["qualified"] for r in a["rows"]] == [True, True, False, False]
    assert a["rows"][0]["reason"] == "Through: top 2 of group A."
    assert a["rows"][0]["values"]["series_won"] == 3 and a["rows"][1]["separated_by"] == "series_won"
    playoff = Series.objects.filter(stage_id=groups_stage, phase="winners", round__number=4)
    seated = {seat.player_id for s in playoff for seat in s.seats.all()}
    assert seated == set(a["qualifiers"]) | set(b["qualifiers"])


def test_a_qualifier_who_withdrew_is_replaced_by_the_next_and_it_says_so(
    groups_stage: int, organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    stage_withdraw(user=organiser, stage_id=groups_stage, player_id=_id("P004"), from_round=4)
    _play_groups(groups_stage, organiser, django_capture_on_commit_callbacks)
    a, _b = _standings(groups_stage)["groups"]
    assert a["qualifiers"] == [_id("P001"), _id("P005")]
    gone = next(r for r in a["rows"] if r["player_name"] == "P004")
    assert gone["withdrawn"] is True and gone["qualified"] is False and gone["reason"].startswith("Withdrawn")
    stand_in = next(r for r in a["rows"] if r["player_name"] == "P005")
    assert stand_in["qualified"] is True and "in place of a player who withdrew" in stand_in["reason"]
    playoff = Series.objects.filter(stage_id=groups_stage, phase="winners", round__number=4)
    seated = {seat.player_id for s in playoff for seat in s.seats.all()}
    assert _id("P005") in seated and _id("P004") not in seated


def test_the_export_carries_the_group_tables_and_other_formats_have_none(
    groups_stage: int, cup: Callable[..., Tournament], organiser: Account
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    tournament = Series.objects.filter(stage_id=groups_stage).first().stage.tournament  # type: ignore[union-attr]
    exported = client.get(f"/api/tournaments/{tournament.pk}/export/").json()
    (stage,) = exported["stages"]
    assert [g["label"] for g in stage["standings"]["groups"]] == ["A", "B"]
    league = cup(4, prefix="L")
    created = client.post(
        "/api/stages/",
        {"tournament": league.pk, "name": "League", "format": "round_robin"},
        format="json",
    ).json()
    client.post(f"/api/stages/{created['id']}/rounds/")
    assert _standings(created["id"])["groups"] == []


def test_the_page_shows_one_table_per_group_with_who_goes_through(
    groups_stage: int, organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    page = Client().get(f"/stages/{groups_stage}/standings/").content.decode()
    assert page.count('class="standings group-table"') == 2
    assert "Group A" in page and "Group B" in page and "still playing" in page
    _play_groups(groups_stage, organiser, django_capture_on_commit_callbacks)
    page = Client().get(f"/stages/{groups_stage}/standings/").content.decode()
    assert "still playing" not in page
    assert page.count("Through: top 2 of group A.") == 2 and page.count("Through: top 2 of group B.") == 2
    assert "Whole stage" in page
    hu = Client(HTTP_ACCEPT_LANGUAGE="hu").get(f"/stages/{groups_stage}/standings/").content.decode()
    assert "Through: top 2" not in hu and "Group A" not in hu


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_reader_sees_each_group_and_who_goes_through_in_the_browser(  # noqa: PLR0917
    browser: Any,
    server: str,
    device: dict[str, Any],
    groups_stage: int,
    organiser: Account,
    django_capture_on_commit_callbacks: Any,
    tmp_path: Any,
) -> None:
    _play_groups(groups_stage, organiser, django_capture_on_commit_callbacks)
    page = browser.new_context(**device).new_page()
    page.goto(f"{server}/stages/{groups_stage}/standings/")
    tables = page.locator("table.group-table")
    assert tables.count() == 2
    for label, through in (("A", ["P001", "P004"]), ("B", ["P002", "P003"])):
        table = page.locator(f"table.group-table[data-group='{label}']")
        assert page.get_by_role("heading", name=f"Group {label}").is_visible()
        qualified = table.locator("tr.qualified td.name a")
        assert qualified.all_inner_texts() == through
        assert (
            table.locator("tr.qualified .qualify").first.inner_text() == f"Through: top 2 of group {label}."
        )
        assert table.locator("tr.qualified .qualify").first.is_visible()
    # The page itself does not scroll sideways on a phone: a wide table scrolls in its own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(tmp_path / "group-tables.png"), full_page=True)
