"""Every write of a club night's sessions: making and editing them, their rounds' schedule and
their stations. Check-in and its close: ``tournaments/nights/checkin.py``.

Each service is one transaction with its permission check inside (``tournaments/access.py``) and
an audit entry (``tournaments/audit.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.names import name_clean, name_problem
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.competitions.selectors.tournaments import series_by_id
from tournaments.models import (
    AuditEntry,
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
