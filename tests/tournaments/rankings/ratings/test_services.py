"""The stored ratings: recomputed from the whole confirmed history, whatever order it was entered in.

A club's history is built by hand (rounds published on given days, series seated) and its results
recorded through the same service the pages use, so the stage versions move as in production and
the recomputation runs from the standings task (Celery runs eagerly in unit tests).
"""

from __future__ import annotations

import random
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db.models import F

from snapleague.users import Account
from tests.conftest import record_result, series_seated, snap_win, snapszer_win
from tournaments.models import (
    Club,
    ClubRatings,
    Entry,
    GameKind,
    Player,
    PlayerRating,
    RatingPoint,
    Round,
    Series,
    Stage,
    StageFormat,
    Tournament,
)
from tournaments.rankings.ratings.history import snapszer_history
from tournaments.rankings.ratings.services import (
    club_encounters,
    club_ratings_recompute,
    clubs_with_stale_ratings,
)
from tournaments.tasks import standings_reconcile_task

NAMES = ["Anna", "Bence", "Csilla", "Dániel", "Eszter", "Ferenc"]
DAY1 = datetime(2026, 11, 14, 18, 0, tzinfo=UTC)

# Snapszer: (day, round, [(winner, loser), …]) — each a best of 3 won 2-0 or 2-1.
SNAPSZER_PLAN = [
    (0, 1, [("Anna", "Bence", 0), ("Csilla", "Dániel", 1), ("Eszter", "Ferenc", 0)]),
    (0, 2, [("Anna", "Csilla", 1), ("Dániel", "Bence", 0), ("Ferenc", "Eszter", 1)]),
    (7, 1, [("Bence", "Anna", 0), ("Csilla", "Eszter", 0), ("Dániel", "Ferenc", 1)]),
    (7, 2, [("Csilla", "Anna", 0), ("Bence", "Ferenc", 1)]),
]
# Snap: (day, round, [order of going out, winner last], games per series)
SNAP_PLAN = [
    (0, 1, [["Anna", "Bence", "Csilla"], ["Csilla", "Bence", "Anna"]]),
    (1, 1, [["Bence", "Anna", "Csilla"], ["Anna", "Csilla", "Bence"]]),
]


def _club(organiser: Account, slug: str) -> tuple[Club, dict[str, Player]]:
    club = Club.objects.create(name=slug, slug=slug)
    club.organisers.add(organiser)
    return club, {name: Player.objects.create(club=club, name=name) for name in NAMES}


def _series(tournament: Tournament, day: int, number: int, table: int, seated: list[Player]) -> Series:
    stage, _ = Stage.objects.get_or_create(
        tournament=tournament,
        order=1 + day,
        defaults={
            "name": f"Day {day}",
            "format": StageFormat.ROUND_ROBIN,
            "seed": secrets.token_hex(8),
            "options": {"table_size": len(seated)} if tournament.game == GameKind.SNAP else {},
        },
    )
    for player in seated:
        Entry.objects.get_or_create(tournament=tournament, player=player)
    round_, _ = Round.objects.get_or_create(
        stage=stage, number=number, defaults={"published_at": DAY1 + timedelta(days=day, hours=number)}
    )
    return series_seated(round_, table, seated, series_format=tournament.series_format)


type Job = tuple[int, int, dict[str, Any]]  # series id, game number, result


def _build(organiser: Account, slug: str) -> tuple[Club, dict[str, Player], list[list[Job]]]:
    """The club's history: for every series, its games in order (a series' games must be entered
    in order; the series themselves in any)."""
    club, p = _club(organiser, slug)
    snapszer = Tournament.objects.create(
        club=club, name="Autumn", game=GameKind.SNAPSZER, rules_profile="snapszer"
    )
    snap = Tournament.objects.create(
        club=club, name="Snap night", game=GameKind.SNAP, rules_profile="classic"
    )
    jobs: list[list[Job]] = []
    for day, number, pairs in SNAPSZER_PLAN:
        for table, (winner, loser, loser_games) in enumerate(pairs, start=1):
            series = _series(snapszer, day, number, table, [p[winner], p[loser]])
            w, lo = p[winner], p[loser]
            games = [snapszer_win(w, lo)] + [snapszer_win(lo, w, 5)] * loser_games + [snapszer_win(w, lo, 6)]
            jobs.append([(series.pk, n, r) for n, r in enumerate(games, start=1)])
    for day, number, orders in SNAP_PLAN:
        series = _series(snap, day, number, 1, [p[n] for n in NAMES[:3]])
        games = []
        for out in orders:
            games.append(snap_win(p[out[-1]], *(p[n] for n in out[:-1])))
        jobs.append([(series.pk, n, r) for n, r in enumerate(games, start=1)])
    return club, p, jobs


