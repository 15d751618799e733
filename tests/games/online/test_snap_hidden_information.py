"""Hidden information in online Snap: no frame names a card its viewer may not know.

300 games of bots (every variant the lobby offers, 2 to 6 seats, every bot level) run through the
owner's live table (``SnapTable``: the timing layer, its timers, reveal jitter, the bots) in virtual
time. After every logged input, the frame of every seat and of a spectator (``SnapTable.frame``,
the only function that puts Snap state into a frame) is searched, byte by byte, for every card
lying face down at that moment (each seat's face-down pile, the face-down bottom of the
single_pile centre): none may appear. And every card name a frame holds must be a top its own
view shows (so the events the frame adds name no card). The socket tests check that what the
sockets receive is these frames.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.engine.protocol import engine_for
from games.engine.snap.bots import LEVELS
from games.engine.snap.decks import DECKS
from games.models import OnlineGame
from games.online.snap import CASUAL_TIMING, VARIANTS, SnapTable

ENGINE = engine_for("snap")
GAMES = 300
ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)


def face_down(state: Any) -> set[str]:
    names = state.deck.cards
    hidden = {names[c] for seat in range(state.n) for c in state.facedown(seat)}
    if state.central_hidden:
        hidden |= {names[c] for c in state.central[len(state.central) - state.central_hidden :]}
    return hidden


def shown(view: dict[str, Any]) -> set[str]:
    tops = {p["top"] for p in view["piles"]} | {p["top"] for p in view["pools"]}
    tops |= {view["central_top"], view["central_below"]}
    return {t for t in tops if t is not None}


def strings(text: str) -> set[str]:
    """Every JSON string in ``text`` (a card is named by its name as a string)."""
    return set(re.findall(r'"([^"]*)"', text))


def leaks(frame: dict[str, Any], secret: set[str]) -> set[str]:
    """The cards of ``secret`` that ``frame`` names (tests/games/online/test_replay.py too)."""
    return strings(json.dumps(frame)) & secret


def given_away(frame: dict[str, Any], secret: set[str], cards: set[str]) -> tuple[set[str], set[str]]:
    """What ``frame`` gives away: the cards of ``secret`` it names, and the cards it names that
    its own view does not show. One pass over the frame's JSON (written out and searched twice, once
    for each, it was half the test's time)."""
    found = strings(json.dumps(frame))
    return found & secret, (found & cards) - shown(frame["view"])


def bot_table(number: int, rng: random.Random) -> SnapTable:
    variant = list(VARIANTS)[number % len(VARIANTS)]
    seats = 2 + number % 5
    options = {"profile": "classic", **VARIANTS[variant], "max_game_seconds": 240}
    state = ENGINE.new_game(options, seats=seats, dealer=number % seats, seed=rng.randbytes(32))
    game = OnlineGame(kind="snap", seat_count=seats, started_at=ORIGIN, status=OnlineGame.Status.PLAYING)
    game.setup = {**ENGINE.game_setup(state), "timing": asdict(CASUAL_TIMING)}
    levels = list(LEVELS)
    # The server's own draws (reveal delays) from a generator of their own: the deals stay those
    # of the seeded ``rng`` whatever the bots do.
    server = random.Random(number)
    return SnapTable(game, [], {s: levels[(number + s) % len(levels)] for s in range(seats)}, server)


def play(table: SnapTable, check: Any) -> int:
    """Play the table's bots to the end in virtual time; ``check()`` after every logged batch."""
    now = ORIGIN
    batches = 0
    loop = asyncio.new_event_loop()
    try:
        while not table.is_terminal():
            wait = table.wake_in(now)
            assert wait is not None, "a live Snap game always has a next timer"
            now += timedelta(seconds=wait)
            if loop.run_until_complete(table.due(now)):
                check()
                batches += 1
    finally:
        loop.close()
    return batches


@pytest.mark.django_db
def test_no_snap_frame_names_a_card_its_viewer_may_not_know() -> None:
    rng = random.Random("hidden-snap")
    frames = 0
    dealt_over = 0
    for number in range(GAMES):
        table = bot_table(number, rng)
        cards = set(DECKS[table.live.rules.deck].cards)

        def check(table: SnapTable = table, cards: set[str] = cards, number: int = number) -> None:
            nonlocal frames
            secret = face_down(table.live.state)
            for viewer in [*range(table.live.state.n), None]:
                leaked, unshown = given_away(table.frame(viewer), secret, cards)
                assert not leaked, (number, table.version, viewer)
                assert not unshown, (number, table.version)
                frames += 1

        check()
        over_at_the_deal = table.is_terminal()  # a dead state dealt (small decks, two seats)
        assert play(table, check) > 0 or over_at_the_deal
        assert table.result() is not None
        dealt_over += over_at_the_deal
        for viewer in [*range(table.live.state.n), None]:  # the end screen's frame too
            assert not leaks(table.frame(viewer, finished=True), face_down(table.live.state))
    assert frames > GAMES * 100 and dealt_over < GAMES // 20


@pytest.mark.django_db
def test_the_check_finds_a_leak() -> None:
    """The check above could fail: the engine's own events (kept in the log, never sent) name
    cards, and a frame carrying a face-down card is caught."""
    table = bot_table(0, random.Random(1))
    secret = face_down(table.live.state)
    assert secret
    frame = table.frame(0)
    cards = set(DECKS[table.live.rules.deck].cards)
    assert given_away(frame, secret, cards) == (set(), set())
    frame["events"] = [{"type": "oops", "card": sorted(secret)[0]}]
    leaked, unshown = given_away(frame, secret, cards)
    assert leaked and unshown and leaks(frame, secret) == leaked
