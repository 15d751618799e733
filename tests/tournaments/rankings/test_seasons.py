"""Season services and selectors: create and edit with field errors, which tournaments a season
holds (by date, included, excluded), and the table from played tournaments (docs/seasons.md)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from snapleague.errors import ApplicationError, NotFound, PermissionDenied
from snapleague.users import Account
from tests.tournaments.rankings.seasons_world import played_tournament
from tournaments.models import Club, Player, Season, SeasonTournament, Series, Tournament
from tournaments.rankings.seasons.selectors import season_candidates, season_page_get
from tournaments.rankings.seasons.services import season_create, season_tournament_set, season_update

pytestmark = pytest.mark.django_db

JAN = datetime.date(2027, 1, 1)
JUN = datetime.date(2027, 6, 30)


def a_season(organiser: Account, club: Club, **extra: object) -> Season:
    values = {"name": "Spring 2027", "starts_on": JAN, "ends_on": JUN, **extra}
    return season_create(user=organiser, club=club, **values)  # type: ignore[arg-type]


# --- create and edit ------------------------------------------------------------------------------


def test_season_create_stores_the_defaults(organiser: Account, club: Club) -> None:
    season = a_season(organiser, club, name="  Spring   2027 ")
    assert season.name == "Spring 2027"
    assert season.points_scale == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    assert season.best_results is None and season.game == ""
    assert season.created_by == organiser


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"name": ""}, "name"),
        ({"ends_on": datetime.date(2026, 12, 31)}, "ends_on"),
        ({"starts_on": None}, "starts_on"),
        ({"points_scale": [10, 12]}, "points_scale"),
        ({"points_scale": []}, "points_scale"),
        ({"points_scale": [10, "x"]}, "points_scale"),
        ({"points_scale": "25,18"}, "points_scale"),
        ({"best_results": 0}, "best_results"),
        ({"game": "poker"}, "game"),
    ],
)
def test_season_create_refuses_bad_fields(organiser: Account, club: Club, extra: dict, field: str) -> None:
    with pytest.raises(ApplicationError) as exc:
        a_season(organiser, club, **extra)
    assert exc.value.code == "invalid"
    assert list(exc.value.fields) == [field]
    assert Season.objects.count() == 0


def test_every_problem_is_reported_at_once(organiser: Account, club: Club) -> None:
    with pytest.raises(ApplicationError) as exc:
        a_season(
            organiser, club, name="", ends_on=datetime.date(2026, 1, 1), points_scale=[1, 2], best_results=0
        )
    assert set(exc.value.fields) == {"name", "ends_on", "points_scale", "best_results"}


def test_season_names_are_unique_in_a_club(organiser: Account, club: Club) -> None:
    a_season(organiser, club)
    with pytest.raises(ApplicationError) as exc:
        a_season(organiser, club)
    assert list(exc.value.fields) == ["name"]


def test_only_the_clubs_organisers_create_and_edit(
    organiser: Account, club: Club, referee: Account, player_user: Account
) -> None:
    for user in (referee, player_user, AnonymousUser()):
        with pytest.raises(PermissionDenied):
            a_season(user, club)  # type: ignore[arg-type]
    season = a_season(organiser, club)
    with pytest.raises(PermissionDenied):
        season_update(user=referee, season_id=season.pk, name="X", starts_on=JAN, ends_on=JUN)
    with pytest.raises(NotFound):
        season_update(user=organiser, season_id=season.pk + 99, name="X", starts_on=JAN, ends_on=JUN)


def test_season_update_changes_every_field(organiser: Account, club: Club) -> None:
    season = a_season(organiser, club)
    season_update(
        user=organiser,
        season_id=season.pk,
        name="Spring",
        starts_on=JAN,
        ends_on=JAN,
        game="snap",
        points_scale=[3, 2, 1],
        best_results=4,
    )
    season.refresh_from_db()
    assert (season.name, season.ends_on, season.game, season.points_scale, season.best_results) == (
        "Spring",
        JAN,
        "snap",
        [3, 2, 1],
        4,
    )
    with pytest.raises(ApplicationError):
        season_update(user=organiser, season_id=season.pk, name="Spring", starts_on=JUN, ends_on=JAN)
    season.refresh_from_db()
    assert season.ends_on == JAN  # nothing half-written


# --- which tournaments ----------------------------------------------------------------------------


def _tournament(club: Club, name: str, day: datetime.date | None, game: str = "snapszer") -> Tournament:
    starts = None if day is None else datetime.datetime.combine(day, datetime.time(12), tzinfo=datetime.UTC)
    return Tournament.objects.create(
        club=club, name=name, game=game, rules_profile="snapszer", starts_at=starts
    )


def test_tournaments_by_date_and_the_organisers_choices(organiser: Account, club: Club) -> None:
    season = a_season(organiser, club, game="snapszer")
    inside = _tournament(club, "Inside", datetime.date(2027, 3, 1))
    before = _tournament(club, "Before", datetime.date(2026, 12, 1))
    excluded = _tournament(club, "Excluded", datetime.date(2027, 4, 1))
    snap = _tournament(club, "Snap night", datetime.date(2027, 4, 2), game="snap")
    other_club = Club.objects.create(name="Other", slug="other")
    foreign = _tournament(other_club, "Foreign", datetime.date(2027, 3, 1))

    season_tournament_set(user=organiser, season_id=season.pk, tournament_id=before.pk, choice="in")
    season_tournament_set(user=organiser, season_id=season.pk, tournament_id=excluded.pk, choice="out")
    included = {c.tournament.name for c in season_candidates(season=season) if c.included}
    assert included == {"Inside", "Before"}
    assert snap.name not in {c.tournament.name for c in season_candidates(season=season)}  # other game

    season_tournament_set(user=organiser, season_id=season.pk, tournament_id=excluded.pk, choice="auto")
    assert not SeasonTournament.objects.filter(tournament=excluded).exists()
    assert {c.tournament.name for c in season_candidates(season=season) if c.included} == {
        "Inside",
        "Before",
        "Excluded",
    }
    with pytest.raises(ApplicationError) as exc:
        season_tournament_set(user=organiser, season_id=season.pk, tournament_id=foreign.pk, choice="in")
    assert list(exc.value.fields) == ["tournament"]
    with pytest.raises(ApplicationError) as exc:
        season_tournament_set(user=organiser, season_id=season.pk, tournament_id=inside.pk, choice="maybe")
    assert list(exc.value.fields) == ["choice"]


def test_a_tournament_without_a_start_counts_on_the_day_it_was_created(
    organiser: Account, club: Club
) -> None:
    undated = _tournament(club, "Undated", None)
    today = timezone.localdate(undated.created_at)  # the club's day, not UTC's (they differ after 23:00 UTC)
    season = a_season(organiser, club, starts_on=today, ends_on=today)
    assert [c.tournament for c in season_candidates(season=season) if c.included] == [undated]


# --- the table from played tournaments -----------------------------------------------------------


def test_season_table_from_played_round_robins(organiser: Account, club: Club, players: list[Player]) -> None:
    anna, bence, csilla, daniel = players[:4]
    played_tournament(
        organiser=organiser,
        name="January",
        day=datetime.date(2027, 1, 10),
        order=[anna, bence, csilla, daniel],
    )
    played_tournament(
        organiser=organiser,
        name="February",
        day=datetime.date(2027, 2, 10),
        order=[daniel, csilla, bence, anna],
    )
    season = a_season(organiser, club)
    page = season_page_get(user=AnonymousUser(), season_id=season.pk)
    assert [c.tournament.name for c in page.columns] == ["January", "February"]
    assert not page.provisional
    points = {line.player.name: line.row.points for line in page.lines}
    assert points == {"Anna": 25 + 12, "Dániel": 12 + 25, "Bence": 18 + 15, "Csilla": 15 + 18}
    # Anna and Dániel: one win each, one 4th each, one ahead of the other each: a shared rank.
    assert [(line.player.name, line.row.rank) for line in page.lines] == [
        ("Anna", 1),
        ("Dániel", 1),
        ("Bence", 3),
        ("Csilla", 3),
    ]
    assert [cell.place for cell in page.lines[0].cells] == [1, 4]  # type: ignore[union-attr]

    # Best 1: only the win counts for Anna and Dániel, Bence's and Csilla's 2nd places for them.
    season_update(
        user=organiser, season_id=season.pk, name=season.name, starts_on=JAN, ends_on=JUN, best_results=1
    )
    page = season_page_get(user=AnonymousUser(), season_id=season.pk)
    assert {line.player.name: line.row.points for line in page.lines} == {
        "Anna": 25,
        "Dániel": 25,
        "Bence": 18,
        "Csilla": 18,
    }
    assert [c.counted for c in page.lines[0].row.results] in ([True, False], [False, True])


def test_an_unfinished_tournament_counts_provisionally(
    organiser: Account, club: Club, players: list[Player]
) -> None:
    anna, bence, csilla, daniel = players[:4]
    played_tournament(
        organiser=organiser,
        name="Running",
        day=datetime.date(2027, 3, 1),
        order=[anna, bence, csilla, daniel],
        finish=False,
    )
    page = season_page_get(user=AnonymousUser(), season_id=a_season(organiser, club).pk)
    assert page.provisional and page.columns[0].provisional
    assert page.lines and all(line.row.provisional for line in page.lines)


def test_a_knockout_champion_is_first(organiser: Account, club: Club, players: list[Player]) -> None:
    order = list(reversed(players[:4]))
    played_tournament(
        organiser=organiser,
        name="Cup",
        day=datetime.date(2027, 5, 1),
        order=order,
        format="single_elimination",
    )
    page = season_page_get(user=AnonymousUser(), season_id=a_season(organiser, club).pk)
    # The seeding is drawn: the final's loser is whoever met the champion there.
    final = Series.objects.filter(stage__tournament__name="Cup").order_by("-round__number").first()
    assert final is not None
    runner_up = next(seat.player for seat in final.seats.all() if seat.player != order[0])
    assert [line.player for line in page.lines[:2]] == [order[0], runner_up]
    assert [line.row.points for line in page.lines[:2]] == [25, 18]


def test_the_table_follows_new_results(organiser: Account, club: Club, players: list[Player]) -> None:
    """The placings are memoised by the stages' versions: a result that moves a version is seen."""
    from tests.conftest import play_open_series
    from tests.tournaments.rankings.seasons_world import on_commit
    from tournaments.models import Stage

    anna, bence, csilla, daniel = players[:4]
    tournament = played_tournament(
        organiser=organiser,
        name="Running",
        day=datetime.date(2027, 3, 1),
        order=[daniel, csilla, bence, anna],
        finish=False,
    )
    season = a_season(organiser, club)
    before = season_page_get(user=AnonymousUser(), season_id=season.pk)
    assert before.provisional
    stage = Stage.objects.get(tournament=tournament)
    for _round in range(5):
        with on_commit():
            play_open_series(stage.pk, organiser, lambda _s, seated: min(seated, key=lambda p: -p.pk))
    after = season_page_get(user=AnonymousUser(), season_id=season.pk)
    assert not after.provisional
    assert [line.player for line in after.lines] == [daniel, csilla, bence, anna]
    assert [line.row.points for line in after.lines] == [25, 18, 15, 12]
