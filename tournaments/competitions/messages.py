"""Where the pure tournament modules' problems become messages people read.

``tournaments/competitions/series/``, ``standings/`` and ``formats/`` refuse inputs with a stable code, an
English message (logs, the shell) and ``extra`` values whose names each code declares
(:class:`~tournaments.competitions.problems.TournamentErrorCode`). This module maps every code to a translated
message for an organiser or referee, with the extras as named placeholders, and is the only place
that does; ``engine_messages`` is its sibling for the game engines' problems. Extras are shown the
way a referee reads them: seats as the players in them (when the caller knows the names), a game
or series as its number counted from 1, how a series was decided ("wins") in words. A test checks
that every code has a message that formats with its extras
(tests/tournaments/competitions/test_tournament_messages.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine_messages import LOCATIONS, display_value, one_of
from tournaments.competitions.formats.base import FormatErrorCode
from tournaments.competitions.formats.round_robin import PairingErrorCode
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.series.values import (
    PER_SEAT_EXTRAS,
    SEAT_EXTRAS,
    DecidedBy,
    SeriesError,
    SeriesErrorCode,
    SeriesProblem,
)
from tournaments.competitions.standings.chain import StandingsErrorCode

logger = logging.getLogger(__name__)

_SERIES: Final[dict[TournamentErrorCode, Promise]] = {
    SeriesErrorCode.INVALID_FORMAT: _(
        "A series is best of, or first to, a whole number of games of at least 1, not %(number)s."
    ),
    SeriesErrorCode.INVALID_SEAT_COUNT: _(
        "A series of this game is played by %(allowed)s players, not %(seat_count)s."
    ),
    SeriesErrorCode.SERIES_DECIDED: _(
        "The series was already decided before this game: %(winner)s had won it %(decided_by)s."
    ),
    SeriesErrorCode.AWAITING_COIN_FLIP: _(
        "No game is due: %(seats)s are level after sudden death, and the coin flip drawn from the "
        "series seed decides between them."
    ),
    SeriesErrorCode.WRONG_NUMBER_OF_SEATS: _(
        "The result gives %(given)s placings, but the series has %(expected)s players."
    ),
    SeriesErrorCode.NOT_SEATED: _("The result names players who do not play in this series: %(players)s."),
    SeriesErrorCode.UNKNOWN_SEAT: _(
        "The game names seats that this series of %(seat_count)s players does not have: %(seats)s."
    ),
    SeriesErrorCode.DUPLICATE_SEAT: _("Listed more than once in the game: %(seats)s."),
    SeriesErrorCode.ALL_SEATS_PLAY: _("Every player of the series plays each series game: %(seats)s."),
    SeriesErrorCode.SUDDEN_DEATH_SEATS: _(
        "A sudden-death game is played only by the players level at the top: %(seats)s."
    ),
    SeriesErrorCode.SUDDEN_DEATH_DUE: _(
        "The leaders are level, so the next game is a sudden-death game between %(seats)s."
    ),
    SeriesErrorCode.SUDDEN_DEATH_NOT_DUE: _(
        "No sudden-death game is due: sudden death is played only when the series has ended with "
        "the leaders level."
    ),
    SeriesErrorCode.INVALID_PLACINGS: _(
        "The placings (%(placings)s) must rank the players who played: 1 for the winner; tied players "
        "share a place and the next place is skipped (1, 1, 3)."
    ),
    SeriesErrorCode.SNAPSZER_NO_DRAW: _("A Snapszer match always has a winner; it cannot be drawn."),
    SeriesErrorCode.INVALID_WRONG_CALLS: _(
        "Wrong calls (%(wrong_calls)s) are recorded only in Snap, as a count of 0 or more for each "
        "player who played the game."
    ),
    SeriesErrorCode.INVALID_GAME_POINTS: _(
        "Game points (%(game_points)s) are recorded only in Snapszer, as 0 or more for each player of "
        "the match."
    ),
}

_STANDINGS: Final[dict[TournamentErrorCode, Promise]] = {
    StandingsErrorCode.INVALID_CHAIN: _(
        "The tiebreaks %(tiebreaks)s cannot be used here as listed: list each tiebreak at most once, "
        "choosing from %(allowed)s."
    ),
    StandingsErrorCode.UNKNOWN_PLAYER: _("A bye is recorded for players who are not entered: %(players)s."),
    StandingsErrorCode.SERIES_SEATS: _(
        "Series %(series)s must seat two different entrants of the round robin, not %(players)s."
    ),
    StandingsErrorCode.INVALID_SERIES: _("Series %(series)s cannot be counted."),
    StandingsErrorCode.SERIES_PLAYERS: _(
        "Series %(series)s must be played by 2 to 6 different entrants of the stage, not %(players)s."
    ),
    StandingsErrorCode.INVALID_SERIES_RESULT: _(
        "The result of series %(series)s (%(result)s) does not rank its players: 1 for the winner, "
        "tied players share a place and the next place is skipped (1, 1, 3)."
    ),
}

_PAIRING: Final[dict[TournamentErrorCode, Promise]] = {
    PairingErrorCode.TOO_FEW_ENTRANTS: _(
        "A round robin needs at least 2 players; entered so far: %(entrants)s. Enter more players first."
    ),
    # The same code, extras and message as StandingsErrorCode.DUPLICATE_ENTRANT.
    PairingErrorCode.DUPLICATE_ENTRANT: _("These players are listed more than once: %(players)s."),
    PairingErrorCode.INVALID_TABLE_SIZE: _("A Snap table seats 2 to 6 players, not %(table_size)s."),
    PairingErrorCode.TABLE_OF_ONE: _(
        "At tables of %(table_size)s, one of the %(entrants)s players would sit alone: enter one more "
        "player, or create the stage with a larger table size."
    ),
}

_F = FormatErrorCode
_FORMATS: Final[dict[TournamentErrorCode, Promise]] = {
    _F.UNKNOWN_FORMAT: _("There is no stage format %(value)s. Choose %(allowed)s."),
    _F.FORMAT_NOT_FOR_GAME: _(
        "A %(format)s stage cannot be played in %(game)s, which is played by two players at a time."
    ),
    _F.UNKNOWN_OPTION: _("This format has no option “%(field)s”. Its options are: %(known)s."),
    _F.OPTION_NOT_A_NUMBER: _(
        "“%(field)s” must be a whole number from %(minimum)s to %(maximum)s, not %(value)s."
    ),
    _F.OPTION_NOT_YES_OR_NO: _("“%(field)s” is true or false, not %(value)s."),
    _F.OPTION_NOT_A_CHOICE: _("“%(field)s” must be %(allowed)s, not %(value)s."),
    _F.NOT_ENOUGH_ENTRANTS: _(
        "This needs at least %(minimum)s players, and there are %(entrants)s. Enter more players or "
        "change the options."
    ),
    _F.TOO_MANY_ROUNDS: _(
        "%(entrants)s players can play at most %(most)s rounds without anyone meeting twice, not "
        "%(rounds)s. Choose fewer rounds."
    ),
    _F.ADVANCE_NOT_BELOW_TABLE_SIZE: _(
        "The number going on from each table (%(advance)s) must be below the table size "
        "(%(table_size)s): at every table someone goes out."
    ),
    _F.GROUPS_UNEVEN: _(
        "%(entrants)s players cannot be split into groups of %(group_size)s: every group needs "
        "%(group_size)s players or one fewer. Choose another group size."
    ),
    _F.ADVANCE_NOT_BELOW_GROUP_SIZE: _(
        "The number going on from each group (%(advance)s) must be below the size of the smallest "
        "group (%(smallest_group)s)."
    ),
    _F.OPTION_NEEDS_TWO_SEATS: _("“%(field)s” needs two-player series, not tables of %(table_size)s."),
    _F.TABLES_NOT_FOR_GAME: _("%(game)s is played by two players: choose a table size of 2."),
    _F.NOT_AN_ENTRANT: _("These players are not entered in the stage: %(players)s."),
    _F.UNKNOWN_SERIES: _("No series %(series)s has been published in this stage."),
    _F.INVALID_RESULT: _(
        "The result of series %(series)s (%(result)s) does not rank its players: 1 for the winner, "
        "tied players share a place, and nothing for an empty seat."
    ),
    _F.TIED_AT_CUT: _(
        "In series %(series)s players are tied across the top %(advance)s who go on (%(result)s). "
        "Break the tie with the table's standings."
    ),
    _F.STANDINGS_NOT_THE_GROUP: _(
        "The standings given for group %(group)s (%(players)s) are not that group's players."
    ),
    _F.ROUND_ALREADY_GENERATED: _("Round %(round)s has already been generated."),
    _F.ROUND_NOT_DUE: _(
        "Round %(round)s cannot be generated yet: these series are still to be decided: %(waiting)s."
    ),
    _F.ROUND_NOT_NEXT: _("The next round to generate is round %(next)s, not round %(round)s."),
    _F.NO_MORE_ROUNDS: _("The stage has no round %(round)s: all %(rounds)s of its rounds are generated."),
    _F.NO_PAIRING_WITHOUT_REMATCH: _(
        "Round %(round)s cannot be paired without two players meeting again. Choose fewer rounds, or "
        "end the stage."
    ),
}

MESSAGES: Final[Mapping[TournamentErrorCode, Promise]] = {**_SERIES, **_STANDINGS, **_PAIRING, **_FORMATS}

# How a series was decided, as the end of "… had won it …" (also the series page's label).
DECIDED_BY: Final[dict[str, Promise]] = {
    DecidedBy.WINS: _("on wins"),
    DecidedBy.SUDDEN_DEATH: _("in sudden death"),
    DecidedBy.WRONG_CALLS: _("on fewer wrong calls"),
    DecidedBy.COIN_FLIP: _("by the coin flip"),
}

# A seat whose player the caller did not name (or one outside the series), counted from 1.
SEAT: Final[Promise] = _("seat %(number)s")

# Extras that are 0-based positions in what the caller passed: shown counted from 1.
INDEX_EXTRAS: Final[frozenset[str]] = frozenset({"series", "game_index"})

# A correction that decides the series before games already recorded (services._series_update):
# the games it would void, and how the organiser confirms it (the form's checkbox, the API field).
VOID_LATER_GAMES: Final[Promise] = _(
    "With this correction the series is decided after game %(game)s: %(winner)s won it "
    "%(decided_by)s. The games recorded after it would be voided: %(games)s. To save the correction, "
    "confirm that they are voided (tick “Void the games played after the decision”, or send "
    '"void_later_games": true); voided games stay in the history.'
)
VOID_LATER_GAMES_FIELD: Final[Promise] = _("Tick this to void %(games)s and save the correction.")
GAME_NUMBER: Final[Promise] = _("game %(n)s")
GAME_VOID: Final[Promise] = _(
    "Game %(n)s is void: the series was decided before it. It can be recorded again only when a "
    "correction of an earlier game makes it needed."
)
GAME_VOID_CONFLICT: Final[Promise] = _(
    "Game %(n)s was voided by a correction. Reload to see it; an organiser can record it again if a "
    "correction of an earlier game makes it needed."
)

FALLBACK: Final[Promise] = _("This cannot be done as it is. Please tell the club's organiser.")


def _seat(seat: object, seat_names: Sequence[str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return str(SEAT % {"number": seat + 1})
    return display_value(seat)


def _listed(values: object, show: Callable[[object], str]) -> str:
    if isinstance(values, list | tuple):
        return ", ".join(show(v) for v in values)
    return show(values)


def message_params(
    extra: Mapping[str, object],
    *,
    seat_names: Sequence[str] = (),
    player_names: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """A problem's ``extra`` ready for its message's placeholders, as a referee reads them."""
    names = player_names or {}
    params: dict[str, str] = {}
    for name, value in extra.items():
        if name in SEAT_EXTRAS:
            params[name] = _listed(value, lambda seat: _seat(seat, seat_names))
        elif name in PER_SEAT_EXTRAS and isinstance(value, list | tuple):
            params[name] = ", ".join(
                f"{_seat(seat, seat_names)} {'—' if v is None else display_value(v)}"
                for seat, v in enumerate(value)
            )
        elif name == "players":
            params[name] = _listed(value, lambda key: names.get(str(key), display_value(key)))
        elif name in INDEX_EXTRAS and isinstance(value, int) and not isinstance(value, bool):
            params[name] = str(value + 1)
        elif name == "decided_by":
            params[name] = str(DECIDED_BY.get(str(value), display_value(value)))
        elif name == "allowed" and isinstance(value, list | tuple):
            params[name] = one_of(value)
        else:
            params[name] = _listed(value, display_value)
    return params


def _message(
    code: object,
    extra: Mapping[str, object],
    *,
    seat_names: Sequence[str] = (),
    player_names: Mapping[str, str] | None = None,
) -> str:
    template = MESSAGES.get(code) if isinstance(code, TournamentErrorCode) else None
    if template is None:
        logger.error("tournament problem without a translated message: %r %r", code, extra)
        return str(FALLBACK)
    return str(template % message_params(extra, seat_names=seat_names, player_names=player_names))


def series_problem_message(
    problem: SeriesProblem, *, seat_names: Sequence[str] = (), player_names: Mapping[str, str] | None = None
) -> str:
    """The translated message for one series problem. ``seat_names`` are the players' names by
    seat; ``player_names`` maps the player keys given to ``GameOutcome.from_players`` to names."""
    return _message(problem.code, problem.extra, seat_names=seat_names, player_names=player_names)


def series_error_message(
    error: SeriesError, *, seat_names: Sequence[str] = (), player_names: Mapping[str, str] | None = None
) -> str:
    """Every problem of ``error`` in the active language, after "Game n:" when it is about a
    recorded game (``game_index`` counted from 1)."""
    text = " ".join(
        series_problem_message(p, seat_names=seat_names, player_names=player_names) for p in error.problems
    )
    if error.game_index is not None:
        text = str(LOCATIONS["game"] % {"game": error.game_index + 1, "problem": text})
    return text


def games_listed(numbers: Sequence[int]) -> str:
    """Game numbers as a referee reads them: "game 3, game 4"."""
    return ", ".join(str(GAME_NUMBER % {"n": n}) for n in numbers)


def void_later_games_messages(
    *, deciding_game: int, winner: str, decided_by: object, games: Sequence[int]
) -> tuple[str, str]:
    """The refusal of a correction that would void ``games``, and the message for the checkbox
    (or the API's ``void_later_games`` field)."""
    listed = games_listed(games)
    message = VOID_LATER_GAMES % {
        "game": deciding_game,
        "winner": winner,
        "decided_by": DECIDED_BY.get(str(decided_by), display_value(decided_by)),
        "games": listed,
    }
    return str(message), str(VOID_LATER_GAMES_FIELD % {"games": listed})


def tournament_error_message(
    error: TournamentInputError, *, player_names: Mapping[str, str] | None = None
) -> str:
    """The translated message for a standings or pairing error; ``player_names`` maps the player
    keys the pure module was given (as strings) to names. A standings error about a series also
    says what is wrong with it (from the series error it was raised from)."""
    text = _message(error.code, error.extra, player_names=player_names)
    cause = error.__cause__
    if error.code is StandingsErrorCode.INVALID_SERIES and isinstance(cause, SeriesError):
        names = player_names or {}
        seated = error.extra.get("players")
        seat_names = [names.get(str(p), str(p)) for p in seated] if isinstance(seated, list) else []
        text = f"{text} {series_error_message(cause, seat_names=seat_names, player_names=player_names)}"
    return text
