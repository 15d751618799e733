"""Exports (issue 15): the standings and every result as CSV a spreadsheet opens, the whole
tournament as JSON in the API's documented shape (the schema fuzz test checks every answer of
``/api/tournaments/<id>/export/`` against the OpenAPI schema, for each role)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from tests.conftest import record_result, snapszer_win
from tournaments.competitions.services import stage_standings_recompute
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.integrations.exports import FORMULA_START, PLAIN_NUMBER, csv_cell, csv_text
from tournaments.models import GameResult, Series, Stage, Tournament

pytestmark = pytest.mark.django_db


def _rows(response: Any) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # spreadsheets read the accents right
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.fixture
def played(cup: Callable[..., Tournament], organiser: Any, referee: Any) -> Stage:
    """A four-player round robin (Snapszer, best of 3) with round 1 decided: table 1 2–0 for its
    second seat, table 2 2–1 for its first seat with game 2 recorded wrongly first then corrected."""
    tournament = cup(4, prefix="Ó")  # accents: "Ó001" …
    tournament.referees.add(referee)
    stage = stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin", options={}
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    first, second = Series.objects.filter(stage=stage, round__number=1).order_by("table")
    a, b = [s.player for s in first.seats.order_by("seat")]
    for number in (1, 2):
        record_result(user=referee, series_id=first.pk, game_number=number, result=snapszer_win(b, a))
    c, d = [s.player for s in second.seats.order_by("seat")]
    for number, winner, loser in [(1, c, d), (2, d, c), (3, c, d)]:
        record_result(
            user=referee, series_id=second.pk, game_number=number, result=snapszer_win(winner, loser)
        )
    stage_standings_recompute(stage_id=stage.pk)  # the worker's task, here in the test
    return stage


def test_the_standings_csv_is_the_standings_page_in_rows(played: Stage) -> None:
    response = Client().get(f"/stages/{played.pk}/standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert (
        response["Content-Disposition"].startswith('attachment; filename="')
        and ".csv" in response["Content-Disposition"]
    )
    header, *rows = _rows(response)
    assert header[:5] == ["Group", "Rank", "Position", "Player", "Player id"]
    page = Client().get(f"/stages/{played.pk}/standings/").content.decode()
    assert len(rows) == 4
    # The same order as the page, the winners of round 1 first.
    assert [r[3] for r in rows] == sorted((r[3] for r in rows), key=page.index)
    assert all(r[3].startswith("Ó") for r in rows)
    assert [r[2] for r in rows] == ["1", "2", "3", "4"]


def test_the_standings_csv_speaks_the_readers_language(played: Stage) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="hu").get(f"/stages/{played.pk}/standings.csv")
    header = _rows(response)[0]
    with translation.override("hu"):
        assert header[3] == translation.gettext("Player") != "Player"


def test_the_results_csv_has_a_row_per_game_with_places_and_points(played: Stage, organiser: Any) -> None:
    series = Series.objects.filter(stage=played, round__number=1).order_by("table")[1]
    c, d = [s.player for s in series.seats.order_by("seat")]
    api = APIClient()
    api.force_authenticate(organiser)
    body = {
        "game": 2,
        "expected_version": 1,
        "reason": "c won game 2",
        "result": snapszer_win(c, d),
        "void_later_games": True,
    }
    assert (
        api.post(f"/api/series/{series.pk}/results/", body, format="json").status_code == 201
    )  # voids game 3
    response = Client().get(f"/tournaments/{played.tournament_id}/results.csv")
    header, *rows = _rows(response)
    assert len(rows) == GameResult.objects.filter(game__series__stage=played, confirmed=True).count() == 5
    col = {name: header.index(name) for name in header}
    assert [(r[col["Table"]], r[col["Game"]]) for r in rows] == [
        ("1", "1"),
        ("1", "2"),
        ("2", "1"),
        ("2", "2"),
        ("2", "3"),
    ]
    seated = [s.player.name for s in series.seats.order_by("seat")]
    game_one = rows[2]
    assert game_one[col["Players (first dealer first)"]] == " – ".join(seated)
    assert game_one[col["Places"]] == f"1. {seated[0]}; 2. {seated[1]}"
    assert seated[0] in game_one[col["Game points"]] and game_one[col["Void"]] == ""
    assert rows[4][col["Void"]] == "void" and rows[4][col["Places"]] == ""
    assert all(r[col["Recorded by"]] for r in rows[:4])


def test_the_json_export_holds_every_stage_round_series_result_and_standing(played: Stage) -> None:
    response = Client().get(f"/api/tournaments/{played.tournament_id}/export/?download=1")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["format"] == "snapleague.tournament" and data["version"] == 1
    assert data["tournament"]["id"] == played.tournament_id
    assert sorted(p["id"] for p in data["players"]) == sorted(data["tournament"]["players"])
    (stage,) = data["stages"]
    assert stage["stage"]["id"] == played.pk
    series = [s for r in stage["rounds"] for s in r["series"]]
    assert len(series) == Series.objects.filter(stage=played).count() == 6
    results = [res for s in series for res in s["results"]]
    assert len(results) == 5 and all(res["confirmed"] for res in results)
    assert [row["position"] for row in stage["standings"]["rows"]] == [1, 2, 3, 4]


def test_a_draft_tournaments_exports_are_its_organisers_only(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    draft = cup(3, prefix="D")
    for url in (f"/tournaments/{draft.pk}/results.csv", f"/api/tournaments/{draft.pk}/export/"):
        assert Client().get(url).status_code == 404
        client = Client()
        client.force_login(organiser)
        assert client.get(url).status_code == 200


# --- Spreadsheet formulas (issue 27 item 5) -------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://x","y")', "+SUM(1,2)", "-2+3", "@SUM(1)", "\tTab", "\rReturn"]


@pytest.mark.parametrize("name", FORMULAS)
def test_a_cell_a_spreadsheet_would_evaluate_shows_as_typed(name: str) -> None:
    assert csv_cell(name) == "'" + name
    rows = list(csv.reader(io.StringIO(csv_text(["Player"], [[name]])[1:])))
    assert rows == [["Player"], ["'" + name]]


@pytest.mark.parametrize("value", [-3, "-3", "+1.5", "1,5", 2.5, "Zoë", "a=b", "", None])
def test_numbers_and_plain_text_stay_as_they_are(value: Any) -> None:
    assert csv_cell(value) == value


def test_the_standings_and_results_csv_neutralise_a_formula_as_a_players_name(played: Stage) -> None:
    seated = list(Series.objects.filter(stage=played, round__number=1).order_by("table"))
    player = seated[0].seats.order_by("seat").first().player  # type: ignore[union-attr]
    player.name = FORMULAS[0]
    player.save(update_fields=["name"])
    stage_standings_recompute(stage_id=played.pk)
    standings = _rows(Client().get(f"/stages/{played.pk}/standings.csv"))
    results = _rows(Client().get(f"/tournaments/{played.tournament_id}/results.csv"))
    for rows in (standings, results):
        cells = [cell for row in rows for cell in row]
        assert any(cell.startswith("'" + FORMULAS[0]) for cell in cells)  # alone, or first of a list
        formulas = [c for c in cells if c.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(c)]
        assert formulas == [], formulas
