"""Importing players from CSV (issue 15): the preview's verdict per row (new, already in the club,
an error and why), then the import of the new rows only, all at once; spreadsheets' separators and
encodings; bad input refused with a message and nothing saved; organisers only; in the browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from snapleague.chromium import CHROMIUM
from snapleague.errors import ApplicationError, PermissionDenied
from tests.browser import PHONE, signed_in_page
from tournaments.clubs.player_import import RowStatus, players_import, players_import_plan, text_of
from tournaments.models import Club, Player

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def _statuses(plan: Any) -> list[tuple[int, str, str]]:
    return [(row.line, row.name, row.status) for row in plan.rows]


@pytest.mark.django_db
def test_the_preview_says_what_each_row_does(club: Club, organiser: Any) -> None:
    Player.objects.create(club=club, name="Anna Kovács")
    text = (
        "Név;Klub\nanna kovács;x\n  Bence   Szabó ;y\n\n;z\nBence Szabó;again\n"
        + "L" * 130
        + ";long\nÉva\u0007;bell\n"
    )
    plan = players_import_plan(user=organiser, club=club, text=text)
    assert _statuses(plan) == [
        (2, "anna kovács", RowStatus.EXISTS),  # the same name, case aside: left as it is
        (3, "Bence Szabó", RowStatus.NEW),  # spaces tidied
        (5, "", RowStatus.ERROR),
        (6, "Bence Szabó", RowStatus.ERROR),  # the same as line 3
        (7, "L" * 40 + "…", RowStatus.ERROR),
        (8, "Éva\u0007", RowStatus.ERROR),
    ]
    assert "line 3" in plan.rows[3].message
    assert Player.objects.filter(club=club).count() == 1  # a preview saves nothing


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        "Giulia Rossi,Milano\nPedro Sánchez,Madrid\n".encode(),
        "\ufeffname\tcity\nGiulia Rossi\tMilano\nPedro Sánchez\tMadrid\n".encode(),
        "nome;città\r\nGiulia Rossi;Milano\r\nPedro Sánchez;Madrid\r\n".encode("cp1252"),
    ],
    ids=["comma-no-header", "tab-bom-header", "semicolon-windows-1252"],
)
def test_spreadsheet_files_in_their_usual_shapes(club: Club, organiser: Any, data: bytes) -> None:
    plan = players_import_plan(user=organiser, club=club, text=text_of(data))
    assert [row.name for row in plan.new] == ["Giulia Rossi", "Pedro Sánchez"]


@pytest.mark.django_db
def test_the_import_creates_the_new_rows_only_and_twice_changes_nothing(club: Club, organiser: Any) -> None:
    text = "Anna\nBence\n\nAnna\n"
    created = players_import(user=organiser, club=club, text=text)
    assert sorted(p.name for p in created) == ["Anna", "Bence"]
    assert players_import(user=organiser, club=club, text=text) == []
    assert Player.objects.filter(club=club).count() == 2


@pytest.mark.django_db
def test_bad_files_are_refused_and_only_organisers_import(club: Club, organiser: Any, referee: Any) -> None:
    for text in ("", "\n ; \n", "x\n" * 2001):
        with pytest.raises(ApplicationError):
            players_import_plan(user=organiser, club=club, text=text)
    with pytest.raises(ApplicationError):
        text_of(b"x" * (256 * 1024 + 1))
    with pytest.raises(PermissionDenied):
        players_import(user=referee, club=club, text="Anna\n")
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_the_page_previews_an_upload_then_imports(club: Club, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    url = f"/clubs/{club.slug}/players/import/"
    upload = SimpleUploadedFile("players.csv", b"name\nAnna\nBence\n\n")
    page = client.post(url, {"file": upload, "action": "preview"}).content.decode()
    assert "2 new players will be imported." in page and 'value="import"' in page
    assert not Player.objects.filter(club=club).exists()
    response = client.post(url, {"text": "name\nAnna\nBence\n", "action": "import"})
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/"
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Anna", "Bence"]
    empty = client.post(url, {"text": "", "action": "preview"})
    assert empty.status_code == 400 and "no names" in empty.content.decode()


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_organiser_imports_a_file_in_the_browser(  # noqa: PLR0917
    browser: Any,
    server: str,
    device: dict[str, Any],
    club: Club,
    organiser: Any,
    tmp_path: Any,
) -> None:
    path = tmp_path / "players.csv"
    path.write_text(
        "Name;Town\nZoltán Nagy;Hatvan\nMaria Silva;Porto\n;Eger\nZoltán Nagy;again\n", encoding="utf-8"
    )
    page = signed_in_page(browser, server, "organiser", device, then=f"/clubs/{club.slug}/")
    page.get_by_role("link", name="Import players from a file").click()
    page.set_input_files("#file", str(path))
    page.get_by_role("button", name="Preview").click()
    page.wait_for_selector("#preview")
    assert page.locator(".row-new").count() == 2 and page.locator(".row-error").count() == 2
    assert page.locator("table.import-preview").bounding_box()["width"] <= device["viewport"]["width"]
    page.get_by_role("button", name="Import 2 players").click()
    page.wait_for_url(f"{server}/clubs/{club.slug}/")
    assert page.get_by_role("link", name="Maria Silva").is_visible()
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Maria Silva",
        "Zoltán Nagy",
    ]
