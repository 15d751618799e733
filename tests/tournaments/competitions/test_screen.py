"""The room's big screen (``/tournaments/<id>/screen/``, tournaments/competitions/screen.py): the current round's
tables, the standings and the bracket, public like the tournament page and never more than it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions import screen
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.competitions.stages.withdrawals import series_forfeit
from tournaments.models import Series, Stage, Tournament

pytestmark = pytest.mark.django_db


def _client(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _league(cup: Callable[..., Tournament], organiser: Account, players: int = 4, **kwargs: Any) -> Stage:
    tournament = cup(players)
    stage = stage_create(
        user=organiser, tournament=tournament, name="League", format=kwargs.get("format", "round_robin")
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    return stage


def _win(referee: Account, series: Series, games: int = 2) -> None:
    first, second = [seat.player for seat in series.seats.order_by("seat")]
    for number in range(1, games + 1):
        record_result(
            user=referee, series_id=series.pk, game_number=number, result=snapszer_win(first, second)
        )


def _panels(html: str) -> list[str]:
    return re.findall(r'data-panel="([^"]+)"', html)


def test_anyone_sees_the_current_rounds_tables_and_who_is_still_playing(
    cup: Callable[..., Tournament], organiser: Account, referee: Account
) -> None:
    # Given a round robin of four with one game of round 1 recorded,
    stage = _league(cup, organiser)
    first = Series.objects.filter(stage=stage, round__number=1).order_by("table")
    record_result(
        user=referee,
        series_id=first[0].pk,
        game_number=1,
        result=snapszer_win(*[s.player for s in first[0].seats.order_by("seat")]),
    )
    # When someone not signed in opens the screen,
    response = _client().get(f"/tournaments/{stage.tournament_id}/screen/")
    # Then it shows round 1's two tables with their players, the score so far and what still plays,
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1" in html and "2 of 2 tables still to finish" in html
    for series in first:
        for seat in series.seats.all():
            assert seat.player.name in html
    assert re.search(r'class="screen-table playing" data-table="1"', html)
    assert re.search(r'class="screen-table pending" data-table="2"', html)
    assert "games won: </span>1</span>" in html and "games won: </span>0</span>" in html
    # and cycles the tables, then the standings (no bracket for a round robin).
    assert _panels(html) == ["tables-1", "standings-0-1"]
    assert f'data-live-topic="stage:{stage.pk}"' in html


def test_the_current_round_moves_on_once_every_table_has_finished(
    cup: Callable[..., Tournament],
    organiser: Account,
    referee: Account,
    django_capture_on_commit_callbacks: Any,
) -> None:
    stage = _league(cup, organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the standings task, eagerly
        for series in Series.objects.filter(stage=stage, round__number=1):
            _win(referee, series)
    html = _client().get(f"/tournaments/{stage.tournament_id}/screen/").content.decode()
    assert "Round 2" in html and "Round 1" not in html
    assert "2 of 2 tables still to finish" in html
    # and the standings are shown, as the public standings page ranks them.
    assert "standings-0-1" in _panels(html) and '<td class="rank">1</td>' in html


def test_a_knockout_also_shows_its_bracket_and_the_winner_of_a_table(
    cup: Callable[..., Tournament], organiser: Account, referee: Account
) -> None:
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="Cup", format="single_elimination")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    semi = Series.objects.filter(stage=stage).order_by("table").first()
    assert semi is not None
    _win(referee, semi)
    html = _client().get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert _panels(html)[-1] == "bracket" and "bracket-body-svg" in html
    assert re.search(r'<li class="won"><span class="screen-name"><span aria-hidden="true">★ </span>', html)
    assert "1 of 2 tables still to finish" in html


def test_a_draft_is_not_found_for_those_who_may_not_see_it(
    make_tournament: Callable[..., Tournament], organiser: Account, referee: Account, player_user: Account
) -> None:
    draft = make_tournament()
    for user in (None, player_user):
        assert _client(user).get(f"/tournaments/{draft.pk}/screen/").status_code == 404
        assert _client(user).get(f"/tournaments/{draft.pk}/screen/body/").status_code == 404
    # Its organisers and referees see it, before any round: nothing to show yet.
    for user in (organiser, referee):
        response = _client(user).get(f"/tournaments/{draft.pk}/screen/")
        assert response.status_code == 200 and "No round published yet." in response.content.decode()


def test_it_never_shows_what_the_public_pages_do_not(
    cup: Callable[..., Tournament], organiser: Account, referee: Account
) -> None:
    # Given a corrected result (with its reason), a no-show (with its reason) and a referee,
    stage = _league(cup, organiser)
    first, second = Series.objects.filter(stage=stage, round__number=1).order_by("table")
    a, b = [s.player for s in first.seats.order_by("seat")]
    record_result(user=referee, series_id=first.pk, game_number=1, result=snapszer_win(a, b))
    record_result(
        user=organiser,
        series_id=first.pk,
        game_number=1,
        result=snapszer_win(b, a),
        expected_version=1,
        reason="Scorecard misread by the desk",
    )
    series_forfeit(
        user=organiser,
        series_id=second.pk,
        player_ids=[second.seats.get(seat=0).player_id],
        reason="Phoned in sick at noon",
    )
    for url in (
        f"/tournaments/{stage.tournament_id}/screen/",
        f"/tournaments/{stage.tournament_id}/screen/body/",
    ):
        html = _client(organiser).get(url).content.decode()
        # then neither reason, nor who recorded, nor the audit is on the screen (an organiser's either).
        assert "Scorecard misread" not in html and "Phoned in sick" not in html
        assert referee.username not in html and organiser.username not in html
        assert "/audit/" not in html and "/record/" not in html and "csrf" not in html.lower()
    assert "did not come" in html  # what the round page says publicly


@pytest.mark.parametrize(("asked", "used"), [("", 15), ("30", 30), ("2", 5), ("100000", 600), ("abc", 15)])
def test_the_cycle_interval_comes_from_the_query_kept_sane(
    cup: Callable[..., Tournament], organiser: Account, asked: str, used: int
) -> None:
    stage = _league(cup, organiser)
    html = _client().get(f"/tournaments/{stage.tournament_id}/screen/?seconds={asked}").content.decode()
    assert f'data-seconds="{used}"' in html
    assert f"A new view every {used} s" in html


def test_the_tables_come_from_a_source_a_session_can_filter(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    # Given the tournament's current round, narrowed by a source to its table 2 (as a session would),
    stage = _league(cup, organiser, players=8)

    def table_two(tournament: Tournament) -> screen.CurrentRound | None:
        current = screen.tournament_current_round(tournament)
        assert current is not None
        return screen.CurrentRound(current.stage, current.round, [s for s in current.series if s.table == 2])

    page = screen.screen_build(user=organiser, tournament=stage.tournament, source=table_two)
    assert [t.table for t in page.tables] == [2]
    assert page.panels[0].kind == "tables" and len(page.panels[0].tables) == 1


def test_many_tables_are_cut_into_panels_that_stay_readable(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    stage = _league(cup, organiser, players=18)  # nine tables
    page = screen.tournament_screen_get(user=organiser, tournament_id=stage.tournament_id)
    tables = [p for p in page.panels if p.kind == "tables"]
    assert [len(p.tables) for p in tables] == [screen.TABLES_PER_PANEL, 9 - screen.TABLES_PER_PANEL]
    assert tables[0].title.endswith("(1/2)") and tables[1].key == "tables-2"


def test_organisers_find_the_screen_on_the_tournament_page(
    cup: Callable[..., Tournament], organiser: Account, referee: Account
) -> None:
    stage = _league(cup, organiser)
    url = f"/tournaments/{stage.tournament_id}/screen/"
    assert f'href="{url}"' in _client(organiser).get(f"/tournaments/{stage.tournament_id}/").content.decode()
    assert (
        f'href="{url}"' not in _client(referee).get(f"/tournaments/{stage.tournament_id}/").content.decode()
    )
