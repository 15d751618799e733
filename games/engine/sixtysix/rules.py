"""Rule options and the named profiles of the 66 family (rules/snapszer.md, "Profiles").

:class:`SixtySixRules` has one field per row of the profile table (the "deck / hand / talon" row is
``deck_size``, hand and talon sizes follow from it; the "minimum talon for exchange and close" row is
two fields because the `schnapsen-lite` cell gives the two different values). Cells marked "—" in
the table (no closing in `schnapsen-lite`, ...) hold a value the engine never consults; the
validation refuses combinations where such a value would matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Final

from games.engine.errors import InvalidRules, Problem, ProblemCode
from games.engine.sixtysix.cards import Rank


class SixtySixRulesProblem(ProblemCode):
    """What ``rules_from_options`` and the :class:`SixtySixRules` checks report (codes, params)."""

    UNKNOWN_PROFILE = "sixtysix_unknown_profile", ("profile", "known")
    UNKNOWN_OPTION = "sixtysix_unknown_option", ("option", "known")
    NOT_A_CHOICE = "sixtysix_not_a_choice", ("option", "value", "choices")
    NOT_TRUE_OR_FALSE = "sixtysix_not_true_or_false", ("option", "value")
    NOT_A_WHOLE_NUMBER = "sixtysix_not_a_whole_number", ("option", "value")
    NOT_TEXT = "sixtysix_not_text", ("option", "value")
    MATCH_UNKNOWN_KEYS = "sixtysix_match_unknown_keys", ("keys", "known")
    MATCH_NOT_A_FORMAT = "sixtysix_match_not_a_format", ("value",)
    DECK_SIZE = "sixtysix_deck_size", ("value",)
    EXCHANGE_RANK = "sixtysix_exchange_rank", ("value",)
    EXCHANGE_NINE_NEEDS_24 = "sixtysix_exchange_nine_needs_24"
    EXCHANGE_JACK_WITH_24 = "sixtysix_exchange_jack_with_24"
    MIN_TALON_EXCHANGE = "sixtysix_min_talon_exchange", ("value", "talon")
    MIN_TALON_CLOSE = "sixtysix_min_talon_close", ("value", "talon")
    CLOSE_BEFORE_DRAW_NEEDS_CLOSING = "sixtysix_close_before_draw_needs_closing"
    AUTOMATIC_WITH_CLOSING = "sixtysix_automatic_with_closing"
    AUTOMATIC_WITH_BID = "sixtysix_automatic_with_bid"
    NO_TIE_NEEDS_EQUAL_POINTS_NONE = "sixtysix_no_tie_needs_equal_points_none"
    TIE_NEEDS_EQUAL_POINTS = "sixtysix_tie_needs_equal_points", ("nobody_declares",)
    POT_NEEDS_MATCH = "sixtysix_pot_needs_match"
    POT_NEEDS_ALTERNATE_DEALER = "sixtysix_pot_needs_alternate_dealer"
    BID_POINTS = "sixtysix_bid_points", ("value",)
    MATCH_TARGET = "sixtysix_match_target", ("value",)
    MATCH_GAMES_TO_WIN = "sixtysix_match_games_to_win", ("value",)
    COUNTDOWN_ONE_GAME = "sixtysix_countdown_one_game"


class MarriageLead(StrEnum):
    """X15: which card of a marriage the leader may lead."""

    K_OR_Q = "k_or_q"
    K_ONLY = "k_only"  # schnapsen-lite: the oracle always plays the King


class MarriageScoring(StrEnum):
    """X16: when a marriage's points count."""

    IMMEDIATE = "immediate"  # the seed (◆)
    AFTER_A_TRICK = "after_a_trick"  # the sources: once the declarer has won any trick
    NEXT_TRICK = "next_trick"  # schnapsen-lite: at the declarer's next won trick


class DeclareWhen(StrEnum):
    """X24-X26: when a player may declare 66."""

    ANY_TIME = "any_time"  # ◆ the seed: any moment, either player
    AFTER_TRICK_OR_MARRIAGE = "after_trick_or_marriage"
    AUTOMATIC = "automatic"  # schnapsen-lite: the hand ends when a trick's winner reaches 66


class CloseJudged(StrEnum):
    """X20: on which state of the opponent a successful closer's game points are judged."""

    AT_CLOSING = "at_closing"
    FINAL = "final"


