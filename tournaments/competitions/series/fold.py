"""The status of a series as a fold of its games: :func:`series_status` replays them from
:func:`series_start` with :func:`series_advance`; the seed's commitment and S42's coin flip. Pure.
The rule decisions it implements are in the package's docstring."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any, Final

from games.engine.protocol import GameKind  # a Snapszer series game is one match (X32)
from tournaments.competitions.series.checks import check_outcome
from tournaments.competitions.series.values import (
    MAX_SUDDEN_DEATH_REPLAYS,
    SNAP_SEATS,
    DecidedBy,
    Due,
    GameOutcome,
    SeriesError,
    SeriesErrorCode,
    SeriesKind,
    SeriesLength,
    SeriesProblem,
    SeriesStatus,
)


def seed_commitment(seed: str) -> str:
    """The publishable commitment to a series (or stage) seed: the SHA-256 hex digest of its UTF-8
    bytes. Publish it when the series starts and the seed when it ends (S42)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def coin_flip(seed: str, tied_seats: Iterable[int]) -> int:
    """S42's coin flip: the winner among ``tied_seats``, a pure function of the seed and the seats.

    ``d = sha256(f"{seed}|{s1},{s2},...")`` over the seats in ascending order; the winner is the
    seat at index ``int(d) mod k`` of that ascending list (anyone holding the published seed can
    check it). Raises ValueError for fewer than two distinct seats.
    """
    seats = sorted(set(tied_seats))
    if len(seats) < 2:
        raise ValueError("a coin flip needs at least two seats")
    digest = hashlib.sha256(f"{seed}|{','.join(map(str, seats))}".encode()).digest()
    return seats[int.from_bytes(digest, "big") % len(seats)]


def series_start(length: SeriesLength, seat_count: int, *, game: GameKind = GameKind.SNAP) -> SeriesStatus:
    """The status of a series before its first game. Raises SeriesError("invalid_seat_count") when
    Snap has not 2-6 seats or Snapszer not exactly 2."""
    allowed = SNAP_SEATS if game is GameKind.SNAP else range(2, 3)
    if isinstance(seat_count, bool) or not isinstance(seat_count, int) or seat_count not in allowed:
        message = (
            "A Snap series is played by 2 to 6 seats."
            if game is GameKind.SNAP
            else "A Snapszer series is played by exactly 2 seats."
        )
        raise SeriesError(
            SeriesProblem(
                SeriesErrorCode.INVALID_SEAT_COUNT,
                message,
                {"seat_count": repr(seat_count), "allowed": list(allowed)},
            )
        )
    zeros = (0,) * seat_count
    return SeriesStatus(
        length=length,
        game=game,
        seat_count=seat_count,
        normal_games=0,
        sudden_death_games=0,
        wins=zeros,
        sudden_death_wins=zeros,
        placing_sums=zeros,
        wrong_calls=zeros,
        wrong_calls_recorded=False,
        game_points=zeros,
        game_points_recorded=False,
        due=Due.GAME,
        due_seats=tuple(range(seat_count)),
        replays_left=MAX_SUDDEN_DEATH_REPLAYS if game is GameKind.SNAP else 0,
        decided_by=None,
        winner=None,
        placings=None,
        sudden_death_keys=((),) * seat_count,
    )


def series_status(
    length: SeriesLength,
    seat_count: int,
    games: Iterable[GameOutcome],
    *,
    game: GameKind = GameKind.SNAP,
    seed: str | None = None,
) -> SeriesStatus:
    """The status after ``games`` (in the order played). ``seed`` is the series seed; it is only
    read when S42 falls to a coin flip (without it the status is ``Due.COIN_FLIP``, undecided).

    Raises SeriesError (with ``game_index``) at the first game that could not have been recorded:
    a game after the series was decided, the wrong seats, invalid placings … — e.g. when a
    corrected result ends the series before a game that was already played.
    """
    status, _counted = _replay(length, seat_count, games, game=game, seed=seed, stop_when_decided=False)
    if status.due is Due.COIN_FLIP and seed is not None:
        status = _flip(status, seed)
    return status


def series_games_counted(
    length: SeriesLength,
    seat_count: int,
    games: Sequence[GameOutcome],
    *,
    game: GameKind = GameKind.SNAP,
    seed: str | None = None,
) -> int:
    """How many of ``games`` (in the order played) count: all of them, or, when the series was
    decided before the last one, the games up to and including the one that decided it. The games
    after those were played after the decision (a correction can cause that) and are to be voided;
    ``series_status(length, seat_count, games[:n], ...)`` is then the series' status.

    A series decided by the coin flip (S42, ``seed`` given) is decided once the flip is due. Raises
    SeriesError (with ``game_index``), as :func:`series_status` does, for any other problem in the
    games that count.
    """
    _status, counted = _replay(length, seat_count, games, game=game, seed=seed, stop_when_decided=True)
    return counted


def _replay(
    length: SeriesLength,
    seat_count: int,
    games: Iterable[GameOutcome],
    *,
    game: GameKind,
    seed: str | None,
    stop_when_decided: bool,
) -> tuple[SeriesStatus, int]:
    """Check and apply ``games`` in order from the start; return the status and how many games it
    took. ``stop_when_decided``: stop before the first game that comes after the decision (a due
    coin flip, with ``seed``, is made first) instead of refusing it. Raises SeriesError (with
    ``game_index``) at the first game that could not have been recorded."""
    status = series_start(length, seat_count, game=game)
    counted = 0
    for outcome in games:
        if stop_when_decided:
            if status.due is Due.COIN_FLIP and seed is not None:
                status = _flip(status, seed)
            if status.due is Due.NOTHING:
                break
        problems = check_outcome(status, outcome)
        if problems:
            raise SeriesError(*problems, game_index=counted)
        status = _advance(status, outcome, seed)
        counted += 1
    return status, counted


