"""Alpha-beta over full (determinized) states of the 66 engine, scored in game points.

The search plays through the engine itself (``legal_actions`` / ``apply``), so it follows every
profile's rules exactly. Declarations are not branched on: a seat holding 66 declares at once
(:func:`settle`; waiting never gains, base.py), and after the last trick a seat short of 66 passes.
The one declaration short of 66 that can pay is searched as a move: a seat that would lose 3
(it has no trick, now or when the other closed) may give away only 2 by declaring wrongly (X27, X22).

Values are game points from ``me``'s side (+ won, - lost, 0 for a tie or a pot). Once the talon is
closed or exhausted (X10) the search is exact (with a transposition table) until its node budget
runs out; in the open phase it looks ``depth`` actions ahead and then uses :func:`evaluate`.
"""

from __future__ import annotations

import math
from typing import Final

from games.engine.sixtysix.actions import Action, Declare, Draw, Exchange, LeadMarriage, Pass, PlayCard
from games.engine.sixtysix.bots.base import TARGET
from games.engine.sixtysix.bots.endgame import Endgame, solvable
from games.engine.sixtysix.cards import Card, Rank
from games.engine.sixtysix.engine import apply, legal_actions, may_declare, seats_to_act
from games.engine.sixtysix.state import Phase, SixtySixState

INF: Final = 1000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2


def outcome(state: SixtySixState, me: int) -> float:
    """Game points of a finished hand from ``me``'s side."""
    result = state.result
    assert result is not None  # only called on finished hands
    if result.winner is None:
        return 0.0
    return float(result.game_points if result.winner == me else -result.game_points)


def settle(state: SixtySixState) -> SixtySixState:
    """Apply the declarations every bot makes without thinking: 66 held and may be declared ->
    declare (the seat on move first); after the last trick, pass short of 66."""
    while state.phase is not Phase.OVER:
        seats = seats_to_act(state)
        for seat in seats:
            if state.points(seat) >= TARGET and may_declare(state, seat):
                state, _ = apply(state, Declare(seat))
                break
        else:
            if state.phase is Phase.AFTER_LAST and seats:
                state, _ = apply(state, Pass(seats[0]))
                continue
            return state
    return state


def phase_two(state: SixtySixState) -> bool:
    """X10: the talon is closed or exhausted."""
    return state.closing is not None or state.trump_card is None


def _hand_potential(state: SixtySixState, seat: int) -> float:
    """Points a hand is likely still to bring in: its cards' values, trumps, marriages in hand."""
    trump = state.trump_suit
    hand = state.hands[seat]
    marriages_open = state.rules.marriage_after_close or not phase_two(state)
    total = 0.0
    for c in hand:
        total += 0.45 * c.value
        if c.suit is trump:
            total += 4.0 + 0.25 * c.value
        if marriages_open and c.rank is Rank.KING and c.partner in hand:
            total += 0.6 * (40 if c.suit is trump else 20)
    return total


def evaluate(state: SixtySixState, me: int) -> float:
    """A static guess of the game points ``me`` will score, for unfinished states."""
    if state.result is not None:
        return outcome(state, me)
    opp = 1 - me
    a = state.points(me) + 0.5 * state.pending_marriage[me] + _hand_potential(state, me)
    b = state.points(opp) + 0.5 * state.pending_marriage[opp] + _hand_potential(state, opp)
    return 2.0 * math.tanh((a - b) / 30.0)


def rollout_action(state: SixtySixState, seat: int) -> Action:
    """A quick rule-of-thumb move for playouts (the heuristic bot's main rules, on a state):
    exchange, show marriages, lead the cheapest card keeping trumps, take aces and tens, throw
    the cheapest card. Never closes; draws rather than closes."""
    acts = legal_actions(state, seat)
    trump = state.trump_suit
    best: Action | None = None
    if state.phase is Phase.FOLLOW:
        led = state.lead_card
        assert led is not None
        low = INF
        win_cost = INF
        winner: PlayCard | None = None
        for a in acts:
            if not isinstance(a, PlayCard):
                continue
            c = a.card
            cost = c.value + (15 if c.suit is trump else 0)
            wins = c.strength > led.strength if c.suit is led.suit else c.suit is trump
            if wins and cost < win_cost:
                winner, win_cost = a, cost
            if cost < low:
                best, low = a, cost
        if winner is not None and (
            led.value >= 10 or (winner.card.suit is led.suit and led.value + winner.card.value >= 10)
        ):
            return winner
        assert best is not None
        return best
    low = INF
    for a in acts:
        if isinstance(a, (Exchange, LeadMarriage, Pass, Draw)):
            return a
        if isinstance(a, PlayCard):
            c = a.card
            cost = c.value + (15 if c.suit is trump else 0)
            if cost < low:
                best, low = a, cost
    assert best is not None
    return best


