"""One shape for an empty seat wherever the API, the export and the webhooks give a series' seats
(issue 23 item 6, docs/formats.md "Empty seats"): ``seat_count`` entries by seat index, ``null``
for an empty one. A bye of a 5-player single elimination is the case: seat 0 filled, seat 1 empty.
Before, ``series/``, the publish answer, the export and the webhooks left the empty seat out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from snapleague.users import Account
from tournaments.integrations.webhooks.events import round_published_data
from tournaments.models import Player, Round, Series, Tournament

pytestmark = pytest.mark.django_db


def _seat(name: str, seat: int) -> dict[str, Any]:
    return {"seat": seat, "player": Player.objects.get(name=name).pk, "name": name}


@pytest.fixture
def bye_stage(cup: Callable[..., Tournament], organiser: Account) -> tuple[APIClient, int, Any]:
    """A 5-player single elimination, seeded by hand, round 1 published through the API: three
    byes (W1-1: P001 against nobody) and one series played (W1-2 … one of them)."""
    tournament = cup(5)
    client = APIClient()
    client.force_authenticate(organiser)
    created = client.post(
        "/api/stages/",
        {
            "tournament": tournament.pk,
            "name": "Cup",
            "format": "single_elimination",
            "options": {"seeding": "manual"},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    stage = created.json()["id"]
    preview = client.get(f"/api/stages/{stage}/preview/").json()
    published = client.post(f"/api/stages/{stage}/rounds/")
    assert published.status_code == 201, published.json()
    return client, stage, {"preview": preview, "published": published.json(), "tournament": tournament}


def _check_bye_and_played(series: list[dict[str, Any]], *, seat_key: str = "seats") -> None:
    by_key = {s["key"]: s for s in series}
    bye = by_key["W1-1"]
    assert bye.get("walkover", True) is True  # the webhook's series has no walkover field
    assert bye[seat_key] == [_seat("P001", 0), None]
    played = [s for s in series if None not in s[seat_key]]
    assert len(played) == 1 and len(played[0][seat_key]) == 2
    assert sum(None in s[seat_key] for s in series) == 3


def test_series_list_and_detail_give_the_empty_seat_as_null(bye_stage: tuple[APIClient, int, Any]) -> None:
    client, stage, _made = bye_stage
    listed = client.get(f"/api/series/?stage={stage}").json()["results"]
    _check_bye_and_played(listed)
    assert {s["seat_count"] for s in listed} == {2}
    bye = next(s for s in listed if s["key"] == "W1-1")
    detail = client.get(f"/api/series/{bye['id']}/").json()
    assert detail["seats"] == [_seat("P001", 0), None] and detail["seat_count"] == 2


def test_the_publish_answer_gives_the_same_shape(bye_stage: tuple[APIClient, int, Any]) -> None:
    _client, _stage, made = bye_stage
    (round_one,) = made["published"]
    _check_bye_and_played(round_one["series"])


def test_the_bracket_gives_the_same_shape(bye_stage: tuple[APIClient, int, Any]) -> None:
    client, stage, _made = bye_stage
    _check_bye_and_played(client.get(f"/api/stages/{stage}/bracket/").json()["series"])


def test_the_preview_names_the_empty_seat_as_null(bye_stage: tuple[APIClient, int, Any]) -> None:
    _client, _stage, made = bye_stage
    rows = {row["key"]: row for row in made["preview"]["rows"]}
    assert rows["W1-1"]["players"] == ["P001", None] and rows["W1-1"]["walkover"] is True


def test_the_export_gives_the_same_shape(bye_stage: tuple[APIClient, int, Any]) -> None:
    client, stage, made = bye_stage
    body = client.get(f"/api/tournaments/{made['tournament'].pk}/export/").json()
    (exported,) = [s for s in body["stages"] if s["stage"]["id"] == stage]
    _check_bye_and_played([line["series"] for line in exported["rounds"][0]["series"]])


def test_the_round_published_webhook_gives_the_same_shape(bye_stage: tuple[APIClient, int, Any]) -> None:
    _client, stage, _made = bye_stage
    data = round_published_data(list(Round.objects.filter(stage_id=stage).values_list("pk", flat=True)))
    series = data["rounds"][0]["series"]
    bye = next(s for s in series if s["key"] == "W1-1")
    player = Player.objects.get(name="P001")
    assert bye["players"] == [{"id": player.pk, "name": "P001", "seat": 0}, None]
    assert bye["seat_count"] == 2
    assert sum(None in s["players"] for s in series) == 3
    assert Series.objects.filter(stage_id=stage, walkover=True).count() == 3


def test_the_schema_says_a_seat_may_be_null(client: Any) -> None:
    """The bracket's schema had the seat items without ``nullable``: a bye's ``null`` broke it."""
    schemas = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    for name in ("SeriesOutput", "BracketSeriesOutput"):
        items = schemas[name]["properties"]["seats"]["items"]
        assert items["nullable"] is True and items["required"] == ["seat", "player", "name"], name
    assert schemas["SeriesOutput"]["properties"]["seat_count"]["type"] == "integer"
