"""Reading Snap statistics: a finished game's (measured from its log, cached: a finished game's log
never changes) and a person's over the finished Snap games the viewer may see. docs/snap-stats.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy

from games.engine.protocol import GameKind
from games.models import OnlineGame
from games.snap_stats.measure import GameStats, SeatStats, Summary, snap_game_stats_from_setup, summarise
from snapleague.errors import Conflict, NotFound

# Raise it when what ``measure`` computes changes: cached figures of the old version are not read.
STATS_VERSION: Final = 1
CACHE_SECONDS: Final = 30 * 24 * 3600
RECENT_GAMES: Final = 200  # a person's figures cover their latest games, at most this many

NO_SUCH_GAME = gettext_lazy("There is no such game.")
NO_SUCH_PERSON = gettext_lazy("There is no such player.")
NOT_SNAP = gettext_lazy("Only Snap games have reaction statistics.")
NOT_FINISHED = gettext_lazy("This game is still being played. Its statistics are measured when it ends.")


def game_stats_get(*, game: OnlineGame) -> GameStats:
    """The statistics of finished Snap game ``game`` (measured once, then read from the cache)."""
    # The end's time is in the key too: a database rebuilt (tests, a restored backup) reuses ids.
    stamp = game.finished_at.timestamp() if game.finished_at else 0
    key = f"snap-stats:{STATS_VERSION}:{game.pk}:{stamp}"
    stats = cache.get(key)
    if stats is None:
        rows = list(game.log.order_by("seq").values_list("action", flat=True))
        stats = snap_game_stats_from_setup(game.setup or {}, rows)
        cache.set(key, stats, CACHE_SECONDS)
    return stats


def _visible_games(user: Any) -> QuerySet[OnlineGame]:
    """Finished Snap games ``user`` may see: casual ones (anyone sees their tables and replays) and
    those of tournament series ``user`` may see (as the replays, games/online/replay.py)."""
    from tournaments.competitions.selectors.tournaments import series_visible

    return OnlineGame.objects.filter(
        kind=GameKind.SNAP, status=OnlineGame.Status.FINISHED, source=OnlineGame.Source.ONLINE
    ).filter(Q(series__isnull=True) | Q(series__in=series_visible(user=user)))


def snap_game_stats_page_get(*, user: Any, game_id: int) -> tuple[OnlineGame, GameStats]:
    """A finished Snap game and its statistics, for whoever may see its replay. Raises NotFound
    (no such game, a series ``user`` may not see), Conflict (not Snap, or not finished)."""
    game = OnlineGame.objects.prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None or (game.series_id is not None and not _visible_games(user).filter(pk=game.pk).exists()):
        raise NotFound(code="game_not_found", message=NO_SUCH_GAME)
    if game.kind != GameKind.SNAP:
        raise Conflict(code="not_snap", message=NOT_SNAP)
    if game.status != OnlineGame.Status.FINISHED:
        raise Conflict(code="game_not_finished", message=NOT_FINISHED)
    return game, game_stats_get(game=game)


@dataclass(frozen=True)
class GameLine:
    """One game of a person's: the game, their seat, their figures in it, and whether they won."""

    game: OnlineGame
    seat: int
    stats: SeatStats
    won: bool
    placing: int | None


@dataclass(frozen=True)
class PersonStats:
    """A person's Snap statistics: every game's line (oldest first) and the summary over them."""

    person: Any
    lines: list[GameLine]
    summary: Summary

    def to_dict(self) -> dict[str, Any]:
        return {
            "user": self.person.pk,
            "username": self.person.get_username(),
            "summary": self.summary.to_dict(),
            "games": [
                {
                    "game": line.game.pk,
                    "finished_at": line.game.finished_at,
                    "tournament": line.game.series_id is not None,
                    "seat": line.seat,
                    "won_game": line.won,
                    "placing": line.placing,
                    **{k: v for k, v in line.stats.to_dict().items() if k != "seat"},
                }
                for line in self.lines
            ],
        }


def person_stats_get(*, user: Any, person_id: int) -> PersonStats:
    """Person ``person_id``'s Snap statistics over their latest ``RECENT_GAMES`` finished Snap games
    that ``user`` may see (a bot that stood in for them is left out, measure.py). Raises NotFound."""
    person = get_user_model().objects.filter(pk=person_id, is_active=True).first()
    if person is None:
        raise NotFound(code="user_not_found", message=NO_SUCH_PERSON)
    games = list(
        _visible_games(user)
        .filter(seats__user=person)
        .prefetch_related("seats")
        .order_by("-finished_at", "-pk")[:RECENT_GAMES]
    )
    games.reverse()
    lines = []
    for game in games:
        seat = next(s.number for s in game.seats.all() if s.user_id == person.pk)
        stats = game_stats_get(game=game)
        placing = stats.placings[seat] if stats.placings else None
        lines.append(GameLine(game, seat, stats.seats[seat], stats.winner == seat, placing))
    summary = summarise((game_stats_get(game=line.game), line.seat) for line in lines)
    return PersonStats(person, lines, summary)
