"""Snap statistics of one game, measured from its timed log (docs/snap-stats.md). Pure: no Django,
no clock; the log is replayed through the timing layer exactly as the owner played it (S38).

What is measured, per seat:

- **Chances.** A *claim* (a pair of face-up piles, a pool and a pile, a Jack to slap, the
  single_pile centre) is *open* from the state on which it starts to hold until the state on which
  it no longer does (won, tied, covered by a flip, the game over). Claims open at the same time
  that share a pile or pool are one *chance* (three 7s showing are one chance, not three). A chance
  counts for every seat that could call it (active, not ineligible: not its own Jack, not the
  flipper where the rules say so) while it was open, and not for a seat a stand-in bot was playing.
- **Outcome of a chance for a seat**: *won* (the seat captured it), *tied* (in the tie that sent it
  to the centre), *late* (the seat called it validly but someone else was first, or it was covered
  first), *not called*. *Missed* = late + not called: someone else took it or it passed.
- **Reaction time** of a valid call (its claim held on the table its caller saw: won, tied or late)
  = the call's **effective time** (S33: arrival minus the lag the server compensated, the value the
  layer judges it by) minus the **server time of the reveal**: the state on which the called claim
  started to hold (the flip that made the match, as the server showed it: after a reveal delay,
  when it took effect). A call that names no claim is measured against the claim of its kind
  revealed most recently on the table it answered. Wrong calls have no reaction time.
- **False calls**: the engine's wrong calls (S14: penalised, or without a pile to lose).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.protocol import GameKind, engine_for
from games.engine.snap.actions import CallKind, Claim, claim_from_dict
from games.engine.snap.calls import call_ineligible, candidates, claim_seats, kind_of
from games.engine.snap.rules import SnapRules
from games.engine.snap.state import Deal, SnapState
from games.engine.snap.timing import LiveGame, TimedCall, TimingRules, timed_input_from_dict

TIMED_INPUTS = frozenset({"flip", "call", "rtt", "advance"})
STAND_IN = "stand_in"  # the log's control row: a bot takes (``bot``) or gives back (None) a seat

WON, TIED, LATE = "won", "tied", "late"


CHANCE_COUNTS = ("chances", "won", "tied", "late", "not_called", "missed", "false_calls", "flagged")


def _chance_counts(stats: Any) -> dict[str, int]:
    """How the chances went, by ``CHANCE_COUNTS`` (a seat's in one game, or a person's summary)."""
    return {name: getattr(stats, name) for name in CHANCE_COUNTS}


@dataclass(frozen=True, slots=True)
class CallTiming:
    """One valid call: when it arrived, its effective time, the reveal it answered, the reaction."""

    seat: int
    arrival_ms: int
    effective_ms: int
    revealed_ms: int
    reaction_ms: int  # effective - revealed
    device_ms: int  # the caller's own measurement (S32), for reference
    outcome: str  # won | tied | late

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "arrival_ms": self.arrival_ms,
            "effective_ms": self.effective_ms,
            "revealed_ms": self.revealed_ms,
            "reaction_ms": self.reaction_ms,
            "device_ms": self.device_ms,
            "outcome": self.outcome,
        }


@dataclass(slots=True)
class SeatStats:
    """One seat's figures in one game (see the module doc)."""

    seat: int
    calls: list[CallTiming] = field(default_factory=list)
    chances: int = 0
    won: int = 0
    tied: int = 0
    late: int = 0
    not_called: int = 0
    false_calls: int = 0
    flagged: int = 0  # reactions under the review threshold (S37), never punished
    stood_in: bool = False  # a bot played this seat for part of the game (its moves are not counted)

    @property
    def missed(self) -> int:
        return self.late + self.not_called

    @property
    def reactions(self) -> list[int]:
        return [c.reaction_ms for c in self.calls]

    @property
    def median_ms(self) -> float | None:
        return median(self.reactions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "calls": [c.to_dict() for c in self.calls],
            **_chance_counts(self),
            "stood_in": self.stood_in,
        }


