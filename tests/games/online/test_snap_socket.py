"""Snap over the game socket in real time: the owner's timers, bots, calls, flips, pings, the
timed log (docs/online.md, "Snap in real time")."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.engine.protocol import engine_for
from games.engine.snap.contract import game_rules
from games.engine.snap.timing import TimingRules, replay_timed, timed_input_from_dict
from games.models import GameLogEntry, OnlineGame
from games.online.owner import OWNERS, owners_stop
from games.online.services import seat_join, table_create
from games.online.snap import VARIANTS
from tests.games.online.conftest import opened, receive, send
from tests.tournaments.live_sockets import run, session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_connection_for_all_threads"),
]

ENGINE = engine_for("snap")
SHORT = {"profile": "classic", **VARIANTS["shapes"], "max_game_seconds": 60}
# A whole deck, for tests of one press or a few: a 12-card deal can be over at the deal (a dead
# state, no match possible), which a 52-card one practically never is.
LONG = {"profile": "classic", "max_game_seconds": 60}


@pytest.fixture
def fast_clock(settings: Any) -> None:
    """Game time runs 10x faster than the wall clock: a whole game in a few seconds (every time
    in the game is an input, so the game is the same game)."""
    settings.ONLINE_SNAP_CLOCK_SCALE = 10.0


def claims(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The correct claims on a shown table (pairs of equal tops, a pool and a top)."""
    tops = [p for p in view["piles"] if p["active"] and p["match"] is not None]
    found = [
        {"kind": "snap", "claim": {"type": "pair", "a": a["seat"], "b": b["seat"]}}
        for i, a in enumerate(tops)
        for b in tops[i + 1 :]
        if a["match"] == b["match"]
    ]
    found += [
        {"kind": "snap_pool", "claim": {"type": "pool", "pool": pool["id"], "seat": p["seat"]}}
        for pool in view["pools"]
        for p in tops
        if p["match"] == pool["match"]
    ]
    return found


def replayed(game_id: int) -> Any:
    game = OnlineGame.objects.get(pk=game_id)
    rows = [timed_input_from_dict(a) for a in game.log.order_by("seq").values_list("action", flat=True)]
    setup = game.setup
    dealt = ENGINE.new_game(
        setup["options"], seats=setup["seats"], dealer=setup["dealer"], seed=bytes.fromhex(setup["seed"])
    )
    return replay_timed(dealt.rules, dealt.deal, setup["dealer"], rows, timing=TimingRules(**setup["timing"]))


async def same_as_the_log(owner: Any, game_id: int) -> None:
    """The owner's game is the replay of the timed log (S38). A press may be between the table
    and the log at the moment of looking: look again until the log has caught up."""
    for _attempt in range(100):
        expected = await sync_to_async(replayed)(game_id)
        if len(expected.log) == owner.table.version:
            break
        await asyncio.sleep(0.02)
    assert ENGINE.to_snapshot(owner.table.live.state) == ENGINE.to_snapshot(expected.state)


