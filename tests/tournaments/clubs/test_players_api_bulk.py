"""Many players in one request (issue 23 item 6): ``POST /api/clubs/{id}/players/`` creates a list
all or none, a bad item refusing the whole list with its index; ``POST /api/clubs/{id}/players/import/``
is the club page's CSV import through the API (the same code: tournaments/clubs/player_import.py)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from snapleague.users import Account
from tournaments.clubs.player_import import MAX_BYTES, MAX_ROWS
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db


def _client(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _names(club: Club) -> list[str]:
    return sorted(Player.objects.filter(club=club).values_list("name", flat=True))


def test_a_list_of_players_is_created_in_one_request_in_its_order(club: Club, organiser: Account) -> None:
    body = {"players": [{"name": "Zsófia"}, {"name": "  Ádám   Kis "}, {"name": "Béla"}]}
    response = _client(organiser).post(f"/api/clubs/{club.pk}/players/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert [p["name"] for p in created] == ["Zsófia", "Ádám Kis", "Béla"]  # spaces tidied, order kept
    assert {p["club"] for p in created} == {club.pk}
    assert _names(club) == ["Béla", "Zsófia", "Ádám Kis"]
    assert [Player.objects.get(pk=p["id"]).name for p in created] == ["Zsófia", "Ádám Kis", "Béla"]


def test_a_bad_item_refuses_the_whole_list_naming_each_index(club: Club, organiser: Account) -> None:
    Player.objects.create(club=club, name="Anna Kovács")
    body = {
        "players": [
            {"name": "Bence"},  # 0 fine
            {"name": "Csilla"},  # 1 fine
            {"name": "   "},  # 2 no name
            {"name": "csilla"},  # 3 the same as item 1, case aside
            {"name": "ANNA KOVÁCS"},  # 4 the club has her
            {"name": "L" * 121},  # 5 too long
            {"name": "Éva\u0007"},  # 6 a control character
        ]
    }
    response = _client(organiser).post(f"/api/clubs/{club.pk}/players/", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()
    assert error["code"] == "invalid_players"
    assert "nothing was created" in error["message"]
    assert error["extra"]["items"] == [2, 3, 4, 5, 6]
    assert set(error["fields"]) == {f"players.{i}.name" for i in (2, 3, 4, 5, 6)}
    assert "item 1" in error["fields"]["players.3.name"][0]
    assert "Already a player" in error["fields"]["players.4.name"][0]
    assert "120" in error["fields"]["players.5.name"][0]
    assert _names(club) == ["Anna Kovács"]  # Bence and Csilla were not created either


def test_the_refusal_is_translated(club: Club, organiser: Account) -> None:
    body = {"players": [{"name": "Bence"}, {"name": "bence"}]}
    response = _client(organiser).post(
        f"/api/clubs/{club.pk}/players/", body, format="json", HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert response.status_code == 400
    error = response.json()
    assert error["extra"]["items"] == [1]
    assert (
        "nothing was created" not in error["message"] and "item" not in error["fields"]["players.1.name"][0]
    )


def test_limits_and_malformed_lists(club: Club, organiser: Account) -> None:
    client = _client(organiser)
    too_many = {"players": [{"name": f"P{n}"} for n in range(MAX_ROWS + 1)]}
    response = client.post(f"/api/clubs/{club.pk}/players/", too_many, format="json")
    assert response.status_code == 400 and response.json()["code"] == "too_many_players"
    assert list(response.json()["fields"]) == ["players"]
    empty = client.post(f"/api/clubs/{club.pk}/players/", {"players": []}, format="json")
    assert empty.status_code == 400 and list(empty.json()["fields"]) == ["players"]
    nameless = client.post(f"/api/clubs/{club.pk}/players/", {"players": [{"name": "A"}, {}]}, format="json")
    assert nameless.status_code == 400 and list(nameless.json()["fields"]) == ["players.1.name"]
    assert _names(club) == []
    exactly = {"players": [{"name": f"P{n:04d}"} for n in range(MAX_ROWS)]}
    assert client.post(f"/api/clubs/{club.pk}/players/", exactly, format="json").status_code == 201
    assert len(_names(club)) == MAX_ROWS


@pytest.mark.parametrize("route", ["players/", "players/import/"])
def test_only_the_club_s_organisers_may(club: Club, organiser: Account, make_user: Any, route: str) -> None:
    elsewhere = make_user("elsewhere")
    Club.objects.create(name="Other", slug="other").organisers.add(elsewhere)
    body = {"players": [{"name": "Anna"}], "text": "Anna\n"}
    assert _client().post(f"/api/clubs/{club.pk}/{route}", body, format="json").status_code == 403
    refused = _client(elsewhere).post(f"/api/clubs/{club.pk}/{route}", body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    missing = _client(organiser).post(f"/api/clubs/{club.pk + 999}/{route}", body, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "club_not_found"
    assert _names(club) == []


def test_the_csv_import_through_the_api_previews_then_imports(club: Club, organiser: Account) -> None:
    Player.objects.create(club=club, name="Anna Kovács")
    text = "Név;Klub\nanna kovács;x\n  Bence   Szabó ;y\n\n;z\nBence Szabó;again\nCsilla;w\n"
    client = _client(organiser)
    preview = client.post(
        f"/api/clubs/{club.pk}/players/import/", {"text": text, "dry_run": True}, format="json"
    )
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert body["dry_run"] is True and body["created"] == []
    assert [(r["line"], r["name"], r["status"]) for r in body["rows"]] == [
        (2, "anna kovács", "exists"),
        (3, "Bence Szabó", "new"),
        (5, "", "error"),
        (6, "Bence Szabó", "error"),
        (7, "Csilla", "new"),
    ]
    assert "line 3" in body["rows"][3]["message"]
    assert _names(club) == ["Anna Kovács"]  # a dry run saves nothing
    done = client.post(f"/api/clubs/{club.pk}/players/import/", {"text": text}, format="json")
    assert done.status_code == 201, done.json()
    assert [p["name"] for p in done.json()["created"]] == ["Bence Szabó", "Csilla"]
    assert [r["status"] for r in done.json()["rows"]] == ["exists", "new", "error", "error", "new"]
    assert _names(club) == ["Anna Kovács", "Bence Szabó", "Csilla"]
    again = client.post(f"/api/clubs/{club.pk}/players/import/", {"text": text}, format="json").json()
    assert again["created"] == [] and [r["status"] for r in again["rows"]][:2] == ["exists", "exists"]


def test_the_csv_import_through_the_api_refuses_what_the_page_refuses(club: Club, organiser: Account) -> None:
    client = _client(organiser)
    for text in ("", "\n ;\n", "x" * (MAX_BYTES + 1), "\n".join(f"P{n}" for n in range(MAX_ROWS + 1))):
        response = client.post(f"/api/clubs/{club.pk}/players/import/", {"text": text}, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "invalid_import"
        assert list(response.json()["fields"]) == ["text"]
    assert _names(club) == []
