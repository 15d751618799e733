"""The game socket frame by frame: every message type, every error frame, resync, takeover."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.engine.errors import ActionCode
from games.engine.protocol import GameKind, engine_for
from games.engine_messages import GAME_ACTION_MESSAGES
from games.models import GameLease, GameLogEntry, OnlineGame
from games.online import lease, services
from games.online import owner as owner_module
from games.online.consumers import MAX_MESSAGE_CHARS
from games.online.groups import view_group
from games.online.lease import lease_acquire, lease_renew, lease_renewer
from games.online.owner import OWNERS, owner_ensure, owners_stop, view_frame
from games.online.services import seat_join, state_load, table_create
from games.online.tables import Entry, log_writer
from snapleague.asgi import application
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads"),
]

ENGINE = engine_for("snapszer")


@pytest.fixture
def duel(make_user: Any) -> tuple[OnlineGame, Any, Any]:
    """Anna (seat 0) and Bence (seat 1) at a Snapszer table, started."""
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2)
    seat_join(user=bence, token=game.invite_token, client_seed="ab" * 16)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.PLAYING
    return game, session(anna), session(bence)


def on_move(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in frame["view"]["hand"].get("legal_actions", []) if a["type"] != "declare"]


async def both_views(
    a: WebsocketCommunicator, b: WebsocketCommunicator
) -> tuple[dict[str, Any], dict[str, Any]]:
    return await receive(a), await receive(b)


async def play(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> tuple[dict, dict]:
    """The seat on move plays its first legal non-declaration action; both get the new view."""
    mover, frame = (a, fa) if on_move(fa) else (b, fb)
    await send(mover, {"type": "act", "version": frame["version"], "action": on_move(frame)[0]})
    return await both_views(a, b)


Body = Callable[[WebsocketCommunicator, WebsocketCommunicator, dict, dict], Awaitable[None]]


def at_table(duel: tuple[OnlineGame, Any, Any], body: Body) -> None:
    """Run ``body(anna's socket, bence's socket, her view, his view)`` at the duel's table, then
    stop the owner."""
    game, anna, bence = duel

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        fa, fb = await both_views(a, b)
        try:
            await body(a, b, fa, fb)
        finally:
            await owners_stop()

    run(scenario)


async def quiet(communicator: WebsocketCommunicator) -> None:
    assert await communicator.receive_nothing(timeout=0.2)


def test_each_seat_gets_its_own_view_and_a_spectator_sees_no_hand(duel: Any) -> None:
    game, anna, bence = duel

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        watcher = await opened(game.pk)
        fa, fb, fw = await receive(a), await receive(b), await receive(watcher)
        state, version = await sync_to_async(state_load)(game)
        assert fa == view_frame(ENGINE, state, version, 0)
        assert fb == view_frame(ENGINE, state, version, 1)
        assert fw == view_frame(ENGINE, state, version, None)
        assert "hand" not in fw["view"]["hand"] and fa["view"]["hand"]["hand"] != fb["view"]["hand"]["hand"]
        fa, fb = await play(a, b, fa, fb)
        assert fa["version"] == fb["version"] == (await receive(watcher))["version"] == 1
        await owners_stop()

    run(scenario)


STALE_WORDS = GAME_ACTION_MESSAGES[(GameKind.SNAPSZER, ActionCode.STALE)]


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ({"type": "dance"}, "malformed"),
        ({"type": "act", "version": "0", "action": {}}, "malformed"),
        ({"type": "act", "version": 0}, "malformed"),
        ("x" * (MAX_MESSAGE_CHARS + 1), "too_large"),
    ],
    ids=["not-json", "not-object", "unknown-type", "version-not-int", "no-action", "oversized"],
)
def test_a_bad_frame_gets_an_error_frame_and_disturbs_nobody(duel: Any, frame: Any, code: str) -> None:
    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        await send(a, frame)
        error = await receive(a)
        assert error["type"] == "error" and error["code"] == code and error["message"], error
        await quiet(b)
        fa, fb = await play(a, b, fa, fb)  # the game goes on
        assert fa["version"] == 1

    at_table(duel, body)


def test_refused_actions_get_the_translated_reason_and_the_current_version(duel: Any) -> None:
    game, anna, bence = duel

    async def scenario() -> None:
        a, b = await opened(game.pk, anna), await opened(game.pk, bence)
        watcher = await opened(game.pk)
        fa, fb = await both_views(a, b)
        await receive(watcher)
        mover, frame, other, other_frame = (a, fa, b, fb) if on_move(fa) else (b, fb, a, fa)
        action = on_move(frame)[0]
        cases = [
            (mover, {"type": "act", "version": 5, "action": action}, "stale"),
            (other, {"type": "act", "version": 0, "action": action}, "not_your_seat"),
            (
                other,
                {"type": "act", "version": 0, "action": {**action, "seat": other_frame["view"]["seat"]}},
                None,
            ),
            (
                mover,
                {
                    "type": "act",
                    "version": 0,
                    "action": {"type": "play", "seat": action["seat"], "card": "XX"},
                },
                "malformed",
            ),
            (watcher, {"type": "act", "version": 0, "action": action}, "spectator"),
        ]
        for socket, sent, code in cases:
            await send(socket, sent)
            error = await receive(socket)
            assert error["type"] == "error" and error["version"] == 0, error
            if code is not None:
                assert error["code"] == code, error
            else:  # the opponent's own card or move, not its turn: the engine's reason
                assert error["code"] in ("not_your_turn", "not_legal"), error
            if code == "stale":  # Snapszer's own words, not Snap's "call"
                assert error["message"] == str(STALE_WORDS), error
            assert error["message"] and "_" not in error["message"]
        await quiet(a)
        await quiet(b)
        assert not await sync_to_async(GameLogEntry.objects.filter(game=game).exists)()
        await owners_stop()

    run(scenario)


def test_an_act_after_the_end_is_answered_game_over(duel: Any) -> None:
    """A finished game has no owner: an act for it (a page that had not seen the end yet) gets the
    translated "game over" error, not silence and not "not started"."""
    game, anna, _ = duel
    OnlineGame.objects.filter(pk=game.pk).update(status=OnlineGame.Status.FINISHED)

    async def scenario() -> None:
        a = await opened(game.pk, anna)
        view = await receive(a)
        assert view["type"] == "view" and view["finished"] is True
        await send(a, {"type": "act", "version": view["version"], "action": {"type": "pass", "seat": 0}})
        error = await receive(a)
        assert error["type"] == "error" and error["code"] == "finished", error
        assert error["message"] and "_" not in error["message"]

    run(scenario)


def test_acts_waiting_behind_the_last_move_are_answered_game_over(duel: Any) -> None:
    """The owner ends the game with inputs still queued behind the move that ended it: each act
    among them is answered (its sender learns it was not played); other inputs need no answer."""
    game, _, _ = duel

    async def scenario() -> None:
        layer = owner_module.get_channel_layer()
        reply = await layer.new_channel()
        owner = owner_module.GameOwner(game.pk)
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for message in (
            {"type": "game.act", "seat": 1, "reply": reply, "language": "hu", "version": 7, "action": {}},
            {"type": "game.presence", "seat": 0, "reply": reply, "here": True},
            {"type": "game.act", "seat": 0, "reply": reply, "version": 7, "action": {}},
        ):
            inbox.put_nowait(message)
        owner.table = type("Ended", (), {"version": 8})()  # only the version is read
        await owner._answer_after_end(inbox)
        answers = [await asyncio.wait_for(layer.receive(reply), 5) for _ in range(2)]
        assert [a["frame"]["code"] for a in answers] == ["finished", "finished"]
        assert {a["frame"]["version"] for a in answers} == {8}
        assert answers[0]["frame"]["message"] != answers[1]["frame"]["message"]  # Hungarian, then English
        assert inbox.empty()

    run(scenario)


def test_ping_resync_and_a_reconnect_get_the_current_view(duel: Any) -> None:
    game, anna, _ = duel

    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        await send(a, {"type": "ping", "t": 12.5})
        assert await receive(a) == {"type": "pong", "t": 12.5}
        for _ in range(3):
            fa, fb = await play(a, b, fa, fb)
        await a.disconnect()
        again = await opened(game.pk, anna)  # Anna comes back: the view she missed nothing of
        fresh = await receive(again)
        assert fresh == fa and fresh["version"] == 3
        await send(again, {"type": "resync", "version": 1})
        assert await receive(again) == fresh

    at_table(duel, body)


@pytest.mark.parametrize(
    "origin",
    [b"http://evil.example", b"http://testserver:8001", b"https://testserver", b"null"],
    ids=["another host", "another port", "another scheme", "opaque"],
)
def test_a_foreign_origin_is_refused_with_the_players_cookie(duel: Any, origin: bytes) -> None:
    """Anna's cookie, opened from a page of another origin (even the same host on another port):
    closed before the consumer runs, so not one frame, and no hand, reaches it."""
    game, anna, _ = duel

    async def scenario() -> None:
        communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game.pk}/",
            headers=[(b"origin", origin), (b"host", b"testserver"), anna],
        )
        connected, _ = await communicator.connect()
        assert not connected
        assert await communicator.receive_nothing(timeout=0.2)

    run(scenario)

    # the same cookie from the site's own page gets her seat's view
    async def own() -> None:
        communicator = await opened(game.pk, anna)
        assert (await receive(communicator))["type"] == "view"
        await communicator.disconnect()

    run(own)


def test_a_flooding_socket_is_told_once_and_the_other_seat_plays_on(duel: Any) -> None:
    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        for _ in range(60):
            await send(a, {"type": "ping"})
        answers = []
        while not await a.receive_nothing(timeout=0.3):
            answers.append(await receive(a))
        assert [f["code"] for f in answers if f["type"] == "error"] == ["flooding"]
        assert sum(f["type"] == "pong" for f in answers) < 60
        await quiet(b)

    at_table(duel, body)


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    frames=st.lists(
        st.one_of(
            st.text(min_size=1, max_size=60),
            st.dictionaries(
                st.sampled_from(["type", "version", "action", "t"]),
                st.one_of(
                    st.sampled_from(["act", "resync", "ping", "play"]),
                    st.integers(-2, 3),
                    st.none(),
                    st.fixed_dictionaries(
                        {"type": st.sampled_from(["play", "close", "bid"]), "seat": st.integers(-1, 2)}
                    ),
                ),
            ).map(json.dumps),
        ),
        max_size=6,
    )
)
def test_fuzz_random_frames_never_crash_the_socket_or_disturb_the_game(duel: Any, frames: list[str]) -> None:
    game = duel[0]

    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        for frame in frames:
            await send(a, frame)
        while not await a.receive_nothing(timeout=0.1):
            await receive(a)
        # the game is where it was (or moved by an act Anna was entitled to): it still plays on
        state, version = await sync_to_async(state_load)(game)
        await send(a, {"type": "resync", "version": 0})
        # Answers to the fuzzed frames may still come (a loaded machine answers later than the
        # 0.1 s quiet period above): the resync's answer is the first view frame.
        while (fa := await receive(a))["type"] != "view":
            assert fa["type"] == "error"
        assert fa == view_frame(ENGINE, state, version, 0)
        await send(b, {"type": "resync", "version": 0})
        while (fb := await receive(b))["version"] != version:
            pass
        await play(a, b, fa, fb)

    at_table(duel, body)


def test_a_dead_owners_game_is_taken_over_from_snapshot_and_log(duel: Any, monkeypatch: Any) -> None:
    game = duel[0]
    monkeypatch.setattr(services, "SNAPSHOT_EVERY", 3)

    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        for _ in range(7):
            fa, fb = await play(a, b, fa, fb)
        # the owner's process dies: its task is gone, its lease row still names it until it expires
        owner = OWNERS[game.pk]
        owner.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await owner.task
        await sync_to_async(GameLease.objects.filter(game=game).update)(
            owner="dead-process", expires_at=timezone.now() - timedelta(seconds=1)
        )
        # the next input reaches this process, which takes the game over and accepts it
        fa, fb = await play(a, b, fa, fb)
        assert fa["version"] == 8
        assert OWNERS[game.pk] is not owner

    at_table(duel, body)
    rows = list(GameLogEntry.objects.filter(game=game).values_list("seq", flat=True))
    assert rows == list(range(1, 9))
    assert game.snapshots.filter(seq=6).exists()
    state, version = state_load(OnlineGame.objects.get(pk=game.pk))
    replayed = ENGINE.replay(
        game.setup, [ENGINE.action_from_dict(r.action) for r in game.log.order_by("seq")]
    )
    assert version == 8 and ENGINE.to_snapshot(state) == ENGINE.to_snapshot(replayed)
    # A damaged snapshot is only a lost cache: the log gives the same state.
    game.snapshots.filter(seq=6).update(data={"damaged": True})
    state, version = state_load(OnlineGame.objects.get(pk=game.pk))
    assert version == 8 and ENGINE.to_snapshot(state) == ENGINE.to_snapshot(replayed)


def test_a_live_lease_is_not_taken_and_an_expired_one_is(duel: Any) -> None:
    game, _, _ = duel
    assert lease_acquire(game.pk, owner="one")
    assert not lease_acquire(game.pk, owner="two")
    assert lease_renew(game.pk, owner="one") and not lease_renew(game.pk, owner="two")
    GameLease.objects.filter(game=game).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert not lease_renew(game.pk, owner="one")
    assert lease_acquire(game.pk, owner="two")
    assert not lease_acquire(game.pk, owner="one")


def test_sockets_connecting_at_once_start_one_owner(duel: Any) -> None:
    """Both players' sockets of a table open at the same moment (found by the online load
    benchmark): one owner runs the game, or a second one answers every input again and each stops
    the other with a stale write."""
    game, anna, bence = duel

    async def scenario() -> None:
        try:
            first, second = await asyncio.gather(owner_ensure(game.pk), owner_ensure(game.pk))
            assert first is not None and first is second is OWNERS[game.pk]
            # and through the sockets: opened at once, both see version 0; the mover's act is
            # answered by one owner, once, to both
            a, b = await asyncio.gather(opened(game.pk, anna), opened(game.pk, bence))
            fa, fb = await both_views(a, b)
            fa, fb = await play(a, b, fa, fb)
            assert fa["version"] == fb["version"] == 1
            await quiet(a)
            await quiet(b)
            assert [o for o in OWNERS.values() if not o.stopped] == [first]
        finally:
            await owners_stop()

    run(scenario)
    assert list(GameLogEntry.objects.filter(game=game).values_list("seq", flat=True)) == [1]


def test_a_process_renews_its_owners_leases_together_and_a_lost_one_is_told(
    duel: Any, make_user: Any, monkeypatch: Any
) -> None:
    """The owners' leases are renewed together, in one transaction (one thread serves every owner
    of a process: a renewal per game per second, awaited by each owner, filled it,
    docs/benchmarks.md "Online play"); a lease another process has taken is not renewed, and
    its owner finds it lost; one that expired while the renewal waited and that nobody took is
    renewed."""
    game, _, _ = duel
    other = table_create(user=make_user("cecil"), kind="snapszer", options={}, seats=2)
    taken = table_create(user=make_user("dora"), kind="snapszer", options={}, seats=2)
    for g in (game, other, taken):
        assert lease_acquire(g.pk)
    GameLease.objects.filter(game=taken).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert lease_acquire(taken.pk, owner="another-process")
    # expired while its renewal waited, but nobody took it: still this process's
    GameLease.objects.filter(game=other).update(expires_at=timezone.now() - timedelta(seconds=1))
    batches: list[list[int]] = []
    real = lease.lease_renew_many

    def counted(game_ids: list[int], owner: str) -> set[int]:
        batches.append(sorted(game_ids))
        return real(game_ids, owner)

    monkeypatch.setattr(lease, "lease_renew_many", counted)
    monkeypatch.setattr(lease, "RENEW_SECONDS", 0.05)
    before = {row.game_id: row.expires_at for row in GameLease.objects.all()}

    async def scenario() -> None:
        renewer = lease_renewer()
        for g in (game, other, taken):
            renewer.add(g.pk)
        # The batch is counted as it starts; what it found lost is known once it has run.
        deadline = time.monotonic() + 10
        while renewer.lost != {taken.pk}:
            assert time.monotonic() < deadline, (batches, renewer.lost)
            await asyncio.sleep(0.01)
        for g in (game, other, taken):
            renewer.remove(g.pk)
        await asyncio.wait_for(renewer.task, 5)  # nothing left to renew: the task ends

    run(scenario)
    assert batches[0] == sorted([game.pk, other.pk, taken.pk])
    after = {row.game_id: row.expires_at for row in GameLease.objects.all()}
    assert after[game.pk] > before[game.pk] and after[other.pk] > before[other.pk]
    assert after[taken.pk] == before[taken.pk]
    assert GameLease.objects.get(game=taken).owner == "another-process"


def test_a_process_writes_its_owners_log_appends_together_and_a_stale_game_alone_is_refused(
    duel: Any, make_user: Any, monkeypatch: Any
) -> None:
    """Appends that arrive while a write runs go in the next one, every game in one transaction
    (one database thread serves every owner of a process: one transaction per action filled it,
    docs/benchmarks.md "Online play"); a game another owner has written is refused alone."""
    game, _, _ = duel
    other = table_create(user=make_user("cecil"), kind="snapszer", options={}, seats=2)
    written = table_create(user=make_user("dora"), kind="snapszer", options={}, seats=2)
    OnlineGame.objects.filter(pk=written.pk).update(version=5)  # another owner wrote meanwhile
    batches: list[list[int]] = []
    real = services.log_append_many

    def counted(batch: Any) -> set[int]:
        batches.append([game_id for game_id, _rows in batch])
        return real(batch)

    monkeypatch.setattr(services, "log_append_many", counted)
    at = timezone.now()

    def rows(first: int, count: int) -> list[Entry]:
        return [
            Entry(seq, {"type": "test", "n": seq}, services.Sender(0, None), at, [])
            for seq in range(first, first + count)
        ]

    outcomes: list[Any] = []

    async def scenario() -> None:
        writer = log_writer()
        outcomes[:] = await asyncio.gather(
            writer.append(game.pk, rows(1, 2)),
            writer.append(other.pk, rows(1, 1)),
            writer.append(written.pk, rows(1, 1)),
            return_exceptions=True,
        )

    run(scenario)
    assert batches == [[game.pk, other.pk, written.pk]]
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], services.StaleWrite)
    assert list(GameLogEntry.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    assert list(GameLogEntry.objects.filter(game=other).values_list("seq", flat=True)) == [1]
    assert not GameLogEntry.objects.filter(game=written).exists()
    assert [OnlineGame.objects.get(pk=g.pk).version for g in (game, other, written)] == [2, 1, 5]


def test_a_game_owned_in_another_process_is_not_asked_for_on_every_input(duel: Any, monkeypatch: Any) -> None:
    """A socket whose game's owner lives in another process sends there without asking the
    database again until that owner's lease would expire; then it asks, and takes a dead owner's
    game over."""
    game, _, _ = duel
    GameLease.objects.create(
        game=game, owner="another-process", expires_at=timezone.now() + timedelta(seconds=30)
    )
    asked: list[int] = []
    real = owner_module.lease_acquire

    def counted(game_id: int) -> bool:
        asked.append(game_id)
        return real(game_id)

    offset = [0.0]
    monkeypatch.setattr(owner_module, "lease_acquire", counted)
    monkeypatch.setattr(owner_module.time, "monotonic", lambda real=time.monotonic: real() + offset[0])

    started: list[Any] = []

    async def scenario() -> None:
        try:
            assert await owner_ensure(game.pk) is None
            assert await owner_ensure(game.pk) is None
            assert asked == [game.pk]  # the second input did not ask
            # the other process died: its lease ran out (30 s later)
            await sync_to_async(GameLease.objects.filter(game=game).update)(
                expires_at=timezone.now() - timedelta(seconds=1)
            )
            offset[0] = 31.0
            owner = await owner_ensure(game.pk)
            assert asked == [game.pk, game.pk]
            started.append(owner)
        finally:
            await owners_stop()

    run(scenario)
    owner = started[0]
    assert owner is not None and owner.game_id == game.pk


def test_a_change_is_one_message_to_the_games_sockets_each_forwarding_its_own_frame(
    duel: Any, monkeypatch: Any
) -> None:
    """A broadcast carries every viewer's frame in one message to the game's sockets (one publish on
    Redis, not one per seat: docs/benchmarks.md "Online play"); each socket sends its page only its
    own seat's frame, which differs from the other seat's (the hands)."""
    game = duel[0]
    sent: list[tuple[str, str, list[str]]] = []

    async def body(a: WebsocketCommunicator, b: WebsocketCommunicator, fa: dict, fb: dict) -> None:
        owner = OWNERS[game.pk]
        real = owner.layer.group_send

        async def counted(group: str, message: dict[str, Any]) -> None:
            sent.append((group, message["type"], sorted(message.get("frames", {}))))
            await real(group, message)

        monkeypatch.setattr(owner.layer, "group_send", counted)
        fa, fb = await play(a, b, fa, fb)
        assert fa["version"] == fb["version"] == 1
        assert fa["view"] != fb["view"]  # each its own seat's view

    at_table(duel, body)
    to_views = [m for m in sent if m[0] == view_group(game.pk)]  # (the layer also carries the act)
    assert to_views == [(view_group(game.pk), "game.frames", ["0", "1", "spectators"])]


async def next_frame(ws: WebsocketCommunicator, timeout: float = 10) -> dict[str, Any]:
    """The next frame that is not the server's ping (a seated Snap socket is pinged at once)."""
    while (frame := await receive(ws, timeout)).get("type") == "ping":
        pass
    return frame


