"""Players report, opponents confirm (issue 26, docs/results.md "Who records results").

A seated player (an account linked to a seat's player) reports a game: a :class:`ResultReport`,
pending, which standings and brackets never read. Another seated player confirms it, or disputes it
with their own version; in the ``auto`` mode it also confirms itself after the tournament's
minutes unless disputed. Confirming goes through the one result service (``result_record`` with a
:class:`PlayersSource`: the same checks, the same write, audited "reported by A, confirmed by B").
A dispute, or a player's request to correct a confirmed result, waits in the officials' queue;
a referee or an organiser decides with one of the versions or a third.

Every write here locks the stage's row first (as ``result_record`` does), then reads: reports and
results of a stage are decided one at a time, so two players reporting at the same instant make one
pending report and a dispute or a confirmation, never two pending ones (the partial unique
constraints say the same in the database).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder
from tournaments.audit import audit
from tournaments.competitions.results import services as result_services
from tournaments.competitions.results.values import PlayedResult, VoidResult
from tournaments.competitions.selectors.tournaments import series_by_id, stage_by_id
from tournaments.models import (
    AuditEntry,
    GameResult,
    ResultDispute,
    ResultMode,
    ResultReport,
    Series,
    SeriesSeat,
)
from tournaments.notifications import senders

Status = ResultReport.Status


def seated_players(user: AnyUser, series: Series) -> list[int]:
    """The ids of the series' players linked to ``user`` (normally one)."""
    if not signed_in(user):
        return []
    return list(
        SeriesSeat.objects.filter(series=series, player__user=user).values_list("player_id", flat=True)
    )


def _require_seated(user: AnyUser, series: Series) -> None:
    tournament = series.stage.tournament
    if tournament.result_mode == ResultMode.REFEREES:
        raise PermissionDenied(
            code="players_do_not_report",
            message=_("In %(tournament)s only referees and organisers record results.")
            % {"tournament": tournament.name},
        )
    if not seated_players(user, series):
        raise PermissionDenied(
            code="not_seated",
            message=_("Only a player of this series can report or confirm its results."),
        )


def seated_check(*, user: AnyUser, series: Series) -> None:
    """Raise why ``user`` may not report in ``series`` (PermissionDenied ``players_do_not_report``
    or ``not_seated``), or Conflict ``series_decided`` when there is nothing left to report."""
    _require_seated(user, series)
    if series.status == Series.Status.DECIDED:
        raise Conflict(
            code="series_decided", message=_("This series is decided: there is nothing to report.")
        )


def report_series_id(*, report_id: int) -> int:
    series_id = ResultReport.objects.filter(pk=report_id).values_list("series_id", flat=True).first()
    if series_id is None:
        raise NotFound(code="report_not_found", message=_("No such report."))
    return series_id


def dispute_tournament_id(*, dispute_id: int) -> int:
    found = (
        ResultDispute.objects.filter(pk=dispute_id)
        .values_list("series__stage__tournament_id", flat=True)
        .first()
    )
    if found is None:
        raise NotFound(code="dispute_not_found", message=_("No such dispute."))
    return found


def dispute_for_official(*, user: AnyUser, dispute_id: int) -> ResultDispute:
    """An open dispute, for one of its tournament's referees or organisers (a correction: an
    organiser). Raises NotFound, PermissionDenied, Conflict ``dispute_decided``."""
    dispute = (
        ResultDispute.objects.select_related("series__stage__tournament__club").filter(pk=dispute_id).first()
    )
    if dispute is None:
        raise NotFound(code="dispute_not_found", message=_("No such dispute."))
    tournament = dispute.series.stage.tournament
    require_recorder(user, tournament)
    if dispute.kind == ResultDispute.Kind.CORRECTION:
        require_organiser(user, tournament.club)
    if dispute.status != ResultDispute.Status.OPEN:
        raise Conflict(code="dispute_decided", message=_("This dispute was decided already."))
    return dispute


def _locked(series_id: int) -> Series:
    """The series, with its stage's row locked for this transaction (the results' lock)."""
    series = series_by_id(series_id=series_id)
    stage_by_id(stage_id=series.stage_id, lock=True)
    return series


