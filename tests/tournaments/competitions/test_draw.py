"""A random draw anyone can check (issue 23, item 3) and a stage over a chosen subset of the
tournament's players (item 6): the commitment published at creation, the seed hidden until round 1
is published (API, page, export) and revealed then; the draw recomputed by the snippet that
docs/formats.md prints; stages from before the migration; the players chosen through the API and
the new-stage form."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from rest_framework.test import APIClient

from snapleague.users import Account
from tests.tournaments.competitions.formats.checker import documented_draw
from tournaments.competitions.formats.base import StageState
from tournaments.competitions.formats.registry import format_for
from tournaments.competitions.formats.stored import rounds_to_json
from tournaments.competitions.services import tournament_players_enter
from tournaments.competitions.stages.state import stage_entrants_before_draw
from tournaments.models import Club, GameKind, Player, Round, Stage, Tournament

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("tournaments.migrations.0019_stage_draw_seed_commitment_seeding_players")


def _api(user: Account) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _page(user: Account) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _create(client: APIClient, tournament: Tournament, **body: Any) -> Any:
    return client.post("/api/stages/", {"tournament": tournament.pk, "name": "Stage", **body}, format="json")


def _stage(client: APIClient, tournament: Tournament, **body: Any) -> dict[str, Any]:
    response = _create(client, tournament, **body)
    assert response.status_code == 201, response.json()
    return dict(response.json())


def _export_stage(client: APIClient, tournament: Tournament, stage_id: int) -> dict[str, Any]:
    body = client.get(f"/api/tournaments/{tournament.pk}/export/").json()
    return next(s["stage"] for s in body["stages"] if s["stage"]["id"] == stage_id)


def _publish(client: APIClient, stage_id: int, capture: Any) -> Any:
    with capture(execute=True):
        response = client.post(f"/api/stages/{stage_id}/rounds/")
    assert response.status_code == 201, response.json()
    return response.json()


# --- The commitment and the reveal ---------------------------------------------------------------


def test_a_new_stage_commits_to_its_seed_and_hides_it_until_round_1_is_published(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(8)
    client = _api(organiser)
    body = _stage(client, tournament, format="single_elimination")
    stage = Stage.objects.get(pk=body["id"])
    assert body["seed_commitment"] == hashlib.sha256(stage.seed.encode()).hexdigest()
    assert body["seed"] is None and body["entrants"] == [] and body["draw_entrants"] == []
    detail = client.get(f"/api/stages/{stage.pk}/").json()
    assert (detail["seed_commitment"], detail["seed"]) == (body["seed_commitment"], None)
    exported = _export_stage(client, tournament, stage.pk)
    assert (exported["seed_commitment"], exported["seed"]) == (body["seed_commitment"], None)
    assert stage.seed not in json.dumps(client.get(f"/api/tournaments/{tournament.pk}/export/").json())
    page = _page(organiser).get(f"/stages/{stage.pk}/draw/").content.decode()
    assert body["seed_commitment"] in page and stage.seed not in page
    assert "revealed when round 1 is published" in page
    # The organiser's preview of round 1 does not reveal it either.
    assert stage.seed not in _page(organiser).get(f"/stages/{stage.pk}/preview/").content.decode()
    stage_page = _page(organiser).get(f"/stages/{stage.pk}/").content.decode()
    assert f'href="/stages/{stage.pk}/draw/"' in stage_page


def test_once_round_1_is_out_the_seed_is_revealed_and_the_documented_snippet_recomputes_the_draw(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(13)
    client = _api(organiser)
    stage_id = _stage(client, tournament, format="single_elimination")["id"]
    _publish(client, stage_id, django_capture_on_commit_callbacks)
    body = client.get(f"/api/stages/{stage_id}/").json()
    seed = body["seed"]
    assert seed and hashlib.sha256(seed.encode("utf-8")).hexdigest() == body["seed_commitment"]
    entry_order = list(
        tournament.entries.order_by("seed", "player__name").values_list("player_id", flat=True)
    )
    assert body["draw_entrants"] == entry_order
    # An outsider's recomputation (the block printed in docs/formats.md) gives the seeding order.
    assert documented_draw()(seed, body["draw_entrants"]) == body["entrants"]
    assert body["entrants"] != entry_order  # a draw, not the entry order (13! orders: never by chance here)
    stage = Stage.objects.get(pk=stage_id)
    assert body["entrants"] == stage.seeding
    # And the seeding order is the one round 1 was paired from: the same format given that order
    # as a manual seeding publishes exactly the stored round 1.
    manual = StageState(
        entrants=tuple(body["entrants"]),
        seed="irrelevant",
        game=GameKind.SNAPSZER,
        options={**stage.options, "seeding": "manual"},
    )
    (first,) = format_for(stage.format).next_rounds(manual)
    (stored,) = json.loads(rounds_to_json([first]))  # the canonical form rounds are stored in
    assert json.loads(json.dumps(Round.objects.get(stage=stage, number=1).plan)) == stored
    assert _export_stage(client, tournament, stage_id)["seed"] == seed
    page = _page(organiser).get(f"/stages/{stage_id}/draw/").content.decode()
    assert seed in page and "the seed matches the commitment" in page
    assert "the seeding order is the draw of this seed" in page and "NOT" not in page


def test_a_withdrawal_from_round_1_leaves_the_player_out_of_the_published_draw(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(6)
    client = _api(organiser)
    stage_id = _stage(client, tournament, format="swiss", options={"rounds": 2})["id"]
    out = tournament.entries.order_by("seed").values_list("player_id", flat=True)[2]
    assert (
        client.post(f"/api/stages/{stage_id}/withdrawals/", {"player": out}, format="json").status_code == 201
    )
    _publish(client, stage_id, django_capture_on_commit_callbacks)
    body = client.get(f"/api/stages/{stage_id}/").json()
    assert out not in body["draw_entrants"] and sorted(body["entrants"]) == sorted(body["draw_entrants"])
    assert documented_draw()(body["seed"], body["draw_entrants"]) == body["entrants"]


def test_a_stage_from_before_verification_says_so_and_goes_on_as_it_was_drawn(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    client = _api(organiser)
    stage_id = _stage(client, tournament, format="swiss", options={"rounds": 3})["id"]
    _publish(client, stage_id, django_capture_on_commit_callbacks)
    # As the migration finds a stage of before: no commitment, no stored seeding order.
    Stage.objects.filter(pk=stage_id).update(seed_commitment="", seeding=[])
    MIGRATION.store_seeding(apps, None)
    stage = Stage.objects.get(pk=stage_id)
    legacy = sorted(
        stage.entrants, key=lambda p: (hashlib.sha256(f"{stage.seed}|{p}".encode()).hexdigest(), str(p))
    )
    assert stage.seeding == legacy  # the order it was drawn in then, stored
    body = client.get(f"/api/stages/{stage_id}/").json()
    assert (body["seed_commitment"], body["seed"], body["entrants"]) == (None, None, legacy)
    page = _page(organiser).get(f"/stages/{stage_id}/draw/").content.decode()
    assert "created before draws could be verified" in page and stage.seed not in page
    # A stage still in setup is left alone (it draws when round 1 is published).
    setup_id = _stage(client, tournament, format="swiss", options={"rounds": 3})["id"]
    MIGRATION.store_seeding(apps, None)
    assert Stage.objects.get(pk=setup_id).seeding == []


def test_the_migrations_legacy_order_takes_only_the_players_drawn_into_round_1() -> None:
    plan = {"byes": [5], "series": [{"seats": [1, 3]}, {"seats": [4, None]}]}
    assert MIGRATION.legacy_seeding([1, 2, 3, 4, 5], "s", {"seeding": "manual"}, plan) == [1, 3, 4, 5]
    drawn = MIGRATION.legacy_seeding([1, 2, 3, 4, 5], "s", {}, plan)
    assert drawn == sorted([1, 3, 4, 5], key=lambda p: hashlib.sha256(f"s|{p}".encode()).hexdigest())


# --- A stage over a chosen subset ----------------------------------------------------------------


def test_the_api_creates_a_stage_over_the_players_chosen(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    client = _api(organiser)
    entered = list(tournament.entries.order_by("seed").values_list("player_id", flat=True))
    chosen = [entered[6], entered[1], entered[3], entered[4]]
    body = _stage(client, tournament, format="single_elimination", players=chosen)
    assert body["players"] == chosen
    published = _publish(client, body["id"], django_capture_on_commit_callbacks)
    seated = {seat["player"] for r in published for s in r["series"] for seat in s["seats"]}
    assert seated == set(chosen)
    detail = client.get(f"/api/stages/{body['id']}/").json()
    assert detail["draw_entrants"] == [p for p in entered if p in chosen]  # entry order
    assert documented_draw()(detail["seed"], detail["draw_entrants"]) == detail["entrants"]
    # Left out (or null): everyone, as before.
    assert _stage(client, tournament, format="swiss", players=None)["players"] == []


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (lambda e, stranger: [e[0], e[1], e[0]], "Each player can be chosen once"),
        (lambda e, stranger: [e[0], stranger], "not entered in it"),
        (lambda e, stranger: [e[0], 99_999_999], "not entered in it"),
        (lambda e, stranger: [e[0]], "Choose at least 2 players"),
        (lambda e, stranger: [], "Choose at least 2 players"),
    ],
    ids=["duplicate", "another_clubs_player", "unknown_id", "one", "none"],
)
def test_players_chosen_wrongly_are_a_field_error_and_nothing_is_created(
    cup: Callable[..., Tournament], organiser: Account, chosen: Callable[..., Any], message: str
) -> None:
    tournament = cup(6)
    stranger = Player.objects.create(club=Club.objects.create(name="Elsewhere", slug="elsewhere"), name="Zed")
    entered = list(tournament.entries.order_by("seed").values_list("player_id", flat=True))
    response = _create(_api(organiser), tournament, format="swiss", players=chosen(entered, stranger.pk))
    assert response.status_code == 400, response.json()
    assert message in " ".join(response.json()["fields"]["players"])
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_too_few_players_for_the_format_and_players_with_an_earlier_stage_are_refused(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(8)
    client = _api(organiser)
    entered = list(tournament.entries.order_by("seed").values_list("player_id", flat=True))
    response = _create(
        client, tournament, format="groups_playoff", options={"group_size": 4}, players=entered[:2]
    )
    assert response.status_code == 400, response.json()
    assert "at least 3" in response.json()["fields"]["players"][0]
    league = _stage(client, tournament, format="swiss")["id"]
    response = _create(
        client, tournament, format="single_elimination", seeded_from=league, players=entered[:4]
    )
    assert response.status_code == 400
    assert "choose players or an earlier stage" in response.json()["fields"]["players"][0]
    response = _create(client, tournament, format="swiss", players=["one", "two"])
    assert response.status_code == 400 and "players.0" in response.json()["fields"]


def test_the_new_stage_form_lists_the_players_all_checked_and_takes_those_left_checked(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(6)
    entered = list(tournament.entries.order_by("seed").values_list("player_id", flat=True))
    page = _page(organiser).get(f"/tournaments/{tournament.pk}/").content.decode()
    for pk in entered:
        assert f'name="players" value="{pk}"' in page
    assert page.count('name="players"') == len(entered) and page.count("checked") >= len(entered)
    form = {"name": "Final four", "format": "single_elimination", "players_listed": "on"}
    response = _page(organiser).post(
        f"/tournaments/{tournament.pk}/stages/new/", {**form, "players": entered[2:]}
    )
    assert response.status_code == 302
    assert Stage.objects.get(tournament=tournament).players == entered[2:]
    # All checked: every player, those entered later too.
    response = _page(organiser).post(
        f"/tournaments/{tournament.pk}/stages/new/", {**form, "name": "All", "players": entered}
    )
    assert response.status_code == 302 and Stage.objects.get(name="All").players == []
    tournament_players_enter(user=organiser, tournament=tournament, new_names=["Late"])
    late = Player.objects.get(name="Late").pk
    assert late in stage_entrants_before_draw(Stage.objects.get(name="All"))
    assert late not in stage_entrants_before_draw(Stage.objects.get(name="Final four"))
    # Nothing checked: an error at the list, nothing created.
    response = _page(organiser).post(f"/tournaments/{tournament.pk}/stages/new/", {**form, "name": "None"})
    assert response.status_code == 400
    assert "Choose at least 2 players" in response.content.decode()
    assert not Stage.objects.filter(name="None").exists()
