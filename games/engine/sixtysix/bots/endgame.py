"""Exact alpha-beta for the closed phase (X10: talon closed or exhausted), on a compact model.

Once nothing is drawn any more a determinized hand is a small perfect-information game. Playing
it through ``apply()`` costs tens of microseconds a node; this solver keeps one mutable position
and undoes its moves, about ten times faster. It models exactly the rules that can still happen
in that phase: following (X10), tricks (X8), marriages after the close (X15-X18, per profile),
declaring at 66 as soon as allowed (X24-X26; automatic in `schnapsen-lite`), the closer's and
the nobody-declares scoring (X20-X22, X27-X30), and the one wrong declaration that can pay (2
given away instead of 3 lost).
tests/games/engine/sixtysix/bots/test_endgame.py checks it against a brute-force search through
the engine itself. Not for hands with a Snapszer bid (X31): :func:`solvable` says so.
"""

from __future__ import annotations

from typing import Final

from games.engine.sixtysix.cards import Card, Rank
from games.engine.sixtysix.rules import (
    CloseJudged,
    DeclareWhen,
    FailedCloseThreeIf,
    LoserMeasure,
    MarriageLead,
    MarriageScoring,
    NobodyDeclares,
    WrongDeclaration,
)
from games.engine.sixtysix.state import Phase, SixtySixState

TARGET: Final = 66
_KING: Final = Rank.KING  # enum member lookups are slow in the hot loop
INF: Final = 1000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2


def solvable(state: SixtySixState) -> bool:
    """Whether :class:`Endgame` can solve ``state``: closed phase, a trick to lead or answer."""
    return (
        (state.closing is not None or state.trump_card is None)
        and state.bidder is None
        and state.result is None
        and state.phase in (Phase.LEAD, Phase.FOLLOW)
    )


