"""Absent players and the lease sweeper (docs/online.md "Absent players", "Owner and lease").

The owner's clock is replaced by one a test moves forward (``clock``): nobody waits 60 s. A socket's
liveness (its heartbeat) is real time, so a jump of the clock does not make an open socket absent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.urls import reverse
from django.utils import timezone

from games.engine.protocol import engine_for
from games.engine.snap.timing import TimingRules, replay_timed, timed_input_from_dict
from games.models import GameLease, GameLogEntry, OnlineGame
from games.online import owner as owner_module
from games.online.kinds import online_for
from games.online.owner import OWNERS, SWEEPER, owners_stop, sweep_once
from games.online.series import series_game_play
from games.online.services import CONTROL_ROWS, seat_join, state_load, table_create
from snapleague.asgi import application
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session
from tournaments.models import Forfeit, GameKind, Series

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads", "robot_speed"),
]

SNAPSZER = engine_for("snapszer")
SNAP = engine_for("snap")


class Clock:
    """The owner's clock: real time plus what the test has moved it forward by."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return timezone.now() + self.ahead

    def forward(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    fake = Clock()
    monkeypatch.setattr(owner_module, "CLOCK", fake)
    return fake


async def until(socket: WebsocketCommunicator, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first view frame that passes ``test`` (the owner wakes at least every second)."""
    for _ in range(500):
        frame = await receive(socket)
        if frame["type"] == "view" and test(frame):
            return frame
    raise AssertionError("no such frame")


def rows(game_id: int) -> list[tuple[int, dict[str, Any], int | None, int | None, str]]:
    return list(
        GameLogEntry.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "action", "seat", "user_id", "bot_level")
    )


def control(game_id: int) -> list[tuple[dict[str, Any], int | None, int | None]]:
    return [(a, seat, user) for _s, a, seat, user, _b in rows(game_id) if a["type"] in CONTROL_ROWS]


async def wait_for(test: Callable[[], bool], what: str) -> None:
    for _ in range(300):
        if await sync_to_async(test)():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def snapszer_replay_is_the_state(game_id: int) -> None:
    """The state is the replay of the whole log (control rows say who plays, not what is played)."""
    game = OnlineGame.objects.get(pk=game_id)
    state, version = state_load(game)
    actions = [SNAPSZER.action_from_dict(a) for _s, a, *_ in rows(game_id) if a["type"] not in CONTROL_ROWS]
    assert version == len(rows(game_id)) == game.version
    assert SNAPSZER.to_snapshot(state) == SNAPSZER.to_snapshot(SNAPSZER.replay(game.setup, actions))


@pytest.fixture
def duel(make_user: Any) -> tuple[OnlineGame, Any, Any, Any]:
    """Anna (seat 0) and Bence (seat 1) at a casual Snapszer table that allows 60 s away."""
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2, absent_seconds=60)
    seat_join(user=bence, token=game.invite_token)
    game.refresh_from_db()
    return game, session(anna), session(bence), bence


def test_a_bot_takes_an_absent_players_seat_and_gives_it_back_when_they_return(
    duel: Any, clock: Clock
) -> None:
    game, anna, bence, bence_user = duel

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        frame = await receive(a)
        await receive(b)
        owner = OWNERS[game.pk]
        await b.disconnect()  # the socket says "gone": Bence's absence counts from now
        await wait_for(lambda: 1 in owner.away_since, "Bence's goodbye")
        clock.forward(50)  # (and real time runs on: a second or two)
        assert await a.receive_nothing(timeout=1.2)  # still his seat (the owner wakes every second)
        clock.forward(11)  # over 60 s on the owner's clock: a bot of the table's default level sits in
        frame = await until(a, lambda f: f.get("stand_ins") == {"1": "casual"})
        # The bot plays Bence's cards: Anna plays on until the bot has moved in his seat.
        for _ in range(20):
            moved = await sync_to_async(
                lambda: GameLogEntry.objects.filter(game=game, seat=1, bot_level="casual").exists()
            )()
            if moved:
                break
            legal = [x for x in frame["view"]["hand"].get("legal_actions", []) if x["type"] != "declare"]
            if legal:
                await send(a, {"type": "act", "version": frame["version"], "action": legal[0]})
            version = frame["version"]
            frame = await until(a, lambda f, v=version: f["version"] > v)
        assert moved
        # Bence comes back: the seat is his again, and everyone is told.
        b = await opened(game.pk, bence)
        back = await until(b, lambda f: "stand_ins" not in f)
        assert back["view"]["seat"] == 1
        await until(a, lambda f: "stand_ins" not in f)
        await owners_stop()

    run(scenario)
    assert control(game.pk) == [
        ({"type": "stand_in", "seat": 1, "bot": "casual"}, None, None),
        ({"type": "stand_in", "seat": 1, "bot": None}, 1, bence_user.pk),
    ]
    snapszer_replay_is_the_state(game.pk)


def test_a_present_player_keeps_the_seat_and_a_new_owner_asks_who_is_here(duel: Any, clock: Clock) -> None:
    """The owner dies; the sweeper's new owner asks the open sockets (``game.who``); both answer.
    Then Bence leaves: after the timeout only his seat gets a bot, not Anna's, although the new
    owner started more than 60 s (on its clock) before."""
    game, anna, bence, _bence_user = duel

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        await receive(a)
        await receive(b)
        dead = OWNERS[game.pk]
        assert dead.task is not None
        dead.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await dead.task
        await sync_to_async(GameLease.objects.filter(game=game).update)(
            owner="dead-process", expires_at=timezone.now() - timedelta(seconds=1)
        )
        assert await sweep_once() == [game.pk]
        new = OWNERS[game.pk]
        await wait_for(lambda: set(new.sockets) == {0, 1}, "both seats to answer the new owner")
        clock.forward(61)
        await b.disconnect()
        await wait_for(lambda: 1 in new.away_since, "Bence's goodbye")
        clock.forward(61)
        frame = await until(a, lambda f: "stand_ins" in f)
        assert frame["stand_ins"] == {"1": "casual"}
        await owners_stop()

    run(scenario)
    assert [c[0]["seat"] for c in control(game.pk)] == [1]


def test_a_socket_not_heard_from_is_absent(duel: Any, clock: Clock, monkeypatch: Any) -> None:
    """A socket whose process died says nothing: once its heartbeat is overdue it is gone."""
    game, anna, bence, _bence_user = duel
    monkeypatch.setattr(owner_module, "PRESENCE_STALE_SECONDS", 0.3)

    async def scenario() -> None:
        a = await opened(game.pk, anna)
        await receive(a)
        b = await opened(game.pk, bence)
        await receive(b)
        owner = OWNERS[game.pk]
        # nobody beats (every 5 s): both sockets are overdue at the owner's next wake
        await wait_for(lambda: set(owner.away_since) == {0, 1}, "both sockets to be overdue")
        clock.forward(61)
        await until(a, lambda f: f.get("stand_ins") == {"0": "casual", "1": "casual"})
        assert not any(owner.sockets.values())
        await owners_stop()

    run(scenario)


def test_the_stand_in_plays_at_the_tables_bot_level_in_snap(make_user: Any, clock: Clock) -> None:
    anna = make_user("anna")
    game = table_create(
        user=anna,
        kind="snap",
        options={"profile": "classic", "max_game_seconds": 720},
        seats=3,
        bots=["club", "club"],
        absent_seconds=10,
    )
    cookie = session(anna)

    async def scenario() -> None:
        a = await opened(game.pk, cookie)
        await until(a, lambda f: True)
        owner = OWNERS[game.pk]
        await a.disconnect()
        await wait_for(lambda: 0 in owner.away_since, "Anna's goodbye")
        clock.forward(11)
        await wait_for(
            lambda: GameLogEntry.objects.filter(game=game, seat=0, bot_level="club").exists(),
            "the club bot to press in Anna's seat",
        )
        a = await opened(game.pk, cookie)
        await until(a, lambda f: "stand_ins" not in f)
        await owners_stop()

    run(scenario)
    assert [c[0] for c in control(game.pk)] == [
        {"type": "stand_in", "seat": 0, "bot": "club"},
        {"type": "stand_in", "seat": 0, "bot": None},
    ]
    # The timed log without its control rows replays to the owner's game (S38).
    game.refresh_from_db()
    inputs = [timed_input_from_dict(a) for _s, a, *_ in rows(game.pk) if a["type"] not in CONTROL_ROWS]
    setup = game.setup
    dealt = SNAP.new_game(
        setup["options"], seats=setup["seats"], dealer=setup["dealer"], seed=bytes.fromhex(setup["seed"])
    )
    replayed = replay_timed(
        dealt.rules, dealt.deal, setup["dealer"], inputs, timing=TimingRules(**setup["timing"])
    )
    table = online_for("snap").load(game)
    assert table.version == game.version == len(rows(game.pk))
    assert SNAP.to_snapshot(replayed.state) == SNAP.to_snapshot(table.state)


@pytest.fixture
def series_game(make_series: Any, players: list[Any], player_user: Any, make_user: Any) -> Any:
    """Game 1 of a Snapszer series between Anna (seat 0, ``player_user``) and Bence, online."""
    bence = make_user("bence")
    players[1].user = bence
    players[1].save()
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    series.stage.online_play = True
    series.stage.save()
    series_game_play(user=player_user, series_id=series.pk)
    game = series_game_play(user=bence, series_id=series.pk)  # dealt once both pressed Play
    return game, series, session(player_user), session(bence)


def test_an_absent_tournament_player_forfeits(series_game: Any, players: list[Any], clock: Clock) -> None:
    game, series, anna, _bence = series_game

    async def scenario() -> None:
        a = await opened(game.pk, anna)  # Bence never comes
        await receive(a)
        clock.forward(61)
        end = await until(a, lambda f: f["finished"])
        assert end["abandoned"] == {"absent": [1]}
        await owners_stop()

    run(scenario)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.FINISHED and game.result == {"abandoned": {"absent": [1]}}
    assert game.server_seed  # revealed: the deal can be verified
    assert control(game.pk) == [({"type": "abandon", "seats": [1]}, None, None)]
    assert list(Forfeit.objects.filter(series=series).values_list("player_id", flat=True)) == [players[1].pk]
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings == {str(players[0].pk): 1}
    assert not series.games.exists()  # no game result: a forfeit


def test_both_absent_is_a_double_forfeit(series_game: Any, players: list[Any], clock: Clock) -> None:
    game, series, anna, bence = series_game

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        await receive(a)
        await receive(b)
        owner = OWNERS[game.pk]
        await a.disconnect()
        await b.disconnect()
        await wait_for(lambda: set(owner.away_since) == {0, 1}, "both goodbyes")
        clock.forward(61)
        await wait_for(
            lambda: OnlineGame.objects.get(pk=game.pk).status == OnlineGame.Status.FINISHED, "the game's end"
        )
        await owners_stop()

    run(scenario)
    assert sorted(Forfeit.objects.filter(series=series).values_list("player_id", flat=True)) == sorted(
        [players[0].pk, players[1].pk]
    )
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings == {}


def test_a_series_game_a_player_never_presses_play_for_is_dealt_then_forfeited(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, clock: Clock
) -> None:
    """Anna presses "Play", Bence never does: once the allowance has passed the sweeper deals the
    game without his seed, he is absent at the table, and after the allowance again the forfeit
    rule decides (a no-show forfeits). Before the deadline nothing happens."""
    bence = make_user("bence")
    players[1].user = bence
    players[1].save()
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    series.stage.online_play = True
    series.stage.save()
    game = series_game_play(user=player_user, series_id=series.pk, client_seed="cd" * 16)
    assert game.status == OnlineGame.Status.OPEN
    anna = session(player_user)

    async def scenario() -> None:
        try:
            clock.forward(30)
            assert await sweep_once() == []  # still waiting for Bence
            clock.forward(31)
            assert await sweep_once() == [game.pk]
            assert await sweep_once() == []  # dealt once, owned
            a = await opened(game.pk, anna)
            frame = await until(a, lambda f: True)
            assert not frame["finished"]
            clock.forward(61)  # Bence is still not at the table
            end = await until(a, lambda f: f["finished"])
            assert end["abandoned"] == {"absent": [1]}
        finally:
            await owners_stop()

    run(scenario)
    game.refresh_from_db()
    seats = {s.number: (s.user_id, s.client_seed) for s in game.seats.all()}
    assert seats == {0: (player_user.pk, "cd" * 16), 1: (bence.pk, "")}
    assert game.setup and game.result == {"abandoned": {"absent": [1]}}
    assert list(Forfeit.objects.filter(series=series).values_list("player_id", flat=True)) == [players[1].pk]


def test_the_sweeper_takes_over_a_dead_owners_game_with_no_input(make_user: Any) -> None:
    """Snap against a bot, nobody pressing: the owner dies, its lease expires; the sweeper's owner
    plays on (the timers flip, S36) and Anna's page sees new versions without sending anything."""
    anna = make_user("anna")
    game = table_create(user=anna, kind="snap", options={"profile": "classic"}, seats=2, bots=["expert"])
    cookie = session(anna)

    async def scenario() -> None:
        a = await opened(game.pk, cookie)
        await until(a, lambda f: True)
        assert await sweep_once() == []  # a live owner's lease is not taken
        dead = OWNERS[game.pk]
        assert dead.task is not None
        dead.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await dead.task
        version = await sync_to_async(lambda: OnlineGame.objects.get(pk=game.pk).version)()
        await sync_to_async(GameLease.objects.filter(game=game).update)(
            owner="dead-process", expires_at=timezone.now() - timedelta(seconds=1)
        )
        assert await sweep_once() == [game.pk]
        assert OWNERS[game.pk] is not dead
        await until(a, lambda f: f["version"] > version)
        assert await sweep_once() == []  # now owned again
        await owners_stop()

    run(scenario)
    lease = GameLease.objects.get(game=game)
    assert lease.owner == ""  # released when the owner stopped


def test_the_lifespan_starts_and_stops_the_sweeper() -> None:
    async def scenario() -> None:
        life = ApplicationCommunicator(application, {"type": "lifespan", "asgi": {"version": "3.0"}})
        await life.send_input({"type": "lifespan.startup"})
        assert await life.receive_output(timeout=5) == {"type": "lifespan.startup.complete"}
        assert len(SWEEPER) == 1 and not SWEEPER[0].done()
        await life.send_input({"type": "lifespan.shutdown"})
        assert await life.receive_output(timeout=5) == {"type": "lifespan.shutdown.complete"}
        assert SWEEPER == []

    run(scenario)


@pytest.mark.parametrize(("given", "ok"), [("90", True), ("5", False), ("abc", False), ("99999", False)])
def test_the_lobby_form_sets_and_checks_absent_seconds(
    make_user: Any, client: Any, given: str, ok: bool
) -> None:
    client.force_login(make_user("anna"))
    assert b'name="absent_seconds"' in client.get(reverse("games:lobby")).content
    response = client.post(
        reverse("games:new"),
        {
            "game": "snapszer",
            "profile": "snapszer",
            "opponent": "bot",
            "level": "casual",
            "absent_seconds": given,
        },
        follow=True,
    )
    assert response.status_code == (200 if ok else 400)  # a refusal: the lobby again, with the message
    if ok:
        game = OnlineGame.objects.get()
        assert game.options["absent_seconds"] == 90 and game.status == OnlineGame.Status.PLAYING
    else:
        assert not OnlineGame.objects.exists()
        assert "Choose how long a player may be away: from 10 to 3600 seconds." in response.content.decode()


def test_the_heartbeat_keeps_a_quiet_seat_here(duel: Any, monkeypatch: Any) -> None:
    """A seated socket that sends nothing still beats (``game.presence``, here): its seat stays."""
    from games.online import consumers

    game, anna, _bence, _bence_user = duel
    monkeypatch.setattr(consumers, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(owner_module, "PRESENCE_STALE_SECONDS", 0.5)

    async def scenario() -> None:
        a = await opened(game.pk, anna)
        await receive(a)
        owner = OWNERS[game.pk]
        first = next(iter(owner.sockets[0].values()))
        await asyncio.sleep(1.0)  # twice the staleness: only the beats keep Anna here
        assert owner.sockets[0] and next(iter(owner.sockets[0].values())) > first
        assert 0 not in owner.away_since and 1 in owner.away_since  # Bence never came
        await owners_stop()

    run(scenario)


def test_a_snap_series_absence_the_rule_cannot_decide_is_left_to_the_organiser(
    make_series: Any, players: list[Any], player_user: Any, make_user: Any, clock: Clock
) -> None:
    """Three at a Snap table, one away: a forfeit would leave more players than go on, so the
    rule does not record it (rules/tournaments.md: withdraw the player instead). The game ends
    abandoned, the series waits for the organiser."""
    for player, name in zip(players[1:3], ("bence", "csilla"), strict=True):
        player.user = make_user(name)
        player.save()
    series = make_series(players[:3], game=GameKind.SNAP)
    series.stage.online_play = True
    series.stage.save()
    for user in (player_user, players[1].user, players[2].user):  # dealt once all pressed Play
        game = series_game_play(user=user, series_id=series.pk)
    cookies = [session(player_user), session(players[1].user)]

    async def scenario() -> None:
        sockets = [await opened(game.pk, cookie) for cookie in cookies]
        for s in sockets:
            await until(s, lambda f: True)
        clock.forward(61)
        end = await until(sockets[0], lambda f: f["finished"])
        assert end["abandoned"] == {"absent": [2]}
        await owners_stop()

    run(scenario)
    game.refresh_from_db()
    assert game.result == {"abandoned": {"absent": [2]}}
    assert not Forfeit.objects.filter(series=series).exists()
    series.refresh_from_db()
    assert series.status == Series.Status.PENDING
