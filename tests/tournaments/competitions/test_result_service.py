"""The result service (tournaments/competitions/results/services.py): check, then do; a user or an online game
as the source; wrong calls recorded and counted in sudden death (S42)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from tests.conftest import record_result, snap_win
from tournaments.competitions.results import services
from tournaments.competitions.results.services import (
    EngineSource,
    ResultRequest,
    UserSource,
    check_result_record,
    do_result_record,
    result_record,
)
from tournaments.competitions.results.values import SnapEnding, SnapszerMatchResult, SnapTableResult
from tournaments.competitions.selectors.tournaments import stage_by_id
from tournaments.models import Game, GameKind, GameResult, Player, Series, Stage

LPS, DRAW = SnapEnding.LAST_PLAYER_STANDING, SnapEnding.DRAW


@pytest.fixture
def table(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:4])


def _won(winner: Player, *out: Player, seats: list[Player]) -> SnapTableResult:
    return SnapTableResult(
        players=tuple(p.pk for p in seats), ending=LPS, eliminated=tuple((p.pk,) for p in out)
    )


# --- An online game as the source -----------------------------------------------------------------


def test_an_online_game_records_without_a_user_and_enqueues_the_standings(
    table: Series, players: list[Player], django_capture_on_commit_callbacks: Any
) -> None:
    a, b, c, d = players[:4]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        record, created = result_record(
            source=EngineSource(game_id=9001),
            series_id=table.pk,
            game_number=1,
            result=_won(a, d, c, b, seats=players[:4]),
        )
    assert created and record.version == 1 and record.confirmed
    assert (record.source, record.recorded_by, record.engine_game) == ("engine", None, 9001)
    assert record.value.winner == a.pk  # type: ignore[union-attr]
    # The standings recompute, on commit, as for a referee's result; it enqueues the club's ratings.
    assert len(callbacks) == 2
    stage = Stage.objects.get(pk=table.stage_id)
    assert stage.results_version == stage.standings_version == 1


def test_the_same_online_game_again_returns_the_first_row_and_writes_nothing(
    table: Series, players: list[Player], django_capture_on_commit_callbacks: Any
) -> None:
    a, b, c, d = players[:4]
    first, _ = result_record(
        source=EngineSource(game_id=7),
        series_id=table.pk,
        game_number=1,
        result=_won(a, d, c, b, seats=players[:4]),
    )
    with django_capture_on_commit_callbacks() as callbacks:
        again, created = result_record(
            source=EngineSource(game_id=7),
            series_id=table.pk,
            game_number=1,
            result=_won(b, d, c, a, seats=players[:4]),  # whatever it says: game 7 is recorded
        )
    assert not created and again.pk == first.pk
    assert callbacks == []
    assert GameResult.objects.count() == 1 and Game.objects.count() == 1
    assert Stage.objects.get(pk=table.stage_id).results_version == 1


def test_an_online_game_in_another_seat_order_is_stored_in_the_series_seat_order(
    make_series: Callable[..., Series], players: list[Player]
) -> None:
    a, b = players[:2]
    duel = make_series([a, b], game=GameKind.SNAPSZER)
    played = SnapszerMatchResult(players=(b.pk, a.pk), games=((3, 7),))  # b sat in seat 0 online
    record, _ = result_record(source=EngineSource(game_id=1), series_id=duel.pk, game_number=1, result=played)
    assert record.value == SnapszerMatchResult(players=(a.pk, b.pk), games=((7, 3),))
    assert record.value.winner == a.pk  # type: ignore[union-attr]


def test_an_online_game_never_corrects(table: Series, players: list[Player], referee: Any) -> None:
    a, b, c, d = players[:4]
    record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(a, d, c, b))
    late = _won(b, d, c, a, seats=players[:4])
    with pytest.raises(Conflict) as conflict:  # it saw no result: the game was recorded meanwhile
        result_record(source=EngineSource(game_id=3), series_id=table.pk, game_number=1, result=late)
    assert conflict.value.code == "result_conflict" and conflict.value.extra == {"version": 1}
    with pytest.raises(PermissionDenied):
        result_record(
            source=EngineSource(game_id=3),
            series_id=table.pk,
            game_number=1,
            result=late,
            expected_version=1,
            reason="the online game says so",
        )
    assert GameResult.objects.count() == 1


@pytest.mark.parametrize(("who", "allowed"), [("referee", True), ("organiser", True), ("player_user", False)])
def test_a_user_source_still_needs_the_role(
    table: Series, players: list[Player], who: str, allowed: bool, request: Any
) -> None:
    source = UserSource(request.getfixturevalue(who))
    value = _won(players[0], *players[1:4], seats=players[:4])
    if allowed:
        assert result_record(source=source, series_id=table.pk, game_number=1, result=value)[1]
    else:
        with pytest.raises(PermissionDenied):
            result_record(source=source, series_id=table.pk, game_number=1, result=value)
        assert not GameResult.objects.exists()
    with pytest.raises(PermissionDenied):
        result_record(source=UserSource(AnonymousUser()), series_id=table.pk, game_number=2, result=value)


def test_the_database_keeps_one_row_per_online_game_and_only_for_engine_results(
    table: Series, players: list[Player]
) -> None:
    value = _won(players[0], *players[1:4], seats=players[:4])
    record, _ = result_record(source=EngineSource(game_id=5), series_id=table.pk, game_number=1, result=value)
    game = Game.objects.create(series=table, number=2, seats=record.game.seats)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameResult.objects.create(game=game, version=1, data=value.to_json(), source="engine", engine_game=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameResult.objects.create(game=game, version=1, data=value.to_json(), source="referee", engine_game=6)


# --- Check, then do -------------------------------------------------------------------------------


def test_a_result_for_other_players_is_refused_by_the_check(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, _d = players[:4]
    three = SnapTableResult(players=(a.pk, b.pk, c.pk), ending=LPS, eliminated=((c.pk,), (b.pk,)))
    with pytest.raises(ApplicationError) as exc:
        result_record(source=UserSource(referee), series_id=table.pk, game_number=1, result=three)
    assert exc.value.code == "result_invalid"
    assert "game 1 is played by Anna, Bence, Csilla, Dániel" in str(exc.value.fields["result"][0])
    assert not GameResult.objects.exists()


def test_the_check_plans_a_correction_that_voids_a_later_game_and_writes_nothing(
    table: Series, players: list[Player], referee: Any, organiser: Any
) -> None:
    a, b, c, d = players[:4]
    for number, order in enumerate([(a, b, c, d), (b, a, c, d), (a, b, c, d)], start=1):
        record_result(user=referee, series_id=table.pk, game_number=number, result=snap_win(*order))
    request = ResultRequest(
        source=UserSource(organiser),
        series_id=table.pk,
        game_number=2,
        result=_won(a, b, c, d, seats=players[:4]),  # Anna won game 2 too: decided after it
        expected_version=1,
        reason="misread",
        void_later_games=True,
    )
    plan = check_result_record(request)
    assert (plan.version, plan.replaces.version if plan.replaces else None) == (2, 1)
    assert [v.game.number for v in plan.voids] == [3]
    assert plan.after.decided and plan.after.placings_by_player[a.pk] == 1
    assert plan.source == "organiser" and plan.recorded_by == organiser and plan.results_version == 3
    assert GameResult.objects.count() == 3 and not GameResult.objects.filter(void=True).exists()
    assert Stage.objects.get(pk=table.stage_id).results_version == 3
    with transaction.atomic():
        stage_by_id(stage_id=plan.stage_id, lock=True)
        record = do_result_record(plan)
    assert record.version == 2 and GameResult.objects.get(game__number=3, confirmed=True).void
    assert Stage.objects.get(pk=table.stage_id).results_version == 4
    table.refresh_from_db()
    assert table.status == Series.Status.DECIDED


def test_a_plan_made_stale_by_another_result_is_made_again_under_the_lock(
    make_series: Callable[..., Series], players: list[Player], referee: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = make_series(players[:4])
    second = make_series(players[4:8], tournament=first.stage.tournament)  # same stage
    checks: list[int] = []
    real_check = services.check_result_record

    def check_then_someone_else_records(request: ResultRequest) -> services.ResultPlan:
        plan = real_check(request)
        if request.series_id != first.pk:
            return plan
        checks.append(plan.results_version)
        if len(checks) == 1:  # between the plan and the lock, a result of the other table lands
            record_result(user=referee, series_id=second.pk, game_number=1, result=snap_win(*players[4:8]))
        return plan

    monkeypatch.setattr(services, "check_result_record", check_then_someone_else_records)
    _record, created = result_record(
        source=UserSource(referee),
        series_id=first.pk,
        game_number=1,
        result=_won(*players[:4], seats=players[:4]),
    )
    assert created and checks == [0, 1]  # checked again, from the version the other result left
    assert Stage.objects.get(pk=first.stage_id).results_version == 2


# --- Wrong calls (S42) ----------------------------------------------------------------------------


def test_wrong_calls_decide_a_sudden_death_after_two_drawn_replays_S42(
    make_series: Callable[..., Series], players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    duel = make_series([a, b])  # Snap at a table of two, best of 3
    draw = {"ending": "draw", "eliminated": [[a.pk, b.pk]]}
    games = [
        {**snap_win(a, b), "wrong_calls": {str(a.pk): 2}},
        {**snap_win(b, a), "wrong_calls": {str(b.pk): 1}},
        draw,  # 1-1 after three games: sudden death (S40)
        draw,  # sudden death, drawn
        draw,  # replay 1, drawn
        {**draw, "wrong_calls": {str(a.pk): 0, str(b.pk): 0}},  # replay 2, drawn: wrong calls decide
    ]
    for number, result in enumerate(games, start=1):
        record_result(user=referee, series_id=duel.pk, game_number=number, result=result)
    duel.refresh_from_db()
    assert duel.status == Series.Status.DECIDED
    assert duel.placings == {str(b.pk): 1, str(a.pk): 2}  # Bence 1 wrong call, Anna 2
    page = Client().get(f"/series/{duel.pk}/").content.decode()
    assert "on fewer wrong calls" in page
    assert "wrong calls: Anna 2" in page and "wrong calls: Bence 1" in page


def test_the_api_takes_wrong_calls_and_refuses_bad_ones_naming_the_field(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    client = APIClient()
    client.force_authenticate(referee)
    url = f"/api/series/{table.pk}/results/"
    bad = {**snap_win(a, d, c, b), "wrong_calls": {str(b.pk): -1, "999": 1}}
    response = client.post(url, {"game": 1, "result": bad}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "result_invalid"
    assert response.json()["fields"] == {
        "wrong_calls": [
            "Bence: wrong calls are a whole number, 0 or more.",
            "999 is not a player at this table.",
        ]
    }
    assert not GameResult.objects.exists()
    good = {**snap_win(a, d, c, b), "wrong_calls": {str(b.pk): 3}}
    response = client.post(url, {"game": 1, "result": good}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["wrong_calls"] == {str(a.pk): 0, str(b.pk): 3, str(c.pk): 0, str(d.pk): 0}
    assert GameResult.objects.get().value.wrong_calls[b.pk] == 3  # type: ignore[union-attr]


def test_the_referee_form_takes_wrong_calls(table: Series, players: list[Player], referee: Any) -> None:
    a, b, c, d = players[:4]
    client = Client()
    client.force_login(referee)
    form = {"game": 1, "expected_version": 0, "client_key": "w1", "ending": "last_player_standing"}
    form.update({f"out_{d.pk}": 1, f"out_{c.pk}": 2, f"out_{b.pk}": 3, f"wrong_{c.pk}": 2})
    assert client.post(f"/series/{table.pk}/record/", form).status_code == 302
    value = GameResult.objects.get().value
    assert isinstance(value, SnapTableResult) and value.wrong_calls == {a.pk: 0, b.pk: 0, c.pk: 2, d.pk: 0}
    bad = {**form, "client_key": "w2", f"wrong_{c.pk}": -1}
    refused = client.post(f"/series/{table.pk}/record/", {**bad, "game": 2})
    assert refused.status_code == 400  # a negative count never reaches the service


# --- The API: parsed at the edge ------------------------------------------------------------------


def test_the_api_names_every_bad_field_when_the_result_is_not_the_only_one(
    table: Series, players: list[Player], referee: Any
) -> None:
    client = APIClient()
    client.force_authenticate(referee)
    body = {"game": 0, "result": {"ending": "last_player_standing", "eliminated": [players[0].pk]}}
    response = client.post(f"/api/series/{table.pk}/results/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert set(response.json()["fields"]) == {"game", "result.eliminated"}
    assert not GameResult.objects.exists()


def test_the_api_answers_a_bad_result_in_the_clients_language(
    hu_catalogue: None, table: Series, players: list[Player], referee: Any
) -> None:
    client = APIClient()
    client.force_authenticate(referee)
    body = {"game": 1, "result": {"ending": "won"}}
    response = client.post(f"/api/series/{table.pk}/results/", body, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 400
    assert response.json()["message"] == "[hu] This result cannot be recorded as it is."
    assert response.json()["fields"] == {
        "ending": ["[hu] Choose how the game ended: last player standing, draw or adjudicated."]
    }


def test_the_schema_describes_every_result_shape(db: Any) -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    result = schema["components"]["schemas"]["ResultCreateInput"]["properties"]["result"]
    titles = [shape["title"] for shape in result["oneOf"]]
    assert titles == [
        "Snap game",
        "Snapszer match score",
        "Snapszer match, game by game",
        "Snapszer match, hand by hand",
    ]
    assert "wrong_calls" in result["oneOf"][0]["properties"]


# --- The pages: what a correction form starts from ------------------------------------------------


def test_the_correction_form_starts_from_the_hands_as_they_were_entered(
    make_series: Callable[..., Series], players: list[Player], referee: Any, organiser: Any
) -> None:
    anna, bence = players[:2]
    duel = make_series([anna, bence], game=GameKind.SNAPSZER)
    hands = [{"winner": anna.pk, "points": 3}, {"winner": None}, {"winner": anna.pk, "points": 3}]
    record_result(user=referee, series_id=duel.pk, game_number=1, result={"hands": hands})
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/series/{duel.pk}/games/1/correct/").content.decode()
    assert 'data-mode="hands"' in page
    assert f'<option value="{anna.pk}" selected>' in page and '<option value="tie" selected>' in page
    player_page = client.get(f"/players/{anna.pk}/").content.decode()
    assert "1st (7)" in player_page  # her place and game points in the match
