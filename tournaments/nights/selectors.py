"""Reads of a club night: sessions as their pages show them (the desk, the tonight page), and a
player's next table."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder, user_can_record
from tournaments.competitions import screen
from tournaments.competitions.selectors.stages import series_scores
from tournaments.competitions.selectors.tournaments import Roles, roles_get, tournaments_visible
from tournaments.models import AuditEntry, CheckIn, Entry, Player, Round, Series, Session, Station, Tournament
from tournaments.nights import planning
from tournaments.rows import row_by_id


def session_by_id(*, session_id: int, lock: bool = False) -> Session:
    """The session with its tournament and club (``lock``: its row locked until the transaction
    ends; every check-in and the close are written under it). Raises NotFound."""
    return row_by_id(
        Session.objects.select_related("tournament__club"),
        session_id,
        lock=lock,
        missing=NotFound(code="session_not_found", message=_("No such session.")),
    )


def sessions_visible(*, user: AnyUser) -> QuerySet[Session]:
    return Session.objects.select_related("tournament__club").filter(
        tournament__in=tournaments_visible(user=user).values("pk")
    )


def session_get(*, user: AnyUser, session_id: int) -> Session:
    """Raises NotFound when there is no such session or ``user`` may not see its tournament."""
    try:
        return sessions_visible(user=user).get(pk=session_id)
    except Session.DoesNotExist:
        raise NotFound(code="session_not_found", message=_("No such session.")) from None


def session_manage_get(*, user: AnyUser, session_id: int) -> Session:
    """A session its club's organisers manage. Raises NotFound, PermissionDenied."""
    session = session_get(user=user, session_id=session_id)
    require_organiser(user, session.tournament.club)
    return session


def session_fields(session: Session) -> dict[str, object]:
    """The session's editable fields as its edit form and the API take them (session_update's
    keywords)."""
    return {
        "name": session.name,
        "venue": session.venue,
        "online": session.online,
        "rounds_planned": session.rounds_planned,
    }


def session_check_in_get(*, user: AnyUser, session_id: int) -> Session:
    """A session ``user`` may check someone in for: its desk (organisers and referees) or a player
    of its tournament on their own account. Decided before the body is read (who, not whom).
    Raises NotFound, PermissionDenied."""
    session = session_get(user=user, session_id=session_id)
    if user_can_record(user, session.tournament):
        return session
    if signed_in(user) and Entry.objects.filter(tournament=session.tournament, player__user=user).exists():
        return session
    raise PermissionDenied(
        code="not_allowed",
        message=_("Only the player, or the organisers and referees at the desk, may check a player in."),
    )


def session_stations(*, session: Session) -> list[Station]:
    """The tables of a session: its own, or (none of its own) its club's."""
    own = list(Station.objects.filter(session=session).order_by("number"))
    if own:
        return own
    return list(
        Station.objects.filter(club_id=session.tournament.club_id, session__isnull=True).order_by("number")
    )


# --- The desk ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeskRow:
    player: Player
    check_in: CheckIn | None


@dataclass(frozen=True)
class DeskPage:
    session: Session
    tournament: Tournament
    rows: list[DeskRow]
    query: str
    checked_in: int
    expected: int


def session_desk_get(*, user: AnyUser, session_id: int, query: str = "") -> DeskPage:
    """The check-in desk: the tournament's players (not withdrawn) with their check-in, those whose
    name contains ``query`` (case aside). Organisers and referees. Raises NotFound, PermissionDenied."""
    session = session_get(user=user, session_id=session_id)
    require_recorder(user, session.tournament)
    players = [
        e.player
        for e in Entry.objects.select_related("player").filter(tournament=session.tournament, withdrawn=False)
    ]
    players.sort(key=lambda p: p.name.casefold())
    check_ins = {c.player_id: c for c in CheckIn.objects.filter(session=session)}
    query = " ".join(query.split())[:60]
    shown = [p for p in players if query.casefold() in p.name.casefold()] if query else players
    return DeskPage(
        session=session,
        tournament=session.tournament,
        rows=[DeskRow(p, check_ins.get(p.pk)) for p in shown],
        query=query,
        checked_in=sum(1 for p in players if p.pk in check_ins),
        expected=len(players),
    )


# --- Tonight -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TonightLine:
    series: Series
    station: Station | None
    score: tuple[int, ...] | None


@dataclass(frozen=True)
class TonightRound:
    round: Round
    lines: list[TonightLine]

    @property
    def open_lines(self) -> list[TonightLine]:
        return [line for line in self.lines if line.series.status != Series.Status.DECIDED]


