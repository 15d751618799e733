"""Reading ratings: the values seeding sorts by, a club's ratings table, a player's history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.protocol import GameKind
from tournaments.models import (
    Club,
    ClubRatings,
    LadderChallenge,
    Player,
    PlayerRating,
    RatingPoint,
    Series,
    Tournament,
)
from tournaments.rankings.ratings.history import order_by_rating
from tournaments.rankings.ratings.services import club_results_versions

# Glicko-2 ratings whose deviation is above this are provisional (lichess's threshold): shown with
# a "?" and still seeded by their value.
PROVISIONAL_RD = 110.0


def rating_values(*, club_id: int, game: str) -> dict[int, float]:
    """Player id -> the rating value seeding and tables sort by, for the rated players."""
    return dict(PlayerRating.objects.filter(club_id=club_id, game=game).values_list("player_id", "value"))


def seeding_by_rating(*, tournament: Tournament, player_ids: Sequence[int]) -> list[int]:
    """``player_ids`` by the club's current ratings in the tournament's game, best first; unrated
    players after them in the order given (the entry list's)."""
    return order_by_rating(list(player_ids), rating_values(club_id=tournament.club_id, game=tournament.game))


@dataclass(frozen=True)
class RatingsTable:
    game: GameKind
    rows: list[PlayerRating]  # best first, player selected

    @property
    def label(self) -> Any:
        from tournaments.models import GAME_KIND_LABELS

        return GAME_KIND_LABELS[self.game]


@dataclass(frozen=True)
class ClubRatingsPage:
    club: Club
    tables: list[RatingsTable]
    computed_at: Any
    stale: bool


def _stamp(club: Club) -> tuple[Any, bool]:
    stamp = ClubRatings.objects.filter(club=club).first()
    versions = club_results_versions(club_id=club.pk)
    stored = stamp.versions if stamp else {}
    return (stamp.computed_at if stamp else None), (stored != versions and any(versions.values()))


def club_ratings_get(*, club: Club, game: str | None = None) -> ClubRatingsPage:
    """The club's ratings, one table per game that has any (or only ``game``), best first."""
    computed_at, stale = _stamp(club)
    rows = (
        PlayerRating.objects.filter(club=club)
        .select_related("player")
        .order_by("game", "-value", "player__name")
    )
    if game:
        rows = rows.filter(game=game)
    by_game: dict[str, list[PlayerRating]] = {}
    for row in rows:
        by_game.setdefault(row.game, []).append(row)
    tables = [
        RatingsTable(kind, by_game[kind.value])
        for kind in (GameKind.SNAPSZER, GameKind.SNAP)
        if kind.value in by_game
    ]
    return ClubRatingsPage(club=club, tables=tables, computed_at=computed_at, stale=stale)


@dataclass(frozen=True)
class MoveLine:
    series: Series | None
    challenge: LadderChallenge | None  # a ladder match (then no series)
    game_number: int | None
    opponents: list[Player]
    placing: int
    players: int


@dataclass(frozen=True)
class PointLine:
    point: RatingPoint
    moves: list[MoveLine]


@dataclass(frozen=True)
class PlayerRatingHistory:
    game: GameKind
    current: PlayerRating
    points: list[PointLine] = field(default_factory=list)

    @property
    def label(self) -> Any:
        from tournaments.models import GAME_KIND_LABELS

        return GAME_KIND_LABELS[self.game]

    @property
    def provisional(self) -> bool:
        return self.game is GameKind.SNAPSZER and self.current.sigma > PROVISIONAL_RD


def player_rating_histories(*, player: Player) -> list[PlayerRatingHistory]:
    """The player's rating in each game they are rated in, with every point (oldest first) and the
    series, games or ladder matches that moved it."""
    current = {r.game: r for r in PlayerRating.objects.filter(player=player)}
    points = list(RatingPoint.objects.filter(player=player).order_by("game", "seq"))
    series_ids = {m["series"] for p in points for m in p.moves if m.get("series") is not None}
    challenge_ids = {m["challenge"] for p in points for m in p.moves if m.get("challenge") is not None}
    player_ids = {o for p in points for m in p.moves for o in m["opponents"]}
    series = Series.objects.select_related("stage__tournament", "round").in_bulk(series_ids)
    challenges = LadderChallenge.objects.select_related("ladder").in_bulk(challenge_ids)
    names = Player.objects.in_bulk(player_ids)
    histories = []
    for kind in (GameKind.SNAPSZER, GameKind.SNAP):
        if kind.value not in current:
            continue
        lines = [
            PointLine(
                point,
                [
                    MoveLine(
                        series=series.get(m["series"]) if m.get("series") is not None else None,
                        challenge=challenges.get(m["challenge"]) if m.get("challenge") is not None else None,
                        game_number=m["game"],
                        opponents=[names[o] for o in m["opponents"] if o in names],
                        placing=m["placing"],
                        players=m["players"],
                    )
                    for m in point.moves
                ],
            )
            for point in points
            if point.game == kind.value
        ]
        histories.append(PlayerRatingHistory(kind, current[kind.value], lines))
    return histories
