"""Ladder matches in the club's ratings (docs/ratings.md "Ladder matches"): a played challenge is
an encounter of the ladder's game, ordered by when its result was decided among the series; a
forfeit or a withdrawn challenge is no game. Recording one raises the ladder's version, so the
stamp goes stale and the on-commit task recomputes."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from snapleague.users import Account
from tests.conftest import snapszer_win
from tests.tournaments.rankings.ratings.test_services import (
    DAY1,
    NAMES,
    _build,
    _club,
    _enter,
    _points,
    _series,
    _stored,
)
from tournaments.models import (
    Club,
    ClubRatings,
    GameKind,
    Ladder,
    LadderChallenge,
    Player,
    PlayerRating,
    RatingPoint,
    Tournament,
)
from tournaments.rankings.ladder import services as ladder_services
from tournaments.rankings.ratings.history import Encounter, snap_history, snapszer_history
from tournaments.rankings.ratings.selectors import club_ratings_get
from tournaments.rankings.ratings.services import (
    club_encounters,
    club_ratings_recompute,
    clubs_with_stale_ratings,
)
from tournaments.tasks import standings_reconcile_task

pytestmark = pytest.mark.django_db


@contextmanager
def clock(monkeypatch: Any, at: datetime) -> Iterator[None]:
    """``timezone.now()`` is ``at`` inside (the ladder services read the time of a decision)."""
    with monkeypatch.context() as patch:
        patch.setattr(timezone, "now", lambda: at)
        yield


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run a write and then its on-commit work (the ratings task, eager), as after a real commit."""

    def run(write: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return write()

    return run


def _ladder(organiser: Account, club: Club, players: list[Player], game: str = GameKind.SNAPSZER) -> Ladder:
    ladder = ladder_services.ladder_create(
        user=organiser, club=club, name=f"{game} ladder", game=game, reach=50, rematch_days=0
    )
    for player in players:
        ladder_services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)
    return ladder


def _match(
    organiser: Account, ladder: Ladder, challenger: Player, challenged: Player, score: tuple[int, int]
) -> LadderChallenge:
    """The organiser records a challenge and its played score (challenger's games first)."""
    challenge = ladder_services.challenge_create(
        user=organiser, ladder_id=ladder.pk, challenged_id=challenged.pk, challenger_id=challenger.pk
    )
    return ladder_services.challenge_result(
        user=organiser, challenge_id=challenge.pk, challenger_wins=score[0], challenged_wins=score[1]
    )


def test_a_ladder_match_moves_ratings_as_the_same_two_player_series_would(
    organiser: Account, monkeypatch: Any, committed: Callable[..., Any]
) -> None:
    # Club "series": Bence beats Anna 2-1 in a tournament series (its round published on DAY1 19:00).
    series_club, s = _club(organiser, "series")
    autumn = Tournament.objects.create(
        club=series_club, name="Autumn", game=GameKind.SNAPSZER, rules_profile="snapszer"
    )
    series = _series(autumn, 0, 1, 1, [s["Anna"], s["Bence"]])
    wins = [
        snapszer_win(s["Bence"], s["Anna"]),
        snapszer_win(s["Anna"], s["Bence"]),
        snapszer_win(s["Bence"], s["Anna"]),
    ]
    for number, result in enumerate(wins, start=1):
        _enter(organiser, [[(series.pk, number, result)]], None)
    # Club "ladder": Bence (2nd) challenges Anna (1st) and wins 2-1, decided the same evening.
    ladder_club, p = _club(organiser, "ladder")
    ladder = _ladder(organiser, ladder_club, [p["Anna"], p["Bence"]])
    with clock(monkeypatch, DAY1 + timedelta(hours=2)):
        challenge = committed(lambda: _match(organiser, ladder, p["Bence"], p["Anna"], (2, 1)))

    assert _stored(ladder_club) == _stored(series_club)
    assert _stored(ladder_club)[("snapszer", "Bence")][0] > 1500
    assert [pt[:4] for pt in _points(ladder_club)] == [pt[:4] for pt in _points(series_club)]
    # The pure fold of the same game gives the stored numbers.
    expected = snapszer_history(
        [Encounter((0,), "2026-11-14", None, None, {p["Bence"].pk: 1, p["Anna"].pk: 2}, challenge.pk)]
    )
    stored = {r.player_id: r.value for r in PlayerRating.objects.filter(club=ladder_club)}
    assert stored == {pid: pytest.approx(r.value) for pid, r in expected.current.items()}
    move = RatingPoint.objects.get(player=p["Anna"]).moves[0]
    assert move == {
        "series": None,
        "game": None,
        "challenge": challenge.pk,
        "opponents": [p["Bence"].pk],
        "placing": 2,
        "players": 2,
    }