class FailedCloseThreeIf(StrEnum):
    """X21: when a failed close gives the opponent 3 instead of 2."""

    CLOSED_AT_TRICK_1 = "closed_at_trick_1"  # ◆ the seed
    OPPONENT_HAD_NO_TRICK = "opponent_had_no_trick"
    ALWAYS = "always"  # santase


class LoserMeasure(StrEnum):
    """ "Words": what the loser's state is measured in (X20, X28-X30)."""

    CARD_POINTS = "card_points"  # ◆ the seed
    POINTS = "points"


class WrongDeclaration(StrEnum):
    """X27: what the other player scores after a wrong declaration."""

    TWO_OR_THREE = "two_or_three"  # 2, or 3 if they had taken no trick
    TWO = "two"


class NobodyDeclares(StrEnum):
    """X28: all tricks played, talon run out, nobody declared."""

    MORE_CARD_POINTS = "more_card_points"  # ◆ the seed, by the game-point table
    LAST_TRICK_WINS_1 = "last_trick_wins_1"
    LAST_TRICK_BONUS_10 = "last_trick_bonus_10"  # +10 to the last trick, then more points wins


class EqualPoints(StrEnum):
    """X29: equal measure in the X28 comparison."""

    POT = "pot"  # ◆ the seed: 1 game point into a pot
    REDEAL = "redeal"  # a draw, the same dealer deals again
    NONE = "none"  # cannot happen (the last trick decides)


class NextDealer(StrEnum):
    """X32: who deals the next hand."""

    ALTERNATE = "alternate"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """X32: a match is won by the first to ``target`` game points; with ``games_to_win`` > 1 (the
    `snapszer-hu` "two games of 7") scores restart at 0-0 after each game. ``countdown`` only
    changes how scores are shown (Schnapsen counts down from the target; a lost match is a Bummerl).
    """

    target: int = 7
    games_to_win: int = 1
    countdown: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "games_to_win": self.games_to_win, "countdown": self.countdown}


@dataclass(frozen=True, slots=True)
class SixtySixRules:
    """One set of rule options (a profile). Constructing an inconsistent one raises InvalidRules."""

    deck_size: int  # deck / hand / talon: 24/6/12 or 20/5/10
    exchange_rank: Rank  # exchange card: the trump 9 or J (X13)
    exchange_needs_trick: bool  # X13
    min_talon_exchange: int  # minimum talon (counting the face-up card) for exchange (X13, X14)
    min_talon_close: int | None  # minimum talon for closing (X19); None: no closing at all
    close_before_draw: bool  # X11
    close_at_trick_1: bool  # X18/X19
    marriage_at_trick_1: bool  # X18
    marriage_after_close: bool  # X18: marriages after close / exhaustion
    marriage_lead: MarriageLead  # X15
    marriage_scoring: MarriageScoring  # X16
    declare_when: DeclareWhen  # X24-X26
    close_judged: CloseJudged  # X20
    failed_close_three_if: FailedCloseThreeIf  # X21
    loser_measure: LoserMeasure  # Words, X20, X28-X30
    wrong_declaration: WrongDeclaration  # X27
    nobody_declares: NobodyDeclares  # X28
    equal_points: EqualPoints  # X29
    bid_points: int | None  # X31: the Snapszer bid and its value; None: no bid
    match: MatchFormat | None  # X32; None: single hands
    next_dealer: NextDealer  # X32
    name: str = field(default="custom", compare=False)
    notes: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        errors = _problems(self)
        if errors:
            raise InvalidRules(errors)

    @property
    def hand_size(self) -> int:
        return 6 if self.deck_size == 24 else 5

    @property
    def talon_size(self) -> int:
        """X5: the talon after the deal, counting the face-up trump card."""
        return self.deck_size - 2 * self.hand_size

    @property
    def closing_allowed(self) -> bool:
        return self.min_talon_close is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: enum values as strings, ``match`` as a dict or None."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, MatchFormat):
                value = value.to_dict()
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out


OPTION_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in fields(SixtySixRules))
_ENUM_FIELDS: Final[dict[str, type[StrEnum]]] = {
    "exchange_rank": Rank,
    "marriage_lead": MarriageLead,
    "marriage_scoring": MarriageScoring,
    "declare_when": DeclareWhen,
    "close_judged": CloseJudged,
    "failed_close_three_if": FailedCloseThreeIf,
    "loser_measure": LoserMeasure,
    "wrong_declaration": WrongDeclaration,
    "nobody_declares": NobodyDeclares,
    "equal_points": EqualPoints,
    "next_dealer": NextDealer,
}
_BOOL_FIELDS: Final[frozenset[str]] = frozenset(
    {
        "exchange_needs_trick",
        "close_before_draw",
        "close_at_trick_1",
        "marriage_at_trick_1",
        "marriage_after_close",
    }
)