@dataclass(frozen=True)
class TonightPage:
    session: Session
    tournament: Tournament
    roles: Roles
    rounds: list[TonightRound]
    current: TonightRound | None
    still_playing: list[TonightLine]
    checked_in: int
    expected: int
    stations: list[Station]
    version: str
    # The stage of the current round: the page follows its live topic (docs/architecture.md).
    stage_version: str
    unscheduled: list[Round]
    my_players: list[Player]
    my_check_ins: set[int]


def _session_rounds(session: Session) -> list[Round]:
    return list(
        Round.objects.filter(session=session)
        .select_related("stage")
        .order_by("starts_at", "stage__order", "number")
    )


def session_version_get(*, user: AnyUser, session_id: int) -> str:
    """What the tonight page shows changes with: the results of its rounds' stages, the check-ins
    and the check-in's state, the schedule and the stations. A dotted counter that only grows."""
    session = session_get(user=user, session_id=session_id)
    return _session_version(session)


def _session_version(session: Session, rounds: list[Round] | None = None) -> str:
    rounds = _session_rounds(session) if rounds is None else rounds
    results = sum({r.stage_id: r.stage.results_version for r in rounds}.values())
    check_ins = CheckIn.objects.filter(session=session).count()
    # Closing adds 1, reopening takes it away and adds 2: the counter only grows.
    reopened = AuditEntry.objects.filter(
        action=AuditEntry.Action.CHECK_IN_REOPENED,
        tournament_id=session.tournament_id,
        detail__session=session.pk,
    ).count()
    closed = (0 if session.check_in_open else 1) + 2 * reopened
    stations = Series.objects.filter(round__session=session, station__isnull=False).count()
    return f"{results}.{len(rounds)}.{check_ins + closed}.{stations}"


def session_tonight_version(*, user: AnyUser, session_id: int) -> tuple[str, str]:
    """The tonight part's topic and version (snapleague/fragments.py): it is the same for every
    reader, and everything it prints moves the version: its rounds' stages' results, its rounds and
    their times, the check-ins and the check-in's state, the stations and their names, and the
    players expected. Raises NotFound as :func:`session_get`."""
    session = session_get(user=user, session_id=session_id)
    rounds = _session_rounds(session)
    parts = (
        _session_version(session, rounds),
        session.check_in,
        [(r.pk, r.number, r.starts_at, r.stage.name, r.stage.results_version) for r in rounds],
        list(
            Series.objects.filter(round__session=session, station__isnull=False)
            .order_by("pk")
            .values_list("pk", "station_id", "station__number", "station__name")
        ),
        Entry.objects.filter(tournament_id=session.tournament_id, withdrawn=False).count(),
    )
    version = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    return f"tonight:{session.pk}:{session.created_at.timestamp()}", version


def session_tonight_get(*, user: AnyUser, session_id: int) -> TonightPage:
    session = session_get(user=user, session_id=session_id)
    tournament = session.tournament
    rounds = _session_rounds(session)
    series_all = list(
        Series.objects.filter(round__in=rounds)
        .select_related("station", "stage__tournament")
        .prefetch_related("seats__player", "forfeits__player")
        .order_by("round_id", "table")
    )
    scores: dict[int, tuple[int, ...]] = {}
    for stage in {s.stage_id: s.stage for s in series_all}.values():
        scores.update(series_scores(stage=stage, series=[s for s in series_all if s.stage_id == stage.pk]))
    by_round: dict[int, list[TonightLine]] = {}
    for one in series_all:
        by_round.setdefault(one.round_id, []).append(TonightLine(one, one.station, scores.get(one.pk)))
    tonight = [TonightRound(r, by_round.get(r.pk, [])) for r in rounds]
    current_id = planning.current_round(
        [
            planning.RoundStatus(
                t.round.pk, t.round.number, sum(1 for line in t.open_lines if not line.series.walkover)
            )
            for t in tonight
        ]
    )
    current = next((t for t in tonight if t.round.pk == current_id), None)
    players = [e.player_id for e in Entry.objects.filter(tournament=tournament, withdrawn=False)]
    check_ins = set(CheckIn.objects.filter(session=session).values_list("player_id", flat=True))
    roles = roles_get(user=user, tournament=tournament)
    mine = (
        list(Player.objects.filter(user=user, entries__tournament=tournament, entries__withdrawn=False))
        if signed_in(user)
        else []
    )
    stage = current.round.stage if current is not None else None
    return TonightPage(
        session=session,
        tournament=tournament,
        roles=roles,
        rounds=tonight,
        current=current,
        still_playing=[line for t in tonight for line in t.open_lines if not line.series.walkover],
        checked_in=sum(1 for p in players if p in check_ins),
        expected=len(players),
        stations=session_stations(session=session),
        version=_session_version(session),
        stage_version=f"{stage.results_version}.{stage.standings_version}" if stage is not None else "0",
        unscheduled=list(
            Round.objects.filter(stage__tournament=tournament)
            .filter(Q(session__isnull=True) | ~Q(session=session))
            .select_related("stage", "session")
            .order_by("stage__order", "number")
        )
        if roles.organiser
        else [],
        my_players=mine,
        my_check_ins={p.pk for p in mine if p.pk in check_ins},
    )


