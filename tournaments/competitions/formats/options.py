"""The formats' options: the kinds of option a format declares (whole number, yes/no, a choice), the
check of an organiser's options against them, and the refusals the formats share (too few entrants,
a game a format does not play, a table that sends everyone on). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatError,
    FormatErrorCode,
    FormatKey,
    Seeding,
)


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole-number option from ``minimum`` to ``maximum``; ``None`` allowed when ``optional``."""

    default: int | None
    minimum: int
    maximum: int
    optional: bool = False


@dataclass(frozen=True, slots=True)
class YesNo:
    default: bool


@dataclass(frozen=True, slots=True)
class Choice:
    default: str
    allowed: tuple[str, ...]


type OptionSpec = Whole | YesNo | Choice

SEEDING = Choice(Seeding.RANDOM.value, tuple(s.value for s in Seeding))
BYE = Choice("win", ("win", "draw", "nothing"))


def checked_options(options: Mapping[str, object], specs: Mapping[str, OptionSpec]) -> dict[str, object]:
    """``options`` checked against ``specs`` (name -> spec), defaults filled in, in spec order.

    Raises FormatError: "unknown_option", "option_not_a_number", "option_not_yes_or_no",
    "option_not_a_choice" (``field`` = the option).
    """
    if not isinstance(options, Mapping):
        raise FormatError(
            FormatErrorCode.UNKNOWN_OPTION,
            "Options are given as names and values.",
            _unknown("options", specs),
        )
    for name in sorted(options, key=str):
        if name not in specs:
            raise FormatError(
                FormatErrorCode.UNKNOWN_OPTION,
                f"This format has no option {name!r}.",
                _unknown(str(name), specs),
            )
    result: dict[str, object] = {}
    for name, spec in specs.items():
        value = options.get(name, spec.default)
        if isinstance(spec, Whole):
            if value is None and (spec.optional or spec.default is None):
                result[name] = None
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not spec.minimum <= value <= spec.maximum
            ):
                raise FormatError(
                    FormatErrorCode.OPTION_NOT_A_NUMBER,
                    f"{name} must be a whole number from {spec.minimum} to {spec.maximum}.",
                    {"field": name, "value": repr(value), "minimum": spec.minimum, "maximum": spec.maximum},
                )
        elif isinstance(spec, YesNo):
            if not isinstance(value, bool):
                raise FormatError(
                    FormatErrorCode.OPTION_NOT_YES_OR_NO,
                    f"{name} is true or false.",
                    {"field": name, "value": repr(value)},
                )
        elif value not in spec.allowed:
            raise FormatError(
                FormatErrorCode.OPTION_NOT_A_CHOICE,
                f"{name} must be one of {', '.join(spec.allowed)}.",
                {"field": name, "value": repr(value), "allowed": list(spec.allowed)},
            )
        result[name] = value
    return result


def _unknown(name: str, specs: Mapping[str, OptionSpec]) -> dict[str, object]:
    return {"field": name, "known": list(specs)}


def require_entrants(entrants: int | None, minimum: int, *, field_name: str = "entrants") -> None:
    """Raises FormatError("not_enough_entrants") when ``entrants`` is known and below ``minimum``."""
    if entrants is not None and entrants < minimum:
        raise FormatError(
            FormatErrorCode.NOT_ENOUGH_ENTRANTS,
            f"This format needs at least {minimum} entrants.",
            {"field": field_name, "entrants": entrants, "minimum": minimum},
        )


def refuse_game(key: FormatKey, game: GameKind) -> FormatError:
    """The error for a format that the game cannot be played in (Snapszer is played by two)."""
    return FormatError(
        FormatErrorCode.FORMAT_NOT_FOR_GAME,
        f"{key} is not played in {game}.",
        {"field": "format", "format": str(key), "game": str(game)},
    )


def require_advance_below(advance: int, table_size: int) -> None:
    """Raises FormatError("advance_not_below_table_size", field "advance") unless someone goes
    out at every table."""
    if advance >= table_size:
        raise FormatError(
            FormatErrorCode.ADVANCE_NOT_BELOW_TABLE_SIZE,
            "At least one player of each table must go out.",
            {"field": "advance", "advance": advance, "table_size": table_size},
        )
