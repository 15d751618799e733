"""The timing layer's vocabulary (rules/snap.md S32-S38): its numbers (``TimingRules``), the timed
inputs a server records (``TimedFlip``, ``TimedCall``, ``RoundTrip``, ``Advance``) and the events the
layer adds to the engine's. The layer itself is ``timing.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from games.engine.errors import ActionCode, InvalidAction
from games.engine.snap.actions import CallKind, Claim, claim_from_dict, claim_to_dict
from games.engine.snap.events import Event

# --------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, slots=True)
class TimingRules:
    """The S32-S38 numbers (defaults from rules/snap.md). The S14 lockout, the speed tick and the
    online time cap are ``SnapRules`` fields and are read from there."""

    max_lag_compensation_ms: int = 300  # S33 (casual play may raise it to 500)
    lag_jitter_ms: int = 50  # S33
    tie_window_ms: int = 30  # S34: keep it small, it changes the game
    post_resolution_pause_ms: int = 600  # S34
    turn_timeout_ms: int = 3000  # S36
    reveal_jitter_ms: int = 0  # S36: 0 = off
    max_calls_per_s: int = 4  # S37
    review_reaction_ms: int = 100  # S37: faster reactions are flagged for review

    def errors(self) -> list[str]:
        """What is wrong with these numbers (empty when playable)."""
        found = []
        if min(self.max_lag_compensation_ms, self.lag_jitter_ms, self.tie_window_ms) < 0:
            found.append("lag compensation, jitter and tie window cannot be negative (S33, S34)")
        if self.post_resolution_pause_ms < 0 or self.reveal_jitter_ms < 0 or self.review_reaction_ms < 0:
            found.append("pause, reveal jitter and review threshold cannot be negative (S34, S36, S37)")
        if self.turn_timeout_ms < 1 or self.max_calls_per_s < 1:
            found.append("turn_timeout_ms and max_calls_per_s must be at least 1 (S36, S37)")
        return found


DEFAULT_TIMING: Final = TimingRules()


# --------------------------------------------------------------------------------------------
# Timed inputs (what the server records, S38)


@dataclass(frozen=True, slots=True)
class TimedFlip:
    """``seat`` pressed flip; it arrived at server time ``at``. ``reveal_delay_ms`` (S36) is the
    server's recorded random delay before the flip takes effect, in ``[0, reveal_jitter_ms]``."""

    at: int
    seat: int
    reveal_delay_ms: int = 0


@dataclass(frozen=True, slots=True)
class TimedCall:
    """A call that arrived at ``at``: the engine call's fields plus the caller's own measured
    ``reaction_ms`` from the frame that showed state ``seq`` to the press (S32)."""

    at: int
    caller: int
    kind: CallKind
    claim: Claim | None
    seq: int
    reaction_ms: int
    sound: int | None = None


@dataclass(frozen=True, slots=True)
class RoundTrip:
    """S33: the server measured ``seat``'s connection round trip as ``rtt_ms``."""

    at: int
    seat: int
    rtt_ms: int


@dataclass(frozen=True, slots=True)
class Advance:
    """Time passed to ``at`` (a server timer fired): runs the layer's own due timers."""

    at: int


TimedInput = TimedFlip | TimedCall | RoundTrip | Advance


def timed_input_to_dict(inp: TimedInput) -> dict[str, Any]:
    """JSON-friendly form of a timed input (one line of the timed log)."""
    match inp:
        case TimedFlip(at, seat, delay):
            return {"type": "flip", "at": at, "seat": seat, "reveal_delay_ms": delay}
        case TimedCall(at, caller, kind, claim, seq, reaction, sound):
            return {
                "type": "call",
                "at": at,
                "caller": caller,
                "kind": str(kind),
                "claim": claim_to_dict(claim),
                "seq": seq,
                "reaction_ms": reaction,
                "sound": sound,
            }
        case RoundTrip(at, seat, rtt):
            return {"type": "rtt", "at": at, "seat": seat, "rtt_ms": rtt}
        case Advance(at):
            return {"type": "advance", "at": at}
    raise AssertionError(inp)  # pragma: no cover


def timed_input_from_dict(data: dict[str, Any]) -> TimedInput:
    """Inverse of ``timed_input_to_dict``. Raises InvalidAction("malformed")."""
    try:
        match data["type"]:
            case "flip":
                return TimedFlip(int(data["at"]), int(data["seat"]), int(data.get("reveal_delay_ms", 0)))
            case "call":
                sound = data.get("sound")
                return TimedCall(
                    int(data["at"]),
                    int(data["caller"]),
                    CallKind(data["kind"]),
                    claim_from_dict(data.get("claim")),
                    int(data["seq"]),
                    int(data["reaction_ms"]),
                    None if sound is None else int(sound),
                )
            case "rtt":
                return RoundTrip(int(data["at"]), int(data["seat"]), int(data["rtt_ms"]))
            case "advance":
                return Advance(int(data["at"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidAction(ActionCode.MALFORMED, f"timed input {data!r}") from exc
    raise InvalidAction(ActionCode.MALFORMED, f"timed input {data!r}")


# --------------------------------------------------------------------------------------------
# The layer's own events (engine events pass through unchanged)


@dataclass(slots=True)
class CallQueued(Event):
    """S33/S34: a call was accepted and waits for its decision at ``decide_at``."""

    type: ClassVar[str] = "call_queued"
    at: int
    caller: int
    seq: int
    effective: int
    valid: bool  # its claim held on the state it saw: flips are frozen until it is decided
    decide_at: int


@dataclass(slots=True)
class CallRefused(Event):
    """S14/S37 (and a finished game): a call that never reached the engine.

    ``reason``: locked_out | pending_call | rate_limited | not_active | game_over | stale (the
    call answers a state older than the engine's call window, ``CALL_WINDOW`` states).
    """

    type: ClassVar[str] = "call_refused"
    at: int
    caller: int
    reason: str


@dataclass(slots=True)
class ReactionFlagged(Event):
    """S37: a reaction faster than ``review_reaction_ms``, recorded for review, never punished."""

    type: ClassVar[str] = "reaction_flagged"
    at: int
    caller: int
    reaction_ms: int


@dataclass(slots=True)
class FlipRefused(Event):
    """A flip press without effect. ``reason``: not_your_turn | frozen | paused | flip_pending |
    turn_changed (a delayed flip whose seat lost the turn) | game_over."""

    type: ClassVar[str] = "flip_refused"
    at: int
    seat: int
    reason: str


@dataclass(slots=True)
class TurnTimedOut(Event):
    """S36: ``seat`` did not flip for ``turn_timeout_ms``; the flip is made for it."""

    type: ClassVar[str] = "turn_timeout"
    at: int
    seat: int


@dataclass(slots=True)
class Decided(Event):
    """S34/S35: the engine input a decision produced (as a dict) and whether a tie window or the
    S35 rule shaped it."""

    type: ClassVar[str] = "decided"
    at: int
    callers: tuple[int, ...]
    tie: bool
    as_they_stand: bool
