"""Where engine problems and refused moves become messages people read.

The game engines report what is wrong with rules options or a recorded match as
:class:`~games.engine.errors.Problem` s: English text for logs and the CLI, a stable code and the
values behind it. They refuse a move with an :class:`~games.engine.errors.ActionError`: a code of
the one :class:`~games.engine.errors.ActionCode` vocabulary both engines share, and a detail for
logs. This module maps every code to a translated message written for a club organiser, referee or
player, with the code's params as named placeholders, and is the only place that does. A test
checks that every code of every engine has a message here and that each message formats with the
params its code carries (tests/games/test_engine_messages.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionCode, ActionError, Problem, ProblemCode
from games.engine.protocol import GameKind
from games.engine.sixtysix.match import MatchRecordProblem
from games.engine.sixtysix.rules import SixtySixRulesProblem
from games.engine.sixtysix.state import Reason
from games.engine.snap.rules import SnapRulesProblem

logger = logging.getLogger(__name__)

_SNAP: Final[dict[ProblemCode, Promise]] = {
    SnapRulesProblem.UNKNOWN_PROFILE: _(
        "There is no Snap rules profile called “%(profile)s”. Choose one of: %(known)s."
    ),
    SnapRulesProblem.UNKNOWN_OPTION: _(
        "Snap has no rules option called “%(option)s”. The options are: %(known)s."
    ),
    SnapRulesProblem.NOT_A_CHOICE: _(
        "The Snap option “%(option)s” cannot be “%(value)s”. Choose one of: %(choices)s."
    ),
    SnapRulesProblem.NOT_TRUE_OR_FALSE: _(
        "The Snap option “%(option)s” is switched on or off: give true or false, not “%(value)s”."
    ),
    SnapRulesProblem.NOT_A_WHOLE_NUMBER: _(
        "The Snap option “%(option)s” needs a whole number, not “%(value)s”."
    ),
    SnapRulesProblem.NOT_TEXT: _("The Snap option “%(option)s” needs a name, not “%(value)s”."),
    SnapRulesProblem.PLAYER_COUNT: _(
        "Snap is played by %(min_players)s to %(max_players)s players, not %(players)s."
    ),
    SnapRulesProblem.UNKNOWN_DECK: _("There is no deck called “%(deck)s”. Choose one of: %(known)s."),
    SnapRulesProblem.EXACT_CARD_NEEDS_DOUBLE_DECK: _(
        "Matching the very same card needs two packs shuffled together: choose the deck double104, "
        "or match by rank."
    ),
    SnapRulesProblem.PICTURE_ID_NEEDS_PICTURE_DECK: _(
        "Matching by picture needs a picture deck: choose one, or match playing cards by rank."
    ),
    SnapRulesProblem.PICTURE_DECK_NEEDS_PICTURE_ID: _(
        "The cards of a picture deck match by their picture: set match_key to picture_id, or choose "
        "a pack of playing cards."
    ),
    SnapRulesProblem.PICTURE_VARIANT_AND_DECK: _(
        "The picture variant and a picture deck go together: choose both, or neither."
    ),
    SnapRulesProblem.SLAPJACK_NEEDS_JACKS: _(
        "Slapjack needs Jacks, and a picture deck has none: play it with playing cards, or switch "
        "slapjack off."
    ),
    SnapRulesProblem.DECK_TOO_SMALL: _(
        "The deck %(deck)s has fewer cards than the %(players)s players at the table."
    ),
    SnapRulesProblem.NOBODY_CAN_CALL_SPEED: _(
        "In speed Snap everybody flips, so if the flipper may not call, nobody can: let the flipper "
        "call, or switch speed off."
    ),
    SnapRulesProblem.NOBODY_CAN_CALL_FLIPPER_POOL: _(
        "Only the flipper may call Snap pool under these rules, but the flipper may not call at all: "
        "let the flipper call, or let the first caller take the pool."
    ),
    SnapRulesProblem.SINGLE_PILE_COMBINATION: _(
        "Single-pile Snap cannot be combined with speed, double or slapjack: switch those off, or "
        "play with a pile each."
    ),
    SnapRulesProblem.MAX_FLIPS_TOO_LOW: _("The limit on flips in a game must be at least 1."),
    SnapRulesProblem.EXTRA_ROUNDS_NEGATIVE: _("The number of extra rounds cannot be negative."),
    SnapRulesProblem.TIMING_NOT_POSITIVE: _(
        "Times must be positive: the lockout after a wrong call 0 ms or more, the game length and the "
        "speed tick at least 1."
    ),
    SnapRulesProblem.SPEED_PLAYERS: _("Speed Snap is meant for 2 or 3 players."),
    SnapRulesProblem.MAX_FLIPS_NOT_CLASSIC: _(
        "Classic Snap ends a game after 1000 flips; another limit makes these rules differ from classic."
    ),
    SnapRulesProblem.SILENT_WITH_SLAPJACK: _(
        "In silent Snap with slapjack a slap of the hand means Snap; “Slap!” is still called out."
    ),
}

_SIXTY_SIX: Final[dict[ProblemCode, Promise]] = {
    SixtySixRulesProblem.UNKNOWN_PROFILE: _(
        "There is no Snapszer rules profile called “%(profile)s”. Choose one of: %(known)s."
    ),
    SixtySixRulesProblem.UNKNOWN_OPTION: _(
        "Snapszer has no rules option called “%(option)s”. The options are: %(known)s."
    ),
    SixtySixRulesProblem.NOT_A_CHOICE: _(
        "The option “%(option)s” cannot be “%(value)s”. Choose one of: %(choices)s."
    ),
    SixtySixRulesProblem.NOT_TRUE_OR_FALSE: _(
        "The option “%(option)s” is switched on or off: give true or false, not “%(value)s”."
    ),
    SixtySixRulesProblem.NOT_A_WHOLE_NUMBER: _(
        "The option “%(option)s” needs a whole number, not “%(value)s”."
    ),
    SixtySixRulesProblem.NOT_TEXT: _("The option “%(option)s” needs text, not “%(value)s”."),
    SixtySixRulesProblem.MATCH_UNKNOWN_KEYS: _("The match setting has no %(keys)s; it takes %(known)s."),
    SixtySixRulesProblem.MATCH_NOT_A_FORMAT: _(
        "Give the match as a target (such as 7), as target, games_to_win and countdown, or leave it "
        "empty for single hands; “%(value)s” is none of these."
    ),
    SixtySixRulesProblem.DECK_SIZE: _("The pack has 20 or 24 cards, not “%(value)s”."),
    SixtySixRulesProblem.EXCHANGE_RANK: _(
        "The card exchanged for the turned-up trump is the lowest trump, 9 or J, not “%(value)s”."
    ),
    SixtySixRulesProblem.EXCHANGE_NINE_NEEDS_24: _(
        "A 20-card pack has no 9s: exchange the trump Jack instead, or play with 24 cards."
    ),
    SixtySixRulesProblem.EXCHANGE_JACK_WITH_24: _(
        "With 24 cards the lowest trump is the 9: exchange the trump 9 instead, or play with 20 cards."
    ),
    SixtySixRulesProblem.MIN_TALON_EXCHANGE: _(
        "The smallest talon that still allows an exchange is a whole number from 2 to %(talon)s, "
        "not “%(value)s”."
    ),
    SixtySixRulesProblem.MIN_TALON_CLOSE: _(
        "The smallest talon that still allows closing is a whole number from 2 to %(talon)s, or empty "
        "for no closing; not “%(value)s”."
    ),
    SixtySixRulesProblem.CLOSE_BEFORE_DRAW_NEEDS_CLOSING: _(
        "Closing before drawing needs closing: allow closing, or switch closing before drawing off."
    ),
    SixtySixRulesProblem.AUTOMATIC_WITH_CLOSING: _(
        "When a hand ends by itself at 66, nobody declares, so a close cannot be judged: switch closing off."
    ),
    SixtySixRulesProblem.AUTOMATIC_WITH_BID: _(
        "When a hand ends by itself at 66, the Snapszer bid cannot be played: switch the bid off."
    ),
    SixtySixRulesProblem.NO_TIE_NEEDS_EQUAL_POINTS_NONE: _(
        "When the last trick decides a hand nobody declared, there are no ties: set equal_points to none."
    ),
    SixtySixRulesProblem.TIE_NEEDS_EQUAL_POINTS: _(
        "A hand nobody declared is decided by points (%(nobody_declares)s), so say what a tie does: "
        "set equal_points to pot or redeal."
    ),
    SixtySixRulesProblem.POT_NEEDS_MATCH: _(
        "A tied hand's point goes into a pot for the next hand, which needs a match: give the match a "
        "target, or choose another rule for ties."
    ),
    SixtySixRulesProblem.POT_NEEDS_ALTERNATE_DEALER: _(
        "With a pot for ties the deal has to alternate: a tied hand has no winner to deal next."
    ),
    SixtySixRulesProblem.BID_POINTS: _(
        "The Snapszer bid is worth a positive whole number of game points, or leave it empty for no "
        "bid; not “%(value)s”."
    ),
    SixtySixRulesProblem.MATCH_TARGET: _(
        "The match target is a positive whole number of game points, not “%(value)s”."
    ),
    SixtySixRulesProblem.MATCH_GAMES_TO_WIN: _(
        "The number of games that wins the match is a positive whole number, not “%(value)s”."
    ),
    SixtySixRulesProblem.COUNTDOWN_ONE_GAME: _(
        "Counting down (the Bummerl) is for a match of one game to the target, not of several games."
    ),
}

_MATCH_RECORD: Final[dict[ProblemCode, Promise]] = {
    MatchRecordProblem.NO_MATCH: _(
        "The rules %(profile)s play single hands: there is no match score to record."
    ),
    MatchRecordProblem.NO_POT: _(
        "The rules %(profile)s have no pot for tied hands, but a pot of %(pot)s was given: set it to 0."
    ),
    MatchRecordProblem.POT_NEGATIVE: _("The pot carried into the last hand cannot be negative."),
    MatchRecordProblem.GAMES_AFTER_DECIDED: _(
        "Game %(decided_by)s already decided the match, but %(recorded)s games were entered: leave out "
        "the games after it."
    ),
    MatchRecordProblem.GAMES_NOT_DECIDED: _(
        "Nobody has won %(games_to_win)s games yet (games won %(a)s–%(b)s): the match is not over."
    ),
    MatchRecordProblem.ONE_GAME_PER_MATCH: _(
        "A match under the rules %(profile)s is one game, but %(recorded)s games were entered."
    ),
    MatchRecordProblem.SCORE_NOT_TWO_NUMBERS: _(
        "Give the score as two whole numbers, one per player, not “%(value)s”."
    ),
    MatchRecordProblem.SCORE_NEGATIVE: _("%(a)s–%(b)s: game points cannot be negative."),
    MatchRecordProblem.SCORE_BELOW_TARGET: _(
        "%(a)s–%(b)s: nobody has reached %(target)s, so the match is not over yet."
    ),
    MatchRecordProblem.SCORE_BOTH_REACHED: _(
        "%(a)s–%(b)s: the match ends when the first player reaches %(target)s, so only one player can "
        "have %(target)s or more. Check the score."
    ),
    MatchRecordProblem.SCORE_TOO_HIGH: _(
        "%(a)s–%(b)s: the winner can have at most %(most)s (%(target)s minus 1 before the last hand, "
        "plus at most %(award)s from it). Check the score and the pot carried into the last hand."
    ),
    MatchRecordProblem.HAND_ENDING_NOT_IN_PROFILE: _(
        "A hand cannot end with “%(reason)s” under the rules %(profile)s."
    ),
    MatchRecordProblem.HAND_NO_WINNER_EXPECTED: _("A hand that ends with “%(reason)s” has no winner."),
    MatchRecordProblem.HAND_NO_POINTS_EXPECTED: _("A hand that ends with “%(reason)s” gives no game points."),
    MatchRecordProblem.HAND_WINNER_NEEDED: _(
        "A hand that ends with “%(reason)s” has a winner: choose the player who won it."
    ),
    MatchRecordProblem.HAND_NO_CLOSING: _("There is no closing under the rules %(profile)s."),
    MatchRecordProblem.HAND_LAST_TRICK_DOES_NOT_WIN: _(
        "Under the rules %(profile)s the last trick alone does not win a hand."
    ),
    MatchRecordProblem.HAND_LAST_TRICK_DECIDES: _(
        "Under the rules %(profile)s the last trick, not more points, decides a hand nobody declared."
    ),
    MatchRecordProblem.HAND_NO_BID: _("There is no Snapszer bid under the rules %(profile)s."),
    MatchRecordProblem.HAND_REACHED_66_NO_MATCH: _(
        "A hand that ends with “%(reason)s” belongs to rules without matches; it cannot be recorded "
        "in a match."
    ),
    MatchRecordProblem.HAND_WRONG_POINTS: _(
        "A hand that ends with “%(reason)s” gives %(allowed)s game points, not %(points)s."
    ),
    MatchRecordProblem.HANDS_AFTER_DECIDED: _(
        "The match was already decided after hand %(decided_after)s: leave out the hands after it."
    ),
    MatchRecordProblem.HANDS_NOT_DECIDED: _(
        "After %(hands)s hands the score is %(a)s–%(b)s and nobody has won the match: add the missing hands."
    ),
}

MESSAGES: Final[Mapping[ProblemCode, Promise]] = {**_SNAP, **_SIXTY_SIX, **_MATCH_RECORD}

# Why an engine refused a move, said to the player who made it (or the referee entering it). The
# first group are parse errors: what arrived is not a move of this game at all, so the player's
# screen is out of date or the client is wrong, and reloading is the way out. The second are rule
# errors: a real move the rules do not allow now. No code carries params.
ACTION_MESSAGES: Final[Mapping[ActionCode, Promise]] = {
    ActionCode.MALFORMED: _("That is not a move in this game. Reload the game and try again."),
    ActionCode.NO_SUCH_SEAT: _("There is no such seat at this table."),
    ActionCode.NO_SUCH_STATE: _(
        "That call answers a card that is not on the table yet. Reload the game and try again."
    ),
    ActionCode.BAD_DEAL: _("The deal must be the whole pack, each card exactly once."),
    ActionCode.BAD_ORDER: _("The new order of a shuffled pile must be exactly the cards of that pile."),
    ActionCode.GAME_OVER: _("This hand or game is already over."),
    ActionCode.NOT_YOUR_TURN: _("It is not your turn."),
    ActionCode.NOT_LEGAL: _("That move is not allowed now."),
    ActionCode.NOT_TURN_BASED: _(
        "In speed Snap everybody's cards are turned together: nobody turns a card alone."
    ),
    ActionCode.NOT_SPEED: _("Cards are turned together only in speed Snap: here each player turns in turn."),
    ActionCode.ORDER_REQUIRED: _(
        "This pile is shuffled before it is turned over again, so its new order is needed."
    ),
    ActionCode.ORDER_NOT_DUE: _("No pile is being turned over now, so no new order is needed."),
    # Snap's words: the only engine that raises it is Snap's, for a call on a card turned over since.
    ActionCode.STALE: _("Too late: the game has moved on since the moment your call answers."),
    ActionCode.TIME_BACKWARDS: _(
        "That move arrived out of order, after a later one. Reload the game and try again."
    ),
}

# A refusal whose words depend on the game (looked up before ACTION_MESSAGES). Snapszer has no calls:
# its online table refuses as "stale" a move chosen on a table that has changed since (the other
# player moved, or the same move was sent twice), and the page then shows the table as it is now.
GAME_ACTION_MESSAGES: Final[Mapping[tuple[GameKind, ActionCode], Promise]] = {
    (GameKind.SNAPSZER, ActionCode.STALE): _(
        "Too late: the table had changed before your move arrived, so it was not played. "
        "Look at the table as it is now."
    ),
}

# "Where" params (games.engine.errors.LOCATION_PARAMS) become a prefix, in this order.
LOCATIONS: Final[dict[str, Promise]] = {
    "game": _("Game %(game)s: %(problem)s"),
    "hand": _("Hand %(hand)s: %(problem)s"),
}

REASONS: Final[dict[str, Promise]] = {
    Reason.DECLARED: _("declared 66"),
    Reason.WRONG_DECLARATION: _("a wrong declaration"),
    Reason.FAILED_CLOSE: _("a failed close"),
    Reason.REACHED_66: _("66 reached without declaring"),
    Reason.LAST_TRICK: _("the last trick"),
    Reason.MORE_POINTS: _("more points"),
    Reason.TIE_POT: _("a tie (a point into the pot)"),
    Reason.DRAW: _("a draw (dealt again)"),
    Reason.BID_WON: _("the bid won"),
    Reason.BID_LOST: _("the bid lost"),
}

# "1, 2 or 3": the last two of a list of numbers, joined the way the language does.
OR: Final[Promise] = _("%(first)s or %(last)s")

FALLBACK: Final[Promise] = _("These settings cannot be used. Please tell the club's organiser.")
ACTION_FALLBACK: Final[Promise] = _("That move cannot be played now.")


def display_value(value: object) -> str:
    """A param as a person reads it: text as is, anything else as JSON shows it (7, true, null,
    [7], {"goal": 7}), since the values are often the user's own input as they sent it."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def one_of(values: Sequence[object]) -> str:
    """``(1, 2, 3)`` as "1, 2 or 3" in the active language."""
    items = [display_value(v) for v in values]
    if len(items) < 2:
        return "".join(items)
    return str(OR % {"first": ", ".join(items[:-1]), "last": items[-1]})


