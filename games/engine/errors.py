"""Errors shared by every engine, and the coded problems the rules checks report."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, Self

# Params that say where in a recorded match a problem is (1-based numbers). A code never declares
# them; any problem may carry one, and the service layer puts "Game n:" / "Hand n:" before it.
LOCATION_PARAMS: Final[tuple[str, ...]] = ("game", "hand")


class ProblemCode(StrEnum):
    """Base of every engine's problem codes (``SnapRulesProblem``, ``SixtySixRulesProblem`` …).

    A member is ``NAME = "code", ("param", ...)``: the stable code, unique across the engines, and
    the names of the values every :class:`Problem` of that code carries. The service layer maps each
    code to a translated message with exactly those placeholders; a test collects every subclass so
    that a code without a message cannot ship.
    """

    param_names: tuple[str, ...]

    def __new__(cls, code: str, param_names: tuple[str, ...] = ()) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.param_names = param_names
        return member


class Problem(str):
    """Why an input cannot be used: the English text (``str(problem)``) for logs, the CLI and callers
    that treat problems as strings, plus a stable ``code`` and the ``params`` a translated message
    needs. Equal to any string with the same text (the code does not take part).

    ``params`` holds exactly the code's ``param_names`` (plus at most the location params
    ``game`` / ``hand``); values are plain data, often the user's own input as given.
    Raises TypeError (a bug in the engine) when the params do not match the code.
    """

    code: ProblemCode
    params: dict[str, object]

    def __new__(cls, code: ProblemCode, text: str, /, **params: object) -> Self:
        declared = set(code.param_names)
        given = set(params) - set(LOCATION_PARAMS)
        if given != declared or declared & set(LOCATION_PARAMS):
            raise TypeError(f"problem {code.value!r} takes {sorted(declared)}, was given {sorted(params)}")
        problem = super().__new__(cls, text)
        problem.code = code
        problem.params = dict(params)
        return problem

    def in_hand(self, number: int) -> Problem:
        """The same problem, said of hand ``number`` of a recorded match."""
        return Problem(self.code, f"hand {number}: {self}", **self.params, hand=number)

    def __getnewargs_ex__(self) -> tuple[tuple[ProblemCode, str], dict[str, object]]:
        return (self.code, str(self)), self.params  # pickle and copy rebuild it through __new__

    def __repr__(self) -> str:
        return f"Problem({self.code.value!r}, {str(self)!r})"


class IllegalAction(ValueError):
    """An input the rules do not allow in this state.

    ``code`` is a stable machine-readable string (``"not_your_turn"``, ``"not_legal"`` …) that the
    service layer maps to a translated message; ``detail`` is for logs and developers, never shown
    to players as is.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class InvalidRules(ValueError):
    """A rules/options object that cannot be played (unknown or contradictory options).

    ``errors`` are :class:`Problem` s wherever the options come from a user. The timing layer's own
    numbers (``TimingRules.errors()``, never user input) are still plain English strings.
    """

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)
