"""The stage formats through the REST API: create every format, preview, publish (and the format's
refusals), withdrawals, forfeits, the bracket of any stage; permissions and unknown ids; the OpenAPI
schema; and, with a real Celery worker, a 16-player Swiss and a 16-player double elimination played
to the end from results posted game by game."""

from __future__ import annotations

import hashlib
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from snapleague.errors import NotFound
from snapleague.users import Account
from tests.conftest import play_open_series, record_result, snapszer_win
from tests.tournaments.conftest import NEEDS_A_DATABASE_FILE
from tournaments.competitions.services import stage_standings_recompute
from tournaments.competitions.stages.withdrawals import series_forfeit
from tournaments.models import (
    Club,
    Forfeit,
    GameKind,
    Player,
    Round,
    Series,
    Stage,
    Tournament,
    Withdrawal,
)


def _client(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _create(client: APIClient, tournament: Tournament, **body: Any) -> Any:
    return client.post("/api/stages/", {"tournament": tournament.pk, "name": "Stage", **body}, format="json")


def _stage(client: APIClient, tournament: Tournament, **body: Any) -> int:
    response = _create(client, tournament, **body)
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


# --- Creating every format -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "game", "options", "filled"),
    [
        ("round_robin", GameKind.SNAPSZER, {"bye": "draw"}, {"double": False, "seeding": "random"}),
        ("swiss", GameKind.SNAPSZER, {"rounds": 3}, {"bye": "win", "seeding": "random"}),
        ("swiss_tables", GameKind.SNAP, {"table_size": 4}, {"rounds": None}),
        ("single_elimination", GameKind.SNAPSZER, {"third_place": True}, {"table_size": 2, "advance": 1}),
        ("single_elimination", GameKind.SNAP, {"table_size": 4, "advance": 2}, {"third_place": False}),
        ("double_elimination", GameKind.SNAPSZER, {"grand_final_reset": False}, {"seeding": "random"}),
        (
            "groups_playoff",
            GameKind.SNAPSZER,
            {"group_size": 4, "advance": 2},
            {"playoff": "single_elimination"},
        ),
        ("heats", GameKind.SNAP, {"table_size": 4, "advance": 2}, {"repechage": False}),
    ],
)
def test_every_format_is_created_with_its_options_filled_in(  # noqa: PLR0917
    cup: Callable[..., Tournament],
    organiser: Account,
    format: str,
    game: str,
    options: dict[str, Any],
    filled: dict[str, Any],
) -> None:
    tournament = cup(8, game=game)
    response = _create(_client(organiser), tournament, format=format, options=options, publishing="review")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["format"] == format and body["publishing"] == "review"
    assert body["options"] == {**body["options"], **options, **filled}  # given and defaults both there
    assert body["status"] == "setup" and body["entrants"] == []
    assert body["seeded_from"] is None and body["seeded_take"] is None and body["tiebreaks"] == []
    stage = Stage.objects.get(pk=body["id"])
    assert stage.format == format and stage.publishing == Stage.Publishing.REVIEW


