"""Replays (docs/online.md, "Replays"): a finished game rebuilt from its setup and log, step by step.

Bot games of both kinds are played to the end through the live tables and logged as the owner
logs them (tests/games/online/finished_games.py); the replay, from the setup and the log only,
must end in the state and the result the game recorded, never show a seat a card it could not
know, and be refused while the game is being played.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.protocol import engine_for
from games.models import OnlineGame
from games.online.replay import ALL, log_rows, replay_get, seat_names
from games.online.series import series_game_play
from games.online.services import table_create
from games.online.snap import VARIANTS
from games.online.tables import online_for
from snapleague.errors import Conflict, NotFound
from tests.games.online.finished_games import play_snap, play_snapszer
from tests.games.online.test_hidden_information import hidden_from
from tests.games.online.test_hidden_information import leaks as snapszer_leaks
from tests.games.online.test_snap_hidden_information import face_down
from tests.games.online.test_snap_hidden_information import leaks as snap_leaks
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def snapszer_game(user: Any, profile: str) -> OnlineGame:
    return table_create(user=user, kind="snapszer", options={"profile": profile}, seats=2, bots=["casual"])


def snap_game(user: Any, seats: int, variant: str = "classic", seconds: int = 120) -> OnlineGame:
    options = {"profile": "classic", **VARIANTS[variant], "max_game_seconds": seconds}
    return table_create(user=user, kind="snap", options=options, seats=seats, bots=["casual"] * (seats - 1))


def replay_of(game: OnlineGame, viewer: Any) -> Any:
    return online_for(game.kind).replay(game.setup or {}, log_rows(game), viewer, seat_names(game))


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "sixty-six"])
def test_a_snapszer_replay_ends_in_the_recorded_state_and_result(make_user: Any, profile: str) -> None:
    game = snapszer_game(make_user("anna"), profile)
    final = play_snapszer(game)
    engine = engine_for("snapszer")
    for viewer in (0, 1, ALL):
        replay = replay_of(game, viewer)
        assert len(replay.steps) == game.version + 1  # the deal, then one step per logged action
        assert replay.result == game.result and replay.result is not None
        assert engine.to_snapshot(replay.steps[-1].state) == engine.to_snapshot(final)
        last = replay.steps[-1].frame["view"]
        assert last["match"]["winner"] == game.result["winner"]
    texts = [s.text for s in replay.steps]
    assert texts[0].startswith("Hand 1, dealt by")
    assert all(texts[1:]), "every logged action says what it did"
    assert any(" plays the " in t for t in texts) and " wins the match " in texts[-1]


@pytest.mark.parametrize(("seats", "variant"), [(2, "classic"), (4, "classic"), (3, "shapes")])
def test_a_snap_replay_ends_in_the_recorded_state_and_result(
    make_user: Any, seats: int, variant: str
) -> None:
    game = snap_game(make_user("anna"), seats, variant, seconds=60)
    final = play_snap(game, seed=seats)
    engine = engine_for("snap")
    replay = replay_of(game, 0)
    assert replay.result == game.result and replay.result is not None
    assert engine.to_snapshot(replay.steps[-1].state) == engine.to_snapshot(final)
    assert replay.steps[-1].frame["view"]["result"] == game.result
    assert 1 < len(replay.steps) <= game.version + 1  # round trips and idle timers make no step
    texts = [s.text for s in replay.steps]
    assert all(texts) and any(" flips " in t for t in texts)
    assert "wins the game" in texts[-1] or "draw" in texts[-1]


def test_no_seat_sees_a_card_it_could_not_know_at_any_step(make_user: Any) -> None:
    """Every step's frame of a seat is checked with the live tables' hidden-information checks; the
    "all cards" frames do show the hidden cards (so the check could fail)."""
    user = make_user("anna")
    snapszer = snapszer_game(user, "snapszer")
    play_snapszer(snapszer)
    for seat in (0, 1):
        for n, step in enumerate(replay_of(snapszer, seat).steps):
            assert not snapszer_leaks(step.frame, hidden_from(step.state, seat)), (seat, n)
    everything = replay_of(snapszer, ALL).steps
    # Every step with something hidden from seat 0 shows it (a step between hands may hide nothing).
    hiding = [(s, hidden) for s in everything[:-1] if (hidden := hidden_from(s.state, 0))]
    assert len(hiding) > len(everything) // 2
    assert all(snapszer_leaks(s.frame, hidden) for s, hidden in hiding)

    snap = snap_game(user, 4, seconds=60)
    play_snap(snap, seed=7)
    for seat in range(4):
        for n, step in enumerate(replay_of(snap, seat).steps):
            assert not snap_leaks(step.frame, face_down(step.state)), (seat, n)
    shown = [s for s in replay_of(snap, ALL).steps if face_down(s.state)]
    assert shown and all(snap_leaks(s.frame, face_down(s.state)) for s in shown)


def test_a_live_game_has_no_replay(make_user: Any, client: Client) -> None:
    user = make_user("anna")
    game = snapszer_game(user, "snapszer")
    for viewer in ("0", ALL, None):
        with pytest.raises(Conflict):
            replay_get(user=user, game_id=game.pk, viewer=viewer)
    client.force_login(user)
    response = client.get(reverse("games:replay", args=[game.pk]), {"seat": ALL})
    assert response.status_code == 409
    assert "still being played" in response.content.decode()
    assert "replay-steps" not in response.content.decode()


def test_bad_viewers_and_unknown_games_are_not_found(make_user: Any, client: Client) -> None:
    user = make_user("anna")
    game = snapszer_game(user, "snapszer")
    play_snapszer(game)
    for viewer in ("2", "-1", "x", "01x"):
        with pytest.raises(NotFound):
            replay_get(user=user, game_id=game.pk, viewer=viewer)
        assert client.get(reverse("games:replay", args=[game.pk]), {"seat": viewer}).status_code == 404
    assert client.get(reverse("games:replay", args=[game.pk + 1000])).status_code == 404


def test_the_page_embeds_the_steps_of_the_chosen_view(make_user: Any, client: Client) -> None:
    user = make_user("anna")
    game = snapszer_game(user, "snapszer")
    play_snapszer(game)
    client.force_login(user)
    page = client.get(reverse("games:replay", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-viewer="0"' in html and 'src="/static/js/replay.js"' in html
    assert 'id="step-0"' in html and f'id="step-{game.version}"' in html
    other = client.get(reverse("games:replay", args=[game.pk]), {"seat": "1", "step": "3"})
    steps = other.context["steps"]
    assert (
        json.loads(
            other.content.decode()
            .split('id="replay-steps" type="application/json">')[1]
            .split("</script>")[0]
        )
        == steps
    )
    assert steps[3]["index"] == 3 and steps[3]["frame"]["view"]["seat"] == 1
    everything = client.get(reverse("games:replay", args=[game.pk]), {"seat": ALL}).context["steps"]
    assert everything[0]["frame"]["view"]["seat"] is None and len(everything[0]["frame"]["hands"]) == 2
    assert len(everything[0]["frame"]["stock"]) > 0


def finished_series_game(
    make_series: Any, players: list[Any], user: Any, make_user: Any
) -> tuple[Series, OnlineGame]:
    """Game 1 of an online Snapszer series of the first two players (both with accounts), played out."""
    players[1].user = make_user("bence")
    players[1].save()
    series = make_series(players[:2], game="snapszer")
    series.stage.online_play = True
    series.stage.save()
    series_game_play(user=user, series_id=series.pk)
    game = series_game_play(user=players[1].user, series_id=series.pk)  # dealt once both pressed Play
    play_snapszer(game)
    return series, game


def test_links_lead_to_the_replay_from_the_lobby_and_the_series(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, client: Client
) -> None:
    casual = snapszer_game(player_user, "snapszer")
    play_snapszer(casual)
    series, game = finished_series_game(make_series, players, player_user, make_user)
    client.force_login(player_user)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert reverse("games:replay", args=[casual.pk]) in lobby
    # the tournament game is linked from its series, not from the lobby's finished casual games
    finished = lobby.split('id="finished-games"')[1]
    assert reverse("games:replay", args=[game.pk]) not in finished
    page = client.get(reverse("tournaments:series", args=[series.pk])).content.decode()
    assert reverse("games:replay", args=[game.pk]) in page
    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 200


def test_a_series_game_is_replayed_only_for_who_sees_the_series(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, monkeypatch: Any
) -> None:
    _series, game = finished_series_game(make_series, players, player_user, make_user)
    assert replay_get(user=player_user, game_id=game.pk, viewer=None)[1].steps

    # A series its tournament hides from the user (a draft): the game is not found either.
    def nothing_visible(*, user: Any) -> Any:
        return Series.objects.none()

    monkeypatch.setattr("tournaments.competitions.selectors.tournaments.series_visible", nothing_visible)
    with pytest.raises(NotFound):
        replay_get(user=player_user, game_id=game.pk, viewer=None)
