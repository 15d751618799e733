"""Client seeds from the pages (docs/online.md, "Fair dealing"): the create form, the join page and
the series' "Play" carry the player's seed; the seed posted is the one stored and dealt from, and the
verify page's recomputation equals the dealt order; a bad seed is refused with a message; the
invitation's GET changes nothing."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import dealing
from games.engine.protocol import engine_for
from games.engine.sixtysix.cards import deck
from games.engine.sixtysix.game import deal_for
from games.engine.sixtysix.rules import PROFILES as SNAPSZER_PROFILES
from games.engine.snap.contract import game_rules
from games.engine.snap.decks import DECKS
from games.models import OnlineGame, OnlineSeat
from games.online.kinds import online_for
from games.online.services import finish, table_create
from games.online.tables import engine_options
from tournaments.models import GameKind

pytestmark = pytest.mark.django_db

ANNA_SEED = "0123456789abcdef" * 4  # 32 bytes
BENCE_SEED = "fe" * 64  # the longest: 64 bytes


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _verify_page(game: OnlineGame) -> str:
    return Client().get(reverse("games:verify", args=[game.pk])).content.decode()


def test_every_form_that_seats_a_player_carries_a_seed_field_and_its_script(make_user: Any) -> None:
    lobby = logged_in(make_user("anna")).get(reverse("games:lobby")).content.decode()
    forms = lobby.count("<form")
    seated = lobby.count('name="client_seed"')
    assert seated == 3  # the Snap, the Snapszer and the practice forms
    assert "js/seed.js" in lobby and reverse("games:fairness") in lobby
    # the server's fallback (a browser without JavaScript keeps it): 64 hex digits, a fresh one each time
    fallbacks = re.findall(r'name="client_seed" value="([0-9a-f]{64})"', lobby)
    assert len(fallbacks) == seated and len(set(fallbacks)) == seated
    assert forms > seated  # the other forms (the language switcher …) seat nobody
    assert "<script>" not in lobby  # no inline script (the CSP)
    assert "Fair dealing" in Client().get(reverse("games:fairness")).content.decode()


def test_the_seed_posted_is_stored_dealt_from_and_recomputed_by_the_verify_page(make_user: Any) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    created = logged_in(anna).post(
        reverse("games:new"),
        {
            "game": "snap",
            "profile": "shapes",
            "seats": "3",
            "opponent": "person",
            "client_seed": ANNA_SEED.upper(),  # hex in either case; stored in lower case
        },
    )
    game = OnlineGame.objects.get()
    assert created["Location"] == reverse("games:table", args=[game.pk])
    assert game.status == OnlineGame.Status.OPEN and len(game.server_seed_hash) == 64  # committed already
    joined = logged_in(bence).post(
        reverse("games:join", args=[game.invite_token]), {"client_seed": BENCE_SEED}
    )
    assert joined.status_code == 302 and joined["Location"] == reverse("games:table", args=[game.pk])
    logged_in(anna).post(reverse("games:fill", args=[game.pk]), {"level": "beginner"})
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    assert [s.client_seed for s in game.seats.all()] == [ANNA_SEED, BENCE_SEED, ""]  # a bot gives none
    assert ANNA_SEED in _verify_page(game) and game.sealed_seed not in _verify_page(game)  # not yet

    finish(game_id=game.pk, result={})  # the end reveals the server seed
    game.refresh_from_db()
    server = bytes.fromhex(game.server_seed)
    assert hashlib.sha256(server).hexdigest() == game.server_seed_hash
    # The documented formula, recomputed here from the seeds as posted.
    expected = hashlib.sha256(server)
    for seed in (ANNA_SEED, BENCE_SEED, ""):
        expected.update(hashlib.sha256(bytes.fromhex(seed)).digest())
    assert game.setup["seed"] == expected.hexdigest()
    dealt = engine_for("snap").from_snapshot(game.snapshots.get(seq=0).data).deal.order
    page = _verify_page(game)
    assert page.count("✔") == 2 and expected.hexdigest() in page
    for seat, seed in enumerate((ANNA_SEED, BENCE_SEED)):
        assert f'data-seat="{seat}">{seed}</code>' in page
    shown = re.search(r'data-deal="1">([^<]*)</code>', page)
    assert shown is not None and tuple(shown.group(1).split(" ")) == dealt
    # Another seed would have dealt another order.
    other = OnlineSeat.objects.get(game=game, number=1)
    other.client_seed = "00"
    other.save()
    changed = re.search(r'data-deal="1">([^<]*)</code>', _verify_page(game))
    assert changed is not None and tuple(changed.group(1).split(" ")) != dealt


def test_getting_the_invitation_shows_the_table_and_changes_nothing(make_user: Any) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    logged_in(anna).post(
        reverse("games:new"),
        {"game": "snapszer", "profile": "snapszer", "opponent": "person", "client_seed": ""},
    )
    game = OnlineGame.objects.get()
    before = list(OnlineSeat.objects.filter(game=game).values())
    page = logged_in(bence).get(reverse("games:join", args=[game.invite_token]))
    html = page.content.decode()
    assert page.status_code == 200
    assert game.server_seed_hash in html and "anna" in html and 'id="take-seat"' in html
    assert 'name="client_seed"' in html and reverse("games:fairness") in html
    assert list(OnlineSeat.objects.filter(game=game).values()) == before
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.OPEN
    assert logged_in(bence).post(reverse("games:join", args=[game.invite_token])).status_code == 302
    seat = OnlineSeat.objects.get(game=game, number=1)
    assert seat.user == bence and seat.client_seed == ""  # no seed given: the empty one (documented)
    again = logged_in(bence).get(reverse("games:join", args=[game.invite_token])).content.decode()
    assert 'id="take-seat"' not in again and reverse("games:table", args=[game.pk]) in again
    assert Client().get(reverse("games:join", args=["no-such-token"])).status_code == 302  # to log in
    assert logged_in(bence).get(reverse("games:join", args=["no-such-token"])).status_code == 404


@pytest.mark.parametrize("seed", ["xyz", "abc", "ab" * 65, "12 34", "0x12"])
def test_a_bad_seed_is_refused_with_a_message_and_nothing_changes(make_user: Any, seed: str) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    message = "A client seed is up to 64 bytes written in hexadecimal"
    refused = logged_in(anna).post(
        reverse("games:new"),
        {"game": "snapszer", "profile": "snapszer", "opponent": "person", "client_seed": seed},
    )
    assert refused.status_code == 400 and message in refused.content.decode()
    assert not OnlineGame.objects.exists()
    logged_in(anna).post(
        reverse("games:new"), {"game": "snapszer", "profile": "snapszer", "opponent": "person"}
    )
    game = OnlineGame.objects.get()
    refused = logged_in(bence).post(reverse("games:join", args=[game.invite_token]), {"client_seed": seed})
    assert refused.status_code == 400 and message in refused.content.decode()
    assert 'id="take-seat"' in refused.content.decode()  # the form again
    assert OnlineSeat.objects.get(game=game, number=1).user is None


def test_a_series_game_is_dealt_from_every_players_seed_given_with_play(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any
) -> None:
    bence = make_user("bence")
    players[1].user = bence
    players[1].save()
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    series.stage.online_play = True
    series.stage.save()
    page = logged_in(player_user).get(f"/series/{series.pk}/").content.decode()
    assert 'id="series-play"' in page and 'name="client_seed"' in page
    play = reverse("games:series_play", args=[series.pk])
    refused = logged_in(player_user).post(play, {"client_seed": "not hex"})
    assert refused.status_code == 400 and "hexadecimal" in refused.content.decode()
    assert 'name="client_seed"' in refused.content.decode() and not OnlineGame.objects.exists()
    logged_in(player_user).post(play, {"client_seed": ANNA_SEED})
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.OPEN
    waiting = logged_in(player_user).get(reverse("games:table", args=[game.pk])).content.decode()
    assert "series page" in waiting and game.invite_token not in waiting  # no invitation to a series game
    # Nobody joins a series' game by its link, nor fills it with bots.
    outsider = logged_in(make_user("outsider"))
    assert outsider.post(reverse("games:join", args=[game.invite_token])).status_code == 403
    assert (
        logged_in(player_user).post(reverse("games:fill", args=[game.pk]), {"level": "casual"}).status_code
        == 302
    )
    assert OnlineGame.objects.get().status == OnlineGame.Status.OPEN
    logged_in(bence).post(play, {"client_seed": BENCE_SEED})
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    assert [s.client_seed for s in game.seats.all()] == [ANNA_SEED, BENCE_SEED]
    assert [s.user for s in game.seats.all()] == [player_user, bence]


# --- The deck orders docs/online.md spells out ----------------------------------------------------

ONLINE_MD = Path(__file__).resolve().parents[3] / "docs" / "online.md"


def documented_decks() -> dict[tuple[str, str], list[str]]:
    """docs/online.md's deck orders: ``(game, deck) -> cards``, card by card in order."""
    text = ONLINE_MD.read_text()
    found = re.findall(r"<!-- deck-order: (\S+) (\S+) -->\n```text\n(.*?)```", text, re.S)
    return {(game, name): cards.split() for game, name, cards in found}


