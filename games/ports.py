"""The port through which games reaches tournaments (issue 24 item 2): ``games`` imports nothing from
``tournaments``; what it needs of a tournament is asked here, and ``tournaments`` answers it.

:class:`TournamentPort` is the whole of it: a finished (or abandoned) online series game reported,
who may play or see a series game, and the tournament game ("table game") a hand entered card by
card belongs to. ``tournaments`` implements it (tournaments/competitions/online_port.py) and
registers it when its app is ready (tournaments/apps.py); games calls :func:`tournament_port`.
Nothing registered is a wiring bug, not a user's error: :class:`PortNotRegistered` says so.

The values that cross the port are plain (ids, numbers, strings, frozen dataclasses), except the
query of visible series, which games uses as a subquery.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class PortNotRegistered(RuntimeError):
    """Games asked tournaments something before any implementation of the port was registered."""


@dataclass(frozen=True)
class SeriesPlay:
    """A series as online play needs it: whether its stage is played online, the tournament's game
    (a :class:`~games.engine.protocol.GameKind` value) and its rules as the engine's options."""

    series_id: int
    online: bool
    game: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class SeriesNextGame:
    """The next game of a series: its number and its players (ids, in seat order; none: the
    series has no game to play now)."""

    number: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class TableGame:
    """A tournament game (``tournaments.Game``) as the games pages see it: ``pk`` (the templates'
    name), its series and number, the tournament's game, its players (ids, in seat order) with
    their names and users, ``engine_game`` (the online game its confirmed result was played as, if
    any) and whether the user asking may enter its hands (an organiser of its club, or one of its
    series' players)."""

    pk: int
    series_id: int
    number: int
    game: str
    seats: tuple[int, ...]
    seat_names: tuple[str, ...]
    seat_users: tuple[int | None, ...]
    engine_game: int | None
    may_enter_hands: bool


class TournamentPort(Protocol):
    """What games asks of tournaments. Each method's contract is the tournaments' rule it wraps."""

    def series_play_lock(self, *, series_id: int) -> SeriesPlay | None:
        """Series ``series_id``, its row locked for the caller's transaction (two players pressing
        "Play" at once create one game); None when there is no such series."""
        ...

    def series_next_game(self, *, user: Any, series_id: int) -> SeriesNextGame:
        """The series' next game, for ``user`` who may see the series. Raises ApplicationError
        (NotFound: no such series, or one ``user`` may not see)."""
        ...

    def player_users(self, *, player_ids: Sequence[int]) -> dict[int, int | None]:
        """The user account of each player (None: a player without one)."""
        ...

    def series_game_finished(
        self, *, game_id: int, series_id: int, game_number: int, players: Sequence[int], result: Any
    ) -> None:
        """Record online game ``game_id``'s engine ``result`` (``players[seat]`` sat in each seat)
        as game ``game_number`` of series ``series_id``, with the engine as the source (idempotent
        by ``game_id``)."""
        ...

    def series_game_abandoned(self, *, series_id: int, player_ids: Sequence[int], reason: str) -> None:
        """Record the forfeit of ``player_ids``, away from the series' online game longer than the
        table allows, when the tournament's rule allows it. Raises ApplicationError when it does not."""
        ...

    def series_visible(self, *, user: Any, series_id: int) -> bool:
        """Whether ``user`` may see series ``series_id`` (and so its online games and replays)."""
        ...

    def series_visible_ids(self, *, user: Any) -> Any:
        """A query of the ids of every series ``user`` may see (a subquery: ``series__in=``)."""
        ...

    def table_game_get(self, *, user: Any, table_game_id: int) -> TableGame | None:
        """Tournament game ``table_game_id`` if ``user`` may see it (its series), else None."""
        ...

    def player_to_move(self, *, user_id: int, game_id: int, turn: int, opponents: Sequence[str]) -> None:
        """Tell ``user_id``, away from online game ``game_id``, that it is their move (their
        ``turn``-th wait in it; the same turn again tells nothing more). Notifications are the
        accounts' side, which games does not import (docs/notifications.md)."""
        ...


_PORT: list[TournamentPort] = []


def register_tournament_port(port: TournamentPort) -> None:
    """Make ``port`` the one games asks (tournaments/apps.py, when the app is ready; a second
    registration replaces the first)."""
    _PORT[:] = [port]


def tournament_port() -> TournamentPort:
    """The registered port. Raises :class:`PortNotRegistered` when none is."""
    if not _PORT:
        raise PortNotRegistered(
            "games asked tournaments through games.ports.tournament_port() but no TournamentPort is "
            "registered: tournaments registers it in TournamentsConfig.ready() (is 'tournaments' in "
            "INSTALLED_APPS?)"
        )
    return _PORT[0]
