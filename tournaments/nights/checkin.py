"""Check-in for a club night's session: a player checks in (or the desk does), the desk takes a
check-in back, closes check-in (the no-shows forfeit) and reopens it (the forfeits taken back).

Each service is one transaction with its permission check inside (``tournaments/access.py``) and
an audit entry (``tournaments/audit.py``). Closing check-in records the no-shows through the
stages' own forfeit (``stages_withdrawals.series_forfeit_no_show``), under each stage's row lock, after the
session's: a result (stage lock only) can never wait on a close that waits on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, user_can_record
from tournaments.audit import audit
from tournaments.competitions.selectors.tournaments import stage_by_id
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.models import AuditEntry, CheckIn, Entry, Forfeit, Player, Series, Session
from tournaments.nights.selectors import session_by_id
from tournaments.notifications import senders as notifications_senders


def _entered(session: Session, player_id: int) -> Player:
    entry = (
        Entry.objects.select_related("player")
        .filter(tournament_id=session.tournament_id, player_id=player_id, withdrawn=False)
        .first()
    )
    if entry is None:
        raise ApplicationError(
            code="not_entered",
            message=_("This player does not play in this tournament."),
            fields={"player": [_("Choose a player of this tournament.")]},
        )
    return entry.player


@transaction.atomic
def session_check_in(*, user: AnyUser, session_id: int, player_id: int) -> tuple[CheckIn, bool]:
    """Check ``player_id`` in for the session: at the desk (its organisers and referees) or the
    player on their own account. Checking in twice changes nothing: the first check-in is returned
    with ``False``. Raises NotFound, PermissionDenied, ApplicationError ``not_entered`` (field
    ``player``), Conflict ``check_in_closed``."""
    session = session_by_id(session_id=session_id, lock=True)
    player = _entered(session, player_id) if user_can_record(user, session.tournament) else None
    if player is None:
        own = signed_in(user) and Player.objects.filter(pk=player_id, user=user).exists()
        if not own:
            raise PermissionDenied(
                code="not_allowed",
                message=_(
                    "Only the player, or the organisers and referees at the desk, may check a player in."
                ),
            )
        player = _entered(session, player_id)
    existing = CheckIn.objects.filter(session=session, player=player).first()
    if existing is not None:
        return existing, False
    if not session.check_in_open:
        raise Conflict(code="check_in_closed", message=_("Check-in for this session is closed."))
    check_in = CheckIn.objects.create(
        session=session, player=player, checked_in_by=user if signed_in(user) else None
    )
    audit(
        AuditEntry.Action.CHECKED_IN,
        user=user,
        tournament=session.tournament_id,
        session=session.pk,
        player=player.name,
    )
    return check_in, True


@transaction.atomic
def session_check_in_undo(*, user: AnyUser, session_id: int, player_id: int) -> bool:
    """Take back a check-in made by mistake (the desk's organisers and referees), while check-in
    is open. Returns whether there was one. Raises NotFound, PermissionDenied, Conflict."""
    session = session_by_id(session_id=session_id, lock=True)
    if not user_can_record(user, session.tournament):
        raise PermissionDenied(
            code="not_referee", message=_("Only the organisers and referees at the desk may do this.")
        )
    if not session.check_in_open:
        raise Conflict(code="check_in_closed", message=_("Check-in for this session is closed."))
    deleted, _rows = CheckIn.objects.filter(session=session, player_id=player_id).delete()
    if deleted:
        audit(
            AuditEntry.Action.CHECK_IN_UNDONE,
            user=user,
            tournament=session.tournament_id,
            session=session.pk,
            player=Player.objects.filter(pk=player_id).values_list("name", flat=True).first() or "",
        )
    return bool(deleted)


@dataclass
class CloseReport:
    """What closing check-in did: the series decided by no-shows, and those it could not decide
    (a table with more players still here than go on: the organiser withdraws or waits)."""

    session: Session
    forfeited: list[Series] = field(default_factory=list)
    left: list[Series] = field(default_factory=list)


@transaction.atomic
def session_check_in_close(*, user: AnyUser, session_id: int) -> CloseReport:
    """Close check-in: every series of the session's rounds not started yet whose players did not
    all check in gets the forfeit rule (a no-show; both away: a double forfeit), one audit entry
    each, and the close its own. Raises NotFound, PermissionDenied, Conflict ``check_in_closed``."""
    session = session_by_id(session_id=session_id, lock=True)
    require_organiser(user, session.tournament.club)
    if not session.check_in_open:
        raise Conflict(code="check_in_closed", message=_("Check-in for this session is already closed."))
    here = set(CheckIn.objects.filter(session=session).values_list("player_id", flat=True))
    report = CloseReport(session=session)
    candidates = list(
        Series.objects.filter(
            round__session=session, status=Series.Status.PENDING, walkover=False, games__isnull=True
        )
        .prefetch_related("seats")
        .order_by("stage_id", "round__number", "table")
    )
    reason = str(_("Not checked in for %(session)s") % {"session": session.name})
    locked: dict[int, object] = {}
    for series in candidates:
        away = sorted(seat.player_id for seat in series.seats.all() if seat.player_id not in here)
        if not away:
            continue
        if series.stage_id not in locked:
            locked[series.stage_id] = stage_by_id(stage_id=series.stage_id, lock=True)
        stage = stage_by_id(stage_id=series.stage_id)  # fresh results_version: each forfeit raises it
        try:
            with transaction.atomic():
                decided = stages_withdrawals.series_forfeit_no_show(
                    user=user,
                    stage=stage,
                    series_id=series.pk,
                    player_ids=away,
                    reason=reason,
                    session_id=session.pk,
                )
        except ApplicationError as exc:
            if exc.code not in ("forfeit_not_deciding", "series_decided", "series_started"):
                raise
            report.left.append(series)
        else:
            report.forfeited.append(decided)
    session.check_in = Session.CheckIn.CLOSED
    session.check_in_closed_at = timezone.now()
    session.save(update_fields=["check_in", "check_in_closed_at"])
    audit(
        AuditEntry.Action.CHECK_IN_CLOSED,
        user=user,
        tournament=session.tournament_id,
        session=session.pk,
        checked_in=len(here),
        forfeited=[s.key for s in report.forfeited],
        left=[s.key for s in report.left],
    )
    return report


@dataclass
class ReopenReport:
    """What reopening check-in did: the no-shows of the close taken back (their series are to be
    played again), and those kept because the tournament moved on from them since."""

    session: Session
    withdrawn: list[Series] = field(default_factory=list)
    kept: list[Series] = field(default_factory=list)


@transaction.atomic
def session_check_in_reopen(*, user: AnyUser, session_id: int) -> ReopenReport:
    """Reopen a closed check-in (a player walked in late): every no-show forfeit the close recorded
    is taken back (``stages_withdrawals.series_no_show_withdraw``: the series is to be played, the stage task
    runs on commit) unless the tournament has moved on from it (a round paired from its result, the
    stage finished, the series changed since): those are kept and listed. Check-ins stay; players
    may check in again, and closing again works as the first time. Locks as the close does: the
    session's row, then each stage's. Raises NotFound, PermissionDenied, Conflict
    ``check_in_open``."""
    session = session_by_id(session_id=session_id, lock=True)
    require_organiser(user, session.tournament.club)
    if session.check_in_open:
        raise Conflict(code="check_in_open", message=_("Check-in for this session is open."))
    report = ReopenReport(session=session)
    series_ids = (
        Forfeit.objects.filter(session=session)
        .order_by("series__stage_id", "series__round__number", "series__table")
        .values_list("series_id", flat=True)
    )
    locked: set[int] = set()
    for series in Series.objects.filter(pk__in=set(series_ids)).order_by(
        "stage_id", "round__number", "table"
    ):
        if series.stage_id not in locked:
            stage_by_id(stage_id=series.stage_id, lock=True)
            locked.add(series.stage_id)
        stage = stage_by_id(stage_id=series.stage_id)  # fresh results_version: each withdrawal raises it
        try:
            with transaction.atomic():
                stages_withdrawals.series_no_show_withdraw(
                    user=user, stage=stage, series_id=series.pk, session_id=session.pk
                )
        except ApplicationError as exc:
            if exc.code != "series_moved_on":
                raise
            report.kept.append(series)
        else:
            report.withdrawn.append(series)
    session.check_in = Session.CheckIn.OPEN
    session.check_in_closed_at = None
    session.save(update_fields=["check_in", "check_in_closed_at"])
    notifications_senders.check_in_open(session, reopened_at=timezone.now())
    audit(
        AuditEntry.Action.CHECK_IN_REOPENED,
        user=user,
        tournament=session.tournament_id,
        session=session.pk,
        withdrawn=[s.key for s in report.withdrawn],
        kept=[s.key for s in report.kept],
    )
    return report
