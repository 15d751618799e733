"""Snap rules: one frozen options object, defaults = profile ``classic`` (rules/snap.md).

Every option of rules/snap.md outside the online timing (S32-S38) is a field here, and every
variant of the variants table is a boolean switch. ``validate`` refuses combinations that cannot
be played and warns about legal but odd ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from games.engine.errors import InvalidRules, Problem, ProblemCode
from games.engine.snap.decks import DECKS


class SnapRulesProblem(ProblemCode):
    """What ``from_dict``, ``rules_from_options`` and ``validate`` report (codes and their params)."""

    UNKNOWN_PROFILE = "snap_unknown_profile", ("profile", "known")
    UNKNOWN_OPTION = "snap_unknown_option", ("option", "known")
    NOT_A_CHOICE = "snap_not_a_choice", ("option", "value", "choices")
    NOT_TRUE_OR_FALSE = "snap_not_true_or_false", ("option", "value")
    NOT_A_WHOLE_NUMBER = "snap_not_a_whole_number", ("option", "value")
    NOT_TEXT = "snap_not_text", ("option", "value")
    PLAYER_COUNT = "snap_player_count", ("players", "min_players", "max_players")
    UNKNOWN_DECK = "snap_unknown_deck", ("deck", "known")
    EXACT_CARD_NEEDS_DOUBLE_DECK = "snap_exact_card_needs_double_deck"
    PICTURE_ID_NEEDS_PICTURE_DECK = "snap_picture_id_needs_picture_deck"
    PICTURE_DECK_NEEDS_PICTURE_ID = "snap_picture_deck_needs_picture_id"
    PICTURE_VARIANT_AND_DECK = "snap_picture_variant_and_deck"
    SLAPJACK_NEEDS_JACKS = "snap_slapjack_needs_jacks"
    DECK_TOO_SMALL = "snap_deck_too_small", ("deck", "players")
    NOBODY_CAN_CALL_SPEED = "snap_nobody_can_call_speed"
    NOBODY_CAN_CALL_FLIPPER_POOL = "snap_nobody_can_call_flipper_pool"
    SINGLE_PILE_COMBINATION = "snap_single_pile_combination"
    MAX_FLIPS_TOO_LOW = "snap_max_flips_too_low"
    EXTRA_ROUNDS_NEGATIVE = "snap_extra_rounds_negative"
    TIMING_NOT_POSITIVE = "snap_timing_not_positive"
    # Warnings: playable, probably unintended.
    SPEED_PLAYERS = "snap_speed_players"
    MAX_FLIPS_NOT_CLASSIC = "snap_max_flips_not_classic"
    SILENT_WITH_SLAPJACK = "snap_silent_with_slapjack"


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
    def from_dict(cls, data: Mapping[str, Any]) -> SnapRules:
        """Inverse of ``to_dict``; missing keys take their defaults. Raises InvalidRules naming every
        unknown option and every value of the wrong kind (plain JSON values are accepted)."""
        errors: list[Problem] = []
        values: dict[str, Any] = {}
        known = ", ".join(_FIELD_DEFAULTS)
        for name in sorted(set(data) - set(_FIELD_DEFAULTS)):
            errors.append(
                Problem(SnapRulesProblem.UNKNOWN_OPTION, f"unknown option {name!r}", option=name, known=known)
            )
        for name, value in data.items():
            if name in _FIELD_DEFAULTS:
                values[name] = _coerce(name, value, errors)
        if errors:
            raise InvalidRules(errors)
        return cls(**values)


def _coerce(name: str, value: Any, errors: list[Problem]) -> Any:
    """``value`` as the type of option ``name``, or a problem appended to ``errors``."""
    if name in _CHOICES:
        enum_type = _CHOICES[name]
        try:
            return enum_type(value)
        except ValueError:
            choices = ", ".join(m.value for m in enum_type)
            errors.append(
                Problem(
                    SnapRulesProblem.NOT_A_CHOICE,
                    f"{name} must be one of {choices}, not {value!r}",
                    option=name,
                    value=value,
                    choices=choices,
                )
            )
            return value
    default = _FIELD_DEFAULTS[name]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            errors.append(
                Problem(
                    SnapRulesProblem.NOT_TRUE_OR_FALSE,
                    f"{name} must be true or false, not {value!r}",
                    option=name,
                    value=value,
                )
            )
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(
                Problem(
                    SnapRulesProblem.NOT_A_WHOLE_NUMBER,
                    f"{name} must be a whole number, not {value!r}",
                    option=name,
                    value=value,
                )
            )
    elif not isinstance(value, str):
        errors.append(
            Problem(
                SnapRulesProblem.NOT_TEXT, f"{name} must be text, not {value!r}", option=name, value=value
            )
        )
    return value


_FIELD_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(SnapRules)}
_CHOICES: dict[str, type[StrEnum]] = {
    "match_key": MatchKey,
    "pool_mode": PoolMode,
    "empty_facedown": EmptyFacedown,
    "pool_call": PoolCall,
}


PROFILES: dict[str, SnapRules] = {"classic": SnapRules()}

MIN_PLAYERS = 2  # S1
MAX_PLAYERS = 6  # S1
DEFAULT_PROFILE = "classic"


def rules_from_options(
    options: Mapping[str, Any] | None = None, *, profile: str = DEFAULT_PROFILE
) -> SnapRules:
    """The named profile with ``options`` overriding some of its fields (plain JSON values).

    Raises InvalidRules for an unknown profile, unknown options and values of the wrong kind; the
    combination itself is checked by ``validate`` (it depends on the number of players).
    """
    base = PROFILES.get(profile)
    if base is None:
        known = ", ".join(PROFILES)
        raise InvalidRules(
            [
                Problem(
                    SnapRulesProblem.UNKNOWN_PROFILE,
                    f"unknown Snap profile {profile!r}; known: {known}",
                    profile=profile,
                    known=known,
                )
            ]
        )
    return SnapRules.from_dict({**base.to_dict(), **options}) if options else base


def validate(rules: SnapRules, players: int) -> tuple[list[Problem], list[Problem]]:
    """Check ``rules`` for a table of ``players``; return ``(errors, warnings)``.

    Errors are combinations the engine refuses (``new_game`` raises InvalidRules on them);
    warnings are playable but probably unintended.
    """
    errors: list[Problem] = []
    warnings: list[Problem] = []
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        errors.append(
            Problem(
                SnapRulesProblem.PLAYER_COUNT,
                f"Snap is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (S1)",
                players=players,
                min_players=MIN_PLAYERS,
                max_players=MAX_PLAYERS,
            )
        )
    deck = DECKS.get(rules.deck)
    if deck is None:
        errors.append(
            Problem(
                SnapRulesProblem.UNKNOWN_DECK,
                f"unknown deck {rules.deck!r}",
                deck=rules.deck,
                known=", ".join(DECKS),
            )
        )
    else:
        if rules.match_key is MatchKey.EXACT_CARD and rules.deck != "double104":
            errors.append(
                Problem(
                    SnapRulesProblem.EXACT_CARD_NEEDS_DOUBLE_DECK,
                    "match_key exact_card needs deck double104 (S2)",
                )
            )
        if rules.match_key is MatchKey.PICTURE_ID and not deck.is_picture:
            errors.append(
                Problem(
                    SnapRulesProblem.PICTURE_ID_NEEDS_PICTURE_DECK,
                    "match_key picture_id needs a picture deck (S2)",
                )
            )
        if deck.is_picture and rules.match_key is not MatchKey.PICTURE_ID:
            errors.append(
                Problem(
                    SnapRulesProblem.PICTURE_DECK_NEEDS_PICTURE_ID,
                    "a picture deck matches by picture_id (S2)",
                )
            )
        if rules.picture != deck.is_picture:
            errors.append(
                Problem(
                    SnapRulesProblem.PICTURE_VARIANT_AND_DECK,
                    "the picture variant and a picture deck go together",
                )
            )
        if rules.slapjack and deck.is_picture:
            errors.append(
                Problem(
                    SnapRulesProblem.SLAPJACK_NEEDS_JACKS, "slapjack needs Jacks: not with a picture deck"
                )
            )
        if deck.size < players:
            errors.append(
                Problem(
                    SnapRulesProblem.DECK_TOO_SMALL,
                    f"deck {rules.deck} has fewer cards than players",
                    deck=rules.deck,
                    players=players,
                )
            )
    if not rules.flipper_may_call and rules.speed:
        errors.append(
            Problem(
                SnapRulesProblem.NOBODY_CAN_CALL_SPEED,
                "flipper_may_call = no with speed: everybody flips, nobody could call (S16)",
            )
        )
    if not rules.flipper_may_call and rules.pool_call is PoolCall.FLIPPER_TAKES_POOL:
        errors.append(
            Problem(
                SnapRulesProblem.NOBODY_CAN_CALL_FLIPPER_POOL,
                "flipper_may_call = no with pool_call flipper_takes_pool: nobody could call (S16)",
            )
        )
    if rules.single_pile and (rules.speed or rules.double or rules.slapjack):
        errors.append(
            Problem(
                SnapRulesProblem.SINGLE_PILE_COMBINATION,
                "single_pile does not combine with speed, double or slapjack",
            )
        )
    if rules.max_flips < 1:
        errors.append(Problem(SnapRulesProblem.MAX_FLIPS_TOO_LOW, "max_flips must be at least 1 (S30)"))
    if rules.extra_rounds < 0:
        errors.append(
            Problem(SnapRulesProblem.EXTRA_ROUNDS_NEGATIVE, "extra_rounds cannot be negative (S30)")
        )
    if rules.wrong_call_lockout_ms < 0 or rules.max_game_seconds < 1 or rules.speed_tick_ms < 1:
        errors.append(Problem(SnapRulesProblem.TIMING_NOT_POSITIVE, "timing options must be positive"))
    if rules.speed and players > 3:
        warnings.append(Problem(SnapRulesProblem.SPEED_PLAYERS, "speed is meant for 2 to 3 players"))
    if rules.max_flips != PROFILES["classic"].max_flips:
        warnings.append(
            Problem(
                SnapRulesProblem.MAX_FLIPS_NOT_CLASSIC,
                "classic pins max_flips = 1000: a different cap is a different profile (S30)",
            )
        )
    if rules.silent and rules.slapjack:
        warnings.append(
            Problem(
                SnapRulesProblem.SILENT_WITH_SLAPJACK,
                "silent with slapjack: a hand slap means Snap, 'Slap!' is still a separate call",
            )
        )
    return errors, warnings


def check(rules: SnapRules, players: int) -> None:
    """Raise InvalidRules when ``validate`` finds errors."""
    errors, _ = validate(rules, players)
    if errors:
        raise InvalidRules(errors)
