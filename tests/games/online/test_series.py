"""A tournament series played online: "Play" starts the series' next game for its seated players,
the match is played over the sockets, and its result is recorded with the engine as the source;
the next "Play" starts game 2 with the deal passed on."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import OnlineGame
from games.online.owner import owners_stop
from games.online.series import series_game_play
from snapleague.errors import Conflict, PermissionDenied
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session
from tournaments.models import GameKind, GameResult

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads", "robot_speed"),
]


def on_move(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in frame["view"]["hand"].get("legal_actions", []) if a["type"] != "declare"]


async def at_version(socket: Any, version: int) -> dict[str, Any]:
    """The view of ``version`` (across processes a late reply of an older version may come first)."""
    while (frame := await receive(socket))["version"] < version:
        pass
    assert frame["version"] == version, frame
    return frame


def test_a_series_game_is_played_online_and_recorded_by_the_engine(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any
) -> None:
    bence_user = make_user("bence")
    players[1].user = bence_user
    players[1].save()
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    with pytest.raises(Conflict):  # not an online stage yet
        series_game_play(user=player_user, series_id=series.pk)
    series.stage.online_play = True
    series.stage.save()
    with pytest.raises(PermissionDenied):
        series_game_play(user=make_user("outsider"), series_id=series.pk)
    game = series_game_play(user=player_user, series_id=series.pk, client_seed="a1" * 32)
    # Dealt only once every seated player has pressed "Play" with a seed; the server's committed.
    assert game.status == OnlineGame.Status.OPEN and game.game_number == 1 and game.dealer == 0
    assert len(game.server_seed_hash) == 64 and not game.server_seed
    assert series_game_play(user=player_user, series_id=series.pk, client_seed="ff") == game  # again
    assert (
        series_game_play(user=bence_user, series_id=series.pk, client_seed="b2" * 8) == game
    )  # the same table
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    assert [s.client_seed for s in game.seats.all()] == ["a1" * 32, "b2" * 8]
    cookies = [session(player_user), session(bence_user)]

    async def scenario() -> None:
        sockets = [await opened(game.pk, cookie) for cookie in cookies]
        frames = [await receive(s) for s in sockets]
        while not frames[0]["finished"]:
            if not on_move(frames[0]) and not on_move(frames[1]):  # the match is over: its end comes next
                frames = [await receive(s) for s in sockets]
                continue
            seat = 0 if on_move(frames[0]) else 1
            await send(
                sockets[seat],
                {"type": "act", "version": frames[seat]["version"], "action": on_move(frames[seat])[0]},
            )
            frames = [await at_version(s, frames[seat]["version"] + 1) for s in sockets]
        await owners_stop()
        later = await opened(game.pk)  # a finished game has no owner: a spectator's end is read back
        end = await receive(later)
        assert end["finished"] and end["version"] == frames[0]["version"] and end["view"]["seat"] is None

    run(scenario)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.FINISHED and game.server_seed
    recorded = GameResult.objects.get(game__series=series, game__number=1)
    assert recorded.source == "engine" and recorded.engine_game == game.pk
    assert recorded.value.winner == players[game.result["winner"]].pk
    second = series_game_play(user=bence_user, series_id=series.pk)
    assert second.pk != game.pk and second.game_number == 2 and second.dealer == 1


def test_a_seated_player_sees_play_on_the_series_page_and_it_opens_the_table(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, client: Any
) -> None:
    players[1].user = make_user("bence")
    players[1].save()
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    client.force_login(player_user)
    assert b"play-online" not in client.get(f"/series/{series.pk}/").content  # not an online stage
    series.stage.online_play = True
    series.stage.save()
    assert b"play-online" in client.get(f"/series/{series.pk}/").content
    response = client.post(f"/play/series/{series.pk}/")
    game = OnlineGame.objects.get(series=series)
    assert response.status_code == 302 and response["Location"] == f"/play/{game.pk}/"
    client.force_login(make_user("outsider"))
    assert b"play-online" not in client.get(f"/series/{series.pk}/").content
    assert client.post(f"/play/series/{series.pk}/")["Location"] == f"/series/{series.pk}/"


def test_a_snap_series_game_is_played_online_and_recorded_by_the_engine(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, settings: Any
) -> None:
    """A Snap series of three: "Play" starts its game with the tournament's rules; nobody presses
    (the owner's timers flip for everyone, S36) until the time cap ends it; the result goes through
    the result service with the engine as the source, and "Play" then starts game 2."""
    settings.ONLINE_SNAP_CLOCK_SCALE = 40.0  # game time runs fast: every time in the game is an input
    for player, name in zip(players[1:3], ("bence", "csilla"), strict=True):
        player.user = make_user(name)
        player.save()
    series = make_series(players[:3], game=GameKind.SNAP)
    tournament = series.stage.tournament
    tournament.rules_options = {"max_game_seconds": 60}
    tournament.save()
    series.stage.online_play = True
    series.stage.save()
    game = series_game_play(user=player_user, series_id=series.pk)
    for player in players[1:3]:
        game = series_game_play(user=player.user, series_id=series.pk)
    assert game.kind == "snap" and game.seat_count == 3 and game.game_number == 1
    assert game.setup["timing"]["max_lag_compensation_ms"] == 300  # tournament play: S33's default
    cookie = session(player_user)

    async def scenario() -> None:
        socket = await opened(game.pk, cookie)
        while (frame := await receive(socket, timeout=30))["type"] != "view" or not frame["finished"]:
            pass
        assert frame["view"]["result"] is not None
        await owners_stop()

    run(scenario)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.FINISHED
    recorded = GameResult.objects.get(game__series=series, game__number=1)
    assert recorded.source == "engine" and recorded.engine_game == game.pk
    second = series_game_play(user=player_user, series_id=series.pk)
    assert second.pk != game.pk and second.game_number == 2 and second.dealer == 1
    assert second.status == OnlineGame.Status.OPEN  # the others have not pressed "Play" yet
