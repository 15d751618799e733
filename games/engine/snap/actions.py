"""Snap inputs: flips, ticks, calls, ties and the time cap. All are frozen, hashable values.

A call carries its kind, its claim (or ``None``: the engine picks, S26) and the ``seq`` of the
state its caller saw; it is judged on that state (S14, S15). A tie is an explicit list of
``(caller, claim)`` pairs that cannot be told apart (S13). The online timing layer (S32-S38) turns
timestamped presses into these inputs; the engine never reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.engine.errors import ActionCode, InvalidAction


class CallKind(StrEnum):
    """S26: a bare "Snap!" claims only pairs of personal piles, "Snap pool!" only a pool with a
    personal pile; "Slap!" (slapjack, S31) a Jack on a face-up pile."""

    SNAP = "snap"
    SNAP_POOL = "snap_pool"
    SLAP = "slap"


@dataclass(frozen=True, slots=True, order=True)
class PairClaim:
    """S11: two seats' face-up piles. Construct with ``PairClaim.of(a, b)`` to normalise a < b."""

    a: int
    b: int

    @staticmethod
    def of(a: int, b: int) -> PairClaim:
        return PairClaim(min(a, b), max(a, b))


@dataclass(frozen=True, slots=True, order=True)
class PoolClaim:
    """S12: the pool with stable id ``pool`` and ``seat``'s face-up pile."""

    pool: int
    seat: int


@dataclass(frozen=True, slots=True, order=True)
class SlapClaim:
    """S31: ``seat``'s face-up pile, topped by a Jack."""

    seat: int


@dataclass(frozen=True, slots=True, order=True)
class CentralClaim:
    """single_pile: the central pile's top matches the card just below."""


Claim = PairClaim | PoolClaim | SlapClaim | CentralClaim


@dataclass(frozen=True, slots=True)
class Flip:
    """S8: ``seat`` flips (turn-based play). ``order`` is the chance input of ``recycle_shuffle``
    (S9, S22): the new face-down pile, top first, required exactly when the seat must recycle."""

    seat: int
    order: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Tick:
    """speed: every active player flips at once. ``orders`` holds ``(seat, new face-down order)``
    for each seat that must recycle under ``recycle_shuffle``."""

    orders: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Call:
    """A call by ``caller`` who saw the state numbered ``seq``.

    ``claim`` None lets the engine pick (S26). ``sound`` is the animal sound used (variant
    ``animal``: the seat whose sound it is; None means the caller's own). ``as_they_stand`` (S35,
    set only by the timing layer): the call was earlier than the flips that covered its claim, so
    a claim that held on the seen state and whose piles were since changed only by flips is won
    with the piles as they stand, covering cards included.
    """

    caller: int
    kind: CallKind
    claim: Claim | None
    seq: int
    sound: int | None = None
    as_they_stand: bool = False


@dataclass(frozen=True, slots=True)
class Tie:
    """S13: calls that cannot be told apart, as ``(caller, claim)`` pairs judged on state ``seq``.

    Each caller appears once; the claim's shape gives its kind. ``as_they_stand``: as for
    ``Call`` (S35), for every entry.
    """

    seq: int
    entries: tuple[tuple[int, Claim], ...]
    as_they_stand: bool = False


@dataclass(frozen=True, slots=True)
class CapReached:
    """S20.3 online cap (``max_game_seconds``): start counting ``extra_rounds`` from the seat that
    flipped last, as if that flip had been flip number ``max_flips``."""


Action = Flip | Tick | Call | Tie | CapReached


def claim_to_dict(claim: Claim | None) -> dict[str, Any] | None:
    """JSON-friendly form of a claim."""
    match claim:
        case None:
            return None
        case PairClaim(a, b):
            return {"type": "pair", "a": a, "b": b}
        case PoolClaim(pool, seat):
            return {"type": "pool", "pool": pool, "seat": seat}
        case SlapClaim(seat):
            return {"type": "slap", "seat": seat}
        case CentralClaim():
            return {"type": "central"}
    raise AssertionError(claim)  # pragma: no cover


def claim_from_dict(data: dict[str, Any] | None) -> Claim | None:
    """Inverse of ``claim_to_dict``. Raises InvalidAction("malformed") on a bad shape."""
    if data is None:
        return None
    try:
        match data["type"]:
            case "pair":
                return PairClaim.of(int(data["a"]), int(data["b"]))
            case "pool":
                return PoolClaim(int(data["pool"]), int(data["seat"]))
            case "slap":
                return SlapClaim(int(data["seat"]))
            case "central":
                return CentralClaim()
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidAction(ActionCode.MALFORMED, f"claim {data!r}") from exc
    raise InvalidAction(ActionCode.MALFORMED, f"claim {data!r}")


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON-friendly form of an input (for logs, golden files and the web layer)."""
    match action:
        case Flip(seat, order):
            return {"type": "flip", "seat": seat, "order": None if order is None else list(order)}
        case Tick(orders):
            return {"type": "tick", "orders": [[seat, list(order)] for seat, order in orders]}
        case Call(caller, kind, claim, seq, sound, as_they_stand):
            data: dict[str, Any] = {
                "type": "call",
                "caller": caller,
                "kind": str(kind),
                "claim": claim_to_dict(claim),
                "seq": seq,
                "sound": sound,
            }
            if as_they_stand:
                data["as_they_stand"] = True  # only when set: older logs stay byte-identical
            return data
        case Tie(seq, entries, as_they_stand):
            data = {"type": "tie", "seq": seq, "entries": [[c, claim_to_dict(cl)] for c, cl in entries]}
            if as_they_stand:
                data["as_they_stand"] = True
            return data
        case CapReached():
            return {"type": "cap_reached"}
    raise AssertionError(action)  # pragma: no cover


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of ``action_to_dict``. Raises InvalidAction("malformed")."""
    try:
        match data["type"]:
            case "flip":
                order = data.get("order")
                return Flip(int(data["seat"]), None if order is None else tuple(order))
            case "tick":
                return Tick(tuple((int(s), tuple(o)) for s, o in data.get("orders", [])))
            case "call":
                sound = data.get("sound")
                return Call(
                    int(data["caller"]),
                    CallKind(data["kind"]),
                    claim_from_dict(data.get("claim")),
                    int(data["seq"]),
                    None if sound is None else int(sound),
                    bool(data.get("as_they_stand", False)),
                )
            case "tie":
                entries = []
                for caller, claim in data["entries"]:
                    parsed = claim_from_dict(claim)
                    if parsed is None:
                        raise InvalidAction(ActionCode.MALFORMED, "a tie entry needs a claim")
                    entries.append((int(caller), parsed))
                return Tie(int(data["seq"]), tuple(entries), bool(data.get("as_they_stand", False)))
            case "cap_reached":
                return CapReached()
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidAction(ActionCode.MALFORMED, f"input {data!r}") from exc
    raise InvalidAction(ActionCode.MALFORMED, f"input {data!r}")