def _enter(organiser: Account, jobs: list[list[Job]], rng: random.Random | None) -> None:
    queues = [list(series_jobs) for series_jobs in jobs]
    while any(queues):
        open_queues = [q for q in queues if q]
        queue = rng.choice(open_queues) if rng else open_queues[0]
        series_id, number, result = queue.pop(0)
        record_result(user=organiser, series_id=series_id, game_number=number, result=result)


def _stored(club: Club) -> dict[tuple[str, str], tuple[float, float, float | None, int]]:
    return {
        (r.game, r.player.name): (
            round(r.value, 9),
            round(r.sigma, 9),
            r.volatility and round(r.volatility, 9),
            r.played,
        )
        for r in PlayerRating.objects.filter(club=club).select_related("player")
    }


def _points(club: Club) -> list[tuple[str, str, int, str, float, int]]:
    return sorted(
        (pt.game, pt.player.name, pt.seq, pt.period, round(pt.value, 9), len(pt.moves))
        for pt in RatingPoint.objects.filter(club=club).select_related("player")
    )


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_history_in_a_shuffled_order_gives_identical_ratings(organiser: Account, seed: int) -> None:
    club_a, _, jobs_a = _build(organiser, "in-order")
    club_b, _, jobs_b = _build(organiser, "shuffled")

    _enter(organiser, jobs_a, None)
    _enter(organiser, jobs_b, random.Random(seed))

    assert _stored(club_a) == _stored(club_b)
    assert _points(club_a) == _points(club_b)
    assert len(_stored(club_a)) == 9  # six Snapszer players, three Snap players
    # Stamped with the versions read: nothing is stale, a repeat stores nothing.
    assert clubs_with_stale_ratings() == []
    assert club_ratings_recompute(club_id=club_a.pk) is False


@pytest.mark.django_db
def test_stored_ratings_are_the_pure_history_of_the_decided_series(organiser: Account) -> None:
    club, p, jobs = _build(organiser, "pure")
    _enter(organiser, jobs, None)

    encounters = club_encounters(club_id=club.pk)[GameKind.SNAPSZER]
    expected = snapszer_history(encounters)

    assert len(encounters) == 11
    assert {e.period for e in encounters} == {"2026-11-14", "2026-11-21"}
    stored = {r.player_id: r for r in PlayerRating.objects.filter(club=club, game=GameKind.SNAPSZER)}
    assert {pid: pytest.approx(r.value) for pid, r in expected.current.items()} == {
        pid: r.value for pid, r in stored.items()
    }
    # Csilla won all four of her series, Ferenc one of four.
    assert stored[p["Csilla"].pk].value > 1500 > stored[p["Ferenc"].pk].value
    anna_points = RatingPoint.objects.filter(player=p["Anna"], game=GameKind.SNAPSZER).order_by("seq")
    assert [pt.period for pt in anna_points] == ["2026-11-14", "2026-11-21"]
    assert [len(pt.moves) for pt in anna_points] == [2, 2]


def _correct(organiser: Account, series: Series, number: int, result: dict[str, Any], **extra: Any) -> None:
    version = series.games.get(number=number).results.get(confirmed=True).version
    record_result(
        user=organiser,
        series_id=series.pk,
        game_number=number,
        result=result,
        expected_version=version,
        reason="Wrong winner entered",
        **extra,
    )