def message_params(problem: Problem) -> dict[str, str]:
    """The problem's params ready for its message's placeholders."""
    params = {name: display_value(value) for name, value in problem.params.items()}
    if "reason" in problem.params:
        reason = str(problem.params["reason"])
        params["reason"] = str(REASONS.get(reason, reason))
    if "allowed" in problem.params and isinstance(problem.params["allowed"], list | tuple):
        params["allowed"] = one_of(problem.params["allowed"])
    return params


def problem_message(problem: str) -> str:
    """The translated message for an engine problem, in the active language.

    A plain string (not a coded Problem) or a code without a message is a bug: it is logged and the
    user gets a general message rather than untranslated English or a 500.
    """
    template = MESSAGES.get(problem.code) if isinstance(problem, Problem) else None
    if template is None or not isinstance(problem, Problem):
        logger.error("engine problem without a translated message: %r", problem)
        return str(FALLBACK)
    text = str(template % message_params(problem))
    for where, wrapper in LOCATIONS.items():
        if where in problem.params:
            text = str(wrapper % {where: display_value(problem.params[where]), "problem": text})
    return text


def problem_messages(problems: Iterable[str]) -> list[str]:
    """:func:`problem_message` of each problem, in order."""
    return [problem_message(p) for p in problems]


def action_error_message(error: ActionError, kind: str | None = None) -> str:
    """What to tell the player (or referee) whose move an engine refused, in the active language.

    Parse errors (:class:`~games.engine.errors.InvalidAction`) and rule errors
    (:class:`~games.engine.errors.IllegalAction`) alike: the code says which. The error's ``detail``
    is for logs and never shown. A code without a message is a bug: it is logged and the player
    gets a general message rather than untranslated English or a 500. ``kind`` (the game, when the
    caller knows it) picks a game's own words where a code reads differently per game
    (:data:`GAME_ACTION_MESSAGES`).
    """
    template = GAME_ACTION_MESSAGES.get((GameKind(kind), error.code)) if kind else None
    if template is None:
        template = ACTION_MESSAGES.get(error.code)
    if template is None:
        logger.error("engine action error without a translated message: %r", error)
        return str(ACTION_FALLBACK)
    return str(template)