def series_advance(status: SeriesStatus, outcome: GameOutcome, *, seed: str | None = None) -> SeriesStatus:
    """The status after one more game. Raises SeriesError when :func:`check_outcome` refuses it."""
    problems = check_outcome(status, outcome)
    if problems:
        raise SeriesError(*problems)
    return _advance(status, outcome, seed)


# -- the fold -----------------------------------------------------------------------------------


_STATUS_FIELDS: Final[tuple[str, ...]] = tuple(f.name for f in fields(SeriesStatus))


def _with(status: SeriesStatus, **changes: Any) -> SeriesStatus:
    """``dataclasses.replace`` for the fold's one class, without its per-call field introspection
    (the fold runs once per game of every series when standings are recomputed)."""
    values = {name: getattr(status, name) for name in _STATUS_FIELDS}
    values.update(changes)
    return SeriesStatus(**values)


def _add(totals: tuple[int, ...], values: tuple[int | None, ...] | None) -> tuple[int, ...]:
    if values is None:
        return totals
    return tuple(t + (v or 0) for t, v in zip(totals, values, strict=True))


def _advance(status: SeriesStatus, outcome: GameOutcome, seed: str | None) -> SeriesStatus:
    """Apply an outcome that :func:`check_outcome` accepted."""
    common = status
    if outcome.wrong_calls is not None or outcome.game_points is not None:  # skip a copy otherwise
        common = _with(
            status,
            wrong_calls=_add(status.wrong_calls, outcome.wrong_calls),
            wrong_calls_recorded=status.wrong_calls_recorded or outcome.wrong_calls is not None,
            game_points=_add(status.game_points, outcome.game_points),
            game_points_recorded=status.game_points_recorded or outcome.game_points is not None,
        )
    if outcome.sudden_death:
        return _advance_sudden_death(common, outcome, seed)
    winner = outcome.winner
    wins = tuple(w + (1 if seat == winner else 0) for seat, w in enumerate(status.wins))
    after = _with(
        common,
        normal_games=status.normal_games + 1,
        wins=wins,
        placing_sums=tuple(s + (p or 0) for s, p in zip(status.placing_sums, outcome.placings, strict=True)),
    )
    length = status.length
    if length.kind is SeriesKind.BEST_OF:
        over = 2 * max(wins) > length.number or after.normal_games >= length.number  # S40
    else:
        over = max(wins) >= length.number or after.normal_games >= length.max_normal_games  # S41
    if not over:
        return after
    leaders = after.leaders
    if len(leaders) == 1:
        return _decide(after, DecidedBy.WINS, leaders[0])
    # S40/S41: the leaders are level; only they play sudden death (S42).
    return _with(after, due=Due.SUDDEN_DEATH, due_seats=leaders)


def _advance_sudden_death(status: SeriesStatus, outcome: GameOutcome, seed: str | None) -> SeriesStatus:
    keys = list(status.sudden_death_keys)
    sd_wins = list(status.sudden_death_wins)
    for seat in outcome.seats_in_game:
        place = outcome.placings[seat]
        assert place is not None  # seats_in_game lists only seats with a placing
        keys[seat] = (*keys[seat], place)
    winner = outcome.winner
    if winner is not None:
        sd_wins[winner] += 1
    after = _with(
        status,
        sudden_death_games=status.sudden_death_games + 1,
        sudden_death_keys=tuple(keys),
        sudden_death_wins=tuple(sd_wins),
    )
    if winner is not None:
        return _decide(after, DecidedBy.SUDDEN_DEATH, winner)
    drawn = outcome.winners  # S42: a drawn sudden-death game; the seats that shared first go on
    if status.replays_left > 0:
        return _with(
            after, due=Due.SUDDEN_DEATH_REPLAY, due_seats=drawn, replays_left=status.replays_left - 1
        )
    # S42: replays spent; fewer wrong calls in the series decides, then the coin flip.
    fewest = min(after.wrong_calls[s] for s in drawn)
    for seat in drawn:
        keys[seat] = (*keys[seat], after.wrong_calls[seat])
    after = _with(after, sudden_death_keys=tuple(keys))
    level = tuple(s for s in drawn if after.wrong_calls[s] == fewest)
    if len(level) == 1:
        return _decide(after, DecidedBy.WRONG_CALLS, level[0])
    pending = _with(after, due=Due.COIN_FLIP, due_seats=level)
    return _flip(pending, seed) if seed is not None else pending


def _flip(status: SeriesStatus, seed: str) -> SeriesStatus:
    winner = coin_flip(seed, status.due_seats)
    keys = list(status.sudden_death_keys)
    for seat in status.due_seats:
        keys[seat] = (*keys[seat], 0 if seat == winner else 1)
    return _decide(_with(status, sudden_death_keys=tuple(keys)), DecidedBy.COIN_FLIP, winner)


def _decide(status: SeriesStatus, by: DecidedBy, winner: int) -> SeriesStatus:
    # S43: wins, then the sudden-death result, then the sum of game placings (lower is better).
    keys = [
        (-status.wins[seat], status.sudden_death_keys[seat], status.placing_sums[seat])
        for seat in range(status.seat_count)
    ]
    placings = tuple(1 + sum(1 for other in keys if other < key) for key in keys)
    return _with(status, due=Due.NOTHING, due_seats=(), decided_by=by, winner=winner, placings=placings)