@dataclass(frozen=True, slots=True)
class GameStats:
    """Every seat's figures, the winner (None: a draw or no result) and the game's length."""

    seats: tuple[SeatStats, ...]
    winner: int | None
    placings: tuple[int, ...]
    length_ms: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [s.to_dict() for s in self.seats],
            "winner": self.winner,
            "placings": list(self.placings),
            "length_ms": self.length_ms,
        }


@dataclass(slots=True)
class _Chance:
    id: int
    parts: set[tuple[str, int]] = field(default_factory=set)
    eligible: set[int] = field(default_factory=set)
    won: set[int] = field(default_factory=set)
    tied: set[int] = field(default_factory=set)
    late: set[int] = field(default_factory=set)
    merged_into: int | None = None


@dataclass(slots=True)
class _Run:
    """A claim open from state ``start`` until ``end`` (None: still open)."""

    start: int
    end: int | None
    chance: int


def _parts(claim: Claim) -> set[tuple[str, int]]:
    parts = {("seat", s) for s in claim_seats(claim)}
    pool = getattr(claim, "pool", None)
    if pool is not None:
        parts.add(("pool", pool))
    return parts or {("central", 0)}


class _Tracker:
    def __init__(self, live: LiveGame) -> None:
        self.live = live
        self.n = live.state.n
        self.kinds = [CallKind.SNAP, CallKind.SNAP_POOL] + ([CallKind.SLAP] if live.rules.slapjack else [])
        self.stand_in = [False] * self.n
        self.ever_stood_in = [False] * self.n
        self.chances: list[_Chance] = []
        self.runs: dict[Claim, list[_Run]] = {}
        self.open: dict[Claim, _Run] = {}
        self.held: dict[int, list[Claim]] = {}  # seq -> the claims open on that state
        self.seen = -1
        self.seats = [SeatStats(seat) for seat in range(self.n)]
        self.pending: dict[int, tuple[CallTiming, int]] = {}
        self.last_at = 0

    # States ------------------------------------------------------------------------------------

    def observe_new_states(self) -> None:
        live = self.live
        for seq in range(self.seen + 1, live.state.seq + 1):
            state = live.state.at_seq(seq)
            if state is None:  # pragma: no cover - one input never makes CALL_WINDOW states
                raise ValueError(f"state {seq} is out of the call window")
            self._observe(seq, state)
        self.seen = live.state.seq

    def _root(self, chance_id: int) -> _Chance:
        chance = self.chances[chance_id]
        while chance.merged_into is not None:
            chance = self.chances[chance.merged_into]
        return chance

    def _observe(self, seq: int, state: SnapState) -> None:
        holding: dict[Claim, set[int]] = {}
        if state.result is None:
            for caller in range(self.n):
                if not state.active[caller]:
                    continue
                for kind in self.kinds:
                    for claim in candidates(state, caller, kind):
                        if call_ineligible(state, caller, claim, kind_of(claim)) is None:
                            holding.setdefault(claim, set()).add(caller)
        for claim, run in list(self.open.items()):
            if claim not in holding:
                run.end = seq
                del self.open[claim]
        for claim in holding:
            if claim in self.open:
                continue
            parts = _parts(claim)
            touching = {
                self._root(run.chance).id for other, run in self.open.items() if parts & _parts(other)
            }
            if touching:
                chance = self.chances[min(touching)]
                for other_id in touching - {chance.id}:
                    other = self.chances[other_id]
                    other.merged_into = chance.id
                    chance.eligible |= other.eligible
                    chance.won |= other.won
                    chance.tied |= other.tied
                    chance.late |= other.late
            else:
                chance = _Chance(len(self.chances))
                self.chances.append(chance)
            run = _Run(seq, None, chance.id)
            self.open[claim] = run
            self.runs.setdefault(claim, []).append(run)
        for claim, callers in holding.items():
            chance = self._root(self.open[claim].chance)
            chance.eligible |= {c for c in callers if not self.stand_in[c]}
        self.held[seq] = list(holding)

    def run_at(self, claim: Claim, seq: int) -> _Run | None:
        """The run of ``claim`` open on state ``seq`` (or the latest that started by then)."""
        found = None
        for run in self.runs.get(claim, ()):
            if run.start <= seq:
                found = run
        return found

    # Events ------------------------------------------------------------------------------------

    def on_events(self, inp: Any, stamped: Iterable[tuple[int, Any]]) -> None:
        for at, e in stamped:
            self.last_at = at
            match e.type:
                case "call_queued":
                    if e.valid and not self.stand_in[e.caller] and isinstance(inp, TimedCall):
                        self._queued(inp, e)
                case "reaction_flagged":
                    if not self.stand_in[e.caller]:
                        self.seats[e.caller].flagged += 1
                case "capture" if e.kind != "last_player":
                    self._capture(e.seat, e.claim, e.seq)
                case "tie":
                    for claim_data in e.claims:
                        claim = claim_from_dict(claim_data)
                        run = None if claim is None else self.run_at(claim, e.seq - 1)
                        if run is not None:
                            self._root(run.chance).tied.update(e.callers)
                    for caller in e.callers:
                        self._settle(caller, TIED)
                case "ignored_call":
                    pending = self.pending.get(e.caller)
                    if pending is not None and e.reason == "late":
                        self._root(pending[1]).late.add(e.caller)
                        self._settle(e.caller, LATE)
                case "wrong_call":
                    if not self.stand_in[e.caller]:
                        self.seats[e.caller].false_calls += 1
                case "call_refused" if e.reason in ("stale", "game_over"):
                    self.pending.pop(e.caller, None)  # refused while it waited: no outcome

    def _queued(self, call: TimedCall, e: Any) -> None:
        claim = call.claim
        held = self.held.get(e.seq, [])
        if claim is None:
            allowed = {call.kind}
            if self.live.rules.silent and call.kind is not CallKind.SLAP:
                allowed = {CallKind.SNAP, CallKind.SNAP_POOL}
            fitting = [c for c in held if kind_of(c) in allowed]
            runs = [(r, c) for c in fitting if (r := self.run_at(c, e.seq)) is not None]
            if not runs:
                return
            run = max(runs, key=lambda rc: rc[0].start)[0]
        else:
            run = self.run_at(claim, e.seq) if claim in held else None
            if run is None:
                return
        revealed = self.live.shown_at[run.start]
        timing = CallTiming(
            seat=e.caller,
            arrival_ms=call.at,
            effective_ms=e.effective,
            revealed_ms=revealed,
            reaction_ms=e.effective - revealed,
            device_ms=call.reaction_ms,
            outcome="",
        )
        self.pending[e.caller] = (timing, run.chance)

    def _capture(self, seat: int, claim_data: Mapping[str, Any] | None, seq: int) -> None:
        claim = claim_from_dict(dict(claim_data)) if claim_data else None
        run = None if claim is None else self.run_at(claim, seq - 1)
        if run is not None:
            self._root(run.chance).won.add(seat)
        self._settle(seat, WON)

    def _settle(self, caller: int, outcome: str) -> None:
        pending = self.pending.pop(caller, None)
        if pending is not None:
            timing = pending[0]
            self.seats[caller].calls.append(
                CallTiming(
                    timing.seat,
                    timing.arrival_ms,
                    timing.effective_ms,
                    timing.revealed_ms,
                    timing.reaction_ms,
                    timing.device_ms,
                    outcome,
                )
            )

    # The end ------------------------------------------------------------------------------------

    def result(self) -> GameStats:
        for chance in self.chances:
            if chance.merged_into is not None:
                continue
            for seat in chance.eligible:
                stats = self.seats[seat]
                stats.chances += 1
                if seat in chance.won:
                    stats.won += 1
                elif seat in chance.tied:
                    stats.tied += 1
                elif seat in chance.late:
                    stats.late += 1
                else:
                    stats.not_called += 1
        for seat, stood in enumerate(self.ever_stood_in):
            self.seats[seat].stood_in = stood
        result = self.live.state.result
        return GameStats(
            seats=tuple(self.seats),
            winner=None if result is None else result.winner,
            placings=() if result is None else tuple(result.placings),
            length_ms=self.live.now - self.live.start_ms,
        )


