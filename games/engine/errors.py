"""Errors shared by every engine, and the coded problems the rules checks report."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, Self

# Params that say where in a recorded match a problem is (1-based numbers). A code never declares
# them; any problem may carry one, and the service layer puts "Game n:" / "Hand n:" before it.
LOCATION_PARAMS: Final[tuple[str, ...]] = ("game", "hand")


class Code(StrEnum):
    """The one base of every coded problem, engines' and tournaments' alike.

    A member is ``NAME = "code", ("param", ...)``: the stable code and the names of the values every
    problem of that code carries. The service layer maps each code to a translated message with
    exactly those placeholders; tests collect every subclass so that a code without a message cannot
    ship. A code names one problem wherever it is used.
    """

    param_names: tuple[str, ...]

    def __new__(cls, code: str, param_names: tuple[str, ...] = ()) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.param_names = param_names
        return member


class ProblemCode(Code):
    """Base of every engine's rules and record problem codes (``SnapRulesProblem``,
    ``SixtySixRulesProblem`` …): codes unique across the engines, reported as :class:`Problem` s."""


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


class ActionCode(Code):
    """Why an engine refused an input: one vocabulary for both engines and the Snap timing layer.

    The first group are **parse** errors (:class:`InvalidAction`): the input is malformed or names
    something that does not exist (a seat out of range, a card not in the pack, a state that never
    was). The second are **rule** errors (:class:`IllegalAction`): a well-formed input the rules do
    not allow now. python-chess draws the same line (``InvalidMoveError`` / ``IllegalMoveError``).
    """

    # Parse errors: malformed, whatever the state.
    MALFORMED = "malformed"  # not an input of this game, or a shape the rules never allow
    NO_SUCH_SEAT = "no_such_seat"  # a seat (player, caller, dealer) outside the table
    NO_SUCH_STATE = "no_such_state"  # a call answering a state the game has not reached
    BAD_DEAL = "bad_deal"  # a deal that is not the whole pack, each card once
    BAD_ORDER = "bad_order"  # a recycle order that is not the face-up pile's cards
    # Rule errors: well formed, not allowed now.
    GAME_OVER = "game_over"  # the game (hand, match) has ended
    NOT_YOUR_TURN = "not_your_turn"
    NOT_LEGAL = "not_legal"  # not among the legal actions of this state
    NOT_TURN_BASED = "not_turn_based"  # a seat's own flip in speed Snap (flips come from ticks)
    NOT_SPEED = "not_speed"  # a speed tick outside speed Snap
    ORDER_REQUIRED = "order_required"  # a shuffled recycle needs its order as input (S22)
    ORDER_NOT_DUE = "order_not_due"  # an order given for a seat that does not recycle now
    STALE = "stale"  # answers a state too old to judge on (before the last resolved call)
    TIME_BACKWARDS = "time_backwards"  # a timed input earlier than the clock already is

    @property
    def is_parse_error(self) -> bool:
        return self in _PARSE_CODES


_PARSE_CODES: Final[frozenset[ActionCode]] = frozenset(
    {
        ActionCode.MALFORMED,
        ActionCode.NO_SUCH_SEAT,
        ActionCode.NO_SUCH_STATE,
        ActionCode.BAD_DEAL,
        ActionCode.BAD_ORDER,
    }
)


class ActionError(ValueError):
    """An input an engine refused: a stable ``code`` (an :class:`ActionCode`) that the service layer
    maps to a translated message, and a ``detail`` for logs and developers, never shown to players
    as is. Catch this to catch both kinds; raise one of the two subclasses."""

    code: ActionCode
    detail: str

    def __init__(self, code: ActionCode, detail: str = "") -> None:
        if not isinstance(code, ActionCode):
            raise TypeError(f"an action error takes an ActionCode, not {code!r}")
        super().__init__(f"{code.value}: {detail}" if detail else code.value)
        self.code = code
        self.detail = detail

    def __reduce__(self) -> tuple[type[ActionError], tuple[ActionCode, str]]:
        return type(self), (self.code, self.detail)


class InvalidAction(ActionError):
    """A parse error: the input is malformed (see :class:`ActionCode`'s first group)."""

    def __init__(self, code: ActionCode, detail: str = "") -> None:
        if not code.is_parse_error:
            raise TypeError(f"{code!r} is a rule error: raise IllegalAction")
        super().__init__(code, detail)


class IllegalAction(ActionError):
    """A rule error: a well-formed input the rules do not allow in this state."""

    def __init__(self, code: ActionCode, detail: str = "") -> None:
        if code.is_parse_error:
            raise TypeError(f"{code!r} is a parse error: raise InvalidAction")
        super().__init__(code, detail)


class InvalidRules(ValueError):
    """A rules/options object that cannot be played (unknown or contradictory options).

    ``errors`` are :class:`Problem` s wherever the options come from a user. The timing layer's own
    numbers (``TimingRules.errors()``, never user input) are still plain English strings.
    """

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)


class InvalidSnapshot(ValueError):
    """Data that is not a snapshot this engine wrote (damaged, from another engine or version).

    A snapshot is a cache: whoever holds the game's setup and log replays it instead.
    """
