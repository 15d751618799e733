"""A knockout's stored standings, its standings page and the season placings they feed follow the
bracket (issue 23, item 2): through the services, results recorded as a referee does."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from snapleague.users import Account
from tests.conftest import play_open_series
from tests.tournaments.rankings.seasons_world import on_commit
from tournaments.competitions.services import tournament_create, tournament_players_add
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.models import Club, GameKind, Player, Series, Stage, StandingRow
from tournaments.rankings.seasons.selectors import season_page_get
from tournaments.rankings.seasons.services import season_create

pytestmark = pytest.mark.django_db


def _seat0(stage: Stage, key: str) -> Player:
    series = Series.objects.get(stage=stage, key=key)
    return series.seats.get(seat=0).player


def _third_place_cup(organiser: Account, club: Club, players: list[Player]) -> tuple[Stage, list[Player]]:
    """Five players, single elimination with a third-place series. Seeds 1-3 have byes; seed 4 beats
    seed 5, loses the semi-final to seed 1 and wins the third-place series against seed 3 (two
    series won), while the runner-up, seed 2, won only its semi-final. Returns the stage and the
    players in their expected places."""
    tournament = tournament_create(
        user=organiser,
        club=club,
        name="Cup",
        game=GameKind.SNAPSZER,
        starts_at=timezone.make_aware(datetime.datetime(2027, 5, 1, 19)),
    )
    tournament_players_add(user=organiser, tournament=tournament, players=players[:5])
    stage = stages_create.stage_create(
        user=organiser,
        tournament=tournament,
        name="Cup",
        format="single_elimination",
        options={"third_place": True},
    )
    with on_commit():
        stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    s1, s2, s3 = (_seat0(stage, key) for key in ("W1-1", "W1-3", "W1-4"))
    first = Series.objects.get(stage=stage, key="W1-2")
    s4, s5 = (seat.player for seat in first.seats.order_by("seat"))
    order = [s1, s2, s4, s3, s5]
    rank = {p.pk: i for i, p in enumerate(order)}
    for _round in range(10):
        with on_commit():
            if not play_open_series(
                stage.pk, organiser, lambda _s, seated: min(seated, key=lambda p: rank[p.pk])
            ):
                break
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    return stage, order


def test_a_knockouts_standings_and_season_placings_follow_the_bracket(
    organiser: Account, club: Club, players: list[Player]
) -> None:
    stage, order = _third_place_cup(organiser, club, players)
    rows = list(StandingRow.objects.filter(stage=stage).order_by("position"))
    assert [row.player for row in rows] == order
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]
    assert [row.separated_by for row in rows] == ["", "finish", "finish", "finish", "finish"]
    assert rows[2].values["series_won"] > rows[1].values["series_won"]  # the 3rd won more series
    assert [row.values["finish"] for row in rows] == [1, 2, 3, 4, 5]

    season = season_create(
        user=organiser,
        club=club,
        name="Spring 2027",
        starts_on=datetime.date(2027, 1, 1),
        ends_on=datetime.date(2027, 6, 30),
    )
    page = season_page_get(user=AnonymousUser(), season_id=season.pk)
    assert [line.player for line in page.lines] == order
    assert [line.row.points for line in page.lines] == [25, 18, 15, 12, 10]


def test_the_standings_page_says_how_each_player_went_out(
    organiser: Account, club: Club, players: list[Player]
) -> None:
    stage, order = _third_place_cup(organiser, club, players)
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournaments:standings-table", args=[stage.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Finish" in text
    text = text[text.index("<tbody>") :]
    positions = [text.index(player.name) for player in order]
    assert positions == sorted(positions)
    whys = [
        "runner-up",
        "third place: lost a semi-final",
        "lost the third-place series",
        "eliminated in round 1",
    ]
    spots = [text.index(why) for why in whys]
    assert spots == sorted(spots)
    for player, why in zip(order[1:], whys, strict=True):
        assert text.index(player.name) < text.index(why)


def test_the_migration_has_stored_knockout_standings_worked_out_again(
    organiser: Account, club: Club, players: list[Player]
) -> None:
    """Rows stored before the finish existed: the migration marks the stage lagging, and beat's
    reconciler stores them again in the bracket's order; other formats are left alone."""
    from django.apps import apps

    from tests.tournaments.rankings.seasons_world import played_tournament
    from tournaments.tasks import standings_reconcile_task

    migration = importlib.import_module("tournaments.migrations.0022_bracket_standings_follow_the_bracket")
    stage, order = _third_place_cup(organiser, club, players)
    league = played_tournament(
        organiser=organiser, name="League", day=datetime.date(2027, 2, 1), order=players[:4]
    ).stages.get()
    # As stored before: the 3rd (more series won) above the runner-up, no finish.
    rows = {row.player_id: row for row in StandingRow.objects.filter(stage=stage)}
    for position, player in enumerate([order[0], order[2], order[1], order[3], order[4]], start=1):
        StandingRow.objects.filter(pk=rows[player.pk].pk).update(position=position, rank=position, values={})
    league_version = league.results_version

    migration.mark_lagging(apps, None)
    stage.refresh_from_db()
    league.refresh_from_db()
    assert stage.standings_stale and not league.standings_stale
    assert league.results_version == league_version
    with on_commit():
        assert stage.pk in standings_reconcile_task()
    stage.refresh_from_db()
    assert not stage.standings_stale
    stored = list(StandingRow.objects.filter(stage=stage).order_by("position"))
    assert [row.player for row in stored] == order
    assert [row.values["finish"] for row in stored] == [1, 2, 3, 4, 5]