@pytest.mark.django_db
def test_a_correction_gives_the_ratings_of_the_right_result_entered_first(organiser: Account) -> None:
    right, _, right_jobs = _build(organiser, "right")
    wrong, p, wrong_jobs = _build(organiser, "wrong")
    _enter(organiser, right_jobs, None)
    # The Snap series of day 0: game 2 recorded with Bence winning instead of Anna, then corrected.
    snap_series = Series.objects.get(
        stage__tournament__club=wrong, stage__tournament__game=GameKind.SNAP, stage__order=1
    )
    mistaken = {snap_series.pk: snap_win(p["Bence"], p["Csilla"], p["Anna"])}
    for queue in wrong_jobs:
        for series_id, number, result in queue:
            entered = mistaken[series_id] if (series_id in mistaken and number == 2) else result
            record_result(user=organiser, series_id=series_id, game_number=number, result=entered)
    before = _stored(wrong)
    assert before != _stored(right)

    _correct(organiser, snap_series, 2, snap_win(p["Anna"], p["Csilla"], p["Bence"]))

    assert _stored(wrong) == _stored(right)
    assert _points(wrong) == _points(right)


@pytest.mark.django_db
def test_a_voided_game_counts_for_nothing(organiser: Account) -> None:
    club, p, jobs = _build(organiser, "void")
    _enter(organiser, jobs, None)
    # Day 0 round 1: Csilla beat Dániel 2-1. Game 2 corrected to Csilla: 2-0, game 3 is voided.
    series = Series.objects.get(
        stage__tournament__club=club,
        seats__player=p["Csilla"],
        round__number=1,
        stage__order=1,
        stage__tournament__game=GameKind.SNAPSZER,
    )
    rating_before = PlayerRating.objects.get(player=p["Csilla"], game=GameKind.SNAPSZER).value
    points_before = _points(club)
    snap = PlayerRating.objects.get(player=p["Anna"], game=GameKind.SNAP).value

    _correct(organiser, series, 2, snapszer_win(p["Csilla"], p["Dániel"], 2), void_later_games=True)

    # The series' winner is the same: the Snapszer ratings are the same; a Snap game voided would
    # have dropped out of the Snap history (none here: Snap is untouched).
    assert series.games.get(number=3).results.get(confirmed=True).void
    assert PlayerRating.objects.get(player=p["Csilla"], game=GameKind.SNAPSZER).value == rating_before
    assert _points(club) == points_before
    assert PlayerRating.objects.get(player=p["Anna"], game=GameKind.SNAP).value == snap
    assert ClubRatings.objects.get(club=club).versions == {
        str(pk): v
        for pk, v in Stage.objects.filter(tournament__club=club).values_list("pk", "results_version")
    }


@pytest.mark.django_db
def test_a_stale_club_is_found_and_repaired_by_the_reconciler(organiser: Account) -> None:
    club, _, jobs = _build(organiser, "stale")
    _enter(organiser, jobs, None)
    PlayerRating.objects.filter(club=club).delete()
    ClubRatings.objects.filter(club=club).update(versions={})

    assert clubs_with_stale_ratings() == [club.pk]
    standings_reconcile_task()

    assert clubs_with_stale_ratings() == []
    assert PlayerRating.objects.filter(club=club).count() == 9


@pytest.mark.django_db
def test_results_read_after_the_versions_moved_are_not_stored(organiser: Account, monkeypatch: Any) -> None:
    club, _, jobs = _build(organiser, "race")
    _enter(organiser, jobs[:1], None)
    stored = _stored(club)
    from tournaments.rankings.ratings import services

    real = services.club_ratings_compute

    def compute_then_a_result_lands(*, club_id: int) -> Any:
        histories = real(club_id=club_id)
        Stage.objects.filter(tournament__club_id=club_id).update(results_version=F("results_version") + 1)
        return histories

    monkeypatch.setattr(services, "club_ratings_compute", compute_then_a_result_lands)
    _enter(organiser, jobs[1:2], None)  # its recomputation reads, then the versions move

    assert _stored(club) == stored  # nothing stored from a read that may be incomplete
    assert club.pk in clubs_with_stale_ratings()
