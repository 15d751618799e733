"""Players report, opponents confirm (issue 26, docs/results.md "Who records results"): the three
modes, confirmation through the one result service, disputes decided by officials, auto-confirmation
and deadlines from beat, corrections asked for, and the races on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from snapleague.errors import ApplicationError
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.results import reporting
from tournaments.competitions.results.selectors import result_target_get
from tournaments.models import (
    AuditEntry,
    GameResult,
    Player,
    ResultDispute,
    ResultMode,
    ResultReport,
    Series,
)
from tournaments.notifications.models import Event, Notification
from tournaments.tasks import reports_sweep_task

pytestmark = pytest.mark.django_db
Status = ResultReport.Status


@pytest.fixture
def duel(
    make_series: Callable[..., Series], players: list[Player], make_user: Callable[..., Account]
) -> tuple[Series, Account, Account]:
    """A Snapszer best-of-3 between Anna (``player_user``) and Bence (an account of his own), in a
    tournament where players report and an opponent confirms."""
    anna, bence = players[0], players[1]
    bence.user = make_user("bence")
    bence.save()
    series = make_series([anna, bence], game="snapszer")
    tournament = series.stage.tournament
    tournament.result_mode = ResultMode.CONFIRM
    tournament.save()
    return series, anna.user, bence.user  # type: ignore[return-value]


def _win(series: Series, winner: int, loser: int, game: int = 1, points: int = 3) -> Any:
    organiser = series.stage.tournament.club.organisers.get()
    target = result_target_get(user=organiser, series_id=series.pk, game_number=game)
    return target.parse(snapszer_win(Player.objects.get(pk=winner), Player.objects.get(pk=loser), points))


def _ids(series: Series) -> tuple[int, int]:
    a, b = (s.player_id for s in series.seats.order_by("seat"))
    return a, b


def _disputed(series: Series, anna: Account, bence: Account) -> Any:
    """Anna reports that she won game 1, Bence that he did: a dispute. Returns Bence's report."""
    a, b = _ids(series)
    reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    return reporting.report_submit(user=bence, series_id=series.pk, game_number=1, result=_win(series, b, a))


def _refused(call: Callable[[], Any], code: str) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


def test_referees_only_is_the_default_and_refuses_players(duel: tuple[Series, Account, Account]) -> None:
    series, anna, _bence = duel
    series.stage.tournament.result_mode = ResultMode.REFEREES
    series.stage.tournament.save()
    a, b = _ids(series)
    error = _refused(
        lambda: reporting.report_submit(
            user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b)
        ),
        "players_do_not_report",
    )
    assert error.status == 403 and not ResultReport.objects.exists()


def test_a_report_waits_then_the_opponents_confirmation_records_it_reported_by_a_confirmed_by_b(
    duel: tuple[Series, Account, Account],
) -> None:
    series, anna, bence = duel
    a, b = _ids(series)
    reported = reporting.report_submit(
        user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b)
    )
    assert reported.outcome == "pending"
    assert not GameResult.objects.exists()  # standings and brackets read confirmed results only
    told = Notification.objects.get(event=Event.RESULT_TO_CONFIRM)
    assert told.user == bence and told.url == f"/series/{series.pk}/"
    _refused(lambda: reporting.report_confirm(user=anna, report_id=reported.report.pk), "own_report")
    confirmed = reporting.report_confirm(user=bence, report_id=reported.report.pk)
    result = GameResult.objects.get()
    assert confirmed.status == Status.CONFIRMED and confirmed.result == result
    assert (result.source, result.recorded_by, result.confirmed_by) == ("players", anna, bence)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_RECORDED)
    assert entry.detail["reported_by"] == anna.username and entry.detail["confirmed_by"] == bence.username
    # A second tap: the same answer, nothing more recorded.
    assert reporting.report_confirm(user=bence, report_id=reported.report.pk).status == Status.CONFIRMED
    assert GameResult.objects.count() == 1


def test_someone_not_seated_can_neither_report_nor_confirm(
    duel: tuple[Series, Account, Account], make_user: Callable[..., Account]
) -> None:
    series, anna, _bence = duel
    a, b = _ids(series)
    stranger = make_user("stranger")
    _refused(
        lambda: reporting.report_submit(
            user=stranger, series_id=series.pk, game_number=1, result=_win(series, a, b)
        ),
        "not_seated",
    )
    report = reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    _refused(lambda: reporting.report_confirm(user=stranger, report_id=report.report.pk), "report_not_found")


