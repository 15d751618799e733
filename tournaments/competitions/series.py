"""A series: the games one set of seats plays to produce one result (rules/snap.md S39-S43).

Pure: no Django, no clock, no randomness except the coin flip, which is a hash of the series seed
(S42: its hash is published when the series starts, the seed when it ends).

Vocabulary
- A **series** is played by 2-6 seats (Snap) or 2 seats (Snapszer). Seats are positions
  ``0 .. seat_count - 1`` in the series' seat order; the caller maps them to players.
- A **game** is one Snap game or, for Snapszer, one match (rules/snapszer.md "Tournament series":
  a Snapszer series is counted in matches, and a match always has a winner).
- A game's outcome lists a placing per seat in competition ranking (1 = winner; tied seats share a
  place and the next place is skipped: ``1, 1, 3``). A game with more than one seat at place 1 is a
  **draw** (S19/S20 adjudication): it counts as a game without a winner (S40).

The status of a series is a fold of its games: :func:`series_status` replays them from
:func:`series_start` with :func:`series_advance`; :func:`check_outcome` and
:func:`check_game_allowed` say, in plain English with a stable code, why a game may not be recorded.

Rule decisions (where the rules leave room; also in docs/tournaments.md)
- S40 is read literally: a best-of-N series stops at more than N/2 wins or after N games, even if
  a leader could no longer be caught earlier (the remaining games still count for S43 placings).
- S41: after 2K+1 games a single leader wins on wins; only level leaders play sudden death.
- S42: a sudden-death game whose first place is shared is a draw; it is replayed among the seats
  that shared first place only (the others lost that game and are placed below them by it). After
  two drawn replays, fewer wrong calls over the whole series decides (every remaining contender
  played every game, so the totals compare like with like; games without recorded wrong calls add
  nothing). If they are level too, a coin flip picks the winner among those level; it does not
  order the others, who fall to the next key of S43.
- S43 "sum of game placings" sums the normal series games only (every seat played all of them);
  sudden-death games rank the tied leaders through "the sudden-death result".
- Seats with equal wins, equal sudden-death result and equal sums share a series placing.
- A Snapszer series that ends level (only possible with an even best-of or the first-to cap)
  is settled by one sudden-death match, which always has a winner.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final

from games.engine.protocol import GameKind  # a Snapszer series game is one match (X32)
from tournaments.competitions.problems import TournamentErrorCode, checked_extra

MAX_SUDDEN_DEATH_REPLAYS = 2  # S42
SNAP_SEATS = range(2, 7)  # S1: 2 to 6 players


class SeriesKind(StrEnum):
    BEST_OF = "best_of"
    FIRST_TO = "first_to"


@dataclass(frozen=True, slots=True)
class SeriesLength:
    """How long a series runs (S39): best of N games, or first to K game wins.

    ``code`` ("best_of_3", "first_to_3") is how it is stored and chosen (the tournament model's
    ``SeriesFormat`` choices are such codes); :func:`series_length` reads it back.
    Raises SeriesError("invalid_format") when ``number`` is below 1.
    """

    kind: SeriesKind
    number: int

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or not isinstance(self.number, int) or self.number < 1:
            raise SeriesError(
                SeriesProblem(
                    SeriesErrorCode.INVALID_FORMAT,
                    "A series length needs a whole number of games of at least 1.",
                    {"number": repr(self.number)},
                )
            )

    @classmethod
    def best_of(cls, n: int) -> SeriesLength:
        return cls(SeriesKind.BEST_OF, n)

    @classmethod
    def first_to(cls, k: int) -> SeriesLength:
        return cls(SeriesKind.FIRST_TO, k)

    @property
    def code(self) -> str:
        """The stored form, e.g. "best_of_3", "first_to_3"."""
        return f"{self.kind.value}_{self.number}"

    @property
    def label(self) -> str:
        """English label, e.g. "best of 3", "first to 3"."""
        return f"{'best of' if self.kind is SeriesKind.BEST_OF else 'first to'} {self.number}"

    @property
    def max_normal_games(self) -> int:
        """How many normal games can be played at most: N (S40) or the 2K+1 cap (S41)."""
        return self.number if self.kind is SeriesKind.BEST_OF else 2 * self.number + 1


BEST_OF_3 = SeriesLength(SeriesKind.BEST_OF, 3)
BEST_OF_5 = SeriesLength(SeriesKind.BEST_OF, 5)
FIRST_TO_3 = SeriesLength(SeriesKind.FIRST_TO, 3)


def series_length(code: str) -> SeriesLength:
    """The length a stored code names: "best_of_3" is best of 3, "first_to_3" first to 3 (the
    inverse of :attr:`SeriesLength.code`). Raises ValueError for text that names none, and
    SeriesError("invalid_format") for a number below 1."""
    kind, _, number = code.rpartition("_")
    if kind not in SeriesKind or not number.isdigit():
        raise ValueError(f"not a series length: {code!r}")
    return SeriesLength(SeriesKind(kind), int(number))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One recorded game (Snapszer: one match) of a series.

    ``placings[s]`` is seat ``s``'s place in competition ranking (1 = winner), or ``None`` for a
    seat that did not play (only in a sudden-death game). ``wrong_calls`` (Snap, online play; S42)
    and ``game_points`` (Snapszer) are optional and, when given, have a value exactly for the seats
    that played. All three tuples are indexed by series seat.
    """

    placings: tuple[int | None, ...]
    sudden_death: bool = False
    wrong_calls: tuple[int | None, ...] | None = None
    game_points: tuple[int | None, ...] | None = None

    @classmethod
    def from_players[P: Hashable](
        cls,
        seats: Sequence[P],
        placings: Mapping[P, int],
        *,
        sudden_death: bool = False,
        wrong_calls: Mapping[P, int] | None = None,
        game_points: Mapping[P, int] | None = None,
    ) -> GameOutcome:
        """Build an outcome from values keyed by player, ``seats`` being the series' players in seat
        order; a player missing from ``placings`` sat the game out. Raises SeriesError
        ("not_seated") when a mapping names someone who is not seated."""
        seated = set(seats)
        for mapping in (placings, wrong_calls or {}, game_points or {}):
            strangers = [p for p in mapping if p not in seated]
            if strangers:
                raise SeriesError(
                    SeriesProblem(
                        SeriesErrorCode.NOT_SEATED,
                        "The result names a player who is not seated in this series.",
                        {"players": sorted(map(str, strangers))},
                    )
                )

        def per_seat(mapping: Mapping[P, int] | None) -> tuple[int | None, ...] | None:
            return None if mapping is None else tuple(mapping.get(p) for p in seats)

        return cls(
            placings=tuple(placings.get(p) for p in seats),
            sudden_death=sudden_death,
            wrong_calls=per_seat(wrong_calls),
            game_points=per_seat(game_points),
        )

    @property
    def seats_in_game(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.placings) if place is not None)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats at place 1: one seat for a won game, several for a draw."""
        return tuple(seat for seat, place in enumerate(self.placings) if place == 1)

    @property
    def winner(self) -> int | None:
        """The game's winner, or None for a draw."""
        first = self.winners
        return first[0] if len(first) == 1 else None