async def until(ws: WebsocketCommunicator, test: Any, timeout: float = 30) -> dict[str, Any]:
    """Frames until one passes ``test`` (pings are answered, as the page does)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        frame = await receive(ws, timeout=max(0.1, end - loop.time()))
        if test(frame):
            return frame
        if frame["type"] == "ping":
            await send(ws, {"type": "pong", "t": frame["t"]})


def test_a_person_and_three_bots_play_snap_to_the_end(
    make_user: Any, fast_clock: None, robot_speed: None
) -> None:
    anna = make_user("anna")
    game = table_create(user=anna, kind="snap", options=SHORT, seats=4, bots=["expert"] * 3)
    assert game.status == OnlineGame.Status.PLAYING
    cookie = session(anna)
    seen: dict[str, Any] = {"versions": [], "events": set(), "calls": 0, "flips": 0}

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        watcher = await opened(game.pk)
        frame = await until(ws, lambda f: f["type"] == "view")
        assert frame["view"]["seat"] == 0 and frame["live"]["cap_at"] == 60_000
        called: set[int] = set()
        while not frame["finished"]:
            seen["versions"].append(frame["version"])
            seen["events"] |= {e["type"] for e in frame["events"]}
            view = frame["view"]
            if view["result"] is None and view["piles"][0]["active"]:
                found = claims(view)
                if found and view["seq"] not in called:
                    called.add(view["seq"])
                    seen["calls"] += 1
                    action = {"type": "call", **found[0], "seq": view["seq"], "reaction_ms": 250}
                    await send(ws, {"type": "act", "version": frame["version"], "action": action})
                elif view["turn"] == 0 and not frame["live"]["frozen"] and seen["flips"] < 40:
                    seen["flips"] += 1
                    await send(ws, {"type": "act", "version": frame["version"], "action": {"type": "flip"}})
            frame = await until(ws, lambda f: f["type"] in ("view", "error"), timeout=60)
            while frame["type"] == "error":  # e.g. a flip while a decision was pending
                frame = await until(ws, lambda f: f["type"] == "view", timeout=60)
        assert frame["view"]["result"] is not None
        last = await until(watcher, lambda f: f["type"] == "view" and f["finished"], timeout=60)
        assert last["view"]["seat"] is None and last["version"] == frame["version"]
        await ws.disconnect()
        await watcher.disconnect()
        await owners_stop()

    run(scenario)
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.FINISHED and game.result and game.server_seed
    assert seen["versions"] == sorted(seen["versions"])  # every frame carries a version, in order
    if seen["calls"]:  # (a deal may show no match to her at all: a cycle of unmatched cards)
        assert seen["events"] & {"capture", "tie", "late"}  # her call, or a bot's, was decided
    rows = list(GameLogEntry.objects.filter(game=game).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1)) == list(range(1, game.version + 1))
    kinds = {r.action["type"] for r in rows}
    assert {"flip", "advance"} <= kinds, kinds  # presses, and the layer's own timers
    calls = [r for r in rows if r.action["type"] == "call"]
    assert len([r for r in calls if r.user_id == anna.pk]) == seen["calls"]  # each of her calls logged
    assert {r.bot_level for r in rows if r.seat and r.seat > 0 and r.action["type"] != "advance"} == {
        "expert"
    }
    ats = [r.action["at"] for r in rows]
    assert ats == sorted(ats)  # the server clock, injected into every input
    # S38: the timed log replays into the identical game.
    final = replayed(game.pk)
    assert final.state.result is not None and final.state.result.to_dict() == game.result
    # Fair dealing: the revealed seeds give the deck the game was dealt.
    page = Client().get(reverse("games:verify", args=[game.pk])).content.decode()
    assert page.count("✔") == 2
    assert " ".join(final.deal.order) in page


def test_the_server_pings_a_seat_and_logs_the_round_trip(make_user: Any, fast_clock: None) -> None:
    anna = make_user("anna")
    game = table_create(user=anna, kind="snap", options=LONG, seats=2, bots=["beginner"])
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        ping = await until(ws, lambda f: f["type"] == "ping")
        await send(ws, {"type": "pong", "t": ping["t"] + 1})  # answers no ping: ignored
        await send(ws, {"type": "pong", "t": ping["t"]})
        rtt = await until(ws, lambda f: f["type"] == "rtt")
        assert 0 <= rtt["rtt_ms"] < 5000
        await until(ws, lambda f: f["type"] == "view" and f["version"] >= 1)
        # Across processes (Redis) a timer's view may come before the owner has taken the round
        # trip: wait for its row before stopping the owner.
        for _ in range(200):
            if await sync_to_async(GameLogEntry.objects.filter(game=game, action__type="rtt").exists)():
                break
            await asyncio.sleep(0.05)
        await ws.disconnect()
        await owners_stop()

    run(scenario)
    trips = [r for r in GameLogEntry.objects.filter(game=game) if r.action["type"] == "rtt"]
    assert len(trips) == 1 and trips[0].seat == 0 and trips[0].user_id == anna.pk


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "call", "kind": "snap", "claim": None, "seq": "0", "reaction_ms": 1}, "malformed"),
        ({"type": "call", "kind": "shout", "claim": None, "seq": 0, "reaction_ms": 1}, "malformed"),
        (
            {
                "type": "call",
                "kind": "snap",
                "claim": {"type": "pair", "a": 0, "b": 9},
                "seq": 0,
                "reaction_ms": 1,
            },
            "malformed",
        ),
        ({"type": "call", "kind": "snap", "claim": None, "seq": 999, "reaction_ms": 1}, "no_such_state"),
        ({"type": "call", "kind": "snap", "claim": None, "seq": 0, "reaction_ms": -5}, "malformed"),
        ({"type": "flip", "seat": 1}, "not_your_seat"),
        ({"type": "dance"}, "malformed"),
    ],
    ids=[
        "seq-not-int",
        "unknown-kind",
        "no-such-pile",
        "future-state",
        "negative-reaction",
        "other-seat",
        "unknown",
    ],
)
def test_a_bad_press_is_refused_to_its_sender_and_changes_nothing(
    make_user: Any, action: dict[str, Any], code: str
) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snap", options=LONG, seats=2)
    seat_join(user=bence, token=game.invite_token)
    a_cookie, b_cookie = session(anna), session(bence)

    async def scenario() -> None:
        a, b = await opened(game.pk, a_cookie), await opened(game.pk, b_cookie)
        fa = await until(a, lambda f: f["type"] == "view")
        await until(b, lambda f: f["type"] == "view")
        await send(a, {"type": "act", "version": fa["version"], "action": action})
        error = await until(a, lambda f: f["type"] == "error")
        assert error["code"] == code and error["message"], error
        stored = await sync_to_async(lambda: OnlineGame.objects.get(pk=game.pk).version)()
        # The version then current: the other seat's round trip may have been logged since.
        assert 0 <= error["version"] <= stored
        presses = await sync_to_async(
            lambda: GameLogEntry.objects.filter(game_id=game.pk, action__type__in=["flip", "call"]).count()
        )()
        assert presses == 0
        await a.disconnect()
        await b.disconnect()
        await owners_stop()

    run(scenario)


def test_a_spectator_cannot_press_and_a_flip_out_of_turn_is_shown_to_its_sender(make_user: Any) -> None:
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snap", options=LONG, seats=2)
    seat_join(user=bence, token=game.invite_token)
    cookies = {0: session(anna), 1: session(bence)}

    async def scenario() -> None:
        sockets = {seat: await opened(game.pk, cookie) for seat, cookie in cookies.items()}
        watcher = await opened(game.pk)
        frame = await until(sockets[0], lambda f: f["type"] == "view")
        await until(watcher, lambda f: f["type"] == "view")
        await send(watcher, {"type": "act", "version": 0, "action": {"type": "flip"}})
        assert (await until(watcher, lambda f: f["type"] == "error"))["code"] == "spectator"
        idle = 1 - frame["view"]["turn"]
        await send(sockets[idle], {"type": "act", "version": 0, "action": {"type": "flip"}})
        shown = await until(sockets[idle], lambda f: f["type"] == "view" and f["events"])
        assert shown["events"] == [
            {"type": "flip_refused", "at": shown["events"][0]["at"], "seat": idle, "reason": "not_your_turn"}
        ]
        assert shown["view"]["flips"] == 0  # logged (the timed log is every input) but nothing moved
        for ws in (*sockets.values(), watcher):
            await ws.disconnect()
        await owners_stop()

    run(scenario)


def test_nobody_presses_and_the_owners_timer_flips_for_them(make_user: Any, fast_clock: None) -> None:
    """S36 with no client input at all: the owner's timers auto-flip (turn_timeout_ms)."""
    anna, bence = make_user("anna"), make_user("bence")
    game = table_create(user=anna, kind="snap", options=LONG, seats=2)
    seat_join(user=bence, token=game.invite_token)
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        frame = await until(ws, lambda f: f["type"] == "view" and f["view"]["flips"] >= 2, timeout=20)
        assert any(e["type"] == "timeout" for e in frame["events"])
        await ws.disconnect()
        await owners_stop()

    run(scenario)
    rows = [r for r in GameLogEntry.objects.filter(game=game).order_by("seq") if r.action["type"] != "rtt"]
    assert rows[0].action["type"] == "advance" and rows[0].seat is None and rows[0].action["at"] >= 3000
    assert all(r.action["type"] == "advance" for r in rows)  # no press at all: only timers