def _not_a_choice(name: str, enum_type: type[StrEnum], value: Any) -> Problem:
    choices = ", ".join(repr(m.value) for m in enum_type)
    return Problem(
        SixtySixRulesProblem.NOT_A_CHOICE,
        f"{name} must be one of {choices}, not {value!r}",
        option=name,
        value=value,
        choices=", ".join(m.value for m in enum_type),
    )


def _not_true_or_false(name: str, value: Any) -> Problem:
    return Problem(
        SixtySixRulesProblem.NOT_TRUE_OR_FALSE,
        f"{name} must be true or false, not {value!r}",
        option=name,
        value=value,
    )


def _problems(r: SixtySixRules) -> list[Problem]:
    """Every type error and contradiction in ``r``, as coded problems (``SixtySixRulesProblem``)."""
    errors: list[Problem] = []
    for name, enum_type in _ENUM_FIELDS.items():
        value = getattr(r, name)
        if not isinstance(value, enum_type):
            errors.append(_not_a_choice(name, enum_type, value))
    for name in _BOOL_FIELDS:
        if not isinstance(getattr(r, name), bool):
            errors.append(_not_true_or_false(name, getattr(r, name)))
    if errors:
        return errors  # the checks below assume the types are right
    if r.deck_size not in (20, 24):
        return [
            Problem(
                SixtySixRulesProblem.DECK_SIZE,
                f"deck_size must be 20 or 24, not {r.deck_size!r}",
                value=r.deck_size,
            )
        ]
    if r.exchange_rank not in (Rank.NINE, Rank.JACK):
        errors.append(
            Problem(
                SixtySixRulesProblem.EXCHANGE_RANK,
                f"exchange_rank must be '9' or 'J' (the lowest trump), not {r.exchange_rank.value!r}",
                value=r.exchange_rank.value,
            )
        )
    elif r.exchange_rank is Rank.NINE and r.deck_size == 20:
        errors.append(
            Problem(
                SixtySixRulesProblem.EXCHANGE_NINE_NEEDS_24,
                "exchange_rank '9' needs the 24-card pack: the 20-card pack has no 9s (use 'J')",
            )
        )
    elif r.exchange_rank is Rank.JACK and r.deck_size == 24:
        errors.append(
            Problem(
                SixtySixRulesProblem.EXCHANGE_JACK_WITH_24,
                "exchange_rank 'J' with 24 cards: the lowest trump is the 9 (use '9')",
            )
        )
    talon = r.talon_size
    if not isinstance(r.min_talon_exchange, int) or not 2 <= r.min_talon_exchange <= talon:
        errors.append(
            Problem(
                SixtySixRulesProblem.MIN_TALON_EXCHANGE,
                f"min_talon_exchange must be a whole number from 2 (open talon) to {talon}",
                value=r.min_talon_exchange,
                talon=talon,
            )
        )
    if r.min_talon_close is not None and (
        not isinstance(r.min_talon_close, int) or not 2 <= r.min_talon_close <= talon
    ):
        errors.append(
            Problem(
                SixtySixRulesProblem.MIN_TALON_CLOSE,
                f"min_talon_close must be empty (no closing) or a whole number from 2 to {talon}",
                value=r.min_talon_close,
                talon=talon,
            )
        )
    if r.min_talon_close is None and r.close_before_draw:
        errors.append(
            Problem(
                SixtySixRulesProblem.CLOSE_BEFORE_DRAW_NEEDS_CLOSING,
                "close_before_draw needs closing: min_talon_close is empty (no closing)",
            )
        )
    if r.declare_when is DeclareWhen.AUTOMATIC:
        if r.min_talon_close is not None:
            errors.append(
                Problem(
                    SixtySixRulesProblem.AUTOMATIC_WITH_CLOSING,
                    "declare_when 'automatic' has no way to judge a close (X20, X21 need a declaration): "
                    "set min_talon_close empty",
                )
            )
        if r.bid_points is not None:
            errors.append(
                Problem(
                    SixtySixRulesProblem.AUTOMATIC_WITH_BID,
                    "declare_when 'automatic' cannot be combined with the Snapszer bid (X31)",
                )
            )
    if r.nobody_declares is NobodyDeclares.LAST_TRICK_WINS_1:
        if r.equal_points is not EqualPoints.NONE:
            errors.append(
                Problem(
                    SixtySixRulesProblem.NO_TIE_NEEDS_EQUAL_POINTS_NONE,
                    "equal_points must be 'none' with nobody_declares 'last_trick_wins_1': no tie can happen",
                )
            )
    elif r.equal_points is EqualPoints.NONE:
        errors.append(
            Problem(
                SixtySixRulesProblem.TIE_NEEDS_EQUAL_POINTS,
                f"nobody_declares {r.nobody_declares.value!r} compares points, so equal_points must say "
                "what a tie does ('pot' or 'redeal')",
                nobody_declares=r.nobody_declares.value,
            )
        )
    if r.equal_points is EqualPoints.POT:
        if r.match is None:
            errors.append(
                Problem(
                    SixtySixRulesProblem.POT_NEEDS_MATCH,
                    "equal_points 'pot' needs a match to carry the pot into (match is empty)",
                )
            )
        if r.next_dealer is NextDealer.WINNER:
            errors.append(
                Problem(
                    SixtySixRulesProblem.POT_NEEDS_ALTERNATE_DEALER,
                    "equal_points 'pot' needs next_dealer 'alternate': a tied hand has no winner to deal",
                )
            )
    if r.bid_points is not None and (not isinstance(r.bid_points, int) or r.bid_points < 1):
        errors.append(
            Problem(
                SixtySixRulesProblem.BID_POINTS,
                f"bid_points must be empty (no bid) or a positive whole number, not {r.bid_points!r}",
                value=r.bid_points,
            )
        )
    if r.match is not None:
        if not isinstance(r.match, MatchFormat):
            errors.append(
                Problem(
                    SixtySixRulesProblem.MATCH_NOT_A_FORMAT,
                    "match must be a MatchFormat (target, games_to_win, countdown) or empty",
                    value=r.match,
                )
            )
        else:
            if not isinstance(r.match.target, int) or r.match.target < 1:
                errors.append(
                    Problem(
                        SixtySixRulesProblem.MATCH_TARGET,
                        f"match target must be a positive whole number, not {r.match.target!r}",
                        value=r.match.target,
                    )
                )
            if not isinstance(r.match.games_to_win, int) or r.match.games_to_win < 1:
                errors.append(
                    Problem(
                        SixtySixRulesProblem.MATCH_GAMES_TO_WIN,
                        f"match games_to_win must be a positive whole number, not {r.match.games_to_win!r}",
                        value=r.match.games_to_win,
                    )
                )
            elif r.match.countdown and r.match.games_to_win != 1:
                errors.append(
                    Problem(
                        SixtySixRulesProblem.COUNTDOWN_ONE_GAME,
                        "match countdown (Bummerl) is for one game to the target, not several games",
                    )
                )
    return errors


