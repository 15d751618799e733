"""The searching bot: determinized search (perfect-information Monte Carlo) over the hidden cards.

For each decision: sample worlds consistent with the view (knowledge.py), search every legal
action in each world (search.py: exact alpha-beta once the talon is closed or exhausted, a few
actions deep then a static evaluation while it is open), and play the action with the highest
expected game points over the worlds. The budget is a number of worlds and of search nodes per
world and action; with a ``clock`` (a function returning seconds, passed in by the caller: the
engine never reads the time itself) sampling also stops once ``seconds`` have passed, after at
least one world.

Weaker settings (levels.py) add ``noise`` (the chance of a random legal move) and ``forget`` (the
chance that each played card is forgotten: it may then be imagined in the opponent's hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.sixtysix.actions import Action, Bid, Close, Declare, Pass
from games.engine.sixtysix.bots.base import duty, legal, must_move, without_declare
from games.engine.sixtysix.bots.knowledge import sample_world
from games.engine.sixtysix.bots.search import Search, outcome
from games.engine.sixtysix.cards import Card
from games.engine.sixtysix.engine import apply
from games.engine.sixtysix.rules import SixtySixRules
from games.engine.sixtysix.view import PlayerView


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the expert thinks. ``nodes`` is per world and root action."""

    samples: int = 12
    nodes: int = 1500
    depth: int = 1
    seconds: float | None = None  # only with a clock
    playouts: bool = True  # open-phase leaves: rule-of-thumb playout + exact endgame, not evaluate()
    close_margin: float = 0.5  # game points a close must gain over the best other move (see _search)

    def __post_init__(self) -> None:
        if self.samples < 1 or self.nodes < 1 or self.depth < 1:
            raise ValueError(f"a budget needs at least one sample, node and ply: {self}")

    @property
    def work(self) -> int:
        """A single number to order budgets by: worlds x nodes x depth."""
        return self.samples * self.nodes * self.depth


class ExpertBot:
    """Determinized search within ``budget`` (module doc). ``rng`` is owned by the caller."""

    def __init__(
        self,
        rules: SixtySixRules,
        rng: random.Random,
        *,
        budget: Budget | None = None,
        clock: Callable[[], float] | None = None,
        noise: float = 0.0,
        forget: float = 0.0,
        name: str = "expert",
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.budget = budget or Budget()
        self.clock = clock
        self.noise = noise
        self.forget = forget
        self.name = name
        self.last_values: dict[Action, float] = {}
        self.last_worlds = 0

    def act(self, view: PlayerView) -> Action | None:
        actions = legal(view)
        chosen = duty(view, actions)
        if chosen is not None or not must_move(actions):
            return chosen
        moves = without_declare(actions)
        declare = next((a for a in actions if isinstance(a, Declare)), None)
        if any(isinstance(a, Bid) for a in moves):
            # X31: the bid is not searched (the static evaluation does not model it): pass.
            return next(a for a in moves if isinstance(a, Pass))
        if len(moves) == 1 and declare is None:
            return moves[0]
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(moves)
        return self._search(view, moves, declare)

    def _forgotten(self, view: PlayerView) -> list[Card]:
        if not self.forget:
            return []
        played = [c for t in view.tricks for c in (t.lead, t.follow)]
        return [c for c in played if self.rng.random() < self.forget]

    def _search(self, view: PlayerView, moves: list[Action], declare: Action | None) -> Action:
        budget = self.budget
        me = view.seat
        totals = [0.0] * len(moves)
        resign_total = 0.0
        forgotten = self._forgotten(view)
        start = self.clock() if self.clock is not None else 0.0
        worlds = 0
        for _ in range(budget.samples):
            if (
                worlds
                and self.clock is not None
                and budget.seconds is not None
                and self.clock() - start >= budget.seconds
            ):
                break
            state = sample_world(view, self.rules, self.rng, forgotten)
            search = Search(me, budget.depth, budget.nodes, budget.playouts)
            for i, v in enumerate(search.root_values(state, moves)):
                totals[i] += v
            if declare is not None:
                resign_total += outcome(apply(state, declare)[0], me)
            worlds += 1
        self.last_worlds = worlds
        self.last_values = {m: t / worlds for m, t in zip(moves, totals, strict=True)}
        # Each world is searched with the opponent's cards in view, which flatters closing most
        # (after a close the closer must place every card right without seeing them): a close has
        # to beat the other moves by a margin.
        margin = budget.close_margin * worlds
        adjusted = [t - margin if isinstance(m, Close) else t for m, t in zip(moves, totals, strict=True)]
        best = max(range(len(moves)), key=lambda i: adjusted[i])
        if declare is not None and resign_total > totals[best]:
            # Declaring short of 66 loses fewer game points than playing on (X27: 2, not 3).
            return declare
        return moves[best]