@pytest.mark.parametrize("kind", ["snapszer", "snap"])
def test_a_waiting_tables_open_socket_hears_that_it_started(make_user: Any, kind: str) -> None:
    """The creator's waiting page follows the table over its socket (static/js/waiting.js): it hears
    nothing while the table waits, then "started" when the opponent takes the seat, so the page
    moves on to the game by itself instead of reloading every few seconds."""
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind=kind, options={}, seats=2)
    a_cookie = session(anna)

    async def scenario() -> None:
        a = await opened(game.pk, a_cookie)
        for _ in range(5):  # waiting: nothing but the server's pings
            if not await a.receive_nothing(timeout=0.2):
                assert (await receive(a))["type"] == "ping"
        await sync_to_async(seat_join)(user=bence, token=game.invite_token)
        assert await next_frame(a) == {"type": "started"}
        await a.disconnect()
        await owners_stop()

    run(scenario)


def test_a_waiting_page_whose_socket_connects_after_the_start_gets_the_game(make_user: Any) -> None:
    """The opponent sat down between the page's render and its socket: the socket's hello is
    answered with the game's view, which the waiting page takes as the start."""
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snapszer", options={}, seats=2)
    seat_join(user=bence, token=game.invite_token)
    a_cookie = session(anna)

    async def scenario() -> None:
        a = await opened(game.pk, a_cookie)
        assert (await next_frame(a))["type"] == "view"
        await a.disconnect()
        await owners_stop()

    run(scenario)
