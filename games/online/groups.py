"""The channel layer's groups of a live game: the owner's inbox and every viewer's socket. Named here,
below everything else of online play, because every layer speaks to them: the sockets
(consumers.py), the owner (owner.py) and the services (a started table tells its waiting pages)."""

from __future__ import annotations

import json
from typing import Any


def owner_group(game_id: int) -> str:
    return f"online-{game_id}-owner"


def view_group(game_id: int) -> str:
    """Every socket of a game, seated or watching: a broadcast is one message to it, carrying each
    viewer's own frame (:func:`frame_key`); each socket sends its viewer only theirs."""
    return f"online-{game_id}-views"


def frame_key(seat: int | None) -> str:
    """Which frame of a broadcast is a viewer's: its seat's, or the spectators'."""
    return "spectators" if seat is None else str(seat)


def frame_text(frame: dict[str, Any]) -> str:
    """A frame as the page receives it (one JSON text message). A broadcast carries its frames
    encoded already: the owner encodes each viewer's frame once, not every socket the frame that
    it forwards (docs/benchmarks.md, "Online play: frames encoded once, log writes compiled")."""
    return json.dumps(frame, ensure_ascii=False)