def _check(
    user: Account, series: Series, game_number: int, value: PlayedResult, expected_version: int
) -> PlayedResult:
    """What the result service would refuse for this version (wrong players, the series decided,
    a game recorded meanwhile, not the game due), refused now: a report that could never be
    confirmed is not kept. Returns the value in the game's seat order."""
    plan = result_services.check_result_record(
        result_services.ResultRequest(
            source=result_services.PlayersSource(reported_by=user, confirmed_by=None, report_id=0),
            series_id=series.pk,
            game_number=game_number,
            result=value,
            expected_version=expected_version,
        )
    )
    return plan.value


def _dispute_open(series: Series, game_number: int, kind: str) -> ResultDispute:
    dispute = ResultDispute.objects.filter(
        series=series, game_number=game_number, status=ResultDispute.Status.OPEN
    ).first()
    if dispute is None:
        dispute = ResultDispute.objects.create(
            series=series,
            game_number=game_number,
            kind=kind,
            due_at=timezone.now() + timedelta(minutes=settings.DISPUTE_DEADLINE_MINUTES),
        )
        senders.dispute_opened(dispute)
    return dispute


@transaction.atomic
def tournament_result_mode_set(
    *,
    user: AnyUser,
    tournament: Any,
    result_mode: str,
    auto_confirm_minutes: int = 15,
    report_deadline_minutes: int | None = None,
    no_show_at_deadline: bool = False,
) -> Any:
    """Who records the tournament's results, and its report deadline. Reports already waiting keep
    their own auto-confirmation time. Raises PermissionDenied, ApplicationError ``invalid``."""
    require_organiser(user, tournament.club)
    problems: dict[str, list[Any]] = {}
    if result_mode not in ResultMode.values:
        problems["result_mode"] = [_("Choose who records results.")]
    if not 1 <= int(auto_confirm_minutes) <= 1440:
        problems["auto_confirm_minutes"] = [_("Between 1 and 1440 minutes.")]
    if report_deadline_minutes is not None and not 5 <= int(report_deadline_minutes) <= 10080:
        problems["report_deadline_minutes"] = [_("Between 5 minutes and a week (10080), or blank.")]
    if no_show_at_deadline and report_deadline_minutes is None:
        problems["no_show_at_deadline"] = [_("Set a report deadline first.")]
    if problems:
        raise ApplicationError(code="invalid", message=_("The settings were not saved."), fields=problems)
    before = tournament.result_mode
    tournament.result_mode = result_mode
    tournament.auto_confirm_minutes = int(auto_confirm_minutes)
    tournament.report_deadline_minutes = report_deadline_minutes
    tournament.no_show_at_deadline = bool(no_show_at_deadline)
    tournament.save(
        update_fields=[
            "result_mode",
            "auto_confirm_minutes",
            "report_deadline_minutes",
            "no_show_at_deadline",
        ]
    )
    audit(
        AuditEntry.Action.RESULT_MODE_SET,
        user=user,
        tournament=tournament.pk,
        mode_before=before,
        mode=result_mode,
        auto_confirm_minutes=tournament.auto_confirm_minutes,
        report_deadline_minutes=report_deadline_minutes,
        no_show_at_deadline=tournament.no_show_at_deadline,
    )
    return tournament


@dataclass(frozen=True)
class Reported:
    report: ResultReport
    outcome: str  # "pending", "confirmed" (it matched the pending one), "disputed"


