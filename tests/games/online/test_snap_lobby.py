"""Snap tables in the lobby: create (rules, seats, bots of a level), invite, fill with bots, start."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.protocol import engine_for
from games.engine.snap.contract import game_rules
from games.models import OnlineGame
from games.online.kinds import online_for
from games.online.services import table_create
from games.online.snap import CASUAL_TIMING, VARIANTS, SnapTable

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


def test_the_snap_time_limit_says_what_happens_when_the_time_is_up(make_user: Any) -> None:
    """A "30 s" game ran 40 s: the rules' extra rounds (S20.3, S30) follow the time limit, then the
    most cards win. Each length says so, with the engine's number of rounds."""
    rounds = game_rules({"profile": "classic"}).extra_rounds
    assert rounds > 0
    page = logged_in(make_user("anna")).get(reverse("games:lobby")).content.decode()
    select = re.search(r'<select id="snap-length".*?</select>', page, re.S)
    assert select is not None
    options = dict(re.findall(r'<option value="(\d+)">([^<]*)</option>', select.group(0)))
    assert options == {
        "720": f"12 min, then {rounds} more rounds",
        "300": f"5 min, then {rounds} more rounds",
        "120": f"2 min, then {rounds} more rounds",
        "30": f"30 s, then {rounds} more rounds",
    }
    assert "Longest game" not in page and ">Time limit<" in page
    help_text = re.search(r'<p class="small muted" id="snap-length-help">([^<]*)</p>', page)
    assert help_text is not None
    assert f"{rounds} more rounds of turns" in help_text.group(1) and "most cards wins" in help_text.group(1)


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


@pytest.mark.parametrize("variant", ["silent", "animal"])
def test_the_lobby_creates_silent_and_animal_snap_tables(make_user: Any, variant: str) -> None:
    anna = make_user("anna")
    response = logged_in(anna).post(
        reverse("games:new"),
        {"game": "snap", "profile": variant, "seats": "3", "opponent": "bot", "level": "casual"},
    )
    game = OnlineGame.objects.get()
    assert response.status_code == 302 and game.status == OnlineGame.Status.PLAYING
    assert game.options[variant] is True
    page = logged_in(anna).get(reverse("games:table", args=[game.pk])).content.decode()
    call = re.search(r'<button type="button" class="snap-call" id="call"[^>]*>([^<]*)</button>', page)
    assert call is not None
    if variant == "animal":  # her call button shows her own animal (seat 0), the page every seat's
        assert call.group(1) == "🐄 Moo!" and "data-animals='🐄 Moo!|🐕 Woof!|🐈 Meow!'" in page
    else:  # silent: the same button
        assert call.group(1) == "Snap!" and "data-animals" not in page


def test_an_animal_call_carries_its_sound_and_another_seats_sound_is_a_wrong_call() -> None:
    """rules/snap.md, variant ``animal``: the page sends the caller's own sound (its seat); a
    call with another player's sound is a wrong call (the engine's ``wrong_sound``)."""
    engine = engine_for("snap")
    options = {"profile": "classic", **VARIANTS["animal"]}
    state = engine.new_game(options, seats=2, dealer=0, seed=b"s" * 32)
    origin = datetime(2026, 1, 1, tzinfo=UTC)
    game = OnlineGame(kind="snap", seat_count=2, started_at=origin, status="playing", options=options)
    game.setup = {**engine.game_setup(state), "timing": asdict(CASUAL_TIMING)}
    table = SnapTable(game, [], {}, random.Random(1))
    now = origin
    for seat in (1, 0):  # two flips, each shown after its reveal delay
        now += timedelta(seconds=1)
        table.act(seat, None, 0, {"type": "flip"}, now)
        asyncio.run(table.due(now + timedelta(seconds=1)))
    now += timedelta(seconds=2)
    call = {"type": "call", "kind": "snap", "claim": None, "seq": table.state.seq, "reaction_ms": 300}
    [logged] = table.act(0, None, 0, {**call, "sound": 1}, now)
    assert logged.action["sound"] == 1  # the log keeps the sound it was called with
    decided = [e for entry in asyncio.run(table.due(now + timedelta(seconds=1))) for e in entry.events]
    assert any(e["type"] == "wrong_call" and e["reason"] == "wrong_sound" for e in decided)
    [own] = table.act(1, None, 0, {**call, "seq": table.state.seq, "sound": 1}, now + timedelta(seconds=2))
    assert own.action["sound"] == 1 and not any(e.get("reason") == "wrong_sound" for e in own.events)