def test_the_same_result_from_the_other_seat_confirms_and_a_different_one_is_a_dispute(
    duel: tuple[Series, Account, Account], referee: Account
) -> None:
    series, anna, bence = duel
    a, b = _ids(series)
    reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    same = reporting.report_submit(user=bence, series_id=series.pk, game_number=1, result=_win(series, a, b))
    assert same.outcome == "confirmed" and GameResult.objects.get().confirmed_by == bence
    first = reporting.report_submit(
        user=anna, series_id=series.pk, game_number=2, result=_win(series, a, b, game=2)
    )
    other = reporting.report_submit(
        user=bence, series_id=series.pk, game_number=2, result=_win(series, b, a, game=2, points=5)
    )
    assert other.outcome == "disputed"
    first.report.refresh_from_db()
    assert first.report.status == other.report.status == Status.DISPUTED
    assert first.report.dispute == other.report.dispute
    officials = set(
        Notification.objects.filter(event=Event.RESULT_DISPUTED).values_list("user_id", flat=True)
    )
    assert officials == {series.stage.tournament.club.organisers.get().pk, referee.pk}
    # Confirming the version the dispute replaced: one clear answer, nothing recorded.
    _refused(lambda: reporting.report_confirm(user=bence, report_id=first.report.pk), "report_replaced")
    assert GameResult.objects.filter(game__number=2).count() == 0


def test_a_referee_decides_a_dispute_with_a_version_and_everyone_involved_is_told(
    duel: tuple[Series, Account, Account], referee: Account
) -> None:
    series, anna, bence = duel
    _a, b = _ids(series)
    theirs = _disputed(series, anna, bence)
    dispute = theirs.report.dispute
    assert dispute is not None
    _refused(
        lambda: reporting.dispute_decide(user=bence, dispute_id=dispute.pk, report_id=theirs.report.pk),
        "not_referee",
    )
    reporting.dispute_decide(
        user=referee, dispute_id=dispute.pk, report_id=theirs.report.pk, note="Saw the cards"
    )
    result = GameResult.objects.get()
    assert result.value.winner == b and result.recorded_by == referee  # Bence's version, by the referee
    statuses = dict(ResultReport.objects.values_list("reported_by__username", "status"))
    assert statuses == {"player": Status.REPLACED, "bence": Status.CONFIRMED}
    told = set(Notification.objects.filter(event=Event.DISPUTE_DECIDED).values_list("user_id", flat=True))
    assert told == {anna.pk, bence.pk}
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.DISPUTE_DECIDED, detail__note="Saw the cards"
    ).exists()
    _refused(
        lambda: reporting.dispute_decide(user=referee, dispute_id=dispute.pk, report_id=theirs.report.pk),
        "dispute_decided",
    )


def test_a_dispute_decided_with_a_third_version(
    duel: tuple[Series, Account, Account], referee: Account
) -> None:
    series, anna, bence = duel
    a, b = _ids(series)
    theirs = _disputed(series, anna, bence)
    third = _win(series, a, b, points=6)
    reporting.dispute_decide(user=referee, dispute_id=theirs.report.dispute_id, result=third)
    assert GameResult.objects.get().value == third
    assert set(ResultReport.objects.values_list("status", flat=True)) == {Status.REPLACED}


def test_a_report_after_the_series_was_decided_is_refused(
    duel: tuple[Series, Account, Account], referee: Account
) -> None:
    series, anna, _bence = duel
    a, b = _ids(series)
    anna_player, bence_player = Player.objects.get(pk=a), Player.objects.get(pk=b)
    for game in (1, 2):
        record_result(
            user=referee,
            series_id=series.pk,
            game_number=game,
            result=snapszer_win(anna_player, bence_player),
        )
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED
    _refused(
        lambda: reporting.report_submit(
            user=anna, series_id=series.pk, game_number=3, result=_win(series, a, b, game=2)
        ),
        "series_decided",
    )


def test_auto_mode_confirms_by_itself_after_its_minutes_once_even_swept_twice(
    duel: tuple[Series, Account, Account],
) -> None:
    series, anna, _bence = duel
    tournament = series.stage.tournament
    tournament.result_mode, tournament.auto_confirm_minutes = ResultMode.AUTO, 10
    tournament.save()
    a, b = _ids(series)
    report = reporting.report_submit(
        user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b)
    ).report
    assert report.auto_confirm_at is not None
    assert reports_sweep_task.delay().get()["confirmed"] == []  # not yet
    ResultReport.objects.filter(pk=report.pk).update(auto_confirm_at=timezone.now() - timedelta(seconds=1))
    assert reports_sweep_task.delay().get()["confirmed"] == [report.pk]
    assert reports_sweep_task.delay().get()["confirmed"] == []
    result = GameResult.objects.get()
    assert (result.recorded_by, result.confirmed_by) == (anna, None)
    # The service's replay by the report: confirming the same report again records nothing.
    report.refresh_from_db()
    again = reporting._confirm(report, confirmed_by=None)
    assert again.result == result and GameResult.objects.count() == 1


