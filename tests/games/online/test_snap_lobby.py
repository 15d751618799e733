"""Snap tables in the lobby: create (rules, seats, bots of a level), invite, fill with bots, start."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import OnlineGame
from games.online.services import table_create
from games.online.tables import online_for

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_offers_snap_tables_with_the_engines_variants_and_bot_levels(make_user: Any) -> None:
    page = logged_in(make_user("anna")).get(reverse("games:lobby")).content.decode()
    assert 'id="new-snap-table"' in page
    for variant in online_for("snap").variants():
        assert f'<option value="{variant}"' in page
    for level in ("beginner", "expert"):
        assert f'<option value="{level}"' in page


def test_a_snap_table_against_bots_starts_at_once(make_user: Any) -> None:
    anna = make_user("anna")
    response = logged_in(anna).post(
        reverse("games:new"),
        {
            "game": "snap",
            "profile": "slapjack",
            "seats": "5",
            "opponent": "bot",
            "level": "club",
            "length": "120",
        },
    )
    game = OnlineGame.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[game.pk])
    assert game.kind == "snap" and game.seat_count == 5 and game.status == OnlineGame.Status.PLAYING
    assert game.options == {"profile": "classic", "slapjack": True, "max_game_seconds": 120}
    assert [s.bot_level for s in game.seats.all()] == ["", "club", "club", "club", "club"]
    assert game.setup["timing"]["max_lag_compensation_ms"] == 500  # casual play (S33)
    page = logged_in(anna).get(response["Location"]).content.decode()
    assert "js/snap.js" in page and 'id="call"' in page


def test_people_join_by_link_and_the_creator_fills_the_rest_with_bots(make_user: Any) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    logged_in(anna).post(
        reverse("games:new"), {"game": "snap", "profile": "classic", "seats": "4", "opponent": "person"}
    )
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.OPEN
    page = logged_in(anna).get(reverse("games:table", args=[game.pk])).content.decode()
    assert game.invite_token in page and 'id="fill-bots"' in page
    logged_in(bence).post(reverse("games:join", args=[game.invite_token]), {"client_seed": "be" * 32})
    assert (
        logged_in(bence).post(reverse("games:fill", args=[game.pk]), {"level": "expert"}).status_code == 302
    )
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.OPEN  # only the creator may fill
    logged_in(anna).post(reverse("games:fill", args=[game.pk]), {"level": "expert"})
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    assert [(s.user_id, s.bot_level) for s in game.seats.all()] == [
        (anna.pk, ""),
        (bence.pk, ""),
        (None, "expert"),
        (None, "expert"),
    ]


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"seats": "7"}, "This game is played by 2 to 6 players."),
        ({"seats": "lots"}, "This game is played by 2 to 6 players."),
        ({"profile": "nonsense"}, "There are no such rules."),
        ({"level": "godlike"}, "There is no bot level called"),
        ({"length": "0"}, "These rules cannot be played."),
        ({"game": "chess"}, "There is no such game."),
    ],
)
def test_bad_table_options_are_said_and_nothing_is_created(make_user: Any, form: dict, message: str) -> None:
    client = logged_in(make_user("anna"))
    data = {"game": "snap", "profile": "classic", "seats": "4", "opponent": "bot", "level": "casual", **form}
    response = client.post(reverse("games:new"), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not OnlineGame.objects.exists()


def test_an_online_table_refuses_rules_the_timing_layer_cannot_play(make_user: Any) -> None:
    from snapleague.errors import ApplicationError

    with pytest.raises(ApplicationError) as refused:
        table_create(user=make_user(), kind="snap", options={"empty_facedown": "recycle_shuffle"}, seats=2)
    assert "shuffle" in str(refused.value.message)
