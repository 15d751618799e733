"""Every write of a club night: sessions, their schedule and stations, check-in and its close.

Each service is one transaction with its permission check inside (``tournaments/access.py``) and
an audit entry (``tournaments/audit.py``). Closing check-in records the no-shows through the
stages' own forfeit (``stages.series_forfeit_no_show``), under each stage's row lock, after the
session's: a result (stage lock only) can never wait on a close that waits on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments import stages
from tournaments.access import require_organiser, user_can_record
from tournaments.audit import audit
from tournaments.models import AuditEntry, CheckIn, Entry, Player, Round, Series, Session, Station, Tournament
from tournaments.selectors import series_by_id, stage_by_id
from tournaments.sessions import planning
from tournaments.sessions.selectors import session_by_id, session_stations

NAME_MAX = 120
VENUE_MAX = 200
STATION_NAME_MAX = 60
STATIONS_MAX = 200


def _clean(text: str, *, field_name: str, limit: int, required: bool) -> str:
    cleaned = " ".join(str(text or "").split())
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
) -> Session:
    """A new sitting of ``tournament``. Raises PermissionDenied (not its organiser),
    ApplicationError ``invalid`` (field ``name``, ``venue``) or ``session_in_past`` (field
    ``starts_at``): a session is planned ahead, never backdated."""
    require_organiser(user, tournament.club)
    name = _clean(name, field_name="name", limit=NAME_MAX, required=True)
    venue = _clean(venue, field_name="venue", limit=VENUE_MAX, required=False)
    starts_at = _aware(starts_at)
    if starts_at < timezone.now():
        raise ApplicationError(
            code="session_in_past",
            message=_("A session cannot start in the past."),
            fields={"starts_at": [_("Choose a time from now on.")]},
        )
    session = Session.objects.create(
        tournament=tournament, name=name, starts_at=starts_at, venue=venue, online=bool(online)
    )
    audit(
        AuditEntry.Action.SESSION_CREATED,
        user=user,
        tournament=tournament,
        session=session.pk,
        name=session.name,
        starts_at=session.starts_at.isoformat(),
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
    found.session = session
    found.starts_at = when
    found.save(update_fields=["session", "starts_at"])
    _stations_assign(session, [found])
    audit(
        AuditEntry.Action.ROUND_SCHEDULED,
        user=user,
        tournament=session.tournament_id,
        stage=found.stage_id,
        session=session.pk,
        round=found.number,
        starts_at=when.isoformat(),
    )
    return found


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
                decided = stages.series_forfeit_no_show(
                    user=user, stage=stage, series_id=series.pk, player_ids=away, reason=reason
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
