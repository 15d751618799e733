"""The random bot: a uniformly random legal action, except that it declares 66 when it holds it
and never declares short of it (every bot's duty, base.py)."""

from __future__ import annotations

import random

from games.engine.sixtysix.actions import Action
from games.engine.sixtysix.bots.base import duty, legal, must_move, without_declare
from games.engine.sixtysix.view import PlayerView


class RandomBot:
    """Uniform over the legal actions other than a declaration. ``rng`` is owned by the caller."""

    def __init__(self, rng: random.Random, name: str = "random") -> None:
        self.rng = rng
        self.name = name

    def act(self, view: PlayerView) -> Action | None:
        actions = legal(view)
        chosen = duty(view, actions)
        if chosen is not None or not must_move(actions):
            return chosen
        return self.rng.choice(without_declare(actions))