@pytest.mark.django_db
def test_a_stage_seeded_from_an_earlier_ones_standings_takes_its_top_players(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    client = _client(organiser)
    swiss = _stage(client, tournament, format="swiss", options={"rounds": 3, "seeding": "manual"})
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/stages/{swiss}/rounds/").status_code == 201
    for _round in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            play_open_series(swiss, organiser)
    stage_standings_recompute(stage_id=swiss)
    response = _create(
        client,
        tournament,
        format="single_elimination",
        options={"seeding": "standings"},
        seeded_from=swiss,
        seeded_take=4,
        tiebreaks=["series_won", "buchholz", "games_won"],
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["seeded_from"], body["seeded_take"]) == (swiss, 4)
    assert body["tiebreaks"] == ["series_won", "buchholz", "games_won"]
    published = client.post(f"/api/stages/{body['id']}/rounds/")
    assert published.status_code == 201, published.json()
    top_four = list(
        Stage.objects.get(pk=swiss).standing_rows.order_by("position").values_list("player_id", flat=True)[:4]
    )
    assert client.get(f"/api/stages/{body['id']}/").json()["entrants"] == top_four
    seated = {seat["player"] for r in published.json() for s in r["series"] for seat in s["seats"]}
    assert seated == set(top_four)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "options", "extra", "field", "code"),
    [
        ("bracket", {}, {}, "format", "invalid"),
        ("swiss", ["rounds", 3], {}, "options", "invalid"),
        ("swiss", {"rounds": 9}, {}, "rounds", "too_many_rounds"),  # 5 players: at most 5 rounds
        ("swiss", {"rounds": "many"}, {}, "rounds", "option_not_a_number"),
        ("swiss", {"pairing": "dutch"}, {}, "options", "unknown_option"),
        ("groups_playoff", {"group_size": 4}, {}, "group_size", "groups_uneven"),
        ("double_elimination", {"grand_final_reset": "yes"}, {}, "grand_final_reset", "option_not_yes_or_no"),
        ("heats", {}, {}, "format", "format_not_for_game"),  # Snapszer is played by two
        ("swiss", {}, {"publishing": "later"}, "publishing", "invalid"),
        ("swiss", {}, {"tiebreaks": ["placing_sum"]}, "tiebreaks", "invalid_tiebreaks"),  # a Snap one
        ("swiss", {}, {"tiebreaks": ["luck"]}, "tiebreaks.0", "invalid"),
        ("swiss", {}, {"seeded_from": 999999}, "seeded_from", "invalid"),
        ("swiss", {}, {"seeded_take": 1}, "seeded_take", "invalid"),
        ("swiss", {}, {"seeded_take": 4}, "seeded_take", "invalid"),  # taken from no stage
        ("swiss", {}, {"name": ""}, "name", "invalid"),
    ],
)
def test_impossible_stages_are_a_400_naming_the_field_and_nothing_is_created(  # noqa: PLR0917
    cup: Callable[..., Tournament],
    organiser: Account,
    format: str,
    options: Any,
    extra: dict[str, Any],
    field: str,
    code: str,
) -> None:
    tournament = cup(5)
    response = _create(_client(organiser), tournament, format=format, options=options, **extra)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == code
    assert list(body["fields"]) == [field] and body["fields"][field][0]
    assert body["message"]
    assert not Stage.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_a_heats_stage_refuses_a_top_k_not_below_the_table_size(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(8, game=GameKind.SNAP)
    response = _create(
        _client(organiser), tournament, format="heats", options={"table_size": 4, "advance": 4}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "advance_not_below_table_size"
    assert list(response.json()["fields"]) == ["advance"]
    assert not Stage.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_an_earlier_stage_of_another_tournament_cannot_seed_a_stage(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    other = cup(4, prefix="Q")
    elsewhere = _stage(_client(organiser), other, format="swiss")
    tournament = cup(4)
    response = _create(_client(organiser), tournament, format="single_elimination", seeded_from=elsewhere)
    assert response.status_code == 400 and list(response.json()["fields"]) == ["seeded_from"]
    assert not Stage.objects.filter(tournament=tournament).exists()


# --- Preview and publish -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_preview_shows_the_first_round_and_stores_nothing(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(7)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss", options={"seeding": "manual"})
    response = client.get(f"/api/stages/{stage}/preview/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["stage"] == stage and body["rounds"] == [1] and body["problem"] == ""
    played = [row for row in body["rows"] if row["phase"] == "swiss"]
    byes = [row for row in body["rows"] if row["phase"] == "bye"]
    assert len(played) == 3 and len(byes) == 1
    names = {name for row in body["rows"] for name in row["players"]}
    assert names == {f"P{n:03d}" for n in range(1, 8)}
    assert [row["table"] for row in played] == [1, 2, 3] and byes[0]["table"] is None
    assert not Round.objects.filter(stage_id=stage).exists()
    # What is published is what the preview showed.
    published = client.post(f"/api/stages/{stage}/rounds/").json()
    assert [s["key"] for s in published[0]["series"]] == [row["key"] for row in played]


@pytest.mark.django_db
def test_a_preview_that_cannot_be_paired_says_why(cup: Callable[..., Tournament], organiser: Account) -> None:
    tournament = cup(1)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss")
    body = client.get(f"/api/stages/{stage}/preview/").json()
    assert body["rows"] == [] and body["rounds"] == [] and body["problem"]


@pytest.mark.django_db
def test_publishing_answers_the_rounds_with_their_series_and_refuses_with_the_formats_reason(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss", options={"seeding": "manual"}, publishing="review")
    first = client.post(f"/api/stages/{stage}/rounds/", {"round": 1}, format="json")
    assert first.status_code == 201, first.json()
    (round_one,) = first.json()
    assert round_one["number"] == 1 and round_one["published_at"] and len(round_one["series"]) == 4
    series = round_one["series"][0]
    assert series["key"] == "R1-1" and series["phase"] == "swiss" and series["walkover"] is False
    assert len(series["seats"]) == 2 and series["flagged"] is False
    assert client.get(f"/api/stages/{stage}/").json()["entrants"] == list(
        Player.objects.filter(name__startswith="P").order_by("name").values_list("pk", flat=True)
    )

    again = client.post(f"/api/stages/{stage}/rounds/", {"round": 1}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "round_already_generated"
    waiting = client.post(f"/api/stages/{stage}/rounds/")
    assert waiting.status_code == 409 and waiting.json()["code"] == "round_not_due"
    keys = [s["key"] for s in round_one["series"]]
    assert sorted(waiting.json()["extra"]["waiting"]) == sorted(keys)
    assert all(key in waiting.json()["message"] for key in keys)

    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage, organiser)
    # Review before publishing: the stage waits for the organiser.
    assert Round.objects.filter(stage_id=stage).count() == 1
    skipped = client.post(f"/api/stages/{stage}/rounds/", {"round": 3}, format="json")
    assert skipped.status_code == 400 and skipped.json()["code"] == "round_not_next"
    assert skipped.json()["extra"]["next"] == 2
    second = client.post(f"/api/stages/{stage}/rounds/", {"round": 2}, format="json")
    assert second.status_code == 201 and [r["number"] for r in second.json()] == [2]
    bad = client.post(f"/api/stages/{stage}/rounds/", {"round": 0}, format="json")
    assert bad.status_code == 400 and list(bad.json()["fields"]) == ["round"]
    assert Round.objects.filter(stage_id=stage).count() == 2


@pytest.mark.django_db
def test_a_stage_with_all_its_rounds_published_has_no_more(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="round_robin")
    assert [r["number"] for r in client.post(f"/api/stages/{stage}/rounds/").json()] == [1, 2, 3]
    response = client.post(f"/api/stages/{stage}/rounds/", {"round": 4}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "no_more_rounds"
    assert response.json()["message"] and response.json()["extra"]["rounds"] == 3


@pytest.mark.django_db
def test_refusals_are_in_the_clients_language(
    hu_catalogue: None, cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss")
    client.post(f"/api/stages/{stage}/rounds/")
    response = client.post(f"/api/stages/{stage}/rounds/", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 409 and response.json()["message"].startswith("[hu] ")


# --- Withdrawals and forfeits --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_organiser_withdraws_a_player_and_everyone_sees_it(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(6)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss", options={"rounds": 3, "seeding": "manual"})
    client.post(f"/api/stages/{stage}/rounds/")
    gone = Player.objects.get(name="P006")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/stages/{stage}/withdrawals/", {"player": gone.pk, "reason": "ill"}, format="json"
        )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["player"], body["player_name"], body["from_round"], body["reason"]) == (
        gone.pk,
        "P006",
        1,
        "ill",
    )
    assert body["recorded_by"] == organiser.username
    their = Series.objects.get(stage_id=stage, round__number=1, seats__player=gone)
    assert their.status == Series.Status.DECIDED  # a walkover for the opponent
    listed = _client().get(f"/api/stages/{stage}/withdrawals/")
    assert listed.status_code == 200 and [w["player"] for w in listed.json()] == [gone.pk]
    twice = client.post(f"/api/stages/{stage}/withdrawals/", {"player": gone.pk}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "already_withdrawn"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "extra", "field"),
    [
        ("P001", {}, "player"),  # a name is not an id
        (None, {}, "player"),
        ("stranger", {}, "player"),  # not in the stage: not_an_entrant
        ("entrant", {"from_round": 0}, "from_round"),
        ("entrant", {"from_round": 3}, "from_round"),  # round 1 is published: rounds 1 and 2 only
        ("entrant", {"from_round": "soon"}, "from_round"),
        ("entrant", {"reason": "x" * 201}, "reason"),
    ],
)
def test_a_withdrawal_that_cannot_be_is_a_400_naming_the_field(  # noqa: PLR0917
    cup: Callable[..., Tournament],
    organiser: Account,
    club: Club,
    who: str | None,
    extra: dict[str, Any],
    field: str,
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss")
    client.post(f"/api/stages/{stage}/rounds/")
    ids = {
        "stranger": Player.objects.create(club=club, name="Stranger").pk,
        "entrant": Player.objects.get(name="P001").pk,
    }
    body = {"player": ids.get(who, who) if who else None, **extra} if who is not None else extra
    response = client.post(f"/api/stages/{stage}/withdrawals/", body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["fields"]
    assert not Withdrawal.objects.exists()


@pytest.mark.django_db
def test_a_no_show_forfeits_through_the_api_and_the_opponent_goes_on(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="single_elimination", options={"seeding": "manual"})
    client.post(f"/api/stages/{stage}/rounds/")
    semi = Series.objects.get(stage_id=stage, key="W1-1")
    away, came = list(semi.seats.order_by("seat").values_list("player_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/series/{semi.pk}/forfeit/", {"players": [away], "reason": "did not come"}, format="json"
        )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "decided" and response.json()["placings"] == {str(came): 1}
    assert Forfeit.objects.get(series=semi).player_id == away
    again = client.post(f"/api/series/{semi.pk}/forfeit/", {"players": [came]}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "series_decided"
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage, organiser)
    final = Series.objects.get(stage_id=stage, key="W2-1")
    assert came in set(final.seats.values_list("player_id", flat=True))


@pytest.mark.django_db
def test_a_forfeit_after_a_game_or_on_a_walkover_is_refused_with_the_reason(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(3)
    client = _client(organiser)
    stage = _stage(client, tournament, format="single_elimination", options={"seeding": "manual"})
    client.post(f"/api/stages/{stage}/rounds/")
    bye = Series.objects.get(stage_id=stage, walkover=True)
    seated = bye.seats.get().player_id
    response = client.post(f"/api/series/{bye.pk}/forfeit/", {"players": [seated]}, format="json")
    # Service fix: this used to say that games were recorded, of a series nobody plays.
    assert response.status_code == 409 and response.json()["code"] == "series_decided"
    played = Series.objects.get(stage_id=stage, walkover=False)
    first, second = (s.player for s in played.seats.order_by("seat"))
    record_result(user=organiser, series_id=played.pk, game_number=1, result=snapszer_win(first, second))
    response = client.post(f"/api/series/{played.pk}/forfeit/", {"players": [first.pk]}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "series_started"
    assert not Forfeit.objects.exists()


@pytest.mark.django_db
def test_the_forfeit_service_says_not_found_for_an_unknown_series(organiser: Account) -> None:
    # Service fix: an unknown id raised Series.DoesNotExist (a 500 to any caller but the API).
    with pytest.raises(NotFound) as refused:
        series_forfeit(user=organiser, series_id=999999, player_ids=[1])
    assert refused.value.code == "series_not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "field", "code"),
    [([], "players", "invalid"), (["x"], "players.0", "invalid"), ("outsider", "players", "invalid")],
)
def test_a_forfeit_naming_nobody_of_the_series_is_a_400(
    cup: Callable[..., Tournament], organiser: Account, players: Any, field: str, code: str
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="single_elimination", options={"seeding": "manual"})
    client.post(f"/api/stages/{stage}/rounds/")
    semi = Series.objects.get(stage_id=stage, key="W1-1")
    if players == "outsider":
        players = [Series.objects.get(stage_id=stage, key="W1-2").seats.first().player_id]  # type: ignore[union-attr]
    response = client.post(f"/api/series/{semi.pk}/forfeit/", {"players": players}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code and list(response.json()["fields"]) == [field]
    assert not Forfeit.objects.exists()
    semi.refresh_from_db()
    assert semi.status == Series.Status.PENDING


@pytest.mark.django_db
def test_a_forfeit_that_would_not_decide_a_table_is_refused(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(8, game=GameKind.SNAP)
    client = _client(organiser)
    stage = _stage(client, tournament, format="heats", options={"table_size": 4, "advance": 2})
    client.post(f"/api/stages/{stage}/rounds/")
    table = Series.objects.filter(stage_id=stage).first()
    assert table is not None
    one = table.seats.first()
    assert one is not None
    response = client.post(f"/api/series/{table.pk}/forfeit/", {"players": [one.player_id]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "forfeit_not_deciding"
    assert list(response.json()["fields"]) == ["players"]


# --- The bracket ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_bracket_shows_byes_slots_the_score_so_far_and_the_champion(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(5)
    client = _client(organiser)
    stage = _stage(
        client, tournament, format="single_elimination", options={"seeding": "manual", "third_place": True}
    )
    client.post(f"/api/stages/{stage}/rounds/")
    body = _client().get(f"/api/stages/{stage}/bracket/").json()
    assert body["stage"] == stage and body["format"] == "single_elimination" and body["status"] == "running"
    assert body["champion"] is None
    by_key = {s["key"]: s for s in body["series"]}
    assert set(by_key) == {"W1-1", "W1-2", "W1-3", "W1-4"}  # later rounds appear when published
    byes = [s for s in body["series"] if s["walkover"]]
    assert len(byes) == 3  # 5 in a bracket of 8: the top three seeds go through
    for bye in byes:
        assert bye["status"] == "decided" and None in bye["seats"] and bye["score"] is None
        assert bye["advance"] == 1 and bye["slots"][0]["place"] == 1
        assert bye["slots"][0]["to_key"].startswith("W2-")
    top = by_key["W1-1"]
    assert top["seats"][0] == {"seat": 0, "player": Player.objects.get(name="P001").pk, "name": "P001"}
    assert top["seats"][1] is None and top["round"] == 1 and top["phase"] == "winners"
    (played,) = [s for s in body["series"] if not s["walkover"]]
    # One game of the only real series: the score so far, seat by seat.
    seated = [Player.objects.get(pk=seat["player"]) for seat in played["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        record_result(user=organiser, series_id=played["id"], game_number=1, result=snapszer_win(*seated))
    line = next(
        s for s in _client().get(f"/api/stages/{stage}/bracket/").json()["series"] if s["id"] == played["id"]
    )
    assert line["status"] == "playing" and line["score"] == [1, 0]
    for _wave in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            if not play_open_series(stage, organiser):
                break
    body = _client().get(f"/api/stages/{stage}/bracket/").json()
    assert body["status"] == "finished"
    final = next(s for s in body["series"] if s["key"] == "W3-1")
    assert final["status"] == "decided" and final["score"] == [2, 0] and final["slots"] == []
    assert {s["key"] for s in body["series"]} >= {"W2-1", "W2-2", "W3-1", "3P"}
    assert body["champion"] == {"player": Player.objects.get(name="P001").pk, "name": "P001"}


@pytest.mark.django_db
def test_a_swiss_bracket_names_the_standings_leader_once_finished(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="swiss", options={"seeding": "manual"})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/stages/{stage}/rounds/")
    for _round in range(2):
        assert _client().get(f"/api/stages/{stage}/bracket/").json()["champion"] is None
        with django_capture_on_commit_callbacks(execute=True):
            play_open_series(stage, organiser)
    body = _client().get(f"/api/stages/{stage}/bracket/").json()
    assert body["status"] == "finished" and len(body["series"]) == 4
    assert all(s["phase"] == "swiss" and s["slots"] == [] for s in body["series"])
    assert body["champion"] == {"player": Player.objects.get(name="P001").pk, "name": "P001"}


@pytest.mark.django_db
def test_a_double_elimination_with_a_reset_names_the_winner_of_the_second_grand_final(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="double_elimination", options={"seeding": "manual"})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/stages/{stage}/rounds/")
    p002 = Player.objects.get(name="P002")

    def p002_loses_once_then_wins(series: Series, seated: list[Player]) -> Player:
        # P002 loses the winners' final to P001, comes back through the losers' bracket and wins
        # both grand finals: the first forces the reset.
        if p002 in seated and series.key != "W2-1":
            return p002
        return seated[0]

    for _wave in range(8):
        with django_capture_on_commit_callbacks(execute=True):
            if not play_open_series(stage, organiser, p002_loses_once_then_wins):
                break
    body = _client().get(f"/api/stages/{stage}/bracket/").json()
    keys = [s["key"] for s in body["series"]]
    assert body["status"] == "finished" and "GF2" in keys, keys
    finals = {s["key"]: s for s in body["series"] if s["phase"].startswith("grand_final")}
    assert finals["GF2"]["phase"] == "grand_final_reset" and finals["GF2"]["placings"][str(p002.pk)] == 1
    assert body["champion"] == {"player": p002.pk, "name": "P002"}
    assert all(s["status"] == "decided" for s in body["series"])


@pytest.mark.django_db
def test_groups_then_playoff_is_played_to_a_champion_through_the_bracket(
    cup: Callable[..., Tournament], organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    client = _client(organiser)
    stage = _stage(
        client,
        tournament,
        format="groups_playoff",
        options={"group_size": 4, "advance": 2, "seeding": "manual"},
    )
    with django_capture_on_commit_callbacks(execute=True):
        published = client.post(f"/api/stages/{stage}/rounds/")
    assert published.status_code == 201, published.json()
    for _wave in range(12):
        with django_capture_on_commit_callbacks(execute=True):
            if not play_open_series(stage, organiser):
                break
    body = _client().get(f"/api/stages/{stage}/bracket/").json()
    assert body["status"] == "finished", [(s["key"], s["status"]) for s in body["series"]]
    groups = [s for s in body["series"] if s["phase"] == "group"]
    assert {s["group"] for s in groups} == {"A", "B"} and len(groups) == 12  # 2 groups of 4, all play all
    playoff = [s for s in body["series"] if s["phase"] != "group"]
    assert len(playoff) == 3 and all(s["status"] == "decided" for s in playoff)  # semis and the final
    assert body["champion"] == {"player": Player.objects.get(name="P001").pk, "name": "P001"}


@pytest.mark.django_db
def test_series_lists_say_where_a_series_stands_in_its_format(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(client, tournament, format="double_elimination", options={"seeding": "manual"})
    client.post(f"/api/stages/{stage}/rounds/")
    listed = _client().get("/api/series/", {"stage": stage}).json()["results"]
    assert {s["key"] for s in listed} == {"W1-1", "W1-2"}
    assert {(s["phase"], s["phase_round"], s["group"], s["walkover"], s["flagged"]) for s in listed} == {
        ("winners", 1, "", False, False)
    }
    detail = _client().get(f"/api/series/{listed[0]['id']}/").json()
    assert detail["key"] == listed[0]["key"]


# --- Who may do what, and unknown ids ------------------------------------------------------------


@pytest.fixture
def running(cup: Callable[..., Tournament], organiser: Account) -> Iterator[tuple[int, Series]]:
    """A published single elimination of 4 (the tournament runs, so anyone may see it)."""
    tournament = cup(4)
    client = _client(organiser)
    stage = _stage(
        client, tournament, format="single_elimination", options={"seeding": "manual"}, publishing="review"
    )
    assert client.post(f"/api/stages/{stage}/rounds/").status_code == 201
    yield stage, Series.objects.get(stage_id=stage, key="W1-1")


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["referee", "other_referee", "player_user", None])
def test_only_organisers_preview_publish_withdraw_and_forfeit(
    running: tuple[int, Series], who: str | None, request: Any
) -> None:
    stage, series = running
    client = _client(request.getfixturevalue(who) if who else None)
    player = series.seats.first()
    assert player is not None
    attempts = [
        client.get(f"/api/stages/{stage}/preview/"),
        client.post(f"/api/stages/{stage}/rounds/", {"round": 2}, format="json"),
        client.post(f"/api/stages/{stage}/withdrawals/", {"player": player.player_id}, format="json"),
        client.post(f"/api/series/{series.pk}/forfeit/", {"players": [player.player_id]}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [403] * 4
    codes = {r.json()["code"] for r in attempts}
    assert codes <= {"not_organiser", "not_authenticated"} and codes
    assert Round.objects.filter(stage_id=stage).count() == 1
    assert not Withdrawal.objects.exists() and not Forfeit.objects.exists()
    # Reading is for everyone who may see the stage.
    assert client.get(f"/api/stages/{stage}/bracket/").status_code == 200
    assert client.get(f"/api/stages/{stage}/withdrawals/").status_code == 200


@pytest.mark.django_db
def test_a_referee_or_anyone_cannot_create_a_stage(cup: Callable[..., Tournament], referee: Account) -> None:
    tournament = cup(4)
    for client in (_client(referee), _client()):
        response = _create(client, tournament, format="swiss")
        assert response.status_code in (403, 404)
    assert not Stage.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_a_hidden_drafts_stage_is_not_found_for_others(
    cup: Callable[..., Tournament], organiser: Account, other_referee: Account
) -> None:
    tournament = cup(4)
    stage = _stage(_client(organiser), tournament, format="swiss")
    for path in ("preview/", "bracket/", "withdrawals/"):
        response = _client(other_referee).get(f"/api/stages/{stage}/{path}")
        assert response.status_code == 404 and response.json()["code"] == "stage_not_found"
    assert _client(other_referee).post(f"/api/stages/{stage}/rounds/").status_code == 404
    assert not Round.objects.filter(stage_id=stage).exists()


@pytest.mark.django_db
def test_unknown_stages_and_series_are_404(organiser: Account, players: list[Player]) -> None:
    client = _client(organiser)
    for response in (
        client.get("/api/stages/999999/preview/"),
        client.get("/api/stages/999999/bracket/"),
        client.get("/api/stages/999999/withdrawals/"),
        client.post("/api/stages/999999/withdrawals/", {"player": players[0].pk}, format="json"),
        client.post("/api/stages/999999/rounds/"),
    ):
        assert response.status_code == 404 and response.json()["code"] == "stage_not_found"
    response = client.post("/api/series/999999/forfeit/", {"players": [players[0].pk]}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "series_not_found"


# --- The schema ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_schema_describes_every_new_operation() -> None:
    schema = _client().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    operations = {
        ("/api/stages/", "post"): "StageCreateInput",
        ("/api/stages/{stage_id}/rounds/", "post"): "StageRoundsPublishInput",
        ("/api/stages/{stage_id}/withdrawals/", "post"): "StageWithdrawInput",
        ("/api/series/{series_id}/forfeit/", "post"): "SeriesForfeitInput",
    }
    for (path, method), request_schema in operations.items():
        operation = paths[path][method]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{request_schema}"}
        assert "201" in operation["responses"]
    for path in (
        "/api/stages/{stage_id}/preview/",
        "/api/stages/{stage_id}/bracket/",
        "/api/stages/{stage_id}/withdrawals/",
    ):
        assert "200" in paths[path]["get"]["responses"]
        assert "404" in paths[path]["get"]["responses"]
    publish = paths["/api/stages/{stage_id}/rounds/"]["post"]["responses"]
    assert "round_not_due" in publish["409"]["description"]
    assert publish["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    components = schema["components"]["schemas"]
    created = components["StageCreateInput"]["properties"]
    assert {"format", "options", "publishing", "tiebreaks", "seeded_from", "seeded_take"} <= set(created)
    assert {"double_elimination", "heats", "groups_playoff"} <= set(components["StageFormatEnum"]["enum"])
    bracket = components["StageBracketOutput"]["properties"]
    assert {"series", "champion"} <= set(bracket)
    line = components["BracketSeriesOutput"]["properties"]
    assert {
        "key",
        "phase",
        "phase_round",
        "group",
        "round",
        "table",
        "seats",
        "advance",
        "walkover",
        "flagged",
        "status",
        "placings",
        "score",
        "slots",
    } <= set(line)
    assert {"key", "phase", "group", "walkover", "flagged"} <= set(components["SeriesOutput"]["properties"])


# --- End to end, through the API and a real Celery worker -----------------------------------------

E2E_TIMEOUT_S = 90.0


def _winner_by_name(key: str, names: list[str]) -> str:
    """A stable pick of a series' winner from its key and its players' names, the same on every
    database (ids differ): upsets happen, so the losers' bracket and the Swiss score groups mix."""
    digest = hashlib.sha256(f"{key}|{'|'.join(sorted(names))}".encode()).digest()
    return sorted(names)[digest[0] % len(names)]


def _all_series(client: APIClient, stage_id: int) -> list[dict[str, Any]]:
    """Every series of the stage, following the pages of the list."""
    found: list[dict[str, Any]] = []
    url: str | None = f"/api/series/?stage={stage_id}"
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.json()
        found += response.json()["results"]
        url = response.json()["next"]
    return found


def _set_up(client: APIClient, club: Club, fmt: str, options: dict[str, Any]) -> int:
    """Players, a tournament, its entries and a stage, through the API only. Returns the stage id."""
    ids = []
    for n in range(1, 17):
        response = client.post("/api/players/", {"club": club.pk, "name": f"E2E {n:02d}"}, format="json")
        assert response.status_code == 201, response.json()
        ids.append(response.json()["id"])
    response = client.post(
        "/api/tournaments/",
        {"club": club.pk, "name": f"E2E {fmt}", "game": "snapszer", "series_format": "best_of_3"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    tournament = response.json()["id"]
    entered = client.post(f"/api/tournaments/{tournament}/players/", {"players": ids}, format="json")
    assert entered.status_code == 200 and len(entered.json()["players"]) == 16
    response = client.post(
        "/api/stages/",
        {"tournament": tournament, "name": fmt, "format": fmt, "options": options},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


def _play_to_the_end(client: APIClient, stage_id: int, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    """Publish round 1, then post every open series' games one by one (the winner 7-3 twice) and
    wait for the worker to publish what comes next, until the stage is finished. Returns timings."""
    started = time.monotonic()
    published = client.post(f"/api/stages/{stage_id}/rounds/")
    assert published.status_code == 201, published.json()
    waits: list[float] = []
    results = 0
    played: set[int] = set()
    while True:
        open_series = [s for s in _all_series(client, stage_id) if s["status"] != "decided"]
        assert open_series, "nothing to play and the stage is not finished"
        for series in open_series:
            names = {seat["name"]: seat["player"] for seat in series["seats"]}
            winner = _winner_by_name(series["key"], list(names))
            loser = next(name for name in names if name != winner)
            score = {str(names[winner]): 7, str(names[loser]): 3}
            for game in (1, 2):
                response = client.post(
                    f"/api/series/{series['id']}/results/",
                    {"game": game, "result": {"score": score}},
                    format="json",
                    HTTP_IDEMPOTENCY_KEY=f"e2e-{series['id']}-{game}",
                )
                assert response.status_code == 201, response.json()
                results += 1
            played.add(series["id"])
        # Nothing more is posted until the worker has moved the stage on: a new round, or the end.
        waited_from = time.monotonic()
        while True:
            assert worker.poll() is None, "the worker exited"
            stage = client.get(f"/api/stages/{stage_id}/").json()
            if stage["status"] == "finished":
                waits.append(time.monotonic() - waited_from)
                return {"results": results, "waits": waits, "total": time.monotonic() - started}
            if any(s["status"] != "decided" and s["id"] not in played for s in _all_series(client, stage_id)):
                waits.append(time.monotonic() - waited_from)
                break
            assert time.monotonic() - waited_from < E2E_TIMEOUT_S, "the next round did not appear in time"
            time.sleep(0.1)


def _report(name: str, timings: dict[str, Any]) -> None:
    """Printed with ``-s``: how long each wait for the worker took (the first includes its start)."""
    waits = timings["waits"]
    print(
        f"\n{name}: {timings['results']} results posted; waits for the worker to move the stage on "
        f"(s): {', '.join(f'{w:.2f}' for w in waits)}; mean {sum(waits) / len(waits):.2f} s; "
        f"total {timings['total']:.1f} s"
    )


@pytest.mark.worker
@NEEDS_A_DATABASE_FILE
@pytest.mark.django_db(transaction=True)
def test_a_sixteen_player_swiss_is_played_to_the_end_through_the_api_and_a_worker(
    worker: subprocess.Popen[bytes], club: Club, organiser: Account
) -> None:
    client = _client(organiser)
    stage_id = _set_up(client, club, "swiss", {"seeding": "manual"})
    timings = _play_to_the_end(client, stage_id, worker)
    _report("Swiss, 16 players", timings)
    series = _all_series(client, stage_id)
    assert len(series) == 32 and {s["round"] for s in series} == {1, 2, 3, 4}
    assert all(s["status"] == "decided" for s in series)
    pairs = [frozenset(seat["player"] for seat in s["seats"]) for s in series]
    assert all(len(pair) == 2 for pair in pairs)
    assert len(set(pairs)) == len(pairs), "a rematch"
    for number in (1, 2, 3, 4):  # everyone plays once a round (16 players: no bye)
        seated = [seat["player"] for s in series if s["round"] == number for seat in s["seats"]]
        assert len(seated) == len(set(seated)) == 16
    assert client.get(f"/api/stages/{stage_id}/").json()["status"] == "finished"
    # The standings follow through the worker too, and then name the champion.
    deadline = time.monotonic() + E2E_TIMEOUT_S
    while time.monotonic() < deadline:
        bracket = client.get(f"/api/stages/{stage_id}/bracket/").json()
        if bracket["champion"] is not None:
            break
        time.sleep(0.1)
    standings = client.get(f"/api/stages/{stage_id}/standings/").json()
    assert standings["standings_version"] == standings["results_version"]
    assert bracket["champion"]["player"] == standings["rows"][0]["player"]


@pytest.mark.worker
@NEEDS_A_DATABASE_FILE
@pytest.mark.django_db(transaction=True)
def test_a_sixteen_player_double_elimination_is_played_to_the_end_through_the_api_and_a_worker(
    worker: subprocess.Popen[bytes], club: Club, organiser: Account
) -> None:
    client = _client(organiser)
    stage_id = _set_up(client, club, "double_elimination", {"seeding": "manual"})
    timings = _play_to_the_end(client, stage_id, worker)
    _report("Double elimination, 16 players", timings)
    series = _all_series(client, stage_id)
    assert all(s["status"] == "decided" for s in series)
    keys = {s["key"] for s in series}
    assert {"W1-1", "W4-1", "L1-1", "L6-1", "GF1"} <= keys
    # 15 winners' series, 14 losers' series, one or two grand finals.
    assert len([k for k in keys if k.startswith("W")]) == 15
    assert len([k for k in keys if k.startswith("L")]) == 14
    bracket = client.get(f"/api/stages/{stage_id}/bracket/").json()
    assert bracket["status"] == "finished" and bracket["champion"] is not None
    finals = [s for s in bracket["series"] if s["phase"] in ("grand_final", "grand_final_reset")]
    last = max(finals, key=lambda s: s["round"])
    assert last["placings"][str(bracket["champion"]["player"])] == 1
    # Everyone but the champion lost twice, or lost once and the grand final ends it.
    losses: dict[int, int] = {}
    for s in series:
        for player, place in s["placings"].items():
            if place != 1:
                losses[int(player)] = losses.get(int(player), 0) + 1
    champion = bracket["champion"]["player"]
    assert losses.get(champion, 0) <= 1
    assert all(count == 2 for player, count in losses.items() if player != champion)
    assert len([p for p in losses if p != champion]) == 15
