"""The expert's analysis of finished online Snapszer games (games/analysis.py, docs/analysis.md):
asked for on the replay page, worked out by the Celery task (eager here), stored per hand with the
analysis version, shown as notes on the replay's steps; refused, with its reason, for games whose
cards are unknown."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import analysis as web_analysis
from games.analysis import ACTION_WORDS, COST, analysis_run, cost_sentence
from games.engine.sixtysix.analysis import ANALYSIS_VERSION, AnalysisBudget, Kind
from games.models import AnalysedHand, GameAnalysis, OnlineGame
from games.online.services import table_create
from tests.conftest import record_result, snapszer_win
from tests.games.online.finished_games import play_snap, play_snapszer
from tests.games.online.test_replay import snap_game

pytestmark = pytest.mark.django_db

FAST = AnalysisBudget(worlds=3, nodes=200)


@pytest.fixture(autouse=True)
def _fast_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_analysis, "BUDGET", FAST)


@pytest.fixture
def ask(django_capture_on_commit_callbacks: Any) -> Any:
    """POST the request as the page does; the task it sends after the commit runs (eagerly)."""

    def post(client: Client, game_id: int, data: dict[str, str] | None = None) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(reverse("games:analysis", args=[game_id]), data or {})

    return post


def finished(user: Any, profile: str = "snapszer") -> OnlineGame:
    game = table_create(user=user, kind="snapszer", options={"profile": profile}, seats=2, bots=["heuristic"])
    play_snapszer(game, levels=("casual", "heuristic"))
    return game


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_seated_player_asks_and_the_replay_shows_every_hand_analysed(make_user: Any, ask: Any) -> None:
    anna = make_user("anna")
    game = finished(anna)
    client = signed_in(anna)
    page = client.get(reverse("games:replay", args=[game.pk]))
    assert "Analyse my decisions" in page.content.decode()
    response = ask(client, game.pk, {"seat": "0"})
    assert response.status_code == 302 and response["Location"].endswith("?seat=0#analysis")
    analysis = GameAnalysis.objects.get(game=game)
    hands = len(game.result["hands"])
    assert analysis.status == GameAnalysis.Status.DONE and analysis.version == ANALYSIS_VERSION
    assert analysis.hands_total == analysis.hands_done == hands
    stored = list(AnalysedHand.objects.filter(game=game).order_by("hand"))
    assert [h.hand for h in stored] == list(range(1, hands + 1))
    seqs = set(game.log.values_list("seq", flat=True))
    for h in stored:
        assert h.version == ANALYSIS_VERSION and h.data["version"] == ANALYSIS_VERSION
        for d in h.data["decisions"]:
            assert d["seq"] in seqs
            assert game.log.get(seq=d["seq"]).action == d["chosen"]
            assert d["loss"] >= 0
    html = client.get(reverse("games:replay", args=[game.pk]) + "?seat=0").content.decode()
    assert 'id="analysis"' in html and "Hand 1" in html and "hx-get" not in html
    assert "Step " in html and "game points given away" in html
    # The seat's view shows the seat's decisions; "all cards" both seats'.
    mine = sum(1 for h in stored for d in h.data["decisions"] if d["seat"] == 0)
    assert html.count('<li data-step="') == mine
    both = client.get(reverse("games:analysis", args=[game.pk]) + "?seat=all").content.decode()
    assert both.count('<li data-step="') == sum(len(h.data["decisions"]) for h in stored)


def test_asking_twice_and_running_twice_change_nothing(make_user: Any, ask: Any) -> None:
    anna = make_user("anna")
    game = finished(anna)
    client = signed_in(anna)
    ask(client, game.pk)
    first = {h.hand: (h.pk, h.data) for h in AnalysedHand.objects.filter(game=game)}
    ask(client, game.pk)
    assert analysis_run(game_id=game.pk) == GameAnalysis.Status.DONE
    assert {h.hand: (h.pk, h.data) for h in AnalysedHand.objects.filter(game=game)} == first
    # A run cut short (a hand missing) is finished by the next one, with the same analysis.
    AnalysedHand.objects.filter(game=game, hand=1).delete()
    GameAnalysis.objects.filter(game=game).update(status=GameAnalysis.Status.PENDING)
    assert analysis_run(game_id=game.pk) == GameAnalysis.Status.DONE
    assert {h.hand: h.data for h in AnalysedHand.objects.filter(game=game)} == {
        k: v[1] for k, v in first.items()
    }


def test_pending_shows_progress_polled_by_htmx(
    make_user: Any, monkeypatch: pytest.MonkeyPatch, ask: Any
) -> None:
    anna = make_user("anna")
    game = finished(anna)
    monkeypatch.setattr(web_analysis, "_enqueue", lambda game_id: None)  # the worker has not run yet
    client = signed_in(anna)
    ask(client, game.pk)
    panel = client.get(reverse("games:analysis", args=[game.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in panel and "Analysing… 0 of 0 hands done." in panel
    assert "<progress" in panel
    analysis_run(game_id=game.pk)
    panel = client.get(reverse("games:analysis", args=[game.pk])).content.decode()
    assert "hx-trigger" not in panel and "Hand 1" in panel


def test_an_older_version_is_analysed_again(make_user: Any, ask: Any) -> None:
    anna = make_user("anna")
    game = finished(anna)
    client = signed_in(anna)
    ask(client, game.pk)
    AnalysedHand.objects.filter(game=game).update(version=ANALYSIS_VERSION - 1, data={})
    GameAnalysis.objects.filter(game=game).update(version=ANALYSIS_VERSION - 1)
    assert "Analyse my decisions" in client.get(reverse("games:replay", args=[game.pk])).content.decode()
    ask(client, game.pk)
    assert set(AnalysedHand.objects.filter(game=game).values_list("version", flat=True)) == {ANALYSIS_VERSION}
    assert all(h.data for h in AnalysedHand.objects.filter(game=game))


def test_a_snap_game_and_an_unfinished_one_are_refused_with_the_reason(make_user: Any, ask: Any) -> None:
    anna = make_user("anna")
    snap = snap_game(anna, 2, seconds=30)
    play_snap(snap)
    client = signed_in(anna)
    response = ask(client, snap.pk)
    assert response.status_code == 409 and "Only Snapszer games can be analysed." in response.content.decode()
    assert not GameAnalysis.objects.exists()
    page = client.get(reverse("games:replay", args=[snap.pk])).content.decode()
    assert "Only Snapszer games can be analysed." in page and "Analyse my decisions" not in page
    running = table_create(
        user=anna, kind="snapszer", options={"profile": "snapszer"}, seats=2, bots=["casual"]
    )
    assert ask(client, running.pk).status_code == 409
    assert client.post(reverse("games:analysis", args=[123456])).status_code == 404


def test_a_table_game_entered_by_its_result_says_its_cards_are_unknown(
    make_series: Any, players: list[Any], referee: Any
) -> None:
    series = make_series(players[:2], game="snapszer")
    record_result(
        user=referee, series_id=series.pk, game_number=1, result=snapszer_win(players[0], players[1])
    )
    table_game = series.games.get(number=1)
    response = signed_in(referee).post(reverse("games:table_game_analysis", args=[table_game.pk]))
    assert response.status_code == 409
    assert "only its result was recorded" in response.content.decode()
    assert not GameAnalysis.objects.exists()
    # In Hungarian too.
    response = signed_in(referee).post(
        reverse("games:table_game_analysis", args=[table_game.pk]), HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert response.status_code == 409 and "only its result was recorded" not in response.content.decode()


def test_signing_in_is_needed_to_ask(make_user: Any, ask: Any) -> None:
    game = finished(make_user("anna"))
    response = Client().post(reverse("games:analysis", args=[game.pk]))
    assert response.status_code == 302 and "/login" in response["Location"]
    assert not GameAnalysis.objects.exists()
    assert "Sign in to ask" in Client().get(reverse("games:replay", args=[game.pk])).content.decode()


def test_every_kind_and_action_has_its_words() -> None:
    assert set(COST) == set(Kind)
    assert set(ACTION_WORDS) == {"marriage", "exchange", "close", "draw", "declare", "pass"}
    sentence = cost_sentence(
        {
            "kind": "close",
            "chosen": {"type": "close", "seat": 0},
            "best": {"type": "play", "seat": 0, "card": "AH"},
            "loss": 0.8,
        }
    )
    assert sentence == "Closing here cost 0.8 game points on average; the ace of hearts was better."
