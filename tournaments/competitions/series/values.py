"""A series' values (the vocabulary is in the package's docstring): its length, a game's outcome,
the status the fold gives, and the problems that refuse a game, with their codes. Pure."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

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