def rollout(state: SixtySixState, me: int, limit: int) -> tuple[float, int]:
    """Play ``state`` out with :func:`rollout_action` until the closed phase, then solve that
    exactly (within ``limit`` nodes). Returns the value and the nodes used."""
    used = 0
    while True:
        state = settle(state)
        if state.result is not None:
            return outcome(state, me), used
        if solvable(state):
            endgame = Endgame(state, me, max(1, limit - used))
            return endgame.solve(), used + endgame.nodes
        seat = seats_to_act(state)[0]
        state, _ = apply(state, rollout_action(state, seat))
        used += 1


def _order_key(action: Action, trump: object) -> float:
    if isinstance(action, LeadMarriage):
        return -100.0
    if isinstance(action, PlayCard):
        c: Card = action.card
        return -(c.value + (12 if c.suit is trump else 0))
    return -50.0  # exchange, close, draw: try early


class Search:
    """One determinized world's alpha-beta. ``nodes`` caps the work per root action."""

    def __init__(self, me: int, depth: int, nodes: int, playouts: bool = False) -> None:
        self.me = me
        self.playouts = playouts
        self.depth = depth
        self.nodes = nodes
        self.left = nodes
        self.visited = 0
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}

    def root_values(self, state: SixtySixState, moves: list[Action]) -> list[float]:
        """The value of each of ``moves`` (legal for ``me`` in ``state``)."""
        values = []
        for move in moves:
            self.left = self.nodes
            child = settle(apply(state, move)[0])
            values.append(self.alphabeta(child, self.depth - 1, -INF, INF))
        return values

    def _resign_value(self, state: SixtySixState, seat: int) -> float | None:
        """The value of a wrong declaration where it can beat losing 3 (module doc), else None."""
        other = 1 - seat
        snap = state.closing
        if state.points(seat) >= TARGET or (snap is not None and snap.closer == seat):
            return None
        no_trick = not state.trick_counts[seat] or (
            snap is not None and snap.closer == other and snap.opponent_tricks == 0
        )
        if not no_trick or not may_declare(state, seat):
            return None
        return outcome(apply(state, Declare(seat))[0], self.me)

    def alphabeta(self, state: SixtySixState, depth: int, alpha: float, beta: float) -> float:
        if state.result is not None:
            return outcome(state, self.me)
        self.visited += 1
        exact = phase_two(state)
        if not exact and depth <= 0 and self.playouts and self.left > 0:
            value, used = rollout(state, self.me, self.left)
            self.left -= used
            return value
        if (not exact and depth <= 0) or self.left <= 0:
            return evaluate(state, self.me)
        self.left -= 1
        if exact and solvable(state):
            endgame = Endgame(state, self.me, self.left)
            value = endgame.solve()
            self.left -= endgame.nodes
            return value
        key: tuple[object, ...] | None = None
        if exact:
            h0, h1 = state.hands
            key = (
                sum(1 << c.index for c in h0),
                sum(1 << c.index for c in h1),
                state.lead_card,
                state.leader,
                state.card_points,
                state.trick_counts,
                state.marriage_points,
                state.pending_marriage,
            )
            hit = self.table.get(key)
            if hit is not None:
                flag, value = hit
                if flag == _EXACT:
                    return value
                if flag == _LOWER and value >= beta:
                    return value
                if flag == _UPPER and value <= alpha:
                    return value
        seat = seats_to_act(state)[0]
        moves = [a for a in legal_actions(state, seat) if not isinstance(a, Declare)]
        trump = state.trump_suit
        moves.sort(key=lambda a: _order_key(a, trump))
        maximizing = seat == self.me
        alpha0, beta0 = alpha, beta
        best = -INF if maximizing else INF
        resign = self._resign_value(state, seat)
        if resign is not None:
            best = resign
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        for move in moves:
            if alpha >= beta:
                break
            child = settle(apply(state, move)[0])
            value = self.alphabeta(child, depth - 1, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, best)
            elif value < best:
                best = value
                beta = min(beta, best)
        if key is not None:
            if best <= alpha0:
                flag = _UPPER
            elif best >= beta0:
                flag = _LOWER
            else:
                flag = _EXACT
            self.table[key] = (flag, best)
        return best