# Ladder matches at fixed times, among the series of test_services' history (DAY1 is 18:00 UTC;
# Snapszer rounds are published at 19:00 and 20:00 of days 0 and 7, Snap's at 19:00 of days 0
# and 1). The challengers all lose, so the ladder's order never changes and every challenge is
# allowed whatever order they are recorded in.
LADDER_PLAN = [
    # (hours after DAY1, game, challenger, challenged, score)
    (1.5, GameKind.SNAPSZER, "Ferenc", "Anna", (0, 2)),  # day 0, between its two rounds
    (3.5, GameKind.SNAPSZER, "Eszter", "Bence", (1, 2)),  # day 0, after them
    (3 * 24, GameKind.SNAPSZER, "Dániel", "Csilla", (0, 2)),  # day 3: a club day of its own
    (7 * 24 + 2.5, GameKind.SNAPSZER, "Ferenc", "Dániel", (1, 2)),  # day 7
    (0.5, GameKind.SNAP, "Csilla", "Anna", (1, 2)),  # day 0, before its Snap round
    (24 + 1.5, GameKind.SNAP, "Bence", "Anna", (0, 2)),  # day 1, after its Snap round
]


def _history_with_ladders(organiser: Account, slug: str) -> tuple[Club, dict[str, Player], Any, list[Any]]:
    club, p, jobs = _build(organiser, slug)
    ladders = {
        GameKind.SNAPSZER: _ladder(organiser, club, [p[n] for n in NAMES]),
        GameKind.SNAP: _ladder(organiser, club, [p[n] for n in NAMES[:3]], GameKind.SNAP),
    }
    plan = [(hours, ladders[game], p[a], p[b], score) for hours, game, a, b, score in LADDER_PLAN]
    return club, p, jobs, plan


