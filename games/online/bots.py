"""The bots of online play, per game kind: who of the bot seats acts now, and with what.

Snapszer's bots, asked by its live table (games/online/tables.py) once per state. Snap's bots run
against the timing layer inside Snap's live table (games/online/snap.py, docs/online.md "Snap in
real time").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engine.protocol import Engine, GameKind
from games.engine.sixtysix.bots import Bot, make_bot
from games.engine.sixtysix.game import game_rules


def bots_make(
    kind: str, options: Mapping[str, Any], levels: Mapping[int, str], rng: random.Random
) -> dict[int, Bot]:
    if kind != GameKind.SNAPSZER or not levels:
        return {}
    _profile, rules = game_rules(options)
    return {seat: make_bot(level, rules, rng) for seat, level in levels.items()}


def bot_move(engine: Engine, state: Any, bots: Mapping[int, Bot]) -> tuple[int, Any] | None:
    """The bot seat that acts now and its action, or None (a human's turn, or every bot waits).
    A bot sees only ``observe(state, its seat)`` (X25: a bot not on move may declare or wait)."""
    if engine.is_terminal(state):
        return None
    for seat, bot in sorted(bots.items()):
        if not engine.legal_actions(state, seat):
            continue
        action = bot.act(engine.observe(state, seat).hand)
        if action is not None:
            return seat, action
    return None
