"""The REST resources per role and per object: lists show what one may see, writes check who asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from snapleague.users import Account
from tests.conftest import record_result, snap_win
from tournaments.models import Entry, GameKind, Player, Series, Stage, Tournament


def _client(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def table(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:4])


@pytest.fixture
def draft(club: Any, referee: Any) -> Tournament:
    """A tournament being set up (no pairings yet): its organisers and referees only see it."""
    tournament = Tournament.objects.create(
        club=club, name="Draft cup", game=GameKind.SNAPSZER, rules_profile="snapszer"
    )
    tournament.referees.add(referee)
    return tournament


def _ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.json()
    return [item["id"] for item in response.json()["results"]]


def test_lists_are_paginated_and_filtered(table: Series, players: list[Player]) -> None:
    body = _client().get("/api/players/", {"club": table.stage.tournament.club_id}).json()
    assert body["count"] == 8 and {"next", "previous", "results"} <= set(body)
    assert [p["name"] for p in body["results"]][:2] == ["Anna", "Bence"]
    named = _client().get("/api/players/", {"name__icontains": "sill"}).json()
    assert [p["name"] for p in named["results"]] == ["Csilla"]
    assert _ids(_client().get("/api/series/", {"stage": table.stage_id})) == [table.pk]
    assert _ids(_client().get("/api/series/", {"stage": table.stage_id, "status": "decided"})) == []
    assert _ids(_client().get("/api/rounds/", {"stage": table.stage_id})) == [table.round_id]
    assert _ids(_client().get("/api/stages/", {"tournament": table.stage.tournament_id})) == [table.stage_id]
    assert len(_ids(_client().get("/api/clubs/"))) == 1


def test_games_and_result_versions_are_listed_by_series(
    table: Series, players: list[Player], referee: Any, organiser: Any
) -> None:
    a, b, c, d = players[:4]
    record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(a, d, c, b))
    record_result(
        user=organiser,
        series_id=table.pk,
        game_number=1,
        result=snap_win(b, d, c, a),
        expected_version=1,
        reason="wrong winner",
    )
    games = _client().get("/api/games/", {"series": table.pk}).json()["results"]
    assert [(g["number"], g["sudden_death"]) for g in games] == [(1, False)]
    versions = _client().get("/api/results/", {"game__series": table.pk}).json()["results"]
    assert [(v["version"], v["confirmed"], v["reason"]) for v in versions] == [
        (1, False, ""),
        (2, True, "wrong winner"),
    ]
    current = _client().get("/api/results/", {"game__series": table.pk, "confirmed": "true"}).json()
    assert [v["version"] for v in current["results"]] == [2]


def test_a_draft_is_hidden_from_everyone_but_its_organisers_and_referees(
    draft: Tournament, organiser: Account, referee: Account, other_referee: Account, player_user: Account
) -> None:
    for user in (None, player_user, other_referee):
        assert draft.pk not in _ids(_client(user).get("/api/tournaments/"))
        response = _client(user).get(f"/api/tournaments/{draft.pk}/")
        assert response.status_code == 404 and response.json()["code"] == "tournament_not_found"
    for user in (organiser, referee):
        assert draft.pk in _ids(_client(user).get("/api/tournaments/"))
        assert _client(user).get(f"/api/tournaments/{draft.pk}/").status_code == 200


def test_the_organiser_sets_up_a_league_through_the_api(club: Any, organiser: Any, players: list) -> None:
    client = _client(organiser)
    response = client.post(
        "/api/tournaments/",
        {"club": club.pk, "name": "API league", "game": "snapszer", "series_format": "best_of_3"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    tournament_id = response.json()["id"]
    added = client.post(
        f"/api/tournaments/{tournament_id}/players/", {"players": [p.pk for p in players[:5]]}, format="json"
    )
    assert added.status_code == 200 and len(added.json()["players"]) == 5
    new_player = client.post("/api/players/", {"club": club.pk, "name": "Zoé"}, format="json")
    assert new_player.status_code == 201 and new_player.json()["name"] == "Zoé"
    stage = client.post(
        "/api/stages/",
        {"tournament": tournament_id, "name": "League", "options": {"bye": "win"}},
        format="json",
    )
    assert stage.status_code == 201, stage.json()
    rounds = client.post(f"/api/stages/{stage.json()['id']}/rounds/")
    assert rounds.status_code == 201
    assert len(rounds.json()) == 5  # five entrants: five rounds, one bye each
    assert all(r["bye"] is not None for r in rounds.json())
    again = client.post(f"/api/stages/{stage.json()['id']}/rounds/")
    assert again.status_code == 409 and again.json()["code"] == "no_more_rounds"


@pytest.mark.parametrize("who", ["referee", "other_referee", "player_user"])
def test_only_organisers_write_the_set_up(
    table: Series, club: Any, players: list[Player], who: str, request: Any
) -> None:
    client = _client(request.getfixturevalue(who))
    tournament = table.stage.tournament
    attempts = [
        client.post("/api/tournaments/", {"club": club.pk, "name": "X", "game": "snap"}, format="json"),
        client.post("/api/players/", {"club": club.pk, "name": "Xavér"}, format="json"),
        client.post("/api/stages/", {"tournament": tournament.pk, "name": "Second"}, format="json"),
        client.post(
            f"/api/tournaments/{tournament.pk}/players/", {"players": [players[5].pk]}, format="json"
        ),
        client.post(f"/api/stages/{table.stage_id}/rounds/"),
    ]
    assert [r.status_code for r in attempts] == [403] * 5
    assert {r.json()["code"] for r in attempts} == {"not_organiser"}
    assert Stage.objects.filter(tournament=tournament).count() == 1
    assert not Player.objects.filter(name="Xavér").exists()


def test_anonymous_writes_are_refused(club: Any) -> None:
    response = _client().post("/api/players/", {"club": club.pk, "name": "Anon"}, format="json")
    assert response.status_code == 403
    assert not Player.objects.filter(name="Anon").exists()


def test_a_referee_of_another_tournament_cannot_record_here(
    table: Series, players: list[Player], other_referee: Any
) -> None:
    response = _client(other_referee).post(
        f"/api/series/{table.pk}/results/", {"game": 1, "result": snap_win(*players[:4])}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "not_referee"


def test_a_stage_of_a_hidden_draft_is_404_for_others(draft: Tournament, other_referee: Any) -> None:
    stage = Stage.objects.create(tournament=draft, name="League", format="round_robin", seed="s")
    assert _client(other_referee).get(f"/api/stages/{stage.pk}/").status_code == 404
    assert _client(other_referee).get(f"/api/stages/{stage.pk}/standings/").status_code == 404
    assert stage.pk not in _ids(_client(other_referee).get("/api/stages/"))


def test_a_hidden_draft_s_entrants_are_not_found_by_filtering_players_on_it(
    draft: Tournament, players: list[Player], organiser: Account, referee: Account, other_referee: Account
) -> None:
    Entry.objects.create(tournament=draft, player=players[0])
    url = f"/api/players/?entries__tournament={draft.pk}"
    for user in (None, other_referee):
        assert _ids(_client(user).get(url)) == []
    for user in (organiser, referee):
        assert _ids(_client(user).get(url)) == [players[0].pk]
    assert _client().get("/api/players/?entries__tournament=x").status_code == 400


def test_the_schema_lists_every_resource_and_the_docs_are_served_offline(db: Any) -> None:
    schema = _client().get("/api/schema/").content.decode()
    for path in (
        "/api/clubs/",
        "/api/players/",
        "/api/tournaments/",
        "/api/stages/",
        "/api/rounds/",
        "/api/series/",
        "/api/games/",
        "/api/results/",
        "/api/series/{series_id}/results/",
        "/api/stages/{stage_id}/standings/",
    ):
        assert path in schema
    docs = _client().get("/api/docs/").content.decode()
    assert "swagger-ui" in docs and "https://" not in docs  # the UI comes from the sidecar's static files


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        ("snapszer", {"bye": "lots"}, "bye"),
        ("snapszer", {"double": "yes"}, "double"),
        ("snapszer", {"seeding": "by rating"}, "seeding"),
        ("snapszer", {"table_size": 4}, "options"),
        ("snap", {"bye": "win"}, "options"),
        ("snap", {"tables": 3}, "options"),
    ],
)
def test_stage_options_the_round_robin_cannot_use_are_field_errors(
    club: Any, organiser: Any, game: str, options: dict[str, Any], field: str
) -> None:
    # An unusable option used to be stored and then break the standings task at every result.
    client = _client(organiser)
    created = client.post("/api/tournaments/", {"club": club.pk, "name": "Cup", "game": game}, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    response = client.post(
        "/api/stages/", {"tournament": tournament_id, "name": "League", "options": options}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] in {"unknown_option", "option_not_a_choice", "option_not_yes_or_no"}
    assert list(response.json()["fields"]) == [field]
    assert not Stage.objects.filter(tournament_id=tournament_id).exists()
    good = (
        {"bye": "draw", "double": True, "seeding": "manual"} if game == "snapszer" else {"seeding": "manual"}
    )
    assert (
        client.post(
            "/api/stages/", {"tournament": tournament_id, "name": "League", "options": good}, format="json"
        ).status_code
        == 201
    )