@transaction.atomic
def report_submit(
    *, user: AnyUser, series_id: int, game_number: int, result: PlayedResult, expected_version: int = 0
) -> Reported:
    """A seated player's version of game ``game_number``.

    - Nothing pending: kept as pending; the other seats are told to confirm it (in the ``auto``
      mode it confirms itself after the tournament's minutes).
    - Another seat's pending report with the same result: this confirms it.
    - A different result (or the game already in a dispute): a dispute for the officials.

    Raises PermissionDenied (``players_do_not_report``, ``not_seated``), Conflict
    ``already_reported`` (one's own report is pending), and what the result service refuses
    (``series_decided``, ``result_conflict``, ``wrong_game``, ``result_invalid`` …)."""
    series = _locked(series_id)
    _require_seated(user, series)
    assert signed_in(user)
    value = _check(user, series, game_number, result, expected_version)
    pending = ResultReport.objects.filter(
        series=series, game_number=game_number, status=Status.PENDING
    ).first()
    dispute = ResultDispute.objects.filter(
        series=series, game_number=game_number, status=ResultDispute.Status.OPEN
    ).first()
    if pending is not None and pending.reported_by_id == user.pk:
        raise Conflict(
            code="already_reported",
            message=_("You reported game %(n)s already: it waits for your opponent's confirmation.")
            % {"n": game_number},
        )
    in_seat_order = value.to_json()
    if pending is not None and dispute is None and pending.data == in_seat_order:
        return Reported(_confirm(pending, confirmed_by=user), "confirmed")
    report = ResultReport(
        series=series,
        game_number=game_number,
        data=in_seat_order,
        reported_by=user,
        expected_version=expected_version,
    )
    if pending is None and dispute is None:
        minutes = series.stage.tournament.auto_confirm_minutes
        if series.stage.tournament.result_mode == ResultMode.AUTO:
            report.auto_confirm_at = timezone.now() + timedelta(minutes=minutes)
        report.save()
        _audit(AuditEntry.Action.RESULT_REPORTED, user, report)
        senders.result_to_confirm(report)
        return Reported(report, "pending")
    dispute = dispute or _dispute_open(series, game_number, ResultDispute.Kind.DISPUTE)
    report.status = Status.DISPUTED
    report.dispute = dispute
    report.save()
    if pending is not None:
        pending.status, pending.dispute, pending.auto_confirm_at = Status.DISPUTED, dispute, None
        pending.save(update_fields=["status", "dispute", "auto_confirm_at"])
    _audit(AuditEntry.Action.RESULT_DISPUTED, user, report, dispute=dispute.pk)
    return Reported(report, "disputed")


def _report_for(user: AnyUser, report_id: int) -> ResultReport:
    """The report, its stage locked; NotFound for anyone who is neither seated in its series nor
    one of its officials (a report is seen by those only)."""
    report = ResultReport.objects.select_related("series").filter(pk=report_id).first()
    if report is None or not (seated_players(user, report.series) or _official(user, report.series)):
        raise NotFound(code="report_not_found", message=_("No such report."))
    _locked(report.series_id)
    report.refresh_from_db()
    return report


def _official(user: AnyUser, series: Series) -> bool:
    from tournaments.access import user_can_record

    return user_can_record(user, series.stage.tournament)


@transaction.atomic
def report_confirm(*, user: AnyUser, report_id: int) -> ResultReport:
    """Another seated player confirms a pending report: it becomes the game's confirmed result.
    Confirming one already confirmed is answered with it (a second tap, a retried request).

    Raises NotFound, PermissionDenied ``not_seated``, Conflict ``own_report``, ``report_replaced``
    (a dispute replaced it: the officials decide), and what the result service refuses."""
    report = _report_for(user, report_id)
    _require_seated(user, report.series)
    if report.reported_by_id == user.pk:
        raise Conflict(code="own_report", message=_("Your opponent confirms your report, not you."))
    if report.status == Status.CONFIRMED:
        return report
    if report.status != Status.PENDING:
        raise Conflict(
            code="report_replaced",
            message=_("This report is disputed now: a referee or an organiser decides game %(n)s.")
            % {"n": report.game_number},
        )
    assert signed_in(user)
    return _confirm(report, confirmed_by=user)


def _confirm(report: ResultReport, *, confirmed_by: Account | None) -> ResultReport:
    """Record ``report`` through the result service (idempotent by the report) and mark it."""
    value = report.value
    assert not isinstance(value, VoidResult)
    recorded, _created = result_services.result_record(
        source=result_services.PlayersSource(
            reported_by=report.reported_by, confirmed_by=confirmed_by, report_id=report.pk
        ),
        series_id=report.series_id,
        game_number=report.game_number,
        result=value,
        expected_version=report.expected_version,
    )
    report.status = Status.CONFIRMED
    report.confirmed_by = confirmed_by
    report.result = recorded
    report.decided_at = timezone.now()
    report.auto_confirm_at = None
    report.save(update_fields=["status", "confirmed_by", "result", "decided_at", "auto_confirm_at"])
    return report


