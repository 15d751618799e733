"""The record form's offline entry, server side: the JSON answers its queue gets (recorded, replayed,
refused with what the server holds and what was entered), the service worker's script and scope,
and the page's plural table (docs/results.md, "Offline entry"). The browser half is in
test_browser_offline.py."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from snapleague.users import Account
from tests.conftest import record_result, snap_win
from tournaments.competitions import record_offline
from tournaments.models import GameResult, Player, Series, Stage

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def table(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:4])


def _client(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _taps(game: int, *out_first_to_last: Player, key: str) -> dict[str, Any]:
    data = {"game": game, "expected_version": 0, "client_key": key, "ending": "last_player_standing"}
    data.update({f"out_{p.pk}": n for n, p in enumerate(out_first_to_last, start=1)})
    return data


def _url(series: Series) -> str:
    return f"/series/{series.pk}/record/"


def test_a_kept_result_is_recorded_and_answered_in_json(
    table: Series, players: list[Player], referee: Account
) -> None:
    a, b, c, d = players[:4]
    response = _client(referee).post(_url(table), _taps(1, d, c, b, key="kept-1"), **JSON)
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "recorded" and body["game"] == 1 and body["version"] == 1
    assert body["result"].startswith("Anna won")
    result = GameResult.objects.get()
    assert result.client_key == "kept-1" and result.data["winner"] == a.pk


def test_the_same_submission_sent_again_after_the_series_moved_on_answers_the_first_result(
    table: Series, players: list[Player], referee: Account
) -> None:
    # Given game 1 sent and recorded, the answer lost on the way (the queue still holds it), and
    # game 2 recorded meanwhile from another phone;
    a, b, c, d = players[:4]
    client = _client(referee)
    assert client.post(_url(table), _taps(1, d, c, b, key="kept-1"), **JSON).status_code == 201
    record_result(user=referee, series_id=table.pk, game_number=2, result=snap_win(b, a, c, d))
    results_version = Stage.objects.get(pk=table.stage_id).results_version

    # When the queue sends game 1 again with its key,
    again = client.post(_url(table), _taps(1, d, c, b, key="kept-1"), **JSON)

    # Then the answer is the result recorded the first time, and nothing new is written.
    assert again.status_code == 200
    assert again.json()["status"] == "replayed"
    assert again.json()["game"] == 1 and again.json()["result"].startswith("Anna won")
    assert GameResult.objects.count() == 2
    assert Stage.objects.get(pk=table.stage_id).results_version == results_version


def test_a_game_recorded_meanwhile_by_another_referee_is_a_conflict_naming_both_results(
    table: Series, players: list[Player], referee: Account, make_user: Callable[..., Account]
) -> None:
    a, b, c, d = players[:4]
    second = make_user("second_referee")
    table.stage.tournament.referees.add(second)
    record_result(user=second, series_id=table.pk, game_number=1, result=snap_win(b, a, c, d))

    response = _client(referee).post(_url(table), _taps(1, d, c, b, key="kept-1"), **JSON)

    assert response.status_code == 409
    body = response.json()
    assert body["code"] in {"wrong_game", "result_conflict"}
    assert body["message"]
    assert body["game"] == 1 and body["series"] == table.pk
    assert body["held"].startswith("Bence won") and body["held_by"] == "second_referee"
    assert body["entered"].startswith("Anna won")
    assert GameResult.objects.get().recorded_by == second  # the kept one was not recorded


def test_a_kept_result_that_does_not_fit_is_a_400_with_its_field_errors(
    table: Series, players: list[Player], referee: Account
) -> None:
    _a, _b, c, d = players[:4]
    data = _taps(1, d, c, key="kept-1") | {"ending": "adjudicated"}  # no card counts
    response = _client(referee).post(_url(table), data, **JSON)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and body["fields"] and body["message"]
    assert body["game"] == 1 and body["entered"] == ""
    assert not GameResult.objects.exists()


def test_the_browser_form_still_gets_html(table: Series, players: list[Player], referee: Account) -> None:
    a, b, c, d = players[:4]
    client = _client(referee)
    response = client.post(_url(table), _taps(1, d, c, b, key="tap"), HTTP_ACCEPT="text/html,*/*;q=0.8")
    assert response.status_code == 302
    record_result(user=referee, series_id=table.pk, game_number=2, result=snap_win(b, a, c, d))
    conflict = client.post(_url(table), _taps(2, d, c, b, key="other"), HTTP_ACCEPT="text/html")
    assert conflict.status_code == 409 and conflict["Content-Type"].startswith("text/html")


def test_the_record_page_carries_the_offline_entry_and_its_texts(table: Series, referee: Account) -> None:
    page = _client(referee).get(_url(table)).content.decode()
    assert 'id="offline-entry"' in page and f'data-user="{referee.pk}"' in page
    assert "js/record_offline.js" in page and "js/offline_queue.js" in page
    texts = json.loads(
        re.search(r'<script id="offline-text" type="application/json">(.*?)</script>', page).group(1)
    )
    waiting = texts["waiting"]
    assert waiting["forms"][waiting["index"][1]] == "%(n)s result waiting to be sent"
    assert waiting["forms"][waiting["index"][3]] == "%(n)s results waiting to be sent"
    assert "<script>" not in page  # CSP: no inline script


@pytest.mark.parametrize(
    ("language", "one", "three"),
    [("it", 1, 3), ("es", 1, 3), ("pt", 1, 3)],
)
def test_the_plural_table_follows_the_languages_rule(language: str, one: int, three: int) -> None:
    with translation.override(language):
        table = record_offline.page_texts()["waiting"]
    assert len(table["index"]) == record_offline.PLURAL_TABLE_SIZE
    assert table["forms"][table["index"][one]] != table["forms"][table["index"][three]]
    assert all("%(n)s" in form for form in table["forms"])


def test_the_service_worker_is_served_from_the_root_with_its_shell_and_version(db: Any) -> None:
    response = _client().get("/record-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    source = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", source).group(1))
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    assert "/static/js/record.js" in config["shell"] and "/static/js/offline_queue.js" in config["shell"]
    assert re.match(config["record_path"], "/series/12/record/")
    assert not re.match(config["record_path"], "/api/series/12/results/")
    assert config["session_paths"] == ["/accounts/login/", "/accounts/logout/"]
    # Every shell file exists (a missing one would make the worker's install fail).
    client = _client()
    for url in config["shell"]:
        assert client.get(url).status_code == 200, url