def test_the_documented_deck_orders_are_the_ones_the_fair_deal_shuffles() -> None:
    """Every pack an online table deals, spelled out in docs/online.md card by card, is the code's
    list in the code's order: the Snap decks of the lobby's variants, the Snapszer packs of its
    profiles."""
    documented = documented_decks()
    snap_decks = {
        game_rules(engine_options(options)).deck for options in online_for(GameKind.SNAP).variants().values()
    }
    sizes = {
        SNAPSZER_PROFILES[options["profile"]].deck_size
        for options in online_for(GameKind.SNAPSZER).variants().values()
    }
    expected = {("snap", name): list(DECKS[name].cards) for name in snap_decks} | {
        ("snapszer", str(size)): [card.name for card in deck(size)] for size in sizes
    }
    assert documented == expected


def test_a_deal_is_the_documented_list_shuffled_with_the_deal_seed(make_user: Any) -> None:
    """The documented order is the input of the shuffle: a Snap table's recorded deal, and a
    Snapszer hand's deck, are ``dealing.shuffled`` of the page's list with the deal seed."""
    documented = documented_decks()
    game = table_create(user=make_user("anna"), kind="snap", options={}, seats=2, bots=["beginner"])
    game.refresh_from_db()
    seed = bytes.fromhex(game.setup["seed"])
    dealt = engine_for("snap").from_snapshot(game.snapshots.get(seq=0).data).deal.order
    assert dealing.shuffled(documented[("snap", "standard52")], seed, b"deal") == dealt
    for profile in ("snapszer", "snapszer-hu"):
        rules = SNAPSZER_PROFILES[profile]
        listed = documented[("snapszer", str(rules.deck_size))]
        assert dealing.shuffled(listed, seed, b"hand:3") == tuple(c.name for c in deal_for(rules, seed, 3))