class Due(StrEnum):
    """What the series needs next."""

    GAME = "game"  # a normal series game, all seats
    SUDDEN_DEATH = "sudden_death"  # the first sudden-death game among the level leaders (S40-S42)
    SUDDEN_DEATH_REPLAY = "sudden_death_replay"  # a drawn sudden-death game is replayed (S42)
    COIN_FLIP = "coin_flip"  # S42: only the series seed can decide; call again with ``seed``
    NOTHING = "nothing"  # the series is decided


class DecidedBy(StrEnum):
    """What settled who won the series."""

    WINS = "wins"
    SUDDEN_DEATH = "sudden_death"
    WRONG_CALLS = "wrong_calls"
    COIN_FLIP = "coin_flip"


class SeriesErrorCode(TournamentErrorCode):
    """Why a series input is refused, and the ``extra`` values each code carries. Seats in extras
    are 0-based seat indices (:data:`SEAT_EXTRAS`, :data:`PER_SEAT_EXTRAS`); ``players`` are the
    caller's player keys as strings."""

    INVALID_FORMAT = "invalid_format", ("number",)
    INVALID_SEAT_COUNT = "invalid_seat_count", ("seat_count", "allowed")
    SERIES_DECIDED = "series_decided", ("winner", "decided_by")
    AWAITING_COIN_FLIP = "awaiting_coin_flip", ("seats",)
    WRONG_NUMBER_OF_SEATS = "wrong_number_of_seats", ("expected", "given")
    NOT_SEATED = "not_seated", ("players",)  # a result keyed by player names someone not seated
    UNKNOWN_SEAT = "unknown_seat", ("seats", "seat_count")  # a seat index outside the series
    DUPLICATE_SEAT = "duplicate_seat", ("seats",)
    ALL_SEATS_PLAY = "all_seats_play", ("seats",)
    SUDDEN_DEATH_SEATS = "sudden_death_seats", ("seats",)
    SUDDEN_DEATH_DUE = "sudden_death_due", ("seats",)
    SUDDEN_DEATH_NOT_DUE = "sudden_death_not_due"
    INVALID_PLACINGS = "invalid_placings", ("placings",)
    SNAPSZER_NO_DRAW = "snapszer_no_draw"
    INVALID_WRONG_CALLS = "invalid_wrong_calls", ("wrong_calls",)  # not Snap, or not a count per seat
    INVALID_GAME_POINTS = "invalid_game_points", ("game_points",)  # not Snapszer, or not per seat


