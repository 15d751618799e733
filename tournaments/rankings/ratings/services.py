"""A club's ratings: the whole history recomputed (pure, ``history.py``) and stored if still current.

Like standings (``tournaments.competitions.services.stage_standings_recompute``), the computation is stamped
with what it read: every stage's ``results_version`` in the club and every played ladder's, read
first. Every confirmed result, correction, void or forfeit raises its stage's version, and every
played ladder match its ladder's, in the same transaction as the write, so when the versions read again under the club's row lock are the ones read first, no result
was committed in between and the ratings are exactly those of the stamped versions. If they moved,
nothing is stored: the write that moved them enqueued its own recomputation on commit (and the beat
reconciler repairs a lost one). Safe to run twice, in parallel, or after a crash.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.db.models import F, IntegerField, Value
from django.utils import timezone

from games.engine.protocol import GameKind
from tournaments.competitions.results.values import VoidResult, result_from_json
from tournaments.models import (
    Club,
    ClubRatings,
    GameResult,
    Ladder,
    LadderChallenge,
    PlayerRating,
    RatingPoint,
    Series,
    Stage,
)
from tournaments.rankings.ratings.history import Encounter, RatingHistory, snap_history, snapszer_history

type Versions = dict[str, int]


def _version_key(kind: int, pk: int) -> str:
    """A stage's key is its id (as stamps have always been written); a ladder's ``ladder:<id>``."""
    return str(pk) if kind == 0 else f"ladder:{pk}"


def club_results_versions(*, club_id: int) -> Versions:
    """Every stage of the club and its ``results_version``, and every ladder of the club that has
    a rated (played) match and its ``results_version`` (one statement: one snapshot). A ladder
    with none has nothing to rate: leaving it out keeps a new ladder from making ratings stale."""
    kind = IntegerField()
    stages = (
        Stage.objects.filter(tournament__club_id=club_id)
        .annotate(kind=Value(0, output_field=kind))
        .values_list("kind", "pk", "results_version")
        .order_by()  # a union takes no default ordering
    )
    ladders = (
        Ladder.objects.filter(club_id=club_id, results_version__gt=0)
        .annotate(kind=Value(1, output_field=kind))
        .values_list("kind", "pk", "results_version")
        .order_by()
    )
    return {_version_key(k, pk): version for k, pk, version in stages.union(ladders, all=True).order_by()}


def club_ratings_enqueue_on_commit(*, club_id: int) -> None:
    """Once the current transaction commits, send the club's recomputation (a write that raised a
    version the ratings read calls this). A broker that is down: the beat reconciler sends it."""
    transaction.on_commit(lambda: _enqueue(club_id))


def _enqueue(club_id: int) -> None:
    from snapleague.celery import enqueue
    from tournaments.tasks import club_ratings_recompute_task  # tasks import this module

    ticket = club_ratings_ticket(club_id=club_id)
    if ticket is not None:
        enqueue(club_ratings_recompute_task, club_id, ticket)


def club_ratings_ticket(*, club_id: int) -> int | None:
    """The number of this request for the club's recomputation (``ClubRatings.requested`` + 1,
    committed before its task is sent); ``None`` when the club is gone. A task whose ticket is no
    longer the newest returns at once: the newer one, sent after it, does the work (coalescing, so a
    burst of results costs one recomputation of the newest versions, not one each)."""
    with transaction.atomic():
        if not Club.objects.filter(pk=club_id).exists():
            return None
        ClubRatings.objects.get_or_create(club_id=club_id)
        ClubRatings.objects.filter(club_id=club_id).update(requested=F("requested") + 1)
        # The UPDATE holds the row until the commit: this reads our own number.
        return ClubRatings.objects.values_list("requested", flat=True).get(club_id=club_id)


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
                order=(
                    moment,
                    0,
                    row[f"{base}_id"],
                    row["stage__order"],
                    row["round__number"],
                    row["table"],
                    0,
                ),
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
                    0,
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
    encounters = {GameKind.SNAPSZER: snapszer, GameKind.SNAP: snap}
    for game, encounter in _ladder_encounters(club_id):
        encounters[game].append(encounter)
    return encounters


def _ladder_encounters(club_id: int) -> list[tuple[GameKind, Encounter]]:
    """The club's ladder matches that were played (a score recorded), each a two-player encounter
    of the ladder's game placed by the score: a Snapszer match is rated like a decided two-player
    series, a Snap match like one two-player game. Forfeits (declined, not played in time) and
    cancelled challenges are not games, as walkovers are not (docs/ratings.md). A match is played
    when its result was decided: that time orders it among the series (whose time is their round's
    publishing), and its club day is its rating period."""
    rows = LadderChallenge.objects.filter(
        ladder__club_id=club_id,
        status=LadderChallenge.Status.DECIDED,
        how=LadderChallenge.How.PLAYED,
        decided_at__isnull=False,
    ).values(
        "pk", "ladder_id", "ladder__game", "challenger_id", "challenged_id", "challenger_won", "decided_at"
    )
    encounters = []
    for row in rows:
        moment, day = _when(row["decided_at"])
        won = bool(row["challenger_won"])
        encounters.append(
            (
                GameKind(row["ladder__game"]),
                Encounter(
                    order=(moment, 1, row["ladder_id"], row["pk"], 0, 0, 0),
                    period=day,
                    series_id=None,
                    game_number=None,
                    placings={row["challenger_id"]: 1 if won else 2, row["challenged_id"]: 2 if won else 1},
                    challenge_id=row["pk"],
                ),
            )
        )
    return encounters


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
                            "challenge": move.challenge_id,
                            "opponents": list(move.opponents),
                            "placing": move.placing,
                            "players": move.players,
                        }
                        for move in point.moves
                    ],
                )
            )
    return ratings, points


def club_ratings_recompute(*, club_id: int, ticket: int | None = None) -> bool:
    """Recompute the club's ratings from its confirmed results and store them if the versions
    read are still current and not stored already. Returns whether it stored anything.

    ``ticket`` (:func:`club_ratings_ticket`): when a newer request for the club was made since,
    return at once; its own task comes after this one. The reconciler's tasks carry none."""
    if ticket is not None and ClubRatings.objects.filter(club_id=club_id, requested__gt=ticket).exists():
        return False
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
    """Clubs whose stored ratings were computed from other versions than their stages' and played
    ladders' now (for the beat reconciler). Clubs with neither have nothing to rate."""
    current: dict[int, Versions] = defaultdict(dict)
    for club_id, stage_id, version in Stage.objects.values_list(
        "tournament__club_id", "pk", "results_version"
    ):
        current[club_id][_version_key(0, stage_id)] = version
    for club_id, ladder_id, version in Ladder.objects.filter(results_version__gt=0).values_list(
        "club_id", "pk", "results_version"
    ):
        current[club_id][_version_key(1, ladder_id)] = version
    stamps = dict(ClubRatings.objects.values_list("club_id", "versions"))
    return sorted(club for club, versions in current.items() if stamps.get(club) != versions)