@transaction.atomic
def report_dispute(*, user: AnyUser, report_id: int, result: PlayedResult) -> Reported:
    """Dispute a pending report with one's own version (the same result confirms it instead).
    Raises as :func:`report_confirm`, and ``report_replaced`` for a report no longer pending."""
    report = _report_for(user, report_id)
    if report.status not in (Status.PENDING, Status.DISPUTED):
        raise Conflict(
            code="report_replaced",
            message=_("This report is no longer waiting: see the series for game %(n)s.")
            % {"n": report.game_number},
        )
    return report_submit(
        user=user,
        series_id=report.series_id,
        game_number=report.game_number,
        result=result,
        expected_version=report.expected_version,
    )


@transaction.atomic
def correction_request(
    *, user: AnyUser, series_id: int, game_number: int, result: PlayedResult
) -> ResultReport:
    """A player cannot change a confirmed result; they ask for a correction, with their version: it
    goes to the officials' queue (an organiser decides, with a reason). Raises PermissionDenied,
    NotFound ``game_not_found`` (no confirmed result to correct), Conflict ``already_asked``."""
    series = _locked(series_id)
    _require_seated(user, series)
    current = GameResult.objects.filter(game__series=series, game__number=game_number, confirmed=True).first()
    if current is None:
        raise NotFound(code="game_not_found", message=_("This game has no result to correct."))
    dispute = _dispute_open(series, game_number, ResultDispute.Kind.CORRECTION)
    if ResultReport.objects.filter(dispute=dispute, reported_by=user).exists():
        raise Conflict(code="already_asked", message=_("You asked already: an organiser will decide."))
    report = ResultReport.objects.create(
        series=series,
        game_number=game_number,
        data=result.to_json(),
        reported_by=user,
        expected_version=current.version,
        status=Status.DISPUTED,
        dispute=dispute,
    )
    _audit(AuditEntry.Action.RESULT_DISPUTED, user, report, dispute=dispute.pk, correction=True)
    return report


@transaction.atomic
def dispute_decide(
    *,
    user: AnyUser,
    dispute_id: int,
    report_id: int | None = None,
    result: PlayedResult | None = None,
    note: str = "",
) -> ResultDispute:
    """An official decides a dispute with one of its reports (``report_id``) or a third version
    (``result``): recorded through the result service by the official (a correction request: as
    an organiser's correction, with ``note`` as its reason). Everyone involved is told.

    Raises NotFound, PermissionDenied (a referee for a correction: organisers correct), Conflict
    ``dispute_decided``, ApplicationError ``invalid`` (neither or both given)."""
    dispute = ResultDispute.objects.select_related("series").filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(code="dispute_not_found", message=_("No such dispute."))
    series = _locked(dispute.series_id)
    tournament = series.stage.tournament
    require_recorder(user, tournament)
    dispute.refresh_from_db()
    if dispute.status != ResultDispute.Status.OPEN:
        raise Conflict(code="dispute_decided", message=_("This dispute was decided already."))
    reports = list(dispute.reports.all())
    chosen = next((r for r in reports if r.pk == report_id), None)
    if (chosen is None) == (result is None):
        raise ApplicationError(
            code="invalid",
            message=_("Choose one of the versions, or enter another result."),
            fields={"report": [_("Choose one of the versions, or enter another result.")]},
        )
    value = chosen.value if chosen is not None else result
    assert not isinstance(value, VoidResult)
    correcting = dispute.kind == ResultDispute.Kind.CORRECTION
    if correcting:
        require_organiser(user, tournament.club)
    current = GameResult.objects.filter(
        game__series=series, game__number=dispute.game_number, confirmed=True
    ).first()
    note = note.strip()[:300]
    recorded, _created = result_services.result_record(
        source=result_services.UserSource(user),
        series_id=series.pk,
        game_number=dispute.game_number,
        result=value,
        expected_version=current.version if current is not None else 0,
        reason=(note or str(_("Dispute decided"))) if current is not None else note,
    )
    now = timezone.now()
    for report in reports:
        report.status = Status.CONFIRMED if report is chosen else Status.REPLACED
        report.decided_at = now
        report.result = recorded if report is chosen else None
        report.save(update_fields=["status", "decided_at", "result"])
    dispute.status = ResultDispute.Status.DECIDED
    dispute.decided_by = user if signed_in(user) else None
    dispute.decided_at = now
    dispute.result = recorded
    dispute.note = note
    dispute.save(update_fields=["status", "decided_by", "decided_at", "result", "note"])
    audit(
        AuditEntry.Action.DISPUTE_DECIDED,
        user=user,
        tournament=tournament.pk,
        stage=series.stage_id,
        series=series,
        game=dispute.game_number,
        dispute=dispute.pk,
        chosen=chosen.pk if chosen is not None else None,
        note=note,
    )
    senders.dispute_decided(dispute, [r.reported_by_id for r in reports])
    return dispute