_BASE: Final[dict[str, Any]] = {
    "deck_size": 24,
    "exchange_rank": Rank.NINE,
    "exchange_needs_trick": True,
    "min_talon_exchange": 2,
    "min_talon_close": 2,
    "close_before_draw": False,
    "close_at_trick_1": True,
    "marriage_at_trick_1": True,
    "marriage_after_close": True,
    "marriage_lead": MarriageLead.K_OR_Q,
    "marriage_scoring": MarriageScoring.IMMEDIATE,
    "declare_when": DeclareWhen.ANY_TIME,
    "close_judged": CloseJudged.AT_CLOSING,
    "failed_close_three_if": FailedCloseThreeIf.CLOSED_AT_TRICK_1,
    "loser_measure": LoserMeasure.CARD_POINTS,
    "wrong_declaration": WrongDeclaration.TWO_OR_THREE,
    "nobody_declares": NobodyDeclares.MORE_CARD_POINTS,
    "equal_points": EqualPoints.POT,
    "bid_points": None,
    "match": MatchFormat(7),
    "next_dealer": NextDealer.ALTERNATE,
}
_SOURCES_20: Final[dict[str, Any]] = {
    "deck_size": 20,
    "exchange_rank": Rank.JACK,
    "exchange_needs_trick": False,
    "marriage_scoring": MarriageScoring.AFTER_A_TRICK,
    "declare_when": DeclareWhen.AFTER_TRICK_OR_MARRIAGE,
    "failed_close_three_if": FailedCloseThreeIf.OPPONENT_HAD_NO_TRICK,
    "loser_measure": LoserMeasure.POINTS,
    "nobody_declares": NobodyDeclares.LAST_TRICK_WINS_1,
    "equal_points": EqualPoints.NONE,
}

