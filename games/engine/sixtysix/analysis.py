"""The expert bot explains a finished hand: every decision, every legal action, what it cost.

For each decision of a hand (a seat on move with a real choice), every candidate action is valued
in **expected game points of the hand for that seat** (+ won, - lost, 0 for a tie) over deals
consistent with what that seat knew at that moment: the seat's own :class:`PlayerView` is rebuilt
into worlds exactly as the expert bot does it (``knowledge.py``: :func:`sample_world`, the same
inferences from marriages, exchanges and the closed phase's following), and each world is searched
by the expert's own search (``search.py``: rule-of-thumb playouts while the talon is open, the
exact closed-phase solver of ``endgame.py`` once it is closed or exhausted).

When few hidden placements remain (:attr:`AnalysisBudget.enumerate_up_to`) every consistent world
is enumerated instead of sampled, each counted once, which is the exact expectation under a
uniform deal; in the closed phase each world is then also solved exactly, so the value is
:attr:`Method.EXACT`. Every action of a decision is valued on the **same** worlds, so two actions
that are equivalent get equal values and a loss is never sampling noise between two draws.

Pure like the engine: the caller passes the ``random.Random`` and the budget; no clock. Values
and codes only: the words are the web layer's (games/analysis.py, games/engine_messages.py).

Not analysed (a decision is skipped, its action still played): the bidding of `snapszer-hu`
(X31; the search has no model of a bid hand, as the expert), a declaration by the seat not on
move (X25: a choice of *when*, which waiting never improves, bots/base.py), and forced moves.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from games.engine.sixtysix.actions import (
    Action,
    Bid,
    Close,
    Declare,
    Draw,
    Exchange,
    LeadMarriage,
    PlayCard,
)
from games.engine.sixtysix.bots.base import TARGET, _canonical
from games.engine.sixtysix.bots.knowledge import Knowledge, know, sample_world, world
from games.engine.sixtysix.bots.search import Search, phase_two
from games.engine.sixtysix.cards import Card
from games.engine.sixtysix.engine import apply, legal_actions, seats_to_act
from games.engine.sixtysix.game import SixtySixGame, game_apply, game_from_setup
from games.engine.sixtysix.state import HandResult, Phase, SixtySixState
from games.engine.sixtysix.view import observe

# Bump when the method, the search or the budget changes what an analysis says: stored analyses
# carry it, and one of another version is redone when asked for again.
ANALYSIS_VERSION: Final = 1

# A loss from this many game points up is a mistake worth a line in the hand summary.
MISTAKE: Final = 0.25


@dataclass(frozen=True, slots=True)
class AnalysisBudget:
    """How hard the analysis thinks, per decision.

    ``worlds`` sampled deals (when there are more consistent ones than ``enumerate_up_to``);
    ``nodes`` per world and action while the talon is open (playout steps + endgame nodes, as the
    expert's ``Budget.nodes``); ``exact_nodes`` per world and action once it is closed or exhausted
    (enough for every closed phase of a 24-card pack: the exact solver rarely needs a tenth).
    """

    worlds: int = 40  # docs/benchmarks.md, "Snapszer analysis": a full hand well within 5 s
    nodes: int = 1500
    exact_nodes: int = 200_000
    enumerate_up_to: int = 30

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.nodes < 1 or self.exact_nodes < 1 or self.enumerate_up_to < 0:
            raise ValueError(f"an analysis budget needs at least one world and node: {self}")


class Method(StrEnum):
    """How a decision's values were reached."""

    EXACT = "exact"  # every consistent world, each solved exactly (closed phase)
    ENUMERATED = "enumerated"  # every consistent world, the open phase played out by the search
    SAMPLED = "sampled"  # ``worlds`` sampled worlds


class Kind(StrEnum):
    """What a decision was about (for the words of the summary)."""

    LEAD = "lead"
    FOLLOW = "follow"
    MARRIAGE = "marriage"
    EXCHANGE = "exchange"
    CLOSE = "close"
    DRAW = "draw"
    DECLARE = "declare"
    PASS = "pass"


def kind_of(action: Action, state: SixtySixState) -> Kind:
    if isinstance(action, PlayCard):
        return Kind.FOLLOW if state.phase is Phase.FOLLOW else Kind.LEAD
    if isinstance(action, LeadMarriage):
        return Kind.MARRIAGE
    if isinstance(action, Exchange):
        return Kind.EXCHANGE
    if isinstance(action, Close):
        return Kind.CLOSE
    if isinstance(action, Draw):
        return Kind.DRAW
    if isinstance(action, Declare):
        return Kind.DECLARE
    return Kind.PASS


@dataclass(frozen=True, slots=True)
class ActionValue:
    action: Action
    value: float  # expected game points of the hand for the deciding seat

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "value": round(self.value, 4)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision: ``index`` is the action's place in the hand's actions (from 0)."""

    index: int
    seat: int
    tricks_played: int
    chosen: Action
    kind: Kind  # of the chosen action
    values: tuple[ActionValue, ...]  # best first (ties in canonical action order)
    worlds: int
    method: Method
    best_kind: Kind  # of the best action

    @property
    def best(self) -> ActionValue:
        return self.values[0]

    @property
    def chosen_value(self) -> float:
        return next(v.value for v in self.values if v.action == self.chosen)

    @property
    def loss(self) -> float:
        """Game points the chosen action gave away against the best one (>= 0)."""
        return max(0.0, self.best.value - self.chosen_value)

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "tricks_played": self.tricks_played,
            "chosen": self.chosen.to_dict(),
            "kind": self.kind.value,
            "values": [v.to_dict() for v in self.values],
            "best": self.best.action.to_dict(),
            "best_kind": self.best_kind.value,
            "chosen_value": round(self.chosen_value, 4),
            "loss": round(self.loss, 4),
            "mistake": self.mistake,
            "worlds": self.worlds,
            "method": self.method.value,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's decisions in a hand: how many, the game points given away in all (the sum of the
    losses: an estimate of what better play would have gained on average), the mistakes, and the
    costliest decision (None when nothing was analysed)."""

    seat: int
    decisions: int
    total_loss: float
    mistakes: int
    worst: Decision | None

    def to_dict(self) -> dict[str, Any]:
        worst = self.worst
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "total_loss": round(self.total_loss, 4),
            "mistakes": self.mistakes,
            "worst": None
            if worst is None or not worst.mistake
            else {
                "index": worst.index,
                "kind": worst.kind.value,
                "best_kind": worst.best_kind.value,
                "loss": round(worst.loss, 4),
                "chosen": worst.chosen.to_dict(),
                "best": worst.best.action.to_dict(),
            },
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The analysis of hand ``hand`` (from 1) of a game, for ``seats``."""

    hand: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    result: HandResult | None
    actions: int  # the hand's actions, analysed or not

    def summary(self, seat: int) -> SeatSummary:
        mine = [d for d in self.decisions if d.seat == seat]
        worst = max(mine, key=lambda d: (d.loss, -d.index), default=None)
        return SeatSummary(
            seat=seat,
            decisions=len(mine),
            total_loss=sum(d.loss for d in mine),
            mistakes=sum(1 for d in mine if d.mistake),
            worst=worst,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": ANALYSIS_VERSION,
            "hand": self.hand,
            "seats": list(self.seats),
            "actions": self.actions,
            "decisions": [d.to_dict() for d in self.decisions],
            "summaries": [self.summary(s).to_dict() for s in self.seats],
            "result": None if self.result is None else self.result.to_dict(),
        }


# --- worlds -----------------------------------------------------------------------------------------


def world_count(k: Knowledge) -> int:
    """How many placements of the hidden cards are consistent with ``k`` (opponent hand x stock
    order; the stock's order only while it can still be drawn from)."""
    free = len(k.unseen) - len(k.opponent_known) - len(k.opponent_excluded)
    need = k.opponent_hand_size - len(k.opponent_known)
    if need < 0 or need > free or free - need + len(k.opponent_excluded) != k.stock_size:
        return -1  # not the plain case (forgotten cards): sample instead
    return math.comb(free, need) * math.factorial(k.stock_size)


def consistent_worlds(state: SixtySixState, seat: int) -> list[SixtySixState]:
    """Every world consistent with what ``seat`` sees in ``state``, each once (see world_count)."""
    view = observe(state, seat)
    rules = state.rules
    k = know(view, rules)
    known = sorted(k.opponent_known, key=lambda c: c.index)
    free = sorted(k.unseen - k.opponent_known - k.opponent_excluded, key=lambda c: c.index)
    excluded = sorted(k.opponent_excluded, key=lambda c: c.index)
    need = k.opponent_hand_size - len(known)
    worlds = []
    for chosen in itertools.combinations(free, need):
        rest = [c for c in free if c not in chosen] + excluded
        orders: Sequence[tuple[Card, ...]] = (
            list(itertools.permutations(rest)) if state.talon_open else [tuple(rest)]
        )
        for stock in orders:
            worlds.append(world(view, rules, tuple(known) + chosen, stock))
    return worlds


def _worlds(
    state: SixtySixState, seat: int, rng: random.Random, budget: AnalysisBudget
) -> tuple[list[SixtySixState], bool]:
    view = observe(state, seat)
    k = know(view, state.rules)
    count = world_count(k)
    if not state.talon_open and count > 0:
        count //= math.factorial(k.stock_size)  # a closed stock is never drawn: its order is moot
    if 0 < count <= budget.enumerate_up_to:
        return consistent_worlds(state, seat), True
    return [sample_world(view, state.rules, rng) for _ in range(budget.worlds)], False


# --- one decision -------------------------------------------------------------------------------


def candidates(state: SixtySixState, seat: int, chosen: Action) -> list[Action]:
    """The actions worth valuing for ``seat`` on move: every legal action but a declaration short
    of 66 that cannot pay (it gives the hand away: the search's wrong declaration where it may pay,
    X27, is valued like any move), always including the one chosen. Canonical order."""
    actions = legal_actions(state, seat)
    out = []
    for a in actions:
        hopeless = isinstance(a, Declare) and a != chosen and state.points(seat) < TARGET
        if hopeless and Search(seat, 1, 1)._resign_value(state, seat) is None:
            continue
        out.append(a)
    out.sort(key=_canonical)
    return out


def analyse_decision(
    state: SixtySixState,
    chosen: Action,
    rng: random.Random,
    budget: AnalysisBudget,
    *,
    index: int = 0,
) -> Decision | None:
    """The values of every candidate action of the seat on move in ``state`` (which plays
    ``chosen``), or None when there is nothing to analyse (module doc)."""
    seats = seats_to_act(state)
    seat = chosen.seat
    if not seats or seats[0] != seat or state.phase is Phase.BIDDING or isinstance(chosen, Bid):
        return None
    moves = candidates(state, seat, chosen)
    if len(moves) < 2:
        return None
    worlds, enumerated = _worlds(state, seat, rng, budget)
    exact = phase_two(state)
    totals = [0.0] * len(moves)
    for w in worlds:
        search = Search(seat, 1, budget.exact_nodes if exact else budget.nodes, playouts=True)
        for i, v in enumerate(search.root_values(w, moves)):
            totals[i] += v
    n = len(worlds)
    values = [ActionValue(m, t / n) for m, t in zip(moves, totals, strict=True)]
    order = sorted(range(len(values)), key=lambda i: (-round(values[i].value, 9), i))
    ranked = tuple(values[i] for i in order)
    method = (Method.EXACT if exact else Method.ENUMERATED) if enumerated else Method.SAMPLED
    return Decision(
        index=index,
        seat=seat,
        tricks_played=state.tricks_played,
        chosen=chosen,
        kind=kind_of(chosen, state),
        values=ranked,
        worlds=n,
        method=method,
        best_kind=kind_of(ranked[0].action, state),
    )


# --- hands and games ------------------------------------------------------------------------------


def analyse_hand(
    state: SixtySixState,
    actions: Sequence[Action],
    rng: random.Random,
    budget: AnalysisBudget | None = None,
    *,
    seats: Sequence[int] = (0, 1),
    hand: int = 1,
    progress: Any = None,
) -> HandAnalysis:
    """Analyse the hand that starts in ``state`` and is played by ``actions`` (in order; an action
    that the engine refuses raises what ``apply`` raises), for the decisions of ``seats``.
    ``progress``, if given, is called with no argument after each action (a progress bar)."""
    budget = budget or AnalysisBudget()
    decisions = []
    wanted = set(seats)
    for index, action in enumerate(actions):
        if action.seat in wanted:
            decision = analyse_decision(state, action, rng, budget, index=index)
            if decision is not None:
                decisions.append(decision)
        state, _ = apply(state, action)
        if progress is not None:
            progress()
    return HandAnalysis(hand, tuple(sorted(wanted)), tuple(decisions), state.result, len(actions))


@dataclass(frozen=True, slots=True)
class GameHand:
    """One hand of a game as the analysis takes it: its first state and its actions, with each
    action's position in the game's whole action list (``offsets[i]`` for ``actions[i]``)."""

    number: int
    start: SixtySixState
    actions: tuple[Action, ...]
    offsets: tuple[int, ...]


def game_hands(setup: Mapping[str, Any], actions: Sequence[Action]) -> list[GameHand]:
    """A match (``setup`` as :func:`~games.engine.sixtysix.game.game_setup` gives it, and its actions
    in order) cut into hands. Raises what ``game_from_setup`` and ``game_apply`` raise."""
    game: SixtySixGame = game_from_setup(setup)
    hands: list[GameHand] = []
    start, number = game.hand, game.hand_number
    mine: list[Action] = []
    offsets: list[int] = []
    for i, action in enumerate(actions):
        finished = len(game.hands)
        game, _ = game_apply(game, action)
        mine.append(action)
        offsets.append(i)
        if len(game.hands) > finished:  # the action ended the hand (and dealt the next, if any)
            hands.append(GameHand(number, start, tuple(mine), tuple(offsets)))
            mine, offsets = [], []
            start, number = game.hand, game.hand_number
    if mine:  # an unfinished hand (a game cut short)
        hands.append(GameHand(number, start, tuple(mine), tuple(offsets)))
    return hands
