"""Every problem code of the engines, and an input that makes the engines report each one.

``engine_problem_codes()`` imports every module of ``games/engine`` and collects every
``ProblemCode`` subclass, so a code added anywhere in the engines is found without being listed
here. ``EXAMPLES`` are real engine calls; the tests check that they cover every code, so a new code
also needs an example (and with it, a message on the Django side).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import games.engine
from games.engine.errors import InvalidRules, Problem, ProblemCode
from games.engine.sixtysix import (
    PROFILES,
    MatchRecordProblem,
    Reason,
    RecordedHand,
    SixtySixRulesProblem,
    hand_record_problems,
    match_hands_valid,
    match_score_valid,
    new_match,
    rules_from_options,
)
from games.engine.snap.rules import (
    MatchKey,
    PoolCall,
    SnapRules,
    SnapRulesProblem,
    validate,
)
from games.engine.snap.rules import rules_from_options as snap_rules_from_options
from tests.codes import import_all, subclass_members


def engine_problem_codes() -> list[ProblemCode]:
    """Every member of every ``ProblemCode`` subclass defined anywhere in ``games.engine``."""
    import_all(packages=[games.engine])
    return subclass_members(ProblemCode)


def raised(call: Callable[[], object]) -> Sequence[str]:
    """The problems an engine call raises as InvalidRules (none if it returns)."""
    try:
        call()
    except InvalidRules as exc:
        return exc.errors
    return []


def _snap(players: int = 2, **options: object) -> Sequence[str]:
    errors, warnings = validate(SnapRules(**options), players)  # type: ignore[arg-type]
    return [*errors, *warnings]


def _66(options: dict[str, object], profile: str = "snapszer") -> Sequence[str]:
    return raised(lambda: rules_from_options(options, profile=profile))


def _score(profile: str, score: object, pot: int = 0) -> Sequence[str]:
    return match_score_valid(PROFILES[profile], score, pot_carried=pot)  # type: ignore[arg-type]


def _hands(*hands: tuple[int | None, int, Reason], profile: str = "snapszer") -> Sequence[str]:
    return match_hands_valid(PROFILES[profile], [RecordedHand(*hand) for hand in hands])


S, X, M = SnapRulesProblem, SixtySixRulesProblem, MatchRecordProblem
R = Reason
PICTURE = {"deck": "animals", "match_key": MatchKey.PICTURE_ID, "picture": True}

EXAMPLES: list[tuple[ProblemCode, Callable[[], Sequence[str]]]] = [
    (S.UNKNOWN_PROFILE, lambda: raised(lambda: snap_rules_from_options({}, profile="lightning"))),
    (S.UNKNOWN_OPTION, lambda: raised(lambda: SnapRules.from_dict({"colour": "red"}))),
    (S.NOT_A_CHOICE, lambda: raised(lambda: SnapRules.from_dict({"match_key": "suit"}))),
    (S.NOT_TRUE_OR_FALSE, lambda: raised(lambda: SnapRules.from_dict({"speed": "yes"}))),
    (S.NOT_A_WHOLE_NUMBER, lambda: raised(lambda: SnapRules.from_dict({"max_flips": "many"}))),
    (S.NOT_TEXT, lambda: raised(lambda: SnapRules.from_dict({"deck": 52}))),
    (S.PLAYER_COUNT, lambda: _snap(7)),
    (S.UNKNOWN_DECK, lambda: _snap(deck="tarot")),
    (S.EXACT_CARD_NEEDS_DOUBLE_DECK, lambda: _snap(match_key=MatchKey.EXACT_CARD)),
    (S.PICTURE_ID_NEEDS_PICTURE_DECK, lambda: _snap(match_key=MatchKey.PICTURE_ID)),
    (S.PICTURE_DECK_NEEDS_PICTURE_ID, lambda: _snap(deck="animals", picture=True)),
    (S.PICTURE_VARIANT_AND_DECK, lambda: _snap(picture=True)),
    (S.SLAPJACK_NEEDS_JACKS, lambda: _snap(**PICTURE, slapjack=True)),
    (S.DECK_TOO_SMALL, lambda: _snap(13, deck="shapes", match_key=MatchKey.PICTURE_ID, picture=True)),
    (S.NOBODY_CAN_CALL_SPEED, lambda: _snap(flipper_may_call=False, speed=True)),
    (
        S.NOBODY_CAN_CALL_FLIPPER_POOL,
        lambda: _snap(flipper_may_call=False, pool_call=PoolCall.FLIPPER_TAKES_POOL),
    ),
    (S.SINGLE_PILE_COMBINATION, lambda: _snap(single_pile=True, double=True)),
    (S.MAX_FLIPS_TOO_LOW, lambda: _snap(max_flips=0)),
    (S.EXTRA_ROUNDS_NEGATIVE, lambda: _snap(extra_rounds=-1)),
    (S.TIMING_NOT_POSITIVE, lambda: _snap(speed_tick_ms=0)),
    (S.SPEED_PLAYERS, lambda: _snap(4, speed=True)),
    (S.MAX_FLIPS_NOT_CLASSIC, lambda: _snap(max_flips=50)),
    (S.SILENT_WITH_SLAPJACK, lambda: _snap(silent=True, slapjack=True)),
    (X.UNKNOWN_PROFILE, lambda: _66({}, profile="bezique")),
    (X.UNKNOWN_OPTION, lambda: _66({"colour": "red"})),
    (X.NOT_A_CHOICE, lambda: _66({"marriage_scoring": "later"})),
    (X.NOT_TRUE_OR_FALSE, lambda: _66({"exchange_needs_trick": "yes"})),
    (X.NOT_A_WHOLE_NUMBER, lambda: _66({"deck_size": "24"})),
    (X.NOT_TEXT, lambda: _66({"notes": 5})),
    (X.MATCH_UNKNOWN_KEYS, lambda: _66({"match": {"goal": 7}})),
    (X.MATCH_NOT_A_FORMAT, lambda: _66({"match": [7]})),
    (X.DECK_SIZE, lambda: _66({"deck_size": 32})),
    (X.EXCHANGE_RANK, lambda: _66({"exchange_rank": "Q"})),
    (X.EXCHANGE_NINE_NEEDS_24, lambda: _66({"deck_size": 20})),
    (X.EXCHANGE_JACK_WITH_24, lambda: _66({"exchange_rank": "J"})),
    (X.MIN_TALON_EXCHANGE, lambda: _66({"min_talon_exchange": 1})),
    (X.MIN_TALON_CLOSE, lambda: _66({"min_talon_close": 12}, profile="schnapsen")),
    (X.CLOSE_BEFORE_DRAW_NEEDS_CLOSING, lambda: _66({"close_before_draw": True}, profile="schnapsen-lite")),
    (X.AUTOMATIC_WITH_CLOSING, lambda: _66({"min_talon_close": 2}, profile="schnapsen-lite")),
    (X.AUTOMATIC_WITH_BID, lambda: _66({"bid_points": 6}, profile="schnapsen-lite")),
    (X.NO_TIE_NEEDS_EQUAL_POINTS_NONE, lambda: _66({"equal_points": "pot"}, profile="schnapsen")),
    (X.TIE_NEEDS_EQUAL_POINTS, lambda: _66({"equal_points": "none"})),
    (X.POT_NEEDS_MATCH, lambda: _66({"match": None})),
    (X.POT_NEEDS_ALTERNATE_DEALER, lambda: _66({"equal_points": "pot"}, profile="sixty-six")),
    (X.BID_POINTS, lambda: _66({"bid_points": 0})),
    (X.MATCH_TARGET, lambda: _66({"match": 0})),
    (X.MATCH_GAMES_TO_WIN, lambda: _66({"match": {"target": 7, "games_to_win": 0}})),
    (X.COUNTDOWN_ONE_GAME, lambda: _66({"match": {"target": 7, "games_to_win": 2, "countdown": True}})),
    (M.NO_MATCH, lambda: _score("schnapsen-lite", (7, 0))),
    (M.NO_POT, lambda: _score("schnapsen", (7, 0), pot=1)),
    (M.POT_NEGATIVE, lambda: _score("snapszer", (7, 0), pot=-1)),
    (M.GAMES_AFTER_DECIDED, lambda: _score("snapszer-hu", [(7, 3), (7, 2), (7, 1)])),
    (M.GAMES_NOT_DECIDED, lambda: _score("snapszer-hu", [(7, 3)])),
    (M.ONE_GAME_PER_MATCH, lambda: _score("snapszer", [(7, 3), (7, 2)])),
    (M.SCORE_NOT_TWO_NUMBERS, lambda: _score("snapszer", [(7,)])),
    (M.SCORE_NEGATIVE, lambda: _score("sixty-six", (-1, 7))),
    (M.SCORE_BELOW_TARGET, lambda: _score("snapszer", (6, 4))),
    (M.SCORE_BOTH_REACHED, lambda: _score("snapszer-hu", [(7, 3), (7, 7)])),
    (M.SCORE_TOO_HIGH, lambda: _score("snapszer", (10, 6))),
    (M.HAND_ENDING_NOT_IN_PROFILE, lambda: _hands((None, 0, R.DRAW))),
    (M.HAND_NO_WINNER_EXPECTED, lambda: _hands((0, 0, R.TIE_POT))),
    (M.HAND_NO_POINTS_EXPECTED, lambda: _hands((None, 1, R.TIE_POT))),
    (M.HAND_WINNER_NEEDED, lambda: _hands((None, 3, R.DECLARED))),
    (
        M.HAND_NO_CLOSING,
        lambda: hand_record_problems(PROFILES["schnapsen-lite"], RecordedHand(0, 2, R.FAILED_CLOSE)),
    ),
    (M.HAND_LAST_TRICK_DOES_NOT_WIN, lambda: _hands((0, 1, R.LAST_TRICK))),
    (M.HAND_LAST_TRICK_DECIDES, lambda: _hands((0, 1, R.MORE_POINTS), profile="schnapsen")),
    (M.HAND_NO_BID, lambda: _hands((0, 6, R.BID_WON))),
    (M.HAND_REACHED_66_NO_MATCH, lambda: _hands((0, 1, R.REACHED_66))),
    (M.HAND_WRONG_POINTS, lambda: _hands((0, 3, R.DECLARED), (1, 4, R.DECLARED))),
    (
        M.HANDS_AFTER_DECIDED,
        lambda: _hands((0, 3, R.DECLARED), (0, 3, R.DECLARED), (0, 1, R.DECLARED), (1, 1, R.DECLARED)),
    ),
    (M.HANDS_NOT_DECIDED, lambda: _hands((0, 3, R.DECLARED))),
    (M.NO_MATCH, lambda: raised(lambda: new_match(PROFILES["schnapsen-lite"], 0))),
]


def example_problems() -> list[tuple[ProblemCode, Problem]]:
    """Each example's problem of the code it is there for (the first one, if it has several)."""
    out = []
    for code, make in EXAMPLES:
        problems = make()
        assert all(isinstance(p, Problem) for p in problems), problems
        mine = [p for p in problems if isinstance(p, Problem) and p.code is code]
        assert mine, f"{code!s}: the example gave {problems!r}"
        out.append((code, mine[0]))
    return out
