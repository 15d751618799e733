"""Why a game may not be recorded now, in plain English with a stable code: who may play it
(:func:`check_game_allowed`) and whether its outcome is one (:func:`check_outcome`). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.protocol import GameKind  # a Snapszer series game is one match (X32)
from tournaments.competitions.series.values import (
    Due,
    GameOutcome,
    SeriesErrorCode,
    SeriesProblem,
    SeriesStatus,
)


def check_game_allowed(
    status: SeriesStatus, seats_in_game: Iterable[int], *, sudden_death: bool | None = None
) -> tuple[SeriesProblem, ...]:
    """Why a game between ``seats_in_game`` may not be recorded now (empty: it may).

    ``sudden_death``, when given, is what the submitter believes the game is; a mismatch with what
    is due is refused.
    """
    seats = list(seats_in_game)
    if status.due is Due.NOTHING:
        return (
            SeriesProblem(
                SeriesErrorCode.SERIES_DECIDED,
                "This series is already decided.",
                {"winner": status.winner, "decided_by": str(status.decided_by)},
            ),
        )
    if status.due is Due.COIN_FLIP:
        return (
            SeriesProblem(
                SeriesErrorCode.AWAITING_COIN_FLIP,
                "No game is due: the series is decided by a coin flip drawn from the series seed.",
                {"seats": list(status.due_seats)},
            ),
        )
    problems: list[SeriesProblem] = []
    unknown = sorted({s for s in seats if not (isinstance(s, int) and 0 <= s < status.seat_count)}, key=str)
    if unknown:
        problems.append(
            SeriesProblem(
                SeriesErrorCode.UNKNOWN_SEAT,
                "The game lists a seat that is not in this series.",
                {"seats": unknown, "seat_count": status.seat_count},
            )
        )
    duplicates = sorted({s for s in seats if seats.count(s) > 1}, key=str)
    if duplicates:
        problems.append(
            SeriesProblem(
                SeriesErrorCode.DUPLICATE_SEAT, "Each seat may be listed only once.", {"seats": duplicates}
            )
        )
    if problems:
        return tuple(problems)
    playing = set(seats)
    is_sudden_death_due = status.due in (Due.SUDDEN_DEATH, Due.SUDDEN_DEATH_REPLAY)
    if sudden_death is not None and sudden_death != is_sudden_death_due:
        if is_sudden_death_due:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.SUDDEN_DEATH_DUE,
                    "The leaders are level: the next game is a sudden-death game among the tied seats.",
                    {"seats": list(status.due_seats)},
                )
            )
        else:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.SUDDEN_DEATH_NOT_DUE,
                    "No sudden-death game is due: sudden death is played only when the series has "
                    "ended with the leaders level.",
                )
            )
    if playing != set(status.due_seats):
        if is_sudden_death_due:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.SUDDEN_DEATH_SEATS,
                    "A sudden-death game is played only by the tied seats.",
                    {"seats": list(status.due_seats)},
                )
            )
        else:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.ALL_SEATS_PLAY,
                    "Every seat of the series plays each series game.",
                    {"seats": list(status.due_seats)},
                )
            )
    return tuple(problems)


def check_outcome(status: SeriesStatus, outcome: GameOutcome) -> tuple[SeriesProblem, ...]:
    """Every reason ``outcome`` may not be recorded as the series' next game (empty: it may).

    Checks what :func:`check_game_allowed` checks, and that the placings are a competition ranking
    of the seats that played, that a Snapszer match has a winner, and the shape of ``wrong_calls``
    (Snap only) and ``game_points`` (Snapszer only).
    """
    n = status.seat_count
    if len(outcome.placings) != n:
        return (
            SeriesProblem(
                SeriesErrorCode.WRONG_NUMBER_OF_SEATS,
                "The result must give a placing (or none) for every seat of the series.",
                {"expected": n, "given": len(outcome.placings)},
            ),
        )
    allowed = check_game_allowed(status, outcome.seats_in_game, sudden_death=outcome.sudden_death)
    if allowed:
        return allowed
    problems: list[SeriesProblem] = []
    places = [p for p in outcome.placings if p is not None]
    if not is_competition_ranking(places):
        problems.append(
            SeriesProblem(
                SeriesErrorCode.INVALID_PLACINGS,
                "Placings must rank the seats that played: 1 for the winner, tied seats share a place "
                "and the next place is skipped (1, 1, 3).",
                {"placings": list(outcome.placings)},
            )
        )
    elif status.game is GameKind.SNAPSZER and outcome.winner is None:
        problems.append(
            SeriesProblem(
                SeriesErrorCode.SNAPSZER_NO_DRAW, "A Snapszer match always has a winner; it cannot be drawn."
            )
        )
    playing = outcome.seats_in_game
    if outcome.wrong_calls is not None:
        if status.game is not GameKind.SNAP:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.INVALID_WRONG_CALLS,
                    "Wrong calls are recorded only in Snap.",
                    {"wrong_calls": list(outcome.wrong_calls)},
                )
            )
        elif not _per_seat_counts_ok(outcome.wrong_calls, playing, n, allow_negative=False):
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.INVALID_WRONG_CALLS,
                    "Wrong calls must be a count of 0 or more for each seat that played, and none for "
                    "the others.",
                    {"wrong_calls": list(outcome.wrong_calls)},
                )
            )
    if outcome.game_points is not None:
        if status.game is not GameKind.SNAPSZER:
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.INVALID_GAME_POINTS,
                    "Game points are recorded only in Snapszer.",
                    {"game_points": list(outcome.game_points)},
                )
            )
        elif not _per_seat_counts_ok(outcome.game_points, playing, n, allow_negative=False):
            problems.append(
                SeriesProblem(
                    SeriesErrorCode.INVALID_GAME_POINTS,
                    "Game points must be 0 or more for each seat that played the match.",
                    {"game_points": list(outcome.game_points)},
                )
            )
    return tuple(problems)


def is_competition_ranking(places: Sequence[int]) -> bool:
    """True when ``places`` is a competition ("1224") ranking: every place p equals 1 plus the number
    of entries strictly better than it (so 1, 1, 3 and 1, 2, 2, 4 are valid; 1, 1, 2 is not)."""
    if not places or any(isinstance(p, bool) or not isinstance(p, int) for p in places):
        return False
    return all(p == 1 + sum(1 for q in places if q < p) for p in places)


def _per_seat_counts_ok(
    values: tuple[int | None, ...], playing: Sequence[int], n: int, *, allow_negative: bool
) -> bool:
    if len(values) != n:
        return False
    for seat, value in enumerate(values):
        if seat in playing:
            if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not allow_negative):
                return False
        elif value is not None:
            return False
    return True