# --- The session's big screen ------------------------------------------------------------------------


def session_current_round(session: Session) -> screen.CurrentRound | None:
    """The round a session's screen shows: the tonight page's current round (the first of its
    schedule with a series still open, else its last), with all of that round's tables. None while
    no round is scheduled in it."""
    rounds = _session_rounds(session)
    open_counts = dict(
        Series.objects.filter(round__in=rounds, walkover=False)
        .exclude(status=Series.Status.DECIDED)
        .values_list("round_id")
        .annotate(n=Count("pk"))
    )
    current_id = planning.current_round(
        [planning.RoundStatus(r.pk, r.number, open_counts.get(r.pk, 0)) for r in rounds]
    )
    if current_id is None:
        return None
    round_ = Round.objects.select_related("bye", "stage__tournament__club").get(pk=current_id)
    return screen.CurrentRound(stage=round_.stage, round=round_, series=screen.series_of(round_))


def session_screen_get(*, user: AnyUser, session_id: int) -> screen.ScreenPage:
    """The big screen of a session: as public as its tournament (NotFound otherwise), its tables
    those of the session's current round, at the session's stations."""
    session = session_get(user=user, session_id=session_id)
    return screen.screen_build(
        user=user,
        tournament=session.tournament,
        source=lambda _tournament: session_current_round(session),
        session=session,
    )


def tournament_sessions_list(*, tournament: Tournament) -> list[Session]:
    return list(Session.objects.filter(tournament=tournament).order_by("starts_at", "pk"))


# --- "Your next table" -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextTable:
    player: Player
    series: Series
    station: Station | None
    opponents: list[Player]
    starts_at: datetime | None
    session: Session | None
    score: tuple[int, ...] | None  # games won so far, seat order (None before the first game)
    seat_scores: list[tuple[Player, int]]  # the same, named
    online: bool  # played online: the card links to "Play"
    check_in_due: bool  # its session's check-in is open and the player is not checked in


def _series_start(series: Series) -> datetime | None:
    session = series.round.session
    return series.round.starts_at or (session.starts_at if session else None)


def _timestamp(moment: datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def next_table_get(*, user: AnyUser, players: list[Player]) -> NextTable | None:
    """The next series of any of ``players`` (those ``user`` sees): the earliest scheduled one
    that is not decided (planning.next_series), else the first open one by round. None when
    none is open."""
    if not players:
        return None
    ids = [p.pk for p in players]
    candidates = list(
        Series.objects.filter(
            seats__player_id__in=ids,
            stage__tournament__in=tournaments_visible(user=user).values("pk"),
            walkover=False,
        )
        .exclude(status=Series.Status.DECIDED)
        .select_related("round__session", "station", "stage__tournament")
        .prefetch_related("seats__player")
        .distinct()
    )
    if not candidates:
        return None
    chosen_id = planning.next_series(
        [planning.Upcoming(s.pk, _timestamp(_series_start(s)), s.round.number, s.table) for s in candidates]
    )
    series = next(s for s in candidates if s.pk == chosen_id)
    seats = list(series.seats.all())
    me = next(seat.player for seat in seats if seat.player_id in ids)
    score = series_scores(stage=series.stage, series=[series]).get(series.pk)
    session = series.round.session
    return NextTable(
        player=me,
        series=series,
        station=series.station,
        opponents=[seat.player for seat in seats if seat.player_id != me.pk],
        starts_at=_series_start(series),
        session=session,
        score=score,
        seat_scores=[(seat.player, score[i]) for i, seat in enumerate(seats)] if score else [],
        online=series.stage.online_play,
        check_in_due=bool(
            session
            and session.check_in_open
            and not CheckIn.objects.filter(session=session, player=me).exists()
        ),
    )


def user_next_table_get(*, user: AnyUser) -> NextTable | None:
    """The home page's card: the next table of any player the signed-in ``user`` is."""
    if not signed_in(user):
        return None
    return next_table_get(user=user, players=list(Player.objects.filter(user=user)))
