"""Every write of a club night: sessions, their schedule and stations, check-in and its close.

Each service is one transaction with its permission check inside (``tournaments/access.py``) and
an audit entry (``tournaments/audit.py``). Closing check-in records the no-shows through the
stages' own forfeit (``stages_withdrawals.series_forfeit_no_show``), under each stage's row lock, after the
session's: a result (stage lock only) can never wait on a close that waits on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.names import name_clean, name_problem
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, user_can_record
from tournaments.audit import audit
from tournaments.competitions.selectors.tournaments import series_by_id, stage_by_id
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Entry,
    Forfeit,
    Player,
    Round,
    Series,
    Session,
    Station,
    Tournament,
)
from tournaments.nights import planning
from tournaments.nights.selectors import session_by_id, session_stations
from tournaments.notifications import senders as notifications_senders

NAME_MAX = 120
VENUE_MAX = 200
STATION_NAME_MAX = 60
STATIONS_MAX = 200
ROUNDS_PLANNED_MAX = 50


def _clean(text: str, *, field_name: str, limit: int, required: bool) -> str:
    cleaned = name_clean(text)
    if problem := name_problem(cleaned):
        raise ApplicationError(code="invalid", message=problem, fields={field_name: [problem]})
    if required and not cleaned:
        raise ApplicationError(
            code="invalid", message=_("This field is required."), fields={field_name: [_("Required.")]}
        )
    if len(cleaned) > limit:
        raise ApplicationError(
            code="invalid",
            message=_("That is too long."),
            fields={field_name: [_("At most %(n)s characters.") % {"n": limit}]},
        )
    return cleaned


def _aware(starts_at: datetime, *, field_name: str = "starts_at") -> datetime:
    if not isinstance(starts_at, datetime):
        raise ApplicationError(
            code="invalid",
            message=_("Enter a date and time."),
            fields={field_name: [_("Enter a date and time.")]},
        )
    if timezone.is_naive(starts_at):
        # A time typed without a zone is the club's local time (settings.TIME_ZONE).
        starts_at = timezone.make_aware(starts_at)
    return starts_at


# --- Sessions ---------------------------------------------------------------------------------------


@transaction.atomic
def session_create(
    *,
    user: AnyUser,
    tournament: Tournament,
    name: str,
    starts_at: datetime,
    venue: str = "",
    online: bool = False,
    rounds_planned: int | None = None,
) -> Session:
    """A new sitting of ``tournament``; ``rounds_planned``: how many rounds published later go into
    it by themselves (:func:`rounds_schedule_published`). Raises PermissionDenied (not its
    organiser), ApplicationError ``invalid`` (field ``name``, ``venue``, ``rounds_planned``) or
    ``session_in_past`` (field ``starts_at``): a session is planned ahead, never backdated."""
    require_organiser(user, tournament.club)
    name = _clean(name, field_name="name", limit=NAME_MAX, required=True)
    venue = _clean(venue, field_name="venue", limit=VENUE_MAX, required=False)
    rounds_planned = _rounds_planned(rounds_planned)
    starts_at = _aware(starts_at)
    if starts_at < timezone.now():
        raise ApplicationError(
            code="session_in_past",
            message=_("A session cannot start in the past."),
            fields={"starts_at": [_("Choose a time from now on.")]},
        )
    session = Session.objects.create(
        tournament=tournament,
        name=name,
        starts_at=starts_at,
        venue=venue,
        online=bool(online),
        rounds_planned=rounds_planned,
    )
    audit(
        AuditEntry.Action.SESSION_CREATED,
        user=user,
        tournament=tournament,
        session=session.pk,
        name=session.name,
        starts_at=session.starts_at.isoformat(),
        rounds_planned=session.rounds_planned,
    )
    notifications_senders.check_in_open(session)
    return session


def _rounds_planned(value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= ROUNDS_PLANNED_MAX:
        message = _("Plan from 0 to %(n)s rounds, or leave it empty.") % {"n": ROUNDS_PLANNED_MAX}
        raise ApplicationError(code="invalid", message=message, fields={"rounds_planned": [message]})
    return value


@transaction.atomic
def session_update(
    *, user: AnyUser, session_id: int, name: str, venue: str, online: bool, rounds_planned: int | None
) -> Session:
    """Change a session's name, venue, online slot and rounds planned (its start stays: its
    rounds' times hang on it). Fewer rounds planned than are scheduled in it moves none: it only
    stops more from coming. Raises NotFound, PermissionDenied, ApplicationError ``invalid``
    (field ``name``, ``venue``, ``rounds_planned``)."""
    session = session_by_id(session_id=session_id, lock=True)
    require_organiser(user, session.tournament.club)
    session.name = _clean(name, field_name="name", limit=NAME_MAX, required=True)
    session.venue = _clean(venue, field_name="venue", limit=VENUE_MAX, required=False)
    session.online = bool(online)
    session.rounds_planned = _rounds_planned(rounds_planned)
    session.save(update_fields=["name", "venue", "online", "rounds_planned"])
    audit(
        AuditEntry.Action.SESSION_UPDATED,
        user=user,
        tournament=session.tournament_id,
        session=session.pk,
        name=session.name,
        venue=session.venue,
        online=session.online,
        rounds_planned=session.rounds_planned,
    )
    return session


@transaction.atomic
def session_round_schedule(
    *, user: AnyUser, session_id: int, round_id: int, starts_at: datetime | None = None
) -> Round:
    """Schedule a published round of the session's tournament into the session, starting at
    ``starts_at`` (default: when the session starts), and give its series stations in table
    order. Rescheduling moves it (its series keep stations that the new session also has).
    Raises NotFound, PermissionDenied, ApplicationError (field ``round`` / ``starts_at``)."""
    session = session_by_id(session_id=session_id, lock=True)
    require_organiser(user, session.tournament.club)
    found = (
        Round.objects.select_related("stage")
        .filter(pk=round_id, stage__tournament=session.tournament)
        .first()
    )
    if found is None:
        raise ApplicationError(
            code="invalid",
            message=_("Choose a round of this tournament."),
            fields={"round": [_("Choose a round of this tournament.")]},
        )
    when = session.starts_at if starts_at is None else _aware(starts_at)
    return _round_schedule(user=user, session=session, round_=found, when=when)


def _round_schedule(*, user: AnyUser | None, session: Session, round_: Round, when: datetime) -> Round:
    """Put ``round_`` into ``session`` (locked by the caller) at ``when`` and give its series
    stations in table order: the one code path of the organiser's schedule and the automatic one
    (``user`` None: the audit entry names no one)."""
    round_.session = session
    round_.starts_at = when
    round_.save(update_fields=["session", "starts_at"])
    _stations_assign(session, [round_])
    audit(
        AuditEntry.Action.ROUND_SCHEDULED,
        user=user,
        tournament=session.tournament_id,
        stage=round_.stage_id,
        session=session.pk,
        round=round_.number,
        starts_at=when.isoformat(),
        automatic=user is None,
    )
    return round_


def rounds_schedule_published(*, round_ids: Sequence[int]) -> list[Round]:
    """Schedule rounds just published (``stages/publish.py``, after its commit: the organiser's
    publish and the stage task's alike) into the tournament's sessions that plan rounds, in round
    order: each into the earliest session with room not earlier than the session of the previous
    round of its stage (the latest earlier round that is scheduled) (``planning.session_for_round``), at the session's start or an hour after
    the round before it there. A round already in a session, or with no session to go to, stays
    as it is. One transaction: the tournament's sessions are locked in start order (no stage lock
    is held, so a close, which locks a session then stages, cannot wait on it). Returns the rounds
    scheduled."""
    with transaction.atomic():
        rounds = list(
            Round.objects.filter(pk__in=round_ids, session__isnull=True)
            .select_related("stage")
            .order_by("stage__order", "number")
        )
        if not rounds:
            return []
        tournament_id = rounds[0].stage.tournament_id
        sessions = list(
            Session.objects.select_for_update()
            .filter(tournament_id=tournament_id, rounds_planned__gt=0)
            .order_by("starts_at", "pk")
        )
        if not sessions:
            return []
        by_id = {s.pk: s for s in sessions}
        done: list[Round] = []
        for one in rounds:
            rooms = [
                planning.SessionRoom(
                    s.pk,
                    s.starts_at.timestamp(),
                    s.rounds_planned,
                    tuple((r.starts_at or s.starts_at).timestamp() for r in s.rounds.all()),
                )
                for s in sessions
            ]
            # The session of the previous round of the stage (the latest earlier one scheduled).
            previous = (
                Session.objects.filter(rounds__stage_id=one.stage_id, rounds__number__lt=one.number)
                .order_by("-rounds__number")
                .values_list("starts_at", flat=True)
                .first()
            )
            place = planning.session_for_round(
                rooms,
                now=timezone.now().timestamp(),
                not_before=previous.timestamp() if previous is not None else None,
            )
            if place is None:
                continue
            session_id, start = place
            when = datetime.fromtimestamp(start, tz=UTC)
            done.append(_round_schedule(user=None, session=by_id[session_id], round_=one, when=when))
        return done


_STATION_LINE = re.compile(r"^(\d{1,4})(?:\s*[.:)\-–]\s*|\s+|$)(.*)$")


def parse_stations(text: str) -> list[tuple[int, str]]:
    """The lines of the stations form: ``"3"``, ``"3 Window table"``, ``"3. Window"`` or a bare
    name (numbered after the one before). Raises ApplicationError (field ``stations``)."""
    stations: list[tuple[int, str]] = []
    seen: set[int] = set()
    for raw in str(text or "").splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        match = _STATION_LINE.match(line)
        if match:
            number, name = int(match.group(1)), match.group(2).strip()
        else:
            number, name = (stations[-1][0] + 1 if stations else 1), line
        problem = None
        if number < 1:
            problem = _("Table numbers start at 1.")
        elif number in seen:
            problem = _("Table %(n)s is listed twice.") % {"n": number}
        elif len(name) > STATION_NAME_MAX:
            problem = _("A table’s name has at most %(n)s characters.") % {"n": STATION_NAME_MAX}
        if problem is not None:
            raise ApplicationError(code="invalid", message=problem, fields={"stations": [problem]})
        seen.add(number)
        stations.append((number, name))
    if len(stations) > STATIONS_MAX:
        message = _("At most %(n)s tables.") % {"n": STATIONS_MAX}
        raise ApplicationError(code="invalid", message=message, fields={"stations": [message]})
    return stations


@transaction.atomic
def session_stations_set(
    *, user: AnyUser, session_id: int, stations: Sequence[tuple[int, str]]
) -> list[Station]:
    """Replace the session's own tables with ``stations`` ((number, name) pairs; none: the
    session uses the club's tables) and hand them out again in table order to its rounds' series.
    Raises NotFound, PermissionDenied."""
    session = session_by_id(session_id=session_id, lock=True)
    require_organiser(user, session.tournament.club)
    Station.objects.filter(session=session).delete()  # their series' station becomes NULL
    made = Station.objects.bulk_create(
        Station(club=session.tournament.club, session=session, number=number, name=name)
        for number, name in stations
    )
    _stations_assign(session, list(session.rounds.all()))
    audit(
        AuditEntry.Action.STATIONS_SET,
        user=user,
        tournament=session.tournament_id,
        session=session.pk,
        stations=[str(s) for s in made],
    )
    return made


def _stations_assign(session: Session, rounds: Sequence[Round]) -> None:
    """Give each open series of ``rounds`` a station in table order (planning.stations_in_order),
    keeping the stations its series already hold where the session has them."""
    available = session_stations(session=session)
    by_number = {s.number: s for s in available}
    by_id = {s.pk: s.number for s in available}
    for one in rounds:
        series_list = [s for s in Series.objects.filter(round=one).order_by("table") if not s.walkover]
        taken = {s.table: by_id[s.station_id] for s in series_list if s.station_id in by_id}
        plan = planning.stations_in_order([s.table for s in series_list], sorted(by_number), taken)
        for series in series_list:
            station = by_number.get(plan[series.table]) if series.table in plan else None
            station_id = station.pk if station is not None else None
            if series.station_id != station_id:
                series.station_id = station_id
                series.save(update_fields=["station"])


@transaction.atomic
def series_station_set(*, user: AnyUser, series_id: int, station_id: int | None) -> Series:
    """Seat a series at another station of its session (None: none). A station another series of
    the same round holds is swapped with it, so two series never share one. Raises NotFound,
    PermissionDenied, ApplicationError (field ``station``)."""
    series = series_by_id(series_id=series_id)
    require_organiser(user, series.stage.tournament.club)
    session = series.round.session
    if session is None:
        raise ApplicationError(
            code="not_scheduled",
            message=_("Schedule this round into a session first: its tables come from the session."),
            fields={"station": [_("This round is not scheduled into a session.")]},
        )
    session = session_by_id(session_id=session.pk, lock=True)
    station = None
    if station_id is not None:
        station = next((s for s in session_stations(session=session) if s.pk == station_id), None)
        if station is None:
            raise ApplicationError(
                code="invalid",
                message=_("Choose a table of this session."),
                fields={"station": [_("Choose a table of this session.")]},
            )
        holder = (
            Series.objects.filter(round_id=series.round_id, station=station).exclude(pk=series.pk).first()
        )
        if holder is not None:
            holder.station_id = series.station_id
            holder.save(update_fields=["station"])
    series.station = station
    series.save(update_fields=["station"])
    return series


# --- Check-in ------------------------------------------------------------------------------------


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
