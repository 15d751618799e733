"""A club's ratings: the whole history recomputed (pure, ``history.py``) and stored if still current.

Like standings (``tournaments.services.stage_standings_recompute``), the computation is stamped
with what it read: every stage's ``results_version`` in the club, read first. Every confirmed
result, correction, void or forfeit raises its stage's version in the same transaction as the
write, so when the versions read again under the club's row lock are the ones read first, no result
was committed in between and the ratings are exactly those of the stamped versions. If they moved,
nothing is stored: the write that moved them enqueued its own recomputation on commit (and the beat
reconciler repairs a lost one). Safe to run twice, in parallel, or after a crash.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine.protocol import GameKind
from tournaments.models import (
    Club,
    ClubRatings,
    GameResult,
    PlayerRating,
    RatingPoint,
    Series,
    Stage,
)
from tournaments.ratings.history import Encounter, RatingHistory, snap_history, snapszer_history
from tournaments.results.values import VoidResult, result_from_json

type Versions = dict[str, int]


def club_results_versions(*, club_id: int) -> Versions:
    """Every stage of the club and its ``results_version`` (one statement: one snapshot)."""
    rows = Stage.objects.filter(tournament__club_id=club_id).values_list("pk", "results_version")
    return {str(pk): version for pk, version in rows}


def _when(published_at: datetime | None) -> tuple[float, str]:
    """The order key's time and the club day (the site's time zone) of a round published then."""
    if published_at is None:  # a round always has it once it has series; be safe, sort it first
        return 0.0, ""
    return published_at.timestamp(), timezone.localtime(published_at).date().isoformat()


def club_encounters(*, club_id: int) -> dict[GameKind, list[Encounter]]:
    """The club's rated games, by game: decided two-player Snapszer series (placings as decided,
    walkovers left out) and every confirmed Snap game that is not void. Online games and games at
    the tables are the same results here."""
    base = "stage__tournament"
    snapszer = []
    for row in Series.objects.filter(
        **{f"{base}__club_id": club_id, f"{base}__game": GameKind.SNAPSZER},
        status=Series.Status.DECIDED,
        walkover=False,
    ).values("pk", "placings", "table", "round__published_at", "round__number", "stage__order", f"{base}_id"):
        moment, day = _when(row["round__published_at"])
        snapszer.append(
            Encounter(
                order=(moment, row[f"{base}_id"], row["stage__order"], row["round__number"], row["table"], 0),
                period=day,
                series_id=row["pk"],
                game_number=None,
                placings={int(p): int(place) for p, place in row["placings"].items()},
            )
        )
    snap = []
    game_base = f"game__series__{base}"
    for row in GameResult.objects.filter(
        **{f"{game_base}__club_id": club_id, f"{game_base}__game": GameKind.SNAP},
        confirmed=True,
        void=False,
    ).values(
        "data",
        "game__number",
        "game__series_id",
        "game__series__table",
        "game__series__round__published_at",
        "game__series__round__number",
        "game__series__stage__order",
        f"{game_base}_id",
    ):
        value = result_from_json(row["data"])
        if isinstance(value, VoidResult):
            continue
        moment, day = _when(row["game__series__round__published_at"])
        snap.append(
            Encounter(
                order=(
                    moment,
                    row[f"{game_base}_id"],
                    row["game__series__stage__order"],
                    row["game__series__round__number"],
                    row["game__series__table"],
                    row["game__number"],
                ),
                period=day,
                series_id=row["game__series_id"],
                game_number=row["game__number"],
                placings=dict(value.placings),
            )
        )
    return {GameKind.SNAPSZER: snapszer, GameKind.SNAP: snap}


def club_ratings_compute(*, club_id: int) -> dict[GameKind, RatingHistory]:
    """The club's ratings from its whole history (nothing is stored)."""
    encounters = club_encounters(club_id=club_id)
    return {
        GameKind.SNAPSZER: snapszer_history(encounters[GameKind.SNAPSZER]),
        GameKind.SNAP: snap_history(encounters[GameKind.SNAP]),
    }


def _rows(
    club_id: int, histories: dict[GameKind, RatingHistory]
) -> tuple[list[PlayerRating], list[RatingPoint]]:
    ratings: list[PlayerRating] = []
    points: list[RatingPoint] = []
    for game, history in histories.items():
        for player_id, rating in history.current.items():
            ratings.append(
                PlayerRating(
                    club_id=club_id,
                    player_id=player_id,
                    game=game.value,
                    value=rating.value,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    volatility=rating.volatility,
                    played=rating.played,
                )
            )
        for point in history.points:
            points.append(
                RatingPoint(
                    club_id=club_id,
                    player_id=point.player_id,
                    game=game.value,
                    seq=point.seq,
                    period=point.period,
                    value=point.rating.value,
                    mu=point.rating.mu,
                    sigma=point.rating.sigma,
                    delta=point.delta,
                    moves=[
                        {
                            "series": move.series_id,
                            "game": move.game_number,
                            "opponents": list(move.opponents),
                            "placing": move.placing,
                            "players": move.players,
                        }
                        for move in point.moves
                    ],
                )
            )
    return ratings, points


def club_ratings_recompute(*, club_id: int) -> bool:
    """Recompute the club's ratings from its confirmed results and store them if the versions
    read are still current and not stored already. Returns whether it stored anything."""
    versions = club_results_versions(club_id=club_id)
    stored = ClubRatings.objects.filter(club_id=club_id).values_list("versions", flat=True).first()
    if stored == versions:
        return False  # already computed from exactly these results (a repeated or parallel task)
    histories = club_ratings_compute(club_id=club_id)
    ratings, points = _rows(club_id, histories)
    with transaction.atomic():
        if not Club.objects.select_for_update().filter(pk=club_id).exists():
            return False  # deleted meanwhile
        if club_results_versions(club_id=club_id) != versions:
            return False  # a newer result came in: its own recomputation stores the ratings
        stamp, _ = ClubRatings.objects.get_or_create(club_id=club_id)
        if stamp.versions == versions:
            return False
        PlayerRating.objects.filter(club_id=club_id).delete()
        RatingPoint.objects.filter(club_id=club_id).delete()
        PlayerRating.objects.bulk_create(ratings, batch_size=1000)
        RatingPoint.objects.bulk_create(points, batch_size=1000)
        stamp.versions = versions
        stamp.computed_at = timezone.now()
        stamp.save(update_fields=["versions", "computed_at"])
    return True


def clubs_with_stale_ratings() -> list[int]:
    """Clubs whose stored ratings were computed from other stage versions than their stages' now
    (for the beat reconciler). Clubs without stages have nothing to rate."""
    current: dict[int, Versions] = defaultdict(dict)
    for club_id, stage_id, version in Stage.objects.values_list(
        "tournament__club_id", "pk", "results_version"
    ):
        current[club_id][str(stage_id)] = version
    stamps = dict(ClubRatings.objects.values_list("club_id", "versions"))
    return sorted(club for club, versions in current.items() if stamps.get(club) != versions)