class Endgame:
    """The closed phase of one determinized hand, solved from ``me``'s side in game points.

    ``limit`` caps the nodes; past it a static guess replaces the search (``exhausted`` says so).
    """

    def __init__(self, state: SixtySixState, me: int, limit: int = 200_000) -> None:
        r = state.rules
        self.me = me
        self.trump = state.trump_suit
        self.hands = [list(state.hands[0]), list(state.hands[1])]
        self.masks = [sum(1 << c.index for c in h) for h in state.hands]  # the hands as bit sets
        self.cp = list(state.card_points)
        self.mp = list(state.marriage_points)
        self.pend = list(state.pending_marriage)
        self.tricks = list(state.trick_counts)
        self.bonus = list(state.bonus)
        self.leader = state.leader
        self.lead: Card | None = state.lead_card
        snap = state.closing
        self.closer = -1 if snap is None else snap.closer
        self.snap = snap
        self.marriages = r.marriage_after_close
        self.queen_too = r.marriage_lead is MarriageLead.K_OR_Q
        self.scoring = r.marriage_scoring
        self.auto = r.declare_when is DeclareWhen.AUTOMATIC
        self.any_time = r.declare_when is DeclareWhen.ANY_TIME
        self.card_measure = r.loser_measure is LoserMeasure.CARD_POINTS
        self.judged_at_closing = r.close_judged is CloseJudged.AT_CLOSING
        self.three_if = r.failed_close_three_if
        self.wrong_two = r.wrong_declaration is WrongDeclaration.TWO
        self.nobody = r.nobody_declares
        self.limit = limit
        self.nodes = 0
        self.exhausted = False
        self.table: dict[tuple[int, ...], tuple[int, float]] = {}

    # --- scoring -------------------------------------------------------------------------------

    def _signed(self, winner: int, points: int) -> float:
        return float(points if winner == self.me else -points)

    def _points(self, seat: int) -> int:
        return self.cp[seat] + self.mp[seat] + self.bonus[seat]

    def _table(self, loser: int, at_closing: bool = False) -> int:
        """X30 on the loser now, or as at closing (X20)."""
        if at_closing and self.snap is not None:
            tricks, measure = self.snap.opponent_tricks, self.snap.opponent_measure
        else:
            tricks = self.tricks[loser]
            measure = self.cp[loser] if self.card_measure else self._points(loser)
        if tricks == 0:
            return 3
        return 2 if measure < 33 else 1

    def _failed_close(self) -> float:
        snap = self.snap
        assert snap is not None
        if self.three_if is FailedCloseThreeIf.ALWAYS:
            pts = 3
        elif self.three_if is FailedCloseThreeIf.CLOSED_AT_TRICK_1:
            pts = 3 if snap.tricks_played == 0 else 2
        else:
            pts = 3 if snap.opponent_tricks == 0 else 2
        return self._signed(1 - snap.closer, pts)

    def _declared(self, seat: int) -> float:
        """A correct declaration by ``seat`` now (X20, X21, X24)."""
        other = 1 - seat
        if self.closer < 0:
            return self._signed(seat, self._table(other))
        if self.closer == seat:
            return self._signed(seat, self._table(other, self.judged_at_closing))
        return self._failed_close()

    def _resign(self, seat: int, leading: bool) -> float | None:
        """A wrong declaration (X27, X22), where it can pay: it gives the other seat 2, while losing
        by the table would give 3 (the seat has no trick, now or when the other closed)."""
        other = 1 - seat
        if self.auto or self.closer == seat or (not self.any_time and not leading):
            return None
        if not self.wrong_two and not self.tricks[other]:
            return None
        no_trick = not self.tricks[seat] or (
            self.closer == other and self.snap is not None and self.snap.opponent_tricks == 0
        )
        if not no_trick:
            return None
        if not self.any_time and not (self.tricks[0] or self.tricks[1]):
            return None  # X26: a declaration needs a trick won first
        return self._signed(other, 2)

    def _end(self, last_winner: int) -> float:
        """X21, X24a, X28-X29: the last trick is played and nobody declared during play."""
        if self.closer >= 0:
            return self._failed_close()
        if self.nobody is NobodyDeclares.LAST_TRICK_WINS_1:
            return self._signed(last_winner, 1)
        if self.nobody is NobodyDeclares.LAST_TRICK_BONUS_10 and self._points(last_winner) >= TARGET:
            return self._declared(last_winner)  # the +10 reached 66: declared after the last trick
        if self.nobody is NobodyDeclares.MORE_CARD_POINTS or self.card_measure:
            a, b = self.cp
        else:
            a, b = self._points(0), self._points(1)
        if a == b:
            return 0.0  # X29: the pot or a redeal; nobody scores this hand
        winner = 0 if a > b else 1
        return self._signed(winner, self._table(1 - winner))

    def _static(self) -> float:
        """Past the node limit: more points (and cards in hand) is better."""
        a = self._points(self.me) + sum(c.value for c in self.hands[self.me])
        b = self._points(1 - self.me) + sum(c.value for c in self.hands[1 - self.me])
        return 1.0 if a > b else -1.0 if a < b else 0.0

    # --- search --------------------------------------------------------------------------------

    def solve(self) -> float:
        """The value of the position with perfect play by both seats."""
        if self.lead is None:
            return self._lead_node(-INF, INF)
        return self._follow_node(-INF, INF)

    def _lead_node(self, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.limit:
            self.exhausted = True
            return self._static()
        seat = self.leader
        hands = self.hands
        key = (
            seat,
            self.masks[0],
            self.masks[1],
            self.cp[0],
            self.cp[1],
            self.mp[0],
            self.mp[1],
            self.pend[0],
            self.pend[1],
            self.tricks[0] > 0,
            self.tricks[1] > 0,
        )
        hit = self.table.get(key)
        if hit is not None:
            flag, v = hit
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        alpha0, beta0 = alpha, beta
        maximizing = seat == self.me
        best = -INF if maximizing else INF
        resign = self._resign(seat, True)
        if resign is not None:
            best = resign
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        hand = hands[seat]
        trump = self.trump
        moves: list[tuple[Card, int]] = []
        if self.marriages:
            for c in hand:
                if c.rank is _KING and c.partner in hand:
                    pts = 40 if c.suit is trump else 20
                    moves.append((c, pts))
                    if self.queen_too and c.partner is not None:
                        moves.append((c.partner, pts))
        ordered = sorted(hand, key=lambda c: -(c.strength + (10 if c.suit is trump else 0)))
        moves += [(c, 0) for c in ordered]
        for c, pts in moves:
            if alpha >= beta:
                break
            value = self._play_lead(seat, c, pts, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        self.table[key] = (flag, best)
        return best

    def _play_lead(self, seat: int, c: Card, pts: int, alpha: float, beta: float) -> float:
        hand = self.hands[seat]
        hand.remove(c)
        self.masks[seat] ^= 1 << c.index
        saved_mp, saved_pend = self.mp[seat], self.pend[seat]
        value: float | None = None
        if pts:
            counted = self.scoring is MarriageScoring.IMMEDIATE or (
                self.scoring is MarriageScoring.AFTER_A_TRICK and self.tricks[seat] > 0
            )
            if counted:
                self.mp[seat] += pts
                if not self.auto and self._points(seat) >= TARGET:
                    value = self._declared(seat)  # X17
            else:
                self.pend[seat] += pts
        if value is None:
            self.lead = c
            value = self._follow_node(alpha, beta)
            self.lead = None
        self.mp[seat], self.pend[seat] = saved_mp, saved_pend
        self.masks[seat] ^= 1 << c.index
        hand.append(c)
        return value

    def _follow_node(self, alpha: float, beta: float) -> float:
        led = self.lead
        assert led is not None
        leader = self.leader
        seat = 1 - leader
        hand = self.hands[seat]
        trump = self.trump
        same = [c for c in hand if c.suit is led.suit]
        if same:
            higher = [c for c in same if c.strength > led.strength]
            options = higher or same
        else:
            options = [c for c in hand if c.suit is trump] or list(hand)
        maximizing = seat == self.me
        best = -INF if maximizing else INF
        resign = self._resign(seat, False)
        if resign is not None:
            best = resign
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        options.sort(key=lambda c: -c.value)
        for c in options:
            if alpha >= beta:
                break
            value = self._play_follow(seat, c, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
        return best

    def _play_follow(self, seat: int, c: Card, alpha: float, beta: float) -> float:
        led = self.lead
        assert led is not None
        leader = self.leader
        if c.suit is led.suit:
            winner = seat if c.strength > led.strength else leader
        else:
            winner = seat if c.suit is self.trump else leader
        hand = self.hands[seat]
        hand.remove(c)
        self.masks[seat] ^= 1 << c.index
        gained = led.value + c.value
        saved = (self.cp[winner], self.tricks[winner], self.mp[winner], self.pend[winner], self.bonus[winner])
        self.cp[winner] += gained
        self.tricks[winner] += 1
        if self.pend[winner]:
            self.mp[winner] += self.pend[winner]
            self.pend[winner] = 0
        self.lead = None
        self.leader = winner
        last = not self.hands[0] and not self.hands[1]
        if last and self.closer < 0 and self.nobody is NobodyDeclares.LAST_TRICK_BONUS_10:
            self.bonus[winner] = 10
        if self._points(winner) >= TARGET:
            # X24: the winner declares at once (after the last trick too, X24a, the +10 included);
            # schnapsen-lite's automatic end scores the same table.
            value = self._declared(winner)
        elif last:
            value = self._end(winner)
        else:
            value = self._lead_node(alpha, beta)
        self.leader = leader
        self.lead = led
        self.cp[winner], self.tricks[winner], self.mp[winner], self.pend[winner], self.bonus[winner] = saved
        self.masks[seat] ^= 1 << c.index
        hand.append(c)
        return value