PROFILES: Final[dict[str, SixtySixRules]] = {
    "snapszer": SixtySixRules(
        **_BASE, name="snapszer", notes="The seed's game exactly, ◆ rules as written (rules/snapszer.md)."
    ),
    "snapszer-hu": SixtySixRules(
        **(
            _BASE
            | _SOURCES_20
            | {
                "min_talon_exchange": 4,
                "min_talon_close": 4,
                "close_judged": CloseJudged.FINAL,
                "bid_points": 6,
                "match": MatchFormat(7, games_to_win=2),
            }
        ),
        name="snapszer-hu",
        notes=(
            "Federation two-player Snapszer (20 cards) with the Snapszer bid (X31). The bid's value of 6 "
            "comes from one university thesis, not the federation's text."
        ),
    ),
    "schnapsen": SixtySixRules(
        **(_BASE | _SOURCES_20 | {"match": MatchFormat(7, countdown=True)}),
        name="schnapsen",
        notes="Austrian Schnapsen (Pagat, Tompa): 20 cards, counted down from 7; a lost match is a Bummerl.",
    ),
    "sixty-six": SixtySixRules(
        **(
            _BASE
            | {
                "close_before_draw": True,
                "marriage_after_close": False,
                "marriage_scoring": MarriageScoring.AFTER_A_TRICK,
                "declare_when": DeclareWhen.AFTER_TRICK_OR_MARRIAGE,
                "close_judged": CloseJudged.FINAL,
                "failed_close_three_if": FailedCloseThreeIf.OPPONENT_HAD_NO_TRICK,
                "loser_measure": LoserMeasure.POINTS,
                "wrong_declaration": WrongDeclaration.TWO,
                "nobody_declares": NobodyDeclares.LAST_TRICK_BONUS_10,
                "equal_points": EqualPoints.REDEAL,
                "next_dealer": NextDealer.WINNER,
            }
        ),
        name="sixty-six",
        notes="German Sechsundsechzig (Pagat): 24 cards, +10 for the last trick, the winner deals next.",
    ),
    "santase": SixtySixRules(
        **(
            _BASE
            | {
                "min_talon_exchange": 4,
                "min_talon_close": 4,
                "close_at_trick_1": False,
                "marriage_at_trick_1": False,
                "marriage_scoring": MarriageScoring.AFTER_A_TRICK,
                "declare_when": DeclareWhen.AFTER_TRICK_OR_MARRIAGE,
                "close_judged": CloseJudged.FINAL,
                "failed_close_three_if": FailedCloseThreeIf.ALWAYS,
                "loser_measure": LoserMeasure.POINTS,
                "wrong_declaration": WrongDeclaration.TWO,
                "nobody_declares": NobodyDeclares.LAST_TRICK_BONUS_10,
                "equal_points": EqualPoints.REDEAL,
                "match": MatchFormat(11),
                "next_dealer": NextDealer.WINNER,
            }
        ),
        name="santase",
        notes="Bulgarian Santase: 24 cards, to 11, the winner deals next.",
    ),
    "schnapsen-lite": SixtySixRules(
        **(
            _BASE
            | _SOURCES_20
            | {
                "min_talon_close": None,
                "close_at_trick_1": False,
                "marriage_lead": MarriageLead.K_ONLY,
                "marriage_scoring": MarriageScoring.NEXT_TRICK,
                "declare_when": DeclareWhen.AUTOMATIC,
                "close_judged": CloseJudged.FINAL,
                "match": None,
            }
        ),
        name="schnapsen-lite",
        notes=(
            "Not a game anyone plays: the simplified rules of the `schnapsen` Python package (0.0.5), so "
            "that package can serve as a test oracle. No closing; the hand ends when a trick's winner "
            "reaches 66; single hands."
        ),
    ),
}
DEFAULT_PROFILE: Final[str] = "snapszer"