def test_a_player_asks_for_a_correction_and_only_an_organiser_decides_it(
    duel: tuple[Series, Account, Account], referee: Account, organiser: Account
) -> None:
    series, anna, bence = duel
    a, b = _ids(series)
    first = reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    reporting.report_confirm(user=bence, report_id=first.report.pk)
    asked = reporting.correction_request(
        user=bence, series_id=series.pk, game_number=1, result=_win(series, b, a)
    )
    dispute = asked.dispute
    assert dispute is not None and dispute.kind == ResultDispute.Kind.CORRECTION
    _refused(
        lambda: reporting.dispute_decide(user=referee, dispute_id=dispute.pk, report_id=asked.pk),
        "not_organiser",
    )
    reporting.dispute_decide(
        user=organiser, dispute_id=dispute.pk, report_id=asked.pk, note="Cards recounted"
    )
    current = GameResult.objects.get(confirmed=True)
    assert current.version == 2 and current.value.winner == b and current.reason == "Cards recounted"


def test_a_series_past_its_deadline_tells_the_organisers_once_and_can_be_a_double_no_show(
    duel: tuple[Series, Account, Account], organiser: Account
) -> None:
    series, _anna, _bence = duel
    tournament = series.stage.tournament
    tournament.report_deadline_minutes = 60
    tournament.save()
    series.round.starts_at = timezone.now() - timedelta(minutes=30)
    series.round.save()
    assert reports_sweep_task.delay().get()["overdue"] == []
    series.round.starts_at = timezone.now() - timedelta(minutes=90)
    series.round.save()
    assert reports_sweep_task.delay().get()["overdue"] == [series.pk]
    reports_sweep_task.delay().get()
    assert Notification.objects.filter(event=Event.REPORT_OVERDUE, user=organiser).count() == 1
    tournament.no_show_at_deadline = True
    tournament.save()
    reports_sweep_task.delay().get()
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings == {}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False], ids=["same-result", "different-results"])
def test_two_players_reporting_at_the_same_instant_make_one_pending_report_at_most(
    duel: tuple[Series, Account, Account], same: bool
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    series, anna, bence = duel
    a, b = _ids(series)
    values = {anna.pk: _win(series, a, b), bence.pk: _win(series, a, b) if same else _win(series, b, a)}
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def go(user: Account) -> None:
        try:
            barrier.wait()
            outcomes.append(
                reporting.report_submit(
                    user=user, series_id=series.pk, game_number=1, result=values[user.pk]
                ).outcome
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=go, args=(u,)) for u in (anna, bence)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == (["confirmed", "pending"] if same else ["disputed", "pending"])
    assert ResultReport.objects.filter(status=Status.PENDING).count() == 0
    assert GameResult.objects.filter(confirmed=True).count() == (1 if same else 0)


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_the_same_instant_record_one_result(
    duel: tuple[Series, Account, Account], make_user: Callable[..., Account], players: list[Player]
) -> None:
    """Snap-like tables let any other seat confirm; here the same seat taps twice on two phones."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    series, anna, bence = duel
    a, b = _ids(series)
    report = reporting.report_submit(
        user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b)
    ).report
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def go() -> None:
        try:
            barrier.wait()
            reporting.report_confirm(user=bence, report_id=report.pk)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=go) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and GameResult.objects.filter(confirmed=True).count() == 1


def test_a_dispute_past_its_deadline_shows_to_the_officials_on_the_tournament_page_and_big_screen(
    duel: tuple[Series, Account, Account], organiser: Account, referee: Account
) -> None:
    from django.test import Client

    series, anna, bence = duel
    a, b = _ids(series)
    tournament = series.stage.tournament
    reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    reporting.report_submit(user=bence, series_id=series.pk, game_number=1, result=_win(series, b, a))
    officials, public = Client(), Client()
    officials.force_login(organiser)
    page = officials.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="disputes-link"' in page and "past its deadline" not in page
    ResultDispute.objects.update(due_at=timezone.now() - timedelta(minutes=1))
    page = officials.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1 dispute is past its deadline." in page
    referee_screen = Client()
    referee_screen.force_login(referee)
    screen = referee_screen.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert 'id="screen-disputes"' in screen and "1 dispute is past its deadline." in screen
    assert 'id="screen-disputes"' not in public.get(f"/tournaments/{tournament.pk}/screen/").content.decode()
    assert "past its deadline" not in public.get(f"/tournaments/{tournament.pk}/").content.decode()


def test_the_api_reports_confirms_lists_and_decides(
    duel: tuple[Series, Account, Account], referee: Account, make_user: Callable[..., Account]
) -> None:
    from rest_framework.test import APIClient

    series, anna, bence = duel
    a, b = _ids(series)
    as_anna, as_bence, as_referee, stranger = APIClient(), APIClient(), APIClient(), APIClient()
    as_anna.force_authenticate(anna)
    as_bence.force_authenticate(bence)
    as_referee.force_authenticate(referee)
    stranger.force_authenticate(make_user("stranger"))
    url = f"/api/series/{series.pk}/reports/"
    win = {"game": 1, "result": {"score": {str(a): 7, str(b): 2}}}
    assert stranger.post(url, win, format="json").status_code == 403
    bad = as_anna.post(url, {"game": 1, "result": {"score": {str(a): 7}}}, format="json")
    assert bad.status_code == 400 and not ResultReport.objects.exists()
    made = as_anna.post(url, win, format="json")
    assert made.status_code == 201 and made.json()["outcome"] == "pending"
    assert [r["id"] for r in APIClient().get(url).json()] == [made.json()["id"]]
    assert as_anna.post(f"/api/reports/{made.json()['id']}/confirm/").status_code == 409  # her own
    confirmed = as_bence.post(f"/api/reports/{made.json()['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["source"] == "players"
    assert APIClient().get(url).json() == []
    # Game 2: two versions, a dispute, decided by the referee over the API.
    as_anna.post(url, {"game": 2, "result": {"score": {str(a): 7, str(b): 2}}}, format="json")
    theirs = as_bence.post(
        url, {"game": 2, "result": {"score": {str(b): 7, str(a): 6}}}, format="json"
    ).json()
    assert theirs["outcome"] == "disputed"
    (dispute,) = as_referee.get(f"/api/tournaments/{series.stage.tournament_id}/disputes/").json()
    assert len(dispute["reports"]) == 2
    assert as_anna.get(f"/api/tournaments/{series.stage.tournament_id}/disputes/").status_code == 403
    decided = as_referee.post(
        f"/api/disputes/{dispute['id']}/decide/", {"report": theirs["id"]}, format="json"
    )
    assert decided.status_code == 200 and decided.json()["status"] == "decided"
    assert (
        as_referee.post(
            f"/api/disputes/{dispute['id']}/decide/", {"report": theirs["id"]}, format="json"
        ).status_code
        == 409
    )


def test_the_round_page_marks_a_series_with_a_report_waiting(duel: tuple[Series, Account, Account]) -> None:
    from django.test import Client

    series, anna, _bence = duel
    a, b = _ids(series)
    url = f"/stages/{series.stage_id}/rounds/{series.round.number}/"
    assert "report-waiting" not in Client().get(url).content.decode()
    reporting.report_submit(user=anna, series_id=series.pk, game_number=1, result=_win(series, a, b))
    assert "report waiting" in Client().get(url).content.decode()


def test_at_a_snap_table_of_three_any_other_seat_confirms_and_a_contradiction_is_a_dispute(
    make_series: Callable[..., Series], players: list[Player], make_user: Callable[..., Account]
) -> None:
    """Snap tables of 3–6 (issue 26): one report, confirmed by any other seated player; a second,
    contradicting report is a dispute."""
    from tests.conftest import snap_win

    anna, bence, csilla = players[:3]
    for player, name in ((bence, "bence"), (csilla, "csilla")):
        player.user = make_user(name)
        player.save()
    series = make_series([anna, bence, csilla], game="snap")
    tournament = series.stage.tournament
    tournament.result_mode = ResultMode.CONFIRM
    tournament.save()
    organiser = tournament.club.organisers.get()

    def value(game: int, winner: Player, *out: Player) -> Any:
        target = result_target_get(user=organiser, series_id=series.pk, game_number=game)
        return target.parse(snap_win(winner, *out))

    first = reporting.report_submit(
        user=anna.user, series_id=series.pk, game_number=1, result=value(1, anna, bence, csilla)
    )
    reporting.report_confirm(user=csilla.user, report_id=first.report.pk)  # not the one she played last
    assert GameResult.objects.get().confirmed_by == csilla.user
    reporting.report_submit(
        user=bence.user, series_id=series.pk, game_number=2, result=value(2, bence, anna, csilla)
    )
    other = reporting.report_submit(
        user=csilla.user, series_id=series.pk, game_number=2, result=value(2, csilla, anna, bence)
    )
    assert other.outcome == "disputed" and GameResult.objects.count() == 1
