"""The five named levels for play, and :func:`make_bot` for every bot by name.

| level | what it is |
|---|---|
| beginner | the heuristic bot, a random move one time in four; forgets 80 % of the cards played |
| casual | the heuristic bot, a random move one time in ten; forgets half the cards played |
| club | the expert with 3 worlds, 300 nodes; forgets a third of the cards played; 3 % random moves |
| strong | the expert with 6 worlds, 800 nodes; forgets one card in ten |
| expert | the expert's full budget: 12 worlds, 1500 nodes (Budget's default) |

Plus ``random`` and ``heuristic`` (no noise). Levels are ordered by budget (``LEVELS`` order).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from games.engine.sixtysix.actions import Action
from games.engine.sixtysix.bots.base import Bot, duty, legal, must_move, without_declare
from games.engine.sixtysix.bots.expert import Budget, ExpertBot
from games.engine.sixtysix.bots.heuristic import choose
from games.engine.sixtysix.bots.random_bot import RandomBot
from games.engine.sixtysix.rules import SixtySixRules
from games.engine.sixtysix.view import PlayerView


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength. ``budget`` None means the heuristic bot (no search)."""

    name: str
    budget: Budget | None
    noise: float
    forget: float

    @property
    def work(self) -> int:
        """Search work per decision (0 without search), for ordering levels."""
        return 0 if self.budget is None else self.budget.work


LEVELS: Final[dict[str, Level]] = {
    "beginner": Level("beginner", None, noise=0.25, forget=0.8),
    "casual": Level("casual", None, noise=0.10, forget=0.5),
    "club": Level("club", Budget(samples=3, nodes=300), noise=0.03, forget=0.33),
    "strong": Level("strong", Budget(samples=6, nodes=800), noise=0.0, forget=0.1),
    "expert": Level("expert", Budget(), noise=0.0, forget=0.0),
}
BOT_NAMES: Final[tuple[str, ...]] = ("random", "heuristic", *LEVELS)


class NoisyHeuristicBot:
    """The heuristic bot that plays a random legal move with probability ``noise`` and forgets
    each played card with probability ``forget`` (so fewer of its cards look like sure winners)."""

    def __init__(
        self, rules: SixtySixRules, rng: random.Random, noise: float, name: str, forget: float = 0.0
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.noise = noise
        self.forget = forget
        self.name = name

    def act(self, view: PlayerView) -> Action | None:
        actions = legal(view)
        chosen = duty(view, actions)
        if chosen is not None or not must_move(actions):
            return chosen
        moves = without_declare(actions)
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(moves)
        forgotten = []
        if self.forget:
            played = [c for t in view.tricks for c in (t.lead, t.follow)]
            forgotten = [c for c in played if self.rng.random() < self.forget]
        return choose(view, self.rules, moves, forgotten)


def make_bot(
    name: str,
    rules: SixtySixRules,
    rng: random.Random,
    clock: Callable[[], float] | None = None,
    seconds: float | None = None,
) -> Bot:
    """The bot called ``name`` (one of BOT_NAMES) for ``rules``. ``clock`` and ``seconds`` also cap a
    searching level's thinking time. Raises ValueError for an unknown name."""
    if name == "random":
        return RandomBot(rng)
    if name == "heuristic":
        return NoisyHeuristicBot(rules, rng, 0.0, "heuristic")
    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
    if level.budget is None:
        return NoisyHeuristicBot(rules, rng, level.noise, name, level.forget)
    budget = level.budget
    if seconds is not None:
        budget = replace(budget, seconds=seconds)
    return ExpertBot(
        rules, rng, budget=budget, clock=clock, noise=level.noise, forget=level.forget, name=name
    )
