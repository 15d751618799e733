"""The room's big screen (issue 15): what it shows, read from what the public pages show.

A screen is a list of **panels** the page cycles through: the current round's tables (who plays
whom, the series score, what is still being played), the live standings, and the bracket when the
stage has one. Long lists are cut into several panels, so that every line stays readable from 5 m.

Where the tables come from is a :class:`RoundSource`: for a tournament, its current round
(:func:`tournament_current_round`); for a session, the current round of its schedule
(``tournaments.nights.selectors.session_current_round``), both through :func:`screen_build`.
A table the session put at a station of the room is shown by that station's number and name.

Nothing here is more than the public pages show: names, table numbers, games won, statuses,
the standings' ranks and values and the bracket drawing. No result history, reasons, referees or
audit entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from snapleague.users import AnyUser
from tournaments.access import user_can_record
from tournaments.competitions.bracket_page import stage_drawing
from tournaments.competitions.selectors.stages import series_scores, stage_page_get
from tournaments.competitions.selectors.standings import StandingsPage, stage_standings_page_get
from tournaments.competitions.selectors.tournaments import tournament_get
from tournaments.models import Player, Round, Series, SeriesSeat, Session, Stage, StandingRow, Tournament

DEFAULT_SECONDS = 15
MIN_SECONDS = 5
MAX_SECONDS = 600
TABLES_PER_PANEL = 8
ROWS_PER_PANEL = 10
TIEBREAKS_SHOWN = 2  # besides rank and name: more columns would not be read from the back of the room


def screen_seconds(value: str | None) -> int:
    """The cycle interval asked for in ``?seconds=``, kept within 5–600 s; the default (15 s)
    for anything that is not a whole number."""
    try:
        seconds = int(value or "")
    except ValueError:
        return DEFAULT_SECONDS
    return min(max(seconds, MIN_SECONDS), MAX_SECONDS)


@dataclass(frozen=True)
class ScreenSeat:
    name: str
    wins: int | None  # games won so far; None before the first game
    place: int | None  # once the series is decided
    forfeit: bool = False


@dataclass(frozen=True)
class ScreenTable:
    table: int
    status: str  # Series.Status, or "walkover"
    status_label: str
    seats: list[ScreenSeat]
    station: str = ""  # the room's table it is played at ("Table 3 · Window"), when one is set

    @property
    def open(self) -> bool:
        return self.status in (Series.Status.PENDING, Series.Status.PLAYING)


@dataclass(frozen=True)
class CurrentRound:
    """A round and the series the screen shows of it (all of them, or a session's tables)."""

    stage: Stage
    round: Round
    series: list[Series]


# A source of the round a screen shows: given the tournament, its current round (or None).
RoundSource = Callable[[Tournament], "CurrentRound | None"]


def series_of(round_: Round) -> list[Series]:
    seats = SeriesSeat.objects.select_related("player").order_by("seat")
    return list(
        Series.objects.filter(round=round_)
        .select_related("station")
        .prefetch_related(Prefetch("seats", queryset=seats), "forfeits")
        .order_by("table")
    )


def tournament_current_round(tournament: Tournament) -> CurrentRound | None:
    """The round being played: in the last stage that has rounds, its first round with a series
    still open, or its last round when every series is decided. None before any round is out."""
    stage = (
        Stage.objects.filter(tournament=tournament, rounds__isnull=False)
        .select_related("tournament__club")
        .order_by("-order", "-pk")
        .first()
    )
    if stage is None:
        return None
    open_round = (
        Round.objects.filter(stage=stage, series__status__in=[Series.Status.PENDING, Series.Status.PLAYING])
        .order_by("number")
        .first()
    )
    round_ = open_round or Round.objects.filter(stage=stage).order_by("-number").first()
    assert round_ is not None  # the stage was chosen for having rounds
    round_ = Round.objects.select_related("bye").get(pk=round_.pk)
    return CurrentRound(stage=stage, round=round_, series=series_of(round_))


@dataclass(frozen=True)
class Panel:
    """One view of the cycle. ``key`` stays the same across reloads (the page keeps showing the
    same panel when the fragment is refreshed)."""

    key: str
    kind: str  # "tables", "standings", "bracket", "empty"
    title: str
    tables: list[ScreenTable] = field(default_factory=list)
    rows: list[StandingRow] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    drawing: Any = None


@dataclass(frozen=True)
class ScreenPage:
    tournament: Tournament
    current: CurrentRound | None
    tables: list[ScreenTable]
    panels: list[Panel]
    stages: list[Stage]  # followed for live updates (their versions)
    bye: Player | None
    session: Session | None = None  # a session's screen (its fragment's address, its heading)
    # The officials' view (a referee or an organiser signed in): disputes waiting, and those past
    # their deadline (docs/results.md, "Who records results").
    disputes_open: int = 0
    disputes_overdue: int = 0

    @property
    def open_tables(self) -> int:
        return sum(1 for t in self.tables if t.open)


def _table(series: Series, score: tuple[int, ...] | None) -> ScreenTable:
    forfeited = {f.player_id for f in series.forfeits.all()}
    decided = series.status == Series.Status.DECIDED
    seats = [
        ScreenSeat(
            name=seat.player.name,
            wins=score[seat.seat] if score is not None and seat.seat < len(score) else None,
            place=series.placings.get(str(seat.player_id)) if decided else None,
            forfeit=seat.player_id in forfeited,
        )
        for seat in series.seats.all()
    ]
    if series.walkover:
        status, label = "walkover", _("walkover")
    else:
        status, label = str(series.status), str(series.get_status_display())
    station = str(series.station) if series.station_id is not None else ""
    return ScreenTable(table=series.table, status=status, status_label=label, seats=seats, station=station)


def _chunks(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _standings_panels(standings: StandingsPage) -> list[Panel]:
    panels = []
    for group in standings.groups:
        title = (
            _("Standings · Table %(n)s") % {"n": group.number} if group.series is not None else _("Standings")
        )
        chunks = _chunks(group.rows, ROWS_PER_PANEL)
        for index, rows in enumerate(chunks, start=1):
            panels.append(
                Panel(
                    key=f"standings-{group.number}-{index}",
                    kind="standings",
                    title=title if len(chunks) == 1 else f"{title} ({index}/{len(chunks)})",
                    rows=rows,
                    chain=standings.chain[:TIEBREAKS_SHOWN],
                )
            )
    if not panels:
        panels.append(Panel(key="standings-0-1", kind="standings", title=_("Standings")))
    return panels


def screen_build(
    *, user: AnyUser, tournament: Tournament, source: RoundSource, session: Session | None = None
) -> ScreenPage:
    """The screen of ``tournament`` (already checked visible to ``user``), its tables taken from
    ``source`` (``session``: the session whose screen it is)."""
    current = source(tournament)
    stages = list(Stage.objects.filter(tournament=tournament).order_by("order", "pk"))
    if current is None:
        nothing = _("No round is scheduled in this session yet.") if session else _("No round published yet.")
        empty = Panel(key="empty", kind="empty", title=nothing)
        return ScreenPage(tournament, None, [], [empty], stages, None, session)
    scores = series_scores(stage=current.stage, series=current.series)
    tables = [_table(s, scores.get(s.pk)) for s in current.series]
    title = _("Tables")
    chunks = _chunks(tables, TABLES_PER_PANEL) or [[]]
    panels = [
        Panel(
            key=f"tables-{index}",
            kind="tables",
            title=title if len(chunks) == 1 else f"{title} ({index}/{len(chunks)})",
            tables=chunk,
        )
        for index, chunk in enumerate(chunks, start=1)
    ]
    panels += _standings_panels(stage_standings_page_get(user=user, stage_id=current.stage.pk))
    stage_page = stage_page_get(user=user, stage_id=current.stage.pk)
    drawing = stage_drawing(stage_page)
    if drawing is not None:
        panels.append(Panel(key="bracket", kind="bracket", title=_("Bracket"), drawing=drawing))
    return ScreenPage(tournament, current, tables, panels, stages, current.round.bye, session)


def tournament_screen_version(*, user: AnyUser, tournament_id: int) -> tuple[str, str | None]:
    """The screen's topic and version (every stage's results and standings versions), or None for
    a reader whose screen is not the same for everyone (its officials). Raises NotFound as
    :func:`tournament_screen_get`."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    topic = f"screen:{tournament.pk}:{tournament.created_at.timestamp()}"
    if user_can_record(user, tournament):
        return topic, None
    versions = (
        Stage.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "results_version", "standings_version")
    )
    # What the screen shows besides results: where each table plays (stations) and when each round
    # is scheduled (the current round). Neither moves a stage's version.
    stations = (
        Series.objects.filter(stage__tournament=tournament).order_by("pk").values_list("pk", "station_id")
    )
    rounds = (
        Round.objects.filter(stage__tournament=tournament)
        .order_by("pk")
        .values_list("pk", "starts_at", "session_id")
    )
    extra = hashlib.sha256(repr((list(stations), list(rounds))).encode()).hexdigest()[:16]
    return topic, ",".join(f"{pk}:{r}.{s}" for pk, r, s in versions) + f"/{extra}"


def tournament_screen_get(*, user: AnyUser, tournament_id: int) -> ScreenPage:
    """The big screen of a tournament: as public as the tournament page (a draft ``user`` may not
    see is NotFound)."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    page = screen_build(user=user, tournament=tournament, source=tournament_current_round)
    if user_can_record(user, tournament):
        from tournaments.competitions.results.disputes import disputes_overdue_count, open_disputes_count

        page = replace(
            page,
            disputes_open=open_disputes_count(tournament=tournament),
            disputes_overdue=disputes_overdue_count(tournament=tournament),
        )
    return page
