"""Online timing for Snap (rules/snap.md S32-S38): timestamped presses in, engine inputs out.

The engine (``calls.py``) judges a call on the state its caller saw, but it has no clock. This layer
adds the clock as *input*: every timed input carries ``at``, the server time at which it arrived
(the host reads its clock and writes the value into the input; nothing here reads a clock, S38).
A ``LiveGame`` is a fold over those inputs, so a timed log replays into the identical game.

What the layer does, rule by rule:

- S32: each state the engine produces gets its server time (``shown_at[seq]``); a call carries the
  ``seq`` its player had on screen and the reaction time the player's device measured.
- S33: a call's effective time is ``arrival - lag``, where ``lag = arrival - shown_at[seq] -
  reaction`` is clamped to ``[0, min(max_lag_compensation_ms, rtt + lag_jitter_ms)]`` and ``rtt``
  is the caller's latest measured round trip (a ``RoundTrip`` input; none measured yet counts as 0,
  so an unmeasured client is compensated by at most ``lag_jitter_ms``).
- S34: a call whose claim held on the state its caller saw ("valid") freezes flips. A call is
  decided once every call that could be earlier or tied has had time to arrive: at ``effective +
  tie_window_ms + B``, where ``B`` is the largest compensation bound among active seats (a later
  arrival can be at most ``B`` earlier). Calls within ``tie_window_ms`` of the earliest whose claims
  overlap it become one engine ``Tie``; the rest are decided in effective-time order, each judged
  by the engine on the state it saw (so a call on a claim already taken is late, S15). Then
  ``post_resolution_pause_ms`` of no flips.
- S35: a valid call whose claim was covered by a flip that arrived *after* the call's effective
  time is sent with ``as_they_stand``: it wins the piles as they stand, covering card included.
- S14/S37: a wrong call locks its caller out for ``wrong_call_lockout_ms`` (from its arrival); at
  most one pending call per player and ``max_calls_per_s`` accepted calls in any second; refused
  calls never reach the engine. A reaction under ``review_reaction_ms`` is flagged, never punished.
- S36: a turn's flip missing for ``turn_timeout_ms`` (counted from when the turn began or play
  resumed) is made for the player; with ``reveal_jitter_ms`` a flip takes effect a recorded random
  delay after it arrives, so the flipper cannot time the card's appearance. ``speed`` ticks every
  ``speed_tick_ms``; ``max_game_seconds`` sends the engine's ``CapReached``.

Readings of unclear points (docs/snap-live.md): wrong calls wait in the queue in effective-time
order but do not freeze flips (a spammer must not be able to stall the table); a flip that
arrives while flips are frozen or paused is refused (the client presses again); an input at time
``t`` is handled before the layer's own timers due at the same ``t``. ``recycle_shuffle`` is not
supported in timed play (a timed-out flip would need a chance input nobody sent).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from games.engine.errors import ActionCode, IllegalAction, InvalidAction, InvalidRules
from games.engine.snap.actions import (
    Action,
    Call,
    CallKind,
    CapReached,
    Claim,
    Flip,
    Tick,
    Tie,
)
from games.engine.snap.calls import (
    call_ineligible,
    candidates,
    check_claim_shape,
    claim_holds,
    claim_seats,
    pick_key,
)
from games.engine.snap.events import Event
from games.engine.snap.game import apply, new_game
from games.engine.snap.rules import EmptyFacedown, SnapRules
from games.engine.snap.state import CALL_WINDOW, Deal, SnapState
from games.engine.snap.timed import (
    DEFAULT_TIMING,
    Advance,
    CallQueued,
    CallRefused,
    Decided,
    FlipRefused,
    ReactionFlagged,
    RoundTrip,
    TimedCall,
    TimedFlip,
    TimedInput,
    TimingRules,
    TurnTimedOut,
    timed_input_from_dict,
    timed_input_to_dict,
)
from games.engine.snap.view import PlayerView, TableViews

__all__ = [  # the layer and its vocabulary (timed.py), importable from here
    "DEFAULT_TIMING",
    "Advance",
    "CallQueued",
    "CallRefused",
    "Decided",
    "FlipRefused",
    "LiveGame",
    "ReactionFlagged",
    "RoundTrip",
    "TimedCall",
    "TimedFlip",
    "TimedInput",
    "TimingRules",
    "TurnTimedOut",
    "replay_timed",
    "reveal_delay",
    "timed_input_from_dict",
    "timed_input_to_dict",
]


@dataclass(slots=True)
class _Pending:
    """A call waiting for its decision."""

    arrival: int
    caller: int
    kind: CallKind
    claim: Claim | None
    seq: int
    sound: int | None
    effective: int
    valid: bool


# Which timer fires first when several are due at the same moment.
_DECIDE, _CAP, _DELAYED_FLIP, _TICK, _TIMEOUT = range(5)
_NEVER = 1 << 62


class LiveGame:
    """One Snap game played in (injected) real time.

    ``feed(input)`` takes timed inputs in non-decreasing ``at`` order and returns the stamped
    events they caused, ``(time, event)``, engine events included. Public read-only attributes:
    ``state`` (the engine state), ``now``, ``shown_at`` (server time of each seq), ``log`` (every
    input fed, the timed log: ``replay_timed`` rebuilds the identical game from it),
    ``engine_log`` (the engine inputs produced, with their times: ``game.replay`` of them gives
    the same final state), ``events`` (everything stamped so far), ``resume_at``, ``frozen``
    (S34: a valid call is waiting for its decision, so no flip may happen).

    Mutable by design (a server feeds it one input at a time); it reads no clock and draws no
    random number.
    """

    def __init__(
        self,
        rules: SnapRules,
        deal: Deal,
        dealer: int,
        timing: TimingRules = DEFAULT_TIMING,
        start_ms: int = 0,
    ) -> None:
        """Deal the game at server time ``start_ms``. Raises InvalidRules, IllegalAction as
        ``new_game`` does, and InvalidRules for bad timing numbers or ``recycle_shuffle``."""
        problems = timing.errors()
        if rules.empty_facedown is EmptyFacedown.RECYCLE_SHUFFLE and not rules.single_pile:
            problems.append("timed play does not support recycle_shuffle (a timed-out flip has no order)")
        if problems:
            raise InvalidRules(problems)
        self.rules = rules
        self.timing = timing
        self.deal = deal
        self.dealer = dealer
        self.start_ms = start_ms
        self.state: SnapState = new_game(rules, deal, dealer)
        n = self.state.n
        self.shown_at: list[int] = [start_ms]
        self._cause: list[str] = ["deal"]
        self.now = start_ms
        self.rtt: list[int | None] = [None] * n
        self._lockout_until = [-_NEVER] * n
        self._recent: list[deque[int]] = [deque() for _ in range(n)]
        self._pending: list[_Pending] = []
        self.frozen = False  # S34: a valid call is waiting for its decision, so no flip may happen
        self.resume_at = start_ms
        self._turn_since = start_ms
        self._delayed_flip: tuple[int, int] | None = None  # (due, seat)
        self._next_tick = start_ms + rules.speed_tick_ms
        self._cap_at = start_ms + rules.max_game_seconds * 1000
        self._rtt_version = 0
        self._widest_key: tuple[object, ...] = ()
        self._widest = 0
        self._timer: tuple[int, int] | None = None
        self.log: list[TimedInput] = []
        self.engine_log: list[tuple[int, Action]] = []
        self.events: list[tuple[int, Event]] = []
        self._out: list[tuple[int, Event]] = []
        self._views = TableViews()
        self._flip_of = [Flip(seat) for seat in range(n)]  # a value: one per seat serves every flip
        self._speed = rules.speed
        self._turn_timeout = timing.turn_timeout_ms
        self._timer = self._next_timer()

    # Reading -----------------------------------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """``observe`` of the current state: all a seat (or spectator) may see."""
        return self._views.observe(self.state, seat)

    def bound(self, seat: int) -> int:
        """S33: the most lag ``seat``'s calls can be compensated for now."""
        rtt = self.rtt[seat]
        return min(self.timing.max_lag_compensation_ms, (rtt or 0) + self.timing.lag_jitter_ms)

    def effective_time(self, call: TimedCall) -> int:
        """S33: ``call``'s effective time (its ``seq`` must be a state of this game)."""
        lag = call.at - self.shown_at[call.seq] - call.reaction_ms
        return call.at - max(0, min(lag, self.bound(call.caller)))

    def next_due(self) -> int | None:
        """When the layer's next own timer fires (None: nothing will happen without an input)."""
        return None if self._timer is None else self._timer[0]

    # Feeding -----------------------------------------------------------------------------------

    def feed(self, inp: TimedInput) -> list[tuple[int, Event]]:
        """Handle one timed input and the timers due up to its time; return the stamped events.

        Raises IllegalAction ("time_backwards", "not_turn_based") and InvalidAction ("malformed",
        "no_such_seat", "no_such_state") without changing anything, so a rejected input is simply not logged.
        """
        self._check(inp)
        at = inp.at
        self._out = []
        timer = self._timer
        if timer is not None and timer[0] < at:
            self._run_timers(at, inclusive=False)
        self.now = at
        self.log.append(inp)
        if type(inp) is TimedFlip:
            self._on_flip(inp)
        elif type(inp) is TimedCall:
            self._on_call(inp)
        elif type(inp) is RoundTrip:
            self.rtt[inp.seat] = inp.rtt_ms
            self._rtt_version += 1
        timer = self._timer = self._next_timer()
        if timer is not None and timer[0] <= at:
            self._run_timers(at, inclusive=True)
        self.events.extend(self._out)
        return self._out

    def _check(self, inp: TimedInput) -> None:
        if inp.at < self.now:
            raise IllegalAction(ActionCode.TIME_BACKWARDS, f"input at {inp.at} after {self.now}")
        n = self.state.n
        if type(inp) is TimedFlip:  # the most frequent input first
            if not 0 <= inp.seat < n:
                raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"seat {inp.seat}")
            if self.rules.speed:
                raise IllegalAction(ActionCode.NOT_TURN_BASED, "speed: flips come from the tick")
            if not 0 <= inp.reveal_delay_ms <= self.timing.reveal_jitter_ms:
                raise InvalidAction(
                    ActionCode.MALFORMED, f"reveal delay {inp.reveal_delay_ms} out of range (S36)"
                )
        elif isinstance(inp, TimedCall):
            if not 0 <= inp.caller < n:
                raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"caller {inp.caller}")
            if not 0 <= inp.seq <= self.state.seq:
                raise InvalidAction(ActionCode.NO_SUCH_STATE, f"no state {inp.seq} (now {self.state.seq})")
            if inp.reaction_ms < 0:
                raise InvalidAction(ActionCode.MALFORMED, "a reaction time cannot be negative")
            if inp.sound is not None and not 0 <= inp.sound < n:
                raise InvalidAction(ActionCode.MALFORMED, f"sound of seat {inp.sound}")
            check_claim_shape(self.state, inp.kind, inp.claim)
        elif isinstance(inp, RoundTrip) and (not 0 <= inp.seat < n or inp.rtt_ms < 0):
            raise InvalidAction(ActionCode.MALFORMED, f"round trip {inp!r}")

    # Calls -------------------------------------------------------------------------------------

    def _on_call(self, call: TimedCall) -> None:
        t = call.at
        caller = call.caller
        state = self.state
        refusal = None
        recent = self._recent[caller]
        while recent and recent[0] <= t - 1000:
            recent.popleft()
        if state.result is not None:
            refusal = "game_over"
        elif not state.active[caller]:
            refusal = "not_active"
        elif state.seq - call.seq > CALL_WINDOW:
            refusal = "stale"  # older than the engine's call window: it could judge it no more
        elif t < self._lockout_until[caller]:
            refusal = "locked_out"  # S14
        elif any(p.caller == caller for p in self._pending):
            refusal = "pending_call"  # S37: at most one pending call
        elif len(recent) >= self.timing.max_calls_per_s:
            refusal = "rate_limited"  # S37
        if refusal is not None:
            self._emit(CallRefused(t, caller, refusal))
            return
        recent.append(t)
        if call.reaction_ms < self.timing.review_reaction_ms:
            self._emit(ReactionFlagged(t, caller, call.reaction_ms))  # S37: review, no penalty
        if call_ineligible(state, caller, call.claim, call.kind) is not None:
            # S16/S31: ignored by the engine without effect; nothing to wait for.
            self._to_engine(t, Call(caller, call.kind, call.claim, call.seq, call.sound), "call")
            return
        seen = self._seen(call.seq)
        valid = self._holds_on_seen(seen, call)
        if not valid:
            self._lockout_until[caller] = t + self.rules.wrong_call_lockout_ms  # S14
        effective = self.effective_time(call)
        pending = _Pending(t, caller, call.kind, call.claim, call.seq, call.sound, effective, valid)
        self._pending.append(pending)
        self.frozen = self.frozen or valid
        self._emit(CallQueued(t, caller, call.seq, effective, valid, self._decide_at(pending)))

    def _holds_on_seen(self, seen: SnapState, call: TimedCall) -> bool:
        if call.sound not in (None, call.caller):
            return False  # animal: another player's sound is a wrong call
        if call.claim is None:
            return bool(candidates(seen, call.caller, call.kind))
        return claim_holds(seen, call.claim)

    def _seen(self, seq: int) -> SnapState:
        """The table a call on ``seq`` saw (within the engine's call window)."""
        seen = self.state.at_seq(seq)
        assert seen is not None, "calls older than the call window are refused before this"
        return seen

    def _decide_at(self, pending: _Pending) -> int:
        return pending.effective + self.timing.tie_window_ms + self._widest_bound()

    def _widest_bound(self) -> int:
        """The largest compensation any active seat gets: how much earlier a call still to arrive
        can be (cached: it changes only with a round trip or an elimination)."""
        key = (self.state.active, self._rtt_version)
        if key != self._widest_key:
            self._widest_key = key
            active = self.state.active
            self._widest = max((self.bound(s) for s in range(self.state.n) if active[s]), default=0)
        return self._widest

    def _decide(self, at: int) -> None:
        """S34/S35: decide every pending call whose window has closed, earliest first."""
        tie_window = self.timing.tie_window_ms
        seq_before = self.state.seq
        decided_valid = False
        while self._pending:
            if self.state.result is not None:
                for p in self._pending:
                    self._emit(CallRefused(at, p.caller, "game_over"))
                self._pending.clear()
                break
            if len(self._pending) > 1:
                self._pending.sort(key=lambda p: (p.effective, p.arrival, p.caller))
            first = self._pending[0]
            if self.state.seq - first.seq > CALL_WINDOW:
                # The table moved on more than the engine's call window while it waited.
                del self._pending[0]
                self._emit(CallRefused(at, first.caller, "stale"))
                continue
            if self._decide_at(first) > at:
                break
            if not first.valid:
                del self._pending[0]
                self._to_engine(
                    at, Call(first.caller, first.kind, first.claim, first.seq, first.sound), "call"
                )
                continue
            decided_valid = True
            now_seq = self.state.seq
            window = [
                p
                for p in self._pending
                if p.valid and p.effective <= first.effective + tie_window and now_seq - p.seq <= CALL_WINDOW
            ]
            resolved = {id(p): self._resolve(p) for p in window}
            claim, flag = resolved[id(first)]
            if claim is None:
                # Nothing the call claims can still be won: the engine answers "late" (S15).
                self._pending.remove(first)
                self._emit(Decided(at, (first.caller,), False, False))
                self._to_engine(
                    at, Call(first.caller, first.kind, first.claim, first.seq, first.sound), "call"
                )
                continue
            group = self._tie_group((first, claim, flag), window, resolved)
            for p, _claim, _flag in group:
                self._pending.remove(p)
            self._decide_group(at, group)
        self.frozen = any(p.valid for p in self._pending)
        if decided_valid and self.state.seq != seq_before:
            # S34: a pause after a decision that changed the table (late calls change nothing).
            self.resume_at = at + self.timing.post_resolution_pause_ms

    def _resolve(self, p: _Pending) -> tuple[Claim | None, bool]:
        """The claim ``p`` is decided on and whether it is won as it stands (S35).

        A bare call gets the engine's pick (S26) among the claims it saw that can still be won.
        None when nothing it claims can be won any more: the call is late (S15) and ties with
        nobody; the engine is told on its own.
        """
        seen = self._seen(p.seq)
        state = self.state
        options = [p.claim] if p.claim is not None else candidates(seen, p.caller, p.kind)
        standing: list[tuple[Claim, bool]] = []
        for claim in options:
            if claim_holds(state, claim):
                standing.append((claim, False))
            elif self._covered_after(p, claim):
                standing.append((claim, True))
        if not standing:
            return None, False
        if len(standing) == 1:
            return standing[0]
        claim, flag = min(standing, key=lambda cf: pick_key(state, p.caller, cf[0]))
        return claim, flag

    def _covered_after(self, p: _Pending, claim: Claim) -> bool:
        """S35: the first state after ``p.seq`` on which ``claim`` stopped holding came from a flip
        that arrived after ``p``'s effective time (the engine checks the piles changed by flips
        only)."""
        for seq in range(p.seq + 1, self.state.seq + 1):
            if not claim_holds(self._seen(seq), claim):
                return self._cause[seq] in ("flip", "timeout", "tick") and p.effective < self.shown_at[seq]
        return False

    def _tie_group(
        self,
        first: tuple[_Pending, Claim, bool],
        window: list[_Pending],
        resolved: dict[int, tuple[Claim | None, bool]],
    ) -> list[tuple[_Pending, Claim, bool]]:
        """S13/S34: the calls in the tie window whose claims overlap ``first``'s, transitively."""
        group = [first]
        if len(window) == 1:
            return group  # ``first`` alone in its window (the usual case)
        members = {id(first[0])}
        used = _parts(first[1])
        grew = True
        while grew:
            grew = False
            for p in window:
                claim, flag = resolved[id(p)]
                if id(p) in members or claim is None or not used & _parts(claim):
                    continue
                group.append((p, claim, flag))
                members.add(id(p))
                used |= _parts(claim)
                grew = True
        return group

    def _decide_group(self, at: int, group: list[tuple[_Pending, Claim, bool]]) -> None:
        """One engine input for a group: a ``Call`` for one caller, else a ``Tie`` judged on one
        seq: the members' seq on which most of their claims held (the latest on equal counts). A
        member whose claim did not hold there is decided on its own afterwards (its piles have
        moved by then, so the engine calls it late)."""
        if len(group) == 1:  # one caller: a plain call (the usual case)
            p, claim, flag = group[0]
            self._emit(Decided(at, (p.caller,), False, flag))
            self._to_engine(at, Call(p.caller, p.kind, claim, p.seq, p.sound, flag), "call")
            return
        tie_seq = max(
            {p.seq for p, _c, _f in group},
            key=lambda s: (sum(claim_holds(self._seen(s), c) for _p, c, _f in group), s),
        )
        seen = self._seen(tie_seq)
        members = [m for m in group if len(group) == 1 or claim_holds(seen, m[1])]
        rest = [m for m in group if m not in members]
        flag = any(f for _p, _c, f in members)
        self._emit(Decided(at, tuple(p.caller for p, _c, _f in members), len(members) > 1, flag))
        if len(members) == 1:
            p, claim, flag = members[0]
            self._to_engine(at, Call(p.caller, p.kind, claim, p.seq, p.sound, flag), "call")
        else:
            entries = tuple((p.caller, claim) for p, claim, _f in members)
            self._to_engine(at, Tie(tie_seq, entries, flag), "call")
        for p, _claim, _flag in rest:
            if self.state.seq - p.seq > CALL_WINDOW:
                self._emit(CallRefused(at, p.caller, "stale"))  # the tie moved the table on
            else:
                self._to_engine(at, Call(p.caller, p.kind, p.claim, p.seq, p.sound), "call")

    # Flips and timers --------------------------------------------------------------------------

    def _flip_refusal(self, seat: int, at: int) -> str | None:
        if self.state.result is not None:
            return "game_over"
        if self.state.turn != seat:
            return "not_your_turn"
        if self.frozen:
            return "frozen"  # S34
        if at < self.resume_at:
            return "paused"  # S34
        if self._delayed_flip is not None:
            return "flip_pending"
        return None

    def _on_flip(self, flip: TimedFlip) -> None:
        state = self.state
        if (
            state.turn == flip.seat
            and not self.frozen
            and flip.at >= self.resume_at
            and self._delayed_flip is None
            and state.result is None
        ):  # the usual case, checked at once; _flip_refusal names the reason otherwise
            if flip.reveal_delay_ms:
                self._delayed_flip = (flip.at + flip.reveal_delay_ms, flip.seat)  # S36
            else:
                self._to_engine(flip.at, self._flip_of[flip.seat], "flip")
        else:
            refusal = self._flip_refusal(flip.seat, flip.at)
            assert refusal is not None
            self._emit(FlipRefused(flip.at, flip.seat, refusal))

    def _next_timer(self) -> tuple[int, int] | None:
        """``(due, kind)`` of the earliest timer, or None (a hot path: kept lean)."""
        state = self.state
        if state.result is not None:
            return None
        due, kind = _NEVER, _DECIDE
        if self._pending:
            # _decide_at of the earliest call: every call waits the same window after its time.
            earliest = min([p.effective for p in self._pending])
            due = earliest + self.timing.tie_window_ms + self._widest_bound()
        if state.cap_seat is None and self._cap_at < due:
            due, kind = self._cap_at, _CAP
        if not self.frozen:
            resume_at = self.resume_at
            if self._delayed_flip is not None:
                flip_due, flip_kind = max(self._delayed_flip[0], resume_at), _DELAYED_FLIP
            elif self._speed:
                flip_due, flip_kind = max(self._next_tick, resume_at), _TICK
            else:
                since = self._turn_since
                flip_due = (since if since > resume_at else resume_at) + self._turn_timeout
                flip_kind = _TIMEOUT
            if flip_due < due or (flip_due == due and flip_kind < kind):
                due, kind = flip_due, flip_kind
        if due >= _NEVER:
            return None
        # Never before now: a deadline can move into the past (a lower round trip measured after
        # a call was queued; a delayed flip held by a freeze that ended without a pause). The
        # timer then fires as soon as that is known.
        return (due, kind) if due >= self.now else (self.now, kind)

    def _run_timers(self, until: int, inclusive: bool) -> None:
        """Fire the timers due before ``until`` (or at it, when ``inclusive``). ``self._timer``
        is the next timer, kept current: everything a timer depends on changes only in here or
        in the input handlers, after which ``feed`` recomputes it."""
        while True:
            timer = self._timer
            if timer is None or timer[0] > until or (timer[0] == until and not inclusive):
                return
            at, kind = timer
            self.now = at
            if kind == _DECIDE:
                self._decide(at)
            elif kind == _CAP:
                self._cap_at = _NEVER
                self._to_engine(at, CapReached(), "cap")
            elif kind == _DELAYED_FLIP:
                assert self._delayed_flip is not None
                seat = self._delayed_flip[1]
                self._delayed_flip = None
                if self.state.turn == seat:
                    self._to_engine(at, Flip(seat), "flip")
                else:
                    self._emit(FlipRefused(at, seat, "turn_changed"))
            elif kind == _TICK:
                self._next_tick = at + self.rules.speed_tick_ms
                self._to_engine(at, Tick(), "tick")
            else:
                on_turn = self.state.turn
                assert on_turn is not None
                self._emit(TurnTimedOut(at, on_turn))  # S36
                self._to_engine(at, Flip(on_turn), "timeout")
            self._timer = self._next_timer()

    # Plumbing ----------------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._out.append((self.now, event))

    def _to_engine(self, at: int, action: Action, cause: str) -> None:
        before = self.state
        state, events = apply(before, action)
        self.engine_log.append((at, action))
        out = self._out
        for event in events:
            out.append((at, event))
        if state is not before:
            self.state = state
            self.shown_at.append(at)
            self._cause.append(cause)
            if cause in ("flip", "timeout") or state.turn != before.turn:
                self._turn_since = at  # S36: a turn's timer starts when the turn begins


def _parts(claim: Claim | None) -> set[tuple[str, int]]:
    """The piles and pools a claim names (overlap = a shared part, S13)."""
    if claim is None:
        return set()
    parts = {("seat", s) for s in claim_seats(claim)}
    pool = getattr(claim, "pool", None)
    if pool is not None:
        parts.add(("pool", pool))
    if not parts:
        parts.add(("central", 0))
    return parts


def replay_timed(
    rules: SnapRules,
    deal: Deal,
    dealer: int,
    log: list[TimedInput],
    *,
    timing: TimingRules = DEFAULT_TIMING,
    start_ms: int = 0,
) -> LiveGame:
    """S38: rebuild a game from its timed log; it is identical to the one that made the log."""
    game = LiveGame(rules, deal, dealer, timing, start_ms)
    for inp in log:
        game.feed(inp)
    return game


def reveal_delay(rng_value: float, timing: TimingRules) -> int:
    """S36: a reveal delay in ``[0, reveal_jitter_ms]`` from a uniform ``rng_value`` in [0, 1)
    that the server draws (and records in the ``TimedFlip``)."""
    return min(timing.reveal_jitter_ms, int(rng_value * (timing.reveal_jitter_ms + 1)))
