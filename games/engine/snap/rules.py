"""Snap rules: one frozen options object, defaults = profile ``classic`` (rules/snap.md).

Every option of rules/snap.md outside the online timing (S32-S38) is a field here, and every
variant of the variants table is a boolean switch. ``validate`` refuses combinations that cannot
be played and warns about legal but odd ones.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from games.engine.errors import InvalidRules
from games.engine.snap.decks import DECKS


class MatchKey(StrEnum):
    """S2: what two cards must share to match."""

    RANK = "rank"  # default: 7♠ matches 7♥
    EXACT_CARD = "exact_card"  # needs double104: 7♠ matches only the other 7♠
    PICTURE_ID = "picture_id"  # needs a picture deck: the identical picture


class PoolMode(StrEnum):
    """S6: pools never merge by themselves (``separate``), or the centre is one pile (``single``)."""

    SEPARATE = "separate"
    SINGLE = "single"


class EmptyFacedown(StrEnum):
    """S9: what a player on turn with no face-down cards does."""

    RECYCLE = "recycle"  # turn the face-up pile over, no shuffle, and flip
    RECYCLE_SHUFFLE = "recycle_shuffle"  # the same, the new order a recorded chance input (S22)
    FEED_POOL = "feed_pool"  # the face-up pile becomes a new pool and the player is out


class PoolCall(StrEnum):
    """S12: who may call Snap pool and what they win."""

    FIRST_CALLER_TAKES_POOL_AND_PILE = "first_caller_takes_pool_and_pile"  # seed 003 (default)
    FLIPPER_TAKES_POOL = "flipper_takes_pool"  # seeds 000/001: only the matching pile's owner


@dataclass(frozen=True, slots=True)
class SnapRules:
    """The options of one Snap game. Defaults are the profile ``classic``.

    Timing fields (``wrong_call_lockout_ms``, ``max_game_seconds``, ``speed_tick_ms``) are carried
    for the online layer; the engine itself never reads a clock (the time cap arrives as a
    ``CapReached`` input).
    """

    deck: str = "standard52"  # S2: standard52 | double104 | a picture deck's name
    match_key: MatchKey = MatchKey.RANK  # S2
    pool_mode: PoolMode = PoolMode.SEPARATE  # S6
    empty_facedown: EmptyFacedown = EmptyFacedown.RECYCLE  # S9
    pool_call: PoolCall = PoolCall.FIRST_CALLER_TAKES_POOL_AND_PILE  # S12
    flipper_may_call: bool = True  # S16
    wrong_call_lockout_ms: int = 1000  # S14 (enforced by the timing layer)
    max_flips: int = 1000  # S20/S30 cap
    max_game_seconds: int = 720  # S20 online cap (the timing layer sends CapReached)
    extra_rounds: int = 3  # S30
    # Variants (the variants table): each a switch.
    picture: bool = False
    speed: bool = False
    speed_tick_ms: int = 1500
    double: bool = False
    single_pile: bool = False
    slapjack: bool = False
    silent: bool = False
    animal: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (enums as their string values)."""
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SnapRules:
        """Inverse of ``to_dict``; missing keys take their defaults. Raises InvalidRules."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules([f"unknown option {name!r}" for name in unknown])
        converters: dict[str, Any] = {
            "match_key": MatchKey,
            "pool_mode": PoolMode,
            "empty_facedown": EmptyFacedown,
            "pool_call": PoolCall,
        }
        try:
            values = {k: converters[k](v) if k in converters else v for k, v in data.items()}
        except ValueError as exc:
            raise InvalidRules([str(exc)]) from exc
        return cls(**values)


PROFILES: dict[str, SnapRules] = {"classic": SnapRules()}

MIN_PLAYERS = 2  # S1
MAX_PLAYERS = 6  # S1


def validate(rules: SnapRules, players: int) -> tuple[list[str], list[str]]:
    """Check ``rules`` for a table of ``players``; return ``(errors, warnings)``.

    Errors are combinations the engine refuses (``new_game`` raises InvalidRules on them);
    warnings are playable but probably unintended.
    """
    errors: list[str] = []
    warnings: list[str] = []
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        errors.append(f"Snap is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (S1)")
    deck = DECKS.get(rules.deck)
    if deck is None:
        errors.append(f"unknown deck {rules.deck!r}")
    else:
        if rules.match_key is MatchKey.EXACT_CARD and rules.deck != "double104":
            errors.append("match_key exact_card needs deck double104 (S2)")
        if rules.match_key is MatchKey.PICTURE_ID and not deck.is_picture:
            errors.append("match_key picture_id needs a picture deck (S2)")
        if deck.is_picture and rules.match_key is not MatchKey.PICTURE_ID:
            errors.append("a picture deck matches by picture_id (S2)")
        if rules.picture != deck.is_picture:
            errors.append("the picture variant and a picture deck go together")
        if rules.slapjack and deck.is_picture:
            errors.append("slapjack needs Jacks: not with a picture deck")
        if deck.size < players:
            errors.append(f"deck {rules.deck} has fewer cards than players")
    if not rules.flipper_may_call and rules.speed:
        errors.append("flipper_may_call = no with speed: everybody flips, nobody could call (S16)")
    if not rules.flipper_may_call and rules.pool_call is PoolCall.FLIPPER_TAKES_POOL:
        errors.append("flipper_may_call = no with pool_call flipper_takes_pool: nobody could call (S16)")
    if rules.single_pile and (rules.speed or rules.double or rules.slapjack):
        errors.append("single_pile does not combine with speed, double or slapjack")
    if rules.max_flips < 1:
        errors.append("max_flips must be at least 1 (S30)")
    if rules.extra_rounds < 0:
        errors.append("extra_rounds cannot be negative (S30)")
    if rules.wrong_call_lockout_ms < 0 or rules.max_game_seconds < 1 or rules.speed_tick_ms < 1:
        errors.append("timing options must be positive")
    if rules.speed and players > 3:
        warnings.append("speed is meant for 2 to 3 players")
    if rules.max_flips != PROFILES["classic"].max_flips:
        warnings.append("classic pins max_flips = 1000: a different cap is a different profile (S30)")
    if rules.silent and rules.slapjack:
        warnings.append("silent with slapjack: a hand slap means Snap, 'Slap!' is still a separate call")
    return errors, warnings


def check(rules: SnapRules, players: int) -> None:
    """Raise InvalidRules when ``validate`` finds errors."""
    errors, _ = validate(rules, players)
    if errors:
        raise InvalidRules(errors)
