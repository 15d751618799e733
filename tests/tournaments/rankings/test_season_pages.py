"""Season pages, API and CSV: the table from played tournaments, the organiser's form with
translated field errors, 4xx never 500 (docs/seasons.md)."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from snapleague.users import Account
from tests.tournaments.rankings.seasons_world import played_tournament
from tournaments.models import Club, Player, Season, SeasonTournament, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club: Club) -> Season:
    return Season.objects.create(
        club=club, name="Spring 2027", starts_on=datetime.date(2027, 1, 1), ends_on=datetime.date(2027, 6, 30)
    )


@pytest.fixture
def played(organiser: Account, players: list[Player]) -> list[Tournament]:
    anna, bence, csilla, daniel = players[:4]
    return [
        played_tournament(
            organiser=organiser,
            name="January",
            day=datetime.date(2027, 1, 10),
            order=[anna, bence, csilla, daniel],
        ),
        played_tournament(
            organiser=organiser, name="February", day=datetime.date(2027, 2, 10), order=[bence, anna, csilla]
        ),
    ]


def signed_in(user: Account) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- pages ----------------------------------------------------------------------------------------


def test_season_page_shows_the_table(client: Client, season: Season, played: list[Tournament]) -> None:
    response = client.get(reverse("tournaments:season", args=[season.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    # Anna 25 + 18 = 43, Bence 18 + 25 = 43 (Anna ahead: head-to-head... both one win, one 2nd: h2h 0)
    assert "January" in html and "February" in html
    page = response.context["page"]
    assert [(line.player.name, line.row.points) for line in page.lines] == [
        ("Anna", 43),
        ("Bence", 43),
        ("Csilla", 30),
        ("Dániel", 12),
    ]
    assert 'id="season-table"' in html
    assert reverse("tournaments:season-csv", args=[season.pk]) in html


def test_club_seasons_page_lists_them_and_offers_new_to_organisers(
    client: Client, organiser: Account, season: Season
) -> None:
    url = reverse("tournaments:seasons", args=[season.club.slug])
    assert "Spring 2027" in client.get(url).content.decode()
    assert (
        reverse("tournaments:season-create", args=[season.club.slug]) not in client.get(url).content.decode()
    )
    assert (
        reverse("tournaments:season-create", args=[season.club.slug])
        in signed_in(organiser).get(url).content.decode()
    )


def test_season_create_form(organiser: Account, club: Club) -> None:
    url = reverse("tournaments:season-create", args=[club.slug])
    body = {"name": "Autumn", "starts_on": "2027-09-01", "ends_on": "2027-12-31", "points_scale": "10, 6 3"}
    response = signed_in(organiser).post(url, {**body, "best_results": "2"})
    season = Season.objects.get(name="Autumn")
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:season", args=[season.pk]
    )
    assert season.points_scale == [10, 6, 3] and season.best_results == 2


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"ends_on": "2027-08-01"}, "ends_on", "cannot end before it starts"),
        ({"points_scale": "10, 12"}, "points_scale", "more than the place above"),
        ({"points_scale": "ten, six"}, "points_scale", "whole numbers"),
        ({"best_results": "0"}, "best_results", "at least 1 result"),
        ({"name": ""}, "name", "required"),
    ],
)
def test_season_form_errors_next_to_the_field(
    organiser: Account, club: Club, change: dict[str, str], field: str, words: str
) -> None:
    body = {
        "name": "Autumn",
        "starts_on": "2027-09-01",
        "ends_on": "2027-12-31",
        "points_scale": "",
        **change,
    }
    response = signed_in(organiser).post(reverse("tournaments:season-create", args=[club.slug]), body)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert words in " ".join(errors[field]).lower()
    assert not Season.objects.exists()


def test_season_form_errors_are_translated(organiser: Account, club: Club) -> None:
    body = {"name": "Ősz", "starts_on": "2027-09-01", "ends_on": "2027-08-01", "points_scale": "5, 9"}
    client = signed_in(organiser)
    response = client.post(
        reverse("tournaments:season-create", args=[club.slug]), body, headers={"accept-language": "hu"}
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "cannot end before it starts" not in errors["ends_on"][0]
    assert "more than the place above" not in errors["points_scale"][0]


def test_season_edit_and_tournament_choices(
    organiser: Account, season: Season, played: list[Tournament]
) -> None:
    client = signed_in(organiser)
    edit = reverse("tournaments:season-edit", args=[season.pk])
    page = client.get(edit)
    assert page.status_code == 200
    assert [c.tournament.name for c in page.context["candidates"]] == ["January", "February"]
    response = client.post(
        reverse("tournaments:season-tournament", args=[season.pk]),
        {"tournament": played[1].pk, "choice": "out"},
    )
    assert response.status_code == 302
    assert SeasonTournament.objects.get(season=season, tournament=played[1]).included is False
    table = client.get(reverse("tournaments:season", args=[season.pk])).context["page"]
    assert [c.tournament.name for c in table.columns] == ["January"]
    # A tournament id that is no number is told, not a 500.
    response = client.post(
        reverse("tournaments:season-tournament", args=[season.pk]), {"tournament": "x" * 40, "choice": "in"}
    )
    assert response.status_code == 302
    body = {"name": "Spring", "starts_on": "2027-01-01", "ends_on": "2027-06-30", "points_scale": "3, 2, 1"}
    assert client.post(edit, body).status_code == 302
    season.refresh_from_db()
    assert season.name == "Spring" and season.points_scale == [3, 2, 1]


# --- CSV ------------------------------------------------------------------------------------------


def test_season_csv(client: Client, season: Season, played: list[Tournament]) -> None:
    season.best_results = 1
    season.save()
    response = client.get(reverse("tournaments:season-csv", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Rank", "Player", "Player id", "Points"]
    assert rows[0][8:] == ["January: place", "January: points", "February: place", "February: points"]
    anna = next(r for r in rows[1:] if r[1] == "Anna")
    # Anna: 1st in January (25, counted), 2nd in February (18, not counted with best 1).
    assert anna[3] == "25" and anna[8:] == ["1", "25", "2", "(18)"]
    daniel = next(r for r in rows[1:] if r[1] == "Dániel")
    assert daniel[10:] == ["", ""]  # did not play February


# --- API ------------------------------------------------------------------------------------------


def test_api_season_table(client: Client, season: Season, played: list[Tournament]) -> None:
    response = client.get(reverse("tournaments_api:season-table", args=[season.pk]))
    assert response.status_code == 200
    body = response.json()
    assert body["season"]["name"] == "Spring 2027" and body["provisional"] is False
    assert [t["name"] for t in body["tournaments"]] == ["January", "February"]
    first = body["rows"][0]
    assert (first["player_name"], first["points"], first["wins"], first["played"]) == ("Anna", 43, 1, 2)
    assert first["results"][0] == {
        "tournament": played[0].pk,
        "place": 1,
        "points": 25,
        "counted": True,
        "provisional": False,
    }


def test_api_season_create_and_patch(organiser: Account, club: Club) -> None:
    client = signed_in(organiser)
    body: dict[str, Any] = {
        "club": club.pk,
        "name": "Autumn",
        "starts_on": "2027-09-01",
        "ends_on": "2027-12-31",
    }
    created = client.post(reverse("tournaments_api:season-list"), body, content_type="application/json")
    assert created.status_code == 201
    season_id = created.json()["id"]
    assert created.json()["points_scale"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    patched = client.patch(
        reverse("tournaments_api:season-detail", args=[season_id]),
        {"points_scale": [5, 3, 1], "best_results": None},
        content_type="application/json",
    )
    assert patched.status_code == 200
    assert patched.json()["points_scale"] == [5, 3, 1] and patched.json()["name"] == "Autumn"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ends_on": "2027-08-01"}, "ends_on"),
        ({"points_scale": [1, 2]}, "points_scale"),
        ({"points_scale": ["a"]}, "points_scale.0"),
        ({"points_scale": [10**30]}, "points_scale.0"),
        ({"best_results": 0}, "best_results"),
        ({"starts_on": "someday"}, "starts_on"),
        ({"game": "poker"}, "game"),
    ],
)
def test_api_season_bad_input_is_a_400_with_field_errors(
    organiser: Account, club: Club, change: dict[str, Any], field: str
) -> None:
    body = {"club": club.pk, "name": "Autumn", "starts_on": "2027-09-01", "ends_on": "2027-12-31", **change}
    response = signed_in(organiser).post(
        reverse("tournaments_api:season-list"), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert not Season.objects.exists()


def test_api_season_tournaments(organiser: Account, season: Season, played: list[Tournament]) -> None:
    client = signed_in(organiser)
    url = reverse("tournaments_api:season-tournaments", args=[season.pk])
    listed = client.get(url).json()
    assert [(t["name"], t["included"], t["choice"]) for t in listed] == [
        ("January", True, "auto"),
        ("February", True, "auto"),
    ]
    answer = client.post(url, {"tournament": played[0].pk, "choice": "out"}, content_type="application/json")
    assert answer.status_code == 200
    assert next((t["name"], t["included"], t["choice"]) for t in answer.json()) == ("January", False, "out")
    bad = client.post(url, {"tournament": played[0].pk, "choice": "maybe"}, content_type="application/json")
    assert bad.status_code == 400 and "choice" in bad.json()["fields"]


def test_api_unknown_season_is_a_404(client: Client) -> None:
    response = client.get(reverse("tournaments_api:season-table", args=[999999]))
    assert response.status_code == 404 and response.json()["code"] == "season_not_found"


def test_the_season_csv_neutralises_formulas_in_names_and_in_the_header(
    client: Client, season: Season, played: list[Tournament], players: list[Player]
) -> None:
    players[0].name = "+SUM(1,2)"
    players[0].save(update_fields=["name"])
    played[0].name = "@cmd"
    played[0].save(update_fields=["name"])
    response = client.get(reverse("tournaments:season-csv", args=[season.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert "'@cmd: place" in rows[0]
    assert any(row[1] == "'+SUM(1,2)" for row in rows[1:])
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
