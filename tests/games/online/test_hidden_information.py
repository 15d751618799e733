"""Hidden information: no frame the owner sends a viewer names a card that viewer may not know.

Every Snapszer profile with a match, 60 bot matches each (300 in all): after every action the
frame of each seat and of a spectator (``view_frame``, the only frame that carries game state) is
searched, byte by byte, for every card the viewer cannot know — the cards of the opponent's hand
that were never shown, and the stock (for a spectator: both hands and the stock). A test through
the socket checks that what the sockets receive is exactly these frames.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.protocol import engine_for
from games.engine.sixtysix.game import SixtySixGame
from games.online.bots import bot_move, bots_make
from games.online.owner import view_frame
from games.views.tables import PLAYABLE_PROFILES

ENGINE = engine_for("snapszer")
GAMES_PER_PROFILE = 60


def hidden_from(game: SixtySixGame, viewer: int | None) -> set[str]:
    """The card names ``viewer`` (None: a spectator) may not know in ``game``'s hand in play."""
    hand = game.hand
    shown: set[str] = set()
    for marriage in hand.marriages:  # both cards of a shown marriage are known
        shown |= {f"K{marriage.suit.value}", f"Q{marriage.suit.value}"}
    for exchange in hand.exchanges:
        shown |= {exchange.given.name, exchange.taken.name}
    if hand.trump_card is not None:
        shown.add(hand.trump_card.name)
    secret = {c.name for c in hand.stock}
    for seat in (0, 1):
        if seat != viewer:
            secret |= {c.name for c in hand.hands[seat]}
    if hand.trump_card is not None:
        secret.discard(hand.trump_card.name)
    return secret - shown


def leaks(frame: dict[str, Any], secret: set[str]) -> set[str]:
    text = json.dumps(frame)
    return {card for card in secret if f'"{card}"' in text}


@pytest.mark.parametrize("profile", PLAYABLE_PROFILES)
def test_no_frame_names_a_card_its_viewer_may_not_know(profile: str) -> None:
    rng = random.Random(f"hidden-{profile}")
    frames = 0
    for number in range(GAMES_PER_PROFILE):
        state = ENGINE.new_game({"profile": profile}, seats=2, dealer=number % 2, seed=rng.randbytes(32))
        bots = bots_make("snapszer", {"profile": profile}, {0: "random", 1: "heuristic"}, rng)
        version = 0
        while not ENGINE.is_terminal(state):
            for viewer in (0, 1, None):
                frame = view_frame(ENGINE, state, version, viewer)
                assert not leaks(frame, hidden_from(state, viewer)), (profile, number, version, viewer)
                frames += 1
            move = bot_move(ENGINE, state, bots)
            assert move is not None
            state, _events = ENGINE.apply(state, move[1])
            version += 1
        assert ENGINE.result(state) is not None
        for viewer in (0, 1, None):  # the end screen's frame too
            frame = view_frame(ENGINE, state, version, viewer, finished=True)
            assert not leaks(frame, hidden_from(state, viewer)), (profile, number, "end", viewer)
    assert frames > GAMES_PER_PROFILE * 50  # every match is many frames


def test_the_check_finds_a_leak() -> None:
    """The check above could fail: the seat's own view, shown to the opponent, names hidden cards."""
    state = ENGINE.new_game({}, seats=2, dealer=0, seed=b"s" * 32)
    own = view_frame(ENGINE, state, 0, 0)
    assert leaks(own, hidden_from(state, 1))
    assert leaks(own, hidden_from(state, None))