def _audit(action: Any, user: AnyUser, report: ResultReport, **detail: Any) -> None:
    audit(
        action,
        user=user,
        tournament=report.series.stage.tournament_id,
        stage=report.series.stage_id,
        series=report.series,
        game=report.game_number,
        report=report.pk,
        **detail,
    )


# --- Beat: auto-confirmation and deadlines ---------------------------------------------------------


def reports_auto_confirm(*, limit: int = 200) -> list[int]:
    """Confirm every pending report whose minutes are up (``auto`` mode), each in its own
    transaction. Idempotent: a report confirmed by a retried or twin task is one result (the
    result service replays by the report; the status check sees it confirmed)."""
    due = list(
        ResultReport.objects.filter(status=Status.PENDING, auto_confirm_at__lte=timezone.now())
        .order_by("auto_confirm_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    done = []
    for report_id in due:
        try:
            with transaction.atomic():
                report = ResultReport.objects.select_related("series").get(pk=report_id)
                _locked(report.series_id)
                report.refresh_from_db()
                if report.status != Status.PENDING or report.auto_confirm_at is None:
                    continue
                _confirm(report, confirmed_by=None)
                done.append(report_id)
        except ApplicationError as exc:
            # The series moved on (an official recorded the game): the report can never be
            # confirmed; it waits for the officials as a dispute would.
            with transaction.atomic():
                ResultReport.objects.filter(pk=report_id, status=Status.PENDING).update(auto_confirm_at=None)
            audit(AuditEntry.Action.RESULT_DISPUTED, user=None, report=report_id, refused=exc.code)
    return done


def series_overdue(*, now: Any = None) -> list[Series]:
    """Open series of running tournaments with a report deadline whose round started more than the
    deadline ago, with no game and no report."""
    now = now or timezone.now()
    candidates = (
        Series.objects.filter(
            status=Series.Status.PENDING,
            walkover=False,
            stage__tournament__report_deadline_minutes__isnull=False,
            round__starts_at__isnull=False,
            reports__isnull=True,
            games__isnull=True,
        )
        .select_related("stage__tournament", "round")
        .order_by("pk")[:500]
    )
    return [
        s
        for s in candidates
        if s.round.starts_at + timedelta(minutes=s.stage.tournament.report_deadline_minutes or 0) < now
    ]


def reports_deadlines() -> list[int]:
    """Beat: tell the organisers of each overdue series (once: the notification's key), and with
    the tournament's rule record a double no-show. Returns the series told about."""
    from tournaments.competitions.stages import withdrawals

    told = []
    for series in series_overdue():
        tournament = series.stage.tournament
        with transaction.atomic():
            senders.report_overdue(series)
            if tournament.no_show_at_deadline:
                players = list(series.seats.values_list("player_id", flat=True))
                # The series may have moved on meanwhile: then there is nothing to forfeit.
                with contextlib.suppress(ApplicationError):
                    withdrawals.series_forfeit_absent(
                        series_id=series.pk, player_ids=players, reason=str(_("Not reported by its deadline"))
                    )
        told.append(series.pk)
    return told