def test_ladder_matches_recorded_in_any_order_give_identical_ratings(
    organiser: Account, monkeypatch: Any, committed: Callable[..., Any]
) -> None:
    club_a, _, jobs_a, plan_a = _history_with_ladders(organiser, "in-order")
    club_b, _, jobs_b, plan_b = _history_with_ladders(organiser, "shuffled")

    _enter(organiser, jobs_a, None)
    for hours, ladder, challenger, challenged, score in plan_a:
        with clock(monkeypatch, DAY1 + timedelta(hours=hours)):
            committed(lambda: _match(organiser, ladder, challenger, challenged, score))  # noqa: B023
    # Club B: the ladder matches in another order, each between series results in a random order.
    rng = random.Random(7)
    work: list[Any] = [("series", queue) for queue in jobs_b] + [("ladder", m) for m in plan_b[::-1]]
    while work:
        index = rng.randrange(len(work))
        kind, item = work[index]
        if kind == "ladder":
            del work[index]
            hours, ladder, challenger, challenged, score = item
            with clock(monkeypatch, DAY1 + timedelta(hours=hours)):
                committed(lambda: _match(organiser, ladder, challenger, challenged, score))  # noqa: B023
        else:
            _enter(organiser, [[item.pop(0)]], None)  # a series' games in order
            if not item:
                del work[index]

    assert _stored(club_a) == _stored(club_b)
    assert _points(club_a) == _points(club_b)
    # Day 3 had only a ladder match: it is a club day (a rating period) of its own.
    csilla = [pt for pt in _points(club_a) if pt[:2] == ("snapszer", "Csilla")]
    assert [pt[3] for pt in csilla] == ["2026-11-14", "2026-11-17", "2026-11-21"]
    encounters = club_encounters(club_id=club_a.pk)
    assert len(encounters[GameKind.SNAPSZER]) == 11 + 4 and len(encounters[GameKind.SNAP]) == 4 + 2
    # Snap is rated one game after another: the stored ratings are the pure fold of the merged,
    # time-ordered games — and differ from rating the ladder games after all the series'.
    snap = {r.player_id: r.value for r in PlayerRating.objects.filter(club=club_a, game=GameKind.SNAP)}
    merged = snap_history(encounters[GameKind.SNAP]).current
    assert snap == {pid: pytest.approx(r.value) for pid, r in merged.items()}
    late = [
        Encounter((1e12, e.challenge_id), e.period, e.series_id, e.game_number, e.placings, e.challenge_id)
        if e.challenge_id
        else e
        for e in encounters[GameKind.SNAP]
    ]
    assert snap != {pid: pytest.approx(r.value) for pid, r in snap_history(late).current.items()}


def test_the_stored_snapszer_ratings_are_the_pure_fold_of_series_and_ladder_matches(
    organiser: Account, monkeypatch: Any, committed: Callable[..., Any]
) -> None:
    club, p, jobs, plan = _history_with_ladders(organiser, "pure")
    _enter(organiser, jobs, None)
    series_only = club_encounters(club_id=club.pk)[GameKind.SNAPSZER]
    for hours, ladder, challenger, challenged, score in plan:
        with clock(monkeypatch, DAY1 + timedelta(hours=hours)):
            committed(lambda: _match(organiser, ladder, challenger, challenged, score))  # noqa: B023

    # The ladder's matches written by hand as the encounters of two-player series on their days.
    by_hand = [
        Encounter(
            ((DAY1 + timedelta(hours=hours)).timestamp(),),
            timezone.localtime(DAY1 + timedelta(hours=hours)).date().isoformat(),
            None,
            None,
            {challenger.pk: 1 if score[0] > score[1] else 2, challenged.pk: 2 if score[0] > score[1] else 1},
        )
        for hours, ladder, challenger, challenged, score in plan
        if ladder.game == GameKind.SNAPSZER
    ]
    series_only = [
        Encounter((e.order[0],), e.period, e.series_id, e.game_number, e.placings) for e in series_only
    ]
    expected = snapszer_history(series_only + by_hand).current
    stored = {r.player_id: r for r in PlayerRating.objects.filter(club=club, game=GameKind.SNAPSZER)}
    assert {pid: (r.value, r.sigma, r.played) for pid, r in stored.items()} == {
        pid: (pytest.approx(r.value), pytest.approx(r.sigma), r.played) for pid, r in expected.items()
    }
    assert stored[p["Anna"].pk].played == 4 + 1  # four series and Ferenc's challenge