def _coerce(name: str, value: Any, errors: list[Problem]) -> Any:
    if name in _ENUM_FIELDS:
        enum_type = _ENUM_FIELDS[name]
        try:
            return enum_type(value)
        except ValueError:
            errors.append(_not_a_choice(name, enum_type, value))
            return value
    if name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            errors.append(_not_true_or_false(name, value))
        return value
    if name == "match":
        if value is None or isinstance(value, MatchFormat):
            return value
        if isinstance(value, Mapping):
            unknown = set(value) - {"target", "games_to_win", "countdown"}
            if unknown:
                errors.append(
                    Problem(
                        SixtySixRulesProblem.MATCH_UNKNOWN_KEYS,
                        f"match has unknown keys {sorted(unknown)}; known: target, games_to_win, countdown",
                        keys=", ".join(sorted(unknown)),
                        known="target, games_to_win, countdown",
                    )
                )
                return value
            return MatchFormat(**value)
        if isinstance(value, int) and not isinstance(value, bool):
            return MatchFormat(value)
        errors.append(
            Problem(
                SixtySixRulesProblem.MATCH_NOT_A_FORMAT,
                f"match must be empty, a target number or {{target, games_to_win, countdown}}, not {value!r}",
                value=value,
            )
        )
        return value
    if name in ("deck_size", "min_talon_exchange", "min_talon_close", "bid_points"):
        if value is None and name in ("min_talon_close", "bid_points"):
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(
                Problem(
                    SixtySixRulesProblem.NOT_A_WHOLE_NUMBER,
                    f"{name} must be a whole number, not {value!r}",
                    option=name,
                    value=value,
                )
            )
        return value
    if not isinstance(value, str):
        errors.append(
            Problem(
                SixtySixRulesProblem.NOT_TEXT, f"{name} must be text, not {value!r}", option=name, value=value
            )
        )
    return value


def unknown_profile(name: object) -> InvalidRules:
    """The error for a profile name that names no profile (``name`` as the user gave it)."""
    known = ", ".join(PROFILES)
    return InvalidRules(
        [
            Problem(
                SixtySixRulesProblem.UNKNOWN_PROFILE,
                f"unknown profile {name!r}; known: {known}",
                profile=name,
                known=known,
            )
        ]
    )


def rules_from_options(
    options: Mapping[str, Any] | None = None, *, profile: str = DEFAULT_PROFILE
) -> SixtySixRules:
    """The named profile with ``options`` overriding some of its fields (values may be plain JSON).

    Raises InvalidRules listing every unknown profile or option, bad value and contradiction.
    """
    base = PROFILES.get(profile) if isinstance(profile, str) else None
    if base is None:
        raise unknown_profile(profile)
    errors: list[Problem] = []
    changes: dict[str, Any] = {}
    for name, value in (options or {}).items():
        if name not in OPTION_NAMES:
            known = ", ".join(OPTION_NAMES)
            errors.append(
                Problem(
                    SixtySixRulesProblem.UNKNOWN_OPTION,
                    f"unknown option {name!r}; known options: {known}",
                    option=name,
                    known=known,
                )
            )
            continue
        changes[name] = _coerce(name, value, errors)
    if errors:
        raise InvalidRules(errors)
    if "name" not in changes and changes:
        changes["name"] = f"{profile}+custom"
    return replace(base, **changes)


def options_of(rules: SixtySixRules, profile: str = DEFAULT_PROFILE) -> dict[str, Any]:
    """The options that make ``rules`` from the named profile, as plain JSON: every field that
    differs from the profile's (``name`` and ``notes`` too), so that
    ``rules_from_options(options_of(rules, p), profile=p)`` is ``rules`` again, name and notes
    included. Raises InvalidRules for an unknown profile."""
    base = rules_from_options(None, profile=profile).to_dict()
    return {name: value for name, value in rules.to_dict().items() if value != base[name]}


def profile(name: str) -> SixtySixRules:
    """The named profile. Raises InvalidRules if there is none of that name."""
    return rules_from_options(None, profile=name)


__all__ = [
    "PROFILES",
    "CloseJudged",
    "DeclareWhen",
    "EqualPoints",
    "FailedCloseThreeIf",
    "LoserMeasure",
    "MarriageLead",
    "MarriageScoring",
    "MatchFormat",
    "NextDealer",
    "NobodyDeclares",
    "SixtySixRules",
    "SixtySixRulesProblem",
    "WrongDeclaration",
    "options_of",
    "profile",
    "rules_from_options",
    "unknown_profile",
]