def snap_game_stats(
    rules: SnapRules,
    deal: Deal,
    dealer: int,
    timing: TimingRules,
    actions: Sequence[Mapping[str, Any]],
) -> GameStats:
    """The statistics of one Snap game: its timed log (``actions``, the log rows' JSON in ``seq``
    order, control rows included) replayed over the deal. Raises what the timing layer raises on
    a log it cannot take (InvalidAction, IllegalAction): a stored log always replays."""
    live = LiveGame(rules, deal, dealer, timing, 0)
    tracker = _Tracker(live)
    tracker.observe_new_states()
    for action in actions:
        kind = action.get("type")
        if kind == STAND_IN:
            seat = int(action["seat"])
            tracker.stand_in[seat] = action.get("bot") is not None
            tracker.ever_stood_in[seat] |= tracker.stand_in[seat]
            tracker.pending.pop(seat, None)
            continue
        if kind not in TIMED_INPUTS:
            continue  # another control row (abandon): no input of the game
        inp = timed_input_from_dict(dict(action))
        stamped = live.feed(inp)
        tracker.observe_new_states()
        tracker.on_events(inp, stamped)
    return tracker.result()


def snap_game_stats_from_setup(setup: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> GameStats:
    """``snap_game_stats`` of an online game's stored setup (options, seats, dealer, seed, timing)."""
    dealt = engine_for(GameKind.SNAP).new_game(
        setup["options"], seats=setup["seats"], dealer=setup["dealer"], seed=bytes.fromhex(setup["seed"])
    )
    timing = TimingRules(**setup.get("timing", {}))
    return snap_game_stats(dealt.rules, dealt.deal, setup["dealer"], timing, actions)


# --- Summaries ---------------------------------------------------------------------------------------


def percentile(values: Sequence[int], p: float) -> int | None:
    """The nearest-rank ``p``-th percentile (the smallest value with at least p % at or below it)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def median(values: Sequence[int]) -> float | None:
    return statistics.median(values) if values else None


@dataclass(frozen=True, slots=True)
class Summary:
    """A seat's (or a person's, over games) figures added up."""

    games: int
    wins: int
    reactions: tuple[int, ...]
    chances: int
    won: int
    tied: int
    late: int
    not_called: int
    false_calls: int
    flagged: int

    @property
    def missed(self) -> int:
        return self.late + self.not_called

    @property
    def median_ms(self) -> float | None:
        return median(self.reactions)

    @property
    def p90_ms(self) -> int | None:
        return percentile(self.reactions, 90)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "calls_timed": len(self.reactions),
            "median_reaction_ms": self.median_ms,
            "p90_reaction_ms": self.p90_ms,
            **_chance_counts(self),
        }


def summarise(played: Iterable[tuple[GameStats, int]]) -> Summary:
    """Add up ``(game, seat)`` pairs: one person's seats over their games."""
    games = wins = chances = won = tied = late = not_called = false_calls = flagged = 0
    reactions: list[int] = []
    for game, seat in played:
        s = game.seats[seat]
        games += 1
        wins += game.winner == seat
        reactions.extend(s.reactions)
        chances += s.chances
        won += s.won
        tied += s.tied
        late += s.late
        not_called += s.not_called
        false_calls += s.false_calls
        flagged += s.flagged
    return Summary(games, wins, tuple(reactions), chances, won, tied, late, not_called, false_calls, flagged)