def test_decisions_without_play_do_not_count(
    organiser: Account, monkeypatch: Any, committed: Callable[..., Any]
) -> None:
    club, p, jobs = _build(organiser, "forfeits")
    _enter(organiser, jobs, None)
    before, points_before = _stored(club), _points(club)
    ladder = _ladder(organiser, club, [p[n] for n in NAMES])
    user = organiser

    declined = ladder_services.challenge_create(
        user=user, ladder_id=ladder.pk, challenged_id=p["Anna"].pk, challenger_id=p["Bence"].pk
    )
    committed(lambda: ladder_services.challenge_decline(user=user, challenge_id=declined.pk))
    expired = ladder_services.challenge_create(
        user=user, ladder_id=ladder.pk, challenged_id=p["Csilla"].pk, challenger_id=p["Dániel"].pk
    )
    committed(
        lambda: ladder_services.challenge_expire(challenge_id=expired.pk, now=expired.due_at + timedelta(1))
    )
    withdrawn = ladder_services.challenge_create(
        user=user, ladder_id=ladder.pk, challenged_id=p["Eszter"].pk, challenger_id=p["Ferenc"].pk
    )
    committed(lambda: ladder_services.challenge_withdraw(user=user, challenge_id=withdrawn.pk))
    cancelled = ladder_services.challenge_create(
        user=user, ladder_id=ladder.pk, challenged_id=p["Eszter"].pk, challenger_id=p["Ferenc"].pk
    )
    ladder_services.ladder_player_remove(user=user, ladder_id=ladder.pk, player_id=p["Ferenc"].pk)

    statuses = dict(LadderChallenge.objects.values_list("pk", "how"))
    assert statuses == {declined.pk: "declined", expired.pk: "expired", withdrawn.pk: "", cancelled.pk: ""}
    ladder.refresh_from_db()
    assert ladder.results_version == 0
    assert all(e.challenge_id is None for game in club_encounters(club_id=club.pk).values() for e in game)
    assert club.pk not in clubs_with_stale_ratings()
    assert _stored(club) == before and _points(club) == points_before


def test_recording_a_ladder_result_makes_the_ratings_stale_until_its_task_ran(
    organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    club, p, jobs = _build(organiser, "stale")
    _enter(organiser, jobs, None)
    ladder = _ladder(organiser, club, [p[n] for n in NAMES])
    assert club_ratings_get(club=club).stale is False

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _match(organiser, ladder, p["Bence"], p["Anna"], (2, 0))

    ladder.refresh_from_db()
    assert ladder.results_version == 1
    assert club.pk in clubs_with_stale_ratings()
    assert club_ratings_get(club=club).stale is True
    assert f"ladder:{ladder.pk}" not in ClubRatings.objects.get(club=club).versions
    for callback in callbacks:  # what the commit would run: the club's ratings task (eager here)
        callback()
    assert club_ratings_get(club=club).stale is False
    assert ClubRatings.objects.get(club=club).versions[f"ladder:{ladder.pk}"] == 1
    assert club_ratings_recompute(club_id=club.pk) is False  # a repeat: already stored
    # A lost message: the beat reconciler finds the club by its ladder's version and repairs it.
    _match(organiser, ladder, p["Csilla"], p["Bence"], (2, 1))  # its on-commit work never runs
    assert club.pk in clubs_with_stale_ratings()
    standings_reconcile_task()
    assert clubs_with_stale_ratings() == []
    assert PlayerRating.objects.get(player=p["Csilla"], game=GameKind.SNAPSZER).played == 4 + 1


def test_the_player_page_and_api_show_the_ladder_match_that_moved_a_rating(
    organiser: Account, monkeypatch: Any, committed: Callable[..., Any]
) -> None:
    club, p = _club(organiser, "page")
    ladder = _ladder(organiser, club, [p["Anna"], p["Bence"]])
    with clock(monkeypatch, DAY1):
        challenge = committed(lambda: _match(organiser, ladder, p["Bence"], p["Anna"], (2, 1)))

    html = Client().get(f"/players/{p['Anna'].pk}/").content.decode()
    moves = html[html.index('id="rating-snapszer-1"') :]
    moves = moves[: moves.index("</ul>")]
    assert f'href="/ladders/{ladder.pk}/"' in moves
    assert "snapszer ladder · ladder match" in moves and "2–1" in moves and "Bence" in moves
    body = APIClient().get(f"/api/players/{p['Anna'].pk}/ratings/").json()
    [move] = body["ratings"][0]["history"][0]["moves"]
    assert move["challenge"] == challenge.pk and move["series"] is None