# Extras that name seats (0-based indices) and extras holding one value per seat, indexed by seat:
# the Django side shows the player in that seat instead.
SEAT_EXTRAS: Final[frozenset[str]] = frozenset({"seats", "winner"})
PER_SEAT_EXTRAS: Final[frozenset[str]] = frozenset({"placings", "wrong_calls", "game_points"})


@dataclass(frozen=True, slots=True)
class SeriesProblem:
    """Why something is refused: a stable ``code`` (the Django layer translates by it), an English
    ``message`` for logs and the shell, and ``extra`` values: exactly the names the code declares
    (seat indices are 0-based). Raises TypeError (a bug here) when they do not match."""

    code: SeriesErrorCode
    message: str
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        checked_extra(self.code, self.extra)


class SeriesError(ValueError):
    """An impossible series input; carries the first :class:`SeriesProblem` (and all of them)."""

    def __init__(self, problem: SeriesProblem, *more: SeriesProblem, game_index: int | None = None) -> None:
        where = f" (game {game_index + 1})" if game_index is not None else ""
        super().__init__(f"{problem.code}: {problem.message}{where}")
        self.problem = problem
        self.problems = (problem, *more)
        self.code = problem.code
        self.message = problem.message
        self.game_index = game_index


@dataclass(frozen=True, slots=True)
class SeriesStatus:
    """Where a series stands after its recorded games. All tuples are indexed by seat.

    Public reading: ``decided``, ``decided_by``, ``winner``, ``placings`` (S43, competition
    ranking, only once decided), ``wins`` (normal games won), ``due`` and ``due_seats`` (who plays
    the next game; for ``Due.COIN_FLIP`` the seats the flip is between), ``replays_left``.
    ``sudden_death_keys`` is the fold's working state (each leader's placings in the sudden-death
    games, then wrong calls and the coin flip); exposed for explanations, not to be built by hand.
    """

    length: SeriesLength
    game: GameKind
    seat_count: int
    normal_games: int
    sudden_death_games: int
    wins: tuple[int, ...]
    sudden_death_wins: tuple[int, ...]
    placing_sums: tuple[int, ...]
    wrong_calls: tuple[int, ...]
    wrong_calls_recorded: bool
    game_points: tuple[int, ...]
    game_points_recorded: bool
    due: Due
    due_seats: tuple[int, ...]
    replays_left: int
    decided_by: DecidedBy | None
    winner: int | None
    placings: tuple[int, ...] | None
    sudden_death_keys: tuple[tuple[int, ...], ...]

    @property
    def decided(self) -> bool:
        return self.due is Due.NOTHING

    @property
    def games_played(self) -> int:
        return self.normal_games + self.sudden_death_games

    @property
    def games_won(self) -> tuple[int, ...]:
        """Games won per seat, sudden-death games included (the standings' "games won")."""
        return tuple(w + s for w, s in zip(self.wins, self.sudden_death_wins, strict=True))

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the most normal-game wins."""
        top = max(self.wins)
        return tuple(seat for seat, w in enumerate(self.wins) if w == top)


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


# -- the fold -----------------------------------------------------------------------------------


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
