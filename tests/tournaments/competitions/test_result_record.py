"""result_record: the one service every source of results goes through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import Account
from tests.conftest import record_result, snap_win
from tournaments.models import GameKind, GameResult, Series, SeriesFormat, Stage


@pytest.fixture
def table(make_series: Callable[..., Series], players: list) -> Series:
    return make_series(players[:4])


def _record(user: Account, series: Series, number: int, result: dict, **kw: Any) -> GameResult:
    record, _created = record_result(user=user, series_id=series.pk, game_number=number, result=result, **kw)
    return record


def test_referee_records_a_game_and_the_stage_version_rises(
    table: Series, referee: Any, players: list, django_capture_on_commit_callbacks: Any
) -> None:
    a, b, c, d = players[:4]
    with django_capture_on_commit_callbacks() as callbacks:
        record = _record(referee, table, 1, snap_win(a, d, c, b))
    assert record.version == 1 and record.confirmed
    assert record.data["placings"] == {str(a.pk): 1, str(b.pk): 2, str(c.pk): 3, str(d.pk): 4}
    assert Stage.objects.get(pk=table.stage_id).results_version == 1
    assert len(callbacks) == 1  # the standings recompute is enqueued after commit, not before
    table.refresh_from_db()
    assert table.status == Series.Status.PLAYING


@pytest.mark.parametrize("who", ["player_user", "other_referee"])
def test_players_and_referees_of_other_tournaments_cannot_record(
    table: Series, players: list, who: str, request: Any
) -> None:
    with pytest.raises(PermissionDenied):
        _record(request.getfixturevalue(who), table, 1, snap_win(*players[:4]))
    assert not GameResult.objects.exists()


def test_anonymous_cannot_record(table: Series, players: list) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        _record(AnonymousUser(), table, 1, snap_win(*players[:4]))


def test_organiser_may_record(table: Series, organiser: Any, players: list) -> None:
    assert _record(organiser, table, 1, snap_win(*players[:4])).version == 1


def test_a_second_submission_for_the_same_game_is_a_conflict(
    table: Series, referee: Any, players: list
) -> None:
    _record(referee, table, 1, snap_win(*players[:4]))
    with pytest.raises(Conflict) as exc:
        _record(referee, table, 1, snap_win(players[1], players[0], players[2], players[3]))
    assert exc.value.code == "result_conflict"
    assert exc.value.extra == {"version": 1}
    assert GameResult.objects.count() == 1


def test_the_same_client_key_returns_the_first_result(table: Series, referee: Any, players: list) -> None:
    first, created = record_result(
        user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]), client_key="tap-1"
    )
    again, created_again = record_result(
        user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]), client_key="tap-1"
    )
    assert (created, created_again) == (True, False)
    assert again.pk == first.pk
    assert GameResult.objects.count() == 1
    assert Stage.objects.get(pk=table.stage_id).results_version == 1


def test_games_are_recorded_in_order(table: Series, referee: Any, players: list) -> None:
    with pytest.raises(Conflict) as exc:
        _record(referee, table, 2, snap_win(*players[:4]))
    assert exc.value.code == "wrong_game" and exc.value.extra == {"next_game": 1}


def test_a_decided_series_takes_no_more_games_S40(table: Series, referee: Any, players: list) -> None:
    a, b, c, d = players[:4]
    _record(referee, table, 1, snap_win(a, b, c, d))
    _record(referee, table, 2, snap_win(a, c, b, d))
    table.refresh_from_db()
    assert table.status == Series.Status.DECIDED
    assert table.placings[str(a.pk)] == 1
    with pytest.raises(Conflict) as exc:
        _record(referee, table, 3, snap_win(b, a, c, d))
    assert exc.value.code == "series_decided"
    assert str(exc.value.message) == "This series is already decided."


def test_level_leaders_play_sudden_death_only_among_themselves_S40(
    table: Series, referee: Any, players: list
) -> None:
    a, b, c, d = players[:4]
    _record(referee, table, 1, snap_win(a, b, c, d))
    _record(referee, table, 2, snap_win(b, a, c, d))
    _record(
        referee,
        table,
        3,
        {"ending": "draw", "eliminated": [d, [a, b, c]]} | {"eliminated": [d.pk, [a.pk, b.pk, c.pk]]},
    )
    with pytest.raises(ApplicationError) as exc:  # c and d are not in the sudden-death game
        _record(referee, table, 4, snap_win(a, b, c, d))
    assert exc.value.code == "result_invalid"
    sudden = _record(referee, table, 4, {"ending": "last_player_standing", "eliminated": [b.pk]})
    assert sudden.game.sudden_death is True
    assert set(sudden.game.seats) == {a.pk, b.pk}
    table.refresh_from_db()
    assert table.status == Series.Status.DECIDED
    assert table.placings[str(a.pk)] == 1 and table.placings[str(b.pk)] == 2


def test_correction_adds_a_version_and_unconfirms_the_old_one(
    table: Series, referee: Any, organiser: Any, players: list
) -> None:
    a, b, c, d = players[:4]
    _record(referee, table, 1, snap_win(a, b, c, d))
    fixed = _record(organiser, table, 1, snap_win(b, a, c, d), expected_version=1, reason="scores swapped")
    assert fixed.version == 2 and fixed.source == GameResult.Source.ORGANISER
    versions = list(GameResult.objects.order_by("version").values_list("version", "confirmed"))
    assert versions == [(1, False), (2, True)]
    assert Stage.objects.get(pk=table.stage_id).results_version == 2


def test_a_correction_needs_an_organiser_and_a_reason(
    table: Series, referee: Any, organiser: Any, players: list
) -> None:
    _record(referee, table, 1, snap_win(*players[:4]))
    with pytest.raises(PermissionDenied):
        _record(referee, table, 1, snap_win(*players[:4]), expected_version=1, reason="oops")
    with pytest.raises(ApplicationError) as exc:
        _record(organiser, table, 1, snap_win(*players[:4]), expected_version=1)
    assert exc.value.code == "reason_required" and "reason" in exc.value.fields


def test_a_correction_that_would_end_the_series_earlier_is_refused(
    table: Series, referee: Any, organiser: Any, players: list
) -> None:
    a, b, c, d = players[:4]
    _record(referee, table, 1, snap_win(a, b, c, d))
    _record(referee, table, 2, snap_win(b, a, c, d))
    _record(referee, table, 3, snap_win(a, b, c, d))
    with pytest.raises(ApplicationError) as exc:  # b winning game 1 ends the series at game 2
        _record(organiser, table, 2, snap_win(a, b, c, d), expected_version=1, reason="misread")
    assert exc.value.code == "correction_breaks_series"
    assert GameResult.objects.filter(confirmed=True).count() == 3  # nothing saved was lost


def test_invalid_result_saves_nothing(table: Series, referee: Any, players: list) -> None:
    with pytest.raises(ApplicationError) as exc:
        _record(referee, table, 1, {"ending": "last_player_standing", "eliminated": [players[0].pk]})
    assert exc.value.code == "result_invalid"
    assert not GameResult.objects.exists()
    assert Stage.objects.get(pk=table.stage_id).results_version == 0


def test_snapszer_series_is_counted_in_matches(
    make_series: Callable[..., Series], referee: Any, players: list
) -> None:
    a, b = players[:2]
    series = make_series([a, b], game=GameKind.SNAPSZER, series_format=SeriesFormat.FIRST_TO_3)
    for number, winner in enumerate([a, b, a, a], start=1):
        loser = b if winner == a else a
        _record(referee, series, number, {"score": {str(winner.pk): 7, str(loser.pk): 3}})
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED
    assert series.placings == {str(a.pk): 1, str(b.pk): 2}