def test_an_owner_taken_over_replays_the_timed_log_and_plays_on(make_user: Any, fast_clock: None) -> None:
    anna = make_user("anna")
    # A whole 52-card deck: the game is still on when its owner goes.
    game = table_create(
        user=anna, kind="snap", options={"profile": "classic"}, seats=3, bots=["club", "club"]
    )
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        await until(ws, lambda f: f["type"] == "view" and f["version"] >= 8)
        await owners_stop()  # the process owning it is gone; its lease is released
        assert not OWNERS
        await send(ws, {"type": "resync", "version": 0})  # the next input starts a new owner
        before = await until(ws, lambda f: f["type"] == "view")
        await same_as_the_log(OWNERS[game.pk], game.pk)
        await until(ws, lambda f: f["type"] == "view" and f["version"] > before["version"] + 3)
        await ws.disconnect()
        await owners_stop()

    run(scenario)


def test_rules_for_a_snap_table_come_from_the_engine(make_user: Any) -> None:
    rules = game_rules(SHORT)
    assert rules.deck == "shapes" and rules.max_game_seconds == 60


_PRESS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["flip", "call", "tick", "cap_reached"]),
        "kind": st.sampled_from(["snap", "snap_pool", "slap", "yell", 3]),
        "claim": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(["pair", "pool", "slap", "central", "x"]),
                    "a": st.integers(-1, 3),
                    "b": st.integers(-1, 3),
                }
            ),
        ),
        "seq": st.one_of(st.integers(-2, 40), st.text(max_size=2), st.none()),
        "reaction_ms": st.one_of(st.integers(-10, 2000), st.floats(0, 10), st.none()),
    },
    optional={"seat": st.integers(-1, 2), "sound": st.integers(-1, 3)},
)


@hsettings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    frames=st.lists(
        st.one_of(
            st.text(min_size=1, max_size=40),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["act", "resync", "ping", "pong"]), "version": st.integers(-1, 3)},
                optional={"action": _PRESS, "t": st.one_of(st.integers(), st.none())},
            ).map(json.dumps),
        ),
        max_size=6,
    )
)
def test_fuzz_random_presses_never_crash_the_socket_or_break_the_log(
    make_user: Any, frames: list[str]
) -> None:
    """Whatever a client sends, the socket answers or ignores it, the owner lives on, and its
    game is exactly the replay of the timed log."""
    anna = make_user()
    game = table_create(user=anna, kind="snap", options=LONG, seats=3, bots=["club", "club"])
    cookie = session(anna)

    async def scenario() -> None:
        ws = await opened(game.pk, cookie)
        await until(ws, lambda f: f["type"] == "view")
        for frame in frames:
            await send(ws, frame)
        while not await ws.receive_nothing(timeout=0.1):
            await receive(ws)
        owner = OWNERS[game.pk]
        assert not owner.stopped
        await same_as_the_log(owner, game.pk)
        await ws.disconnect()
        await owners_stop()

    run(scenario)
