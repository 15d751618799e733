"""Snap statistics through Django: the selector on games played to the end by bots and logged as
the owner logs them, the pages, the API, and practice games from the lobby."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import GameLogEntry, OnlineGame
from games.online.services import table_create
from games.snap_stats.measure import snap_game_stats_from_setup
from games.snap_stats.selectors import game_stats_get, person_stats_get
from tests.games.online.finished_games import play_snap

pytestmark = pytest.mark.django_db


def finished_snap(user: Any, seats: int = 3, seed: int = 0) -> OnlineGame:
    options = {"profile": "classic", "max_game_seconds": 120}
    game = table_create(user=user, kind="snap", options=options, seats=seats, bots=["expert"] * (seats - 1))
    play_snap(game, seed=seed)
    return game


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_finished_games_figures_agree_with_its_logged_events(make_user: Any) -> None:
    cache.clear()
    game = finished_snap(make_user("anna"), seats=4, seed=2)
    stats = game_stats_get(game=game)
    events = [e for row in GameLogEntry.objects.filter(game=game) for e in row.events]
    captures = Counter(e["seat"] for e in events if e["type"] == "capture" and e["kind"] != "last_player")
    wrong = Counter(e["caller"] for e in events if e["type"] == "wrong_call")
    ties = Counter(c for e in events if e["type"] == "tie" for c in e["callers"])
    assert sum(captures.values()) > 0
    for s in stats.seats:
        assert (s.won, s.tied, s.false_calls) == (captures[s.seat], ties[s.seat], wrong[s.seat])
        assert len(s.calls) == s.won + s.tied + s.late
    assert stats.winner == (game.result or {}).get("winner")
    # The cached figures are the figures measured from the stored log.
    rows = list(game.log.order_by("seq").values_list("action", flat=True))
    assert snap_game_stats_from_setup(game.setup or {}, rows).to_dict() == stats.to_dict()


def test_a_persons_figures_add_up_their_games(make_user: Any) -> None:
    anna = make_user("anna")
    games = [finished_snap(anna, seats=2, seed=seed) for seed in (1, 3)]
    person = person_stats_get(user=anna, person_id=anna.pk)
    assert [line.game.pk for line in person.lines] == [g.pk for g in games]
    seats = [game_stats_get(game=g).seats[0] for g in games]  # the creator sits in seat 0
    assert person.summary.games == 2
    assert person.summary.reactions == tuple(r for s in seats for r in s.reactions)
    assert person.summary.false_calls == sum(s.false_calls for s in seats)
    assert person.summary.wins == sum(1 for g in games if (g.result or {}).get("winner") == 0)


def test_the_pages_show_the_figures_and_the_chart(make_user: Any) -> None:
    anna = make_user("anna")
    game = finished_snap(anna, seats=3, seed=4)
    mine = signed_in(anna).get(reverse("games:my_stats"))
    assert mine.status_code == 200
    body = mine.content.decode()
    assert "<svg" in body and 'class="bar"' in body
    assert reverse("games:game_stats", args=[game.pk]) in body
    public = Client().get(reverse("games:person_stats", args=[anna.pk]))
    assert public.status_code == 200 and "<svg" in public.content.decode()
    page = Client().get(reverse("games:game_stats", args=[game.pk]))
    assert page.status_code == 200
    assert page.content.decode().count('class="bar"') == 16
    assert Client().get(reverse("games:my_stats")).status_code == 302  # sign in first
    assert Client().get(reverse("games:person_stats", args=[999999])).status_code == 404
    assert Client().get(reverse("games:game_stats", args=[999999])).status_code == 404


def test_a_game_still_played_has_no_statistics_yet(make_user: Any) -> None:
    anna = make_user("anna")
    game = table_create(user=anna, kind="snap", options={"profile": "classic"}, seats=2, bots=["casual"])
    response = Client().get(reverse("games:game_stats", args=[game.pk]))
    assert response.status_code == 409
    assert "still being played" in response.content.decode()


def test_the_api_gives_the_summary_and_every_games_calls(make_user: Any) -> None:
    anna = make_user("anna")
    finished_snap(anna, seats=2, seed=5)
    response = Client().get(reverse("games_api:snap-stats", args=[anna.pk]))
    assert response.status_code == 200
    data = response.json()
    person = person_stats_get(user=anna, person_id=anna.pk)
    assert data["summary"]["games"] == 1
    assert data["summary"]["calls_timed"] == len(person.summary.reactions)
    assert [c["reaction_ms"] for c in data["games"][0]["calls"]] == list(person.summary.reactions)
    missing = Client().get(reverse("games_api:snap-stats", args=[999999]))
    assert missing.status_code == 404 and missing.json()["code"] == "user_not_found"


def test_practice_starts_a_short_game_against_bots_of_the_level_pressed(make_user: Any) -> None:
    anna = make_user("anna")
    response = signed_in(anna).post(reverse("games:practice"), {"level": "strong", "seats": "3"})
    game = OnlineGame.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[game.pk])
    assert game.kind == "snap" and game.status == OnlineGame.Status.PLAYING
    assert game.options["max_game_seconds"] == 120
    assert [(s.user_id, s.bot_level) for s in game.seats.all()] == [
        (anna.pk, ""),
        (None, "strong"),
        (None, "strong"),
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [({"level": "godlike"}, "no such bot level"), ({"level": "club", "seats": "6"}, "2, 3 or 4 players")],
)
def test_practice_refuses_what_it_does_not_offer(make_user: Any, body: dict[str, str], message: str) -> None:
    response = signed_in(make_user("anna")).post(reverse("games:practice"), body)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not OnlineGame.objects.exists()
