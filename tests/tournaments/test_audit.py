"""The audit log: every write of a tournament's results, pairings and players leaves one entry, in
the same transaction; sign-ins too; organisers read it per tournament."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.conftest import play_open_series, record_result, snapszer_win
from tournaments.competitions.stages.create import stage_create, stage_online_set
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.competitions.stages.withdrawals import series_forfeit, stage_withdraw
from tournaments.models import AuditEntry, Player, Series, Tournament

pytestmark = pytest.mark.django_db


def test_results_corrections_voids_publishing_withdrawals_and_no_shows_are_logged(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(6)
    tournament.referees.add(referee)
    swiss = stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 2}
    )
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=swiss.pk)
    series = Series.objects.filter(stage=swiss).order_by("table")
    first, second, third = series
    a, b = (s.player for s in first.seats.order_by("seat"))
    for number in (1, 2, 3):  # b, a, b: b wins 2-1
        winner, loser = (b, a) if number != 2 else (a, b)
        record_result(
            user=referee, series_id=first.pk, game_number=number, result=snapszer_win(winner, loser)
        )
    # Game 2 was a's as well: a wins 2-0 after all, game 3 is voided.
    record_result(
        user=organiser,
        series_id=first.pk,
        game_number=1,
        result=snapszer_win(a, b),
        expected_version=1,
        reason="swapped scores",
        void_later_games=True,
    )
    gone = second.seats.get(seat=0).player
    stage_withdraw(user=organiser, stage_id=swiss.pk, player_id=gone.pk, reason="ill")
    away = third.seats.get(seat=1).player
    series_forfeit(user=organiser, series_id=third.pk, player_ids=[away.pk], reason="not here")
    stage_online_set(user=organiser, stage_id=swiss.pk, online=True)

    log = list(AuditEntry.objects.filter(tournament=tournament).order_by("pk"))
    actions = [e.action for e in log]
    assert actions == [
        "round_published",
        "result_recorded",
        "result_recorded",
        "result_recorded",
        "result_corrected",
        "game_voided",
        "withdrawal",
        "forfeit",
        "stage_online",
    ]
    published, *_recorded, corrected, voided, withdrawn, forfeit, online = log
    assert published.user == organiser and published.detail == {"rounds": [1], "series_count": 3}
    assert published.series is None  # a publish names its stage, no series
    assert (corrected.user, corrected.before_version, corrected.after_version) == (organiser, 1, 2)
    assert corrected.detail == {
        "game": 1,
        "source": "organiser",
        "reason": "swapped scores",
        "online_game": None,
    }
    assert voided.detail["game"] == 3 and voided.series == first
    assert withdrawn.detail["player"] == gone.name and withdrawn.detail["reason"] == "ill"
    assert forfeit.detail["players"] == [away.name]
    assert online.detail == {"online": True}


def test_the_stage_task_publishing_a_round_is_logged_as_nobody(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    tournament.referees.add(referee)
    swiss = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=swiss.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(swiss.pk, referee)
    auto = AuditEntry.objects.filter(tournament=tournament, action="round_published").order_by("pk").last()
    assert auto is not None and auto.user is None and auto.detail["rounds"] == [2]


def test_sign_ins_and_failed_ones_are_logged(organiser: Any) -> None:
    client = Client()
    client.post("/accounts/login/", {"username": "organiser", "password": "wrong"})
    client.post("/accounts/login/", {"username": "organiser", "password": "pw-for-tests-only"})
    failed, signed_in = AuditEntry.objects.order_by("pk")
    assert (failed.action, failed.user, failed.username) == ("sign_in_failed", None, "organiser")
    assert (signed_in.action, signed_in.user) == ("signed_in", organiser)


def test_only_the_clubs_organisers_read_a_tournaments_log(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    tournament = cup(4)
    tournament.referees.add(referee)
    swiss = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=swiss.pk)
    organiser_client, referee_client = Client(), Client()
    organiser_client.force_login(organiser)
    referee_client.force_login(referee)
    page = organiser_client.get(f"/tournaments/{tournament.pk}/audit/")
    assert page.status_code == 200 and "Round published" in page.content.decode()
    assert referee_client.get(f"/tournaments/{tournament.pk}/audit/").status_code == 403
    assert Client().get(f"/tournaments/{tournament.pk}/audit/").status_code == 302
    assert Player.objects.filter(tournaments=tournament).count() == 4
