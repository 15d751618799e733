"""What an anonymous visitor's club, tournament, series, stage and standings page is keyed by (snapleague/fragments.py
``public_page``): the page's topic and the version of everything it shows.

The crowd's page comes from the cache once this is read, so these reads are the whole cost of most
requests: each is a :class:`~snapleague.compiled.CompiledRead`, built once per process and run as
plain SQL afterwards. The objects a rendering needs (the club, the tournament, the series) are read
only when the page is rendered, on the first visit of a version.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import OnlineGame
from snapleague.compiled import CompiledRead
from snapleague.errors import NotFound
from tournaments.competitions.selectors.tournaments import Roles
from tournaments.models import (
    Club,
    Entry,
    Player,
    ResultReport,
    Round,
    Series,
    Session,
    Stage,
    Tournament,
)


def _version(parts: Any) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _public(status: str, tournament_id: int) -> bool:
    """:func:`tournament_visible_to` for an anonymous visitor, from the status already read: a draft
    is public once its first round is out (one more read, for drafts only)."""
    return (
        status != Tournament.Status.DRAFT or Round.objects.filter(stage__tournament_id=tournament_id).exists()
    )


# --- The club page ------------------------------------------------------------------------------

_CLUB = CompiledRead(
    lambda slug: Club.objects.filter(slug=slug).values_list("pk", "name", "created_at"), slug=str
)
_CLUB_TOURNAMENTS = CompiledRead(
    lambda club: (
        Tournament.objects.filter(club_id=club)
        .order_by("pk")
        .values_list(
            "pk",
            "name",
            "status",
            "game",
            "series_format",
            "starts_at",
            "registration_window__opens_at",
            "registration_window__closes_at",
        )
    ),
    club=int,
)
_CLUB_STAGES = CompiledRead(
    lambda club: (
        Stage.objects.filter(tournament__club_id=club).order_by("pk").values_list("pk", "results_version")
    ),
    club=int,
)
_CLUB_ENTRIES = CompiledRead(
    lambda club: (
        Entry.objects.filter(tournament__club_id=club)
        .order_by()
        .values("tournament__club_id")
        .annotate(n=Count("pk"), last=Max("pk"))
        .values_list("n", "last")
    ),
    club=int,
)
_CLUB_PLAYERS = CompiledRead(
    lambda club: Player.objects.filter(club_id=club).order_by("pk").values_list("pk", "name"), club=int
)


@dataclass(frozen=True)
class ClubPublic:
    club_id: int
    topic: str
    version: str
    registrations_open: tuple[int, ...]  # the tournaments whose registration is open now, in order

    @cached_property
    def club(self) -> Club:
        return Club.objects.get(pk=self.club_id)

    def tournaments_open(self) -> list[Tournament]:
        """The tournaments whose registration was open when the version was read, in its order."""
        found = Tournament.objects.in_bulk(self.registrations_open)
        return [found[pk] for pk in self.registrations_open if pk in found]


def club_public_get(*, slug: str, now: datetime | None = None) -> ClubPublic:
    """The club (NotFound if none) and the version of its page as an anonymous visitor sees it: the
    club's tournaments (their fields; every stage's results version, which moves when a draft's
    first round makes it public), how many entries (count and newest), its players, and the
    tournaments whose registration is open ``now`` (the clock decides, so it is in the version)."""
    club = _CLUB.rows(slug=slug)
    if not club:
        raise NotFound(code="club_not_found", message=_("No such club."))
    club_id, name, created_at = club[0]
    tournaments = _CLUB_TOURNAMENTS.rows(club=club_id)
    now = now or timezone.now()
    open_now = sorted(
        (closes_at, pk)
        for pk, _name, status, _game, _format, _starts, opens_at, closes_at in tournaments
        if status == Tournament.Status.DRAFT and opens_at is not None and opens_at <= now < closes_at
    )
    opened = tuple(pk for _closes, pk in open_now)
    parts = (
        name,
        [row[:6] for row in tournaments],
        _CLUB_STAGES.rows(club=club_id),
        _CLUB_ENTRIES.rows(club=club_id),
        _CLUB_PLAYERS.rows(club=club_id),
        opened,
    )
    return ClubPublic(
        club_id=club_id,
        topic=f"club:{club_id}:{created_at.timestamp()}",
        version=_version(parts),
        registrations_open=opened,
    )


# --- The tournament page ------------------------------------------------------------------------

_TOURNAMENT = CompiledRead(
    lambda tournament: Tournament.objects.filter(pk=tournament).values_list(
        "status",
        "created_at",
        "name",
        "game",
        "series_format",
        "rules_profile",
        "rules_options",
        "result_mode",
        "club__slug",
        "club__name",
        "registration_window__pk",
    ),
    tournament=int,
)
_TOURNAMENT_STAGES = CompiledRead(
    lambda tournament: (
        Stage.objects.filter(tournament_id=tournament)
        .order_by("pk")
        .values_list("pk", "results_version", "standings_version", "name", "format", "options", "order")
    ),
    tournament=int,
)
_TOURNAMENT_ENTRIES = CompiledRead(
    lambda tournament: (
        Entry.objects.filter(tournament_id=tournament)
        .order_by("pk")
        .values_list("pk", "player_id", "withdrawn")
    ),
    tournament=int,
)
_TOURNAMENT_SESSIONS = CompiledRead(
    lambda tournament: (
        Session.objects.filter(tournament_id=tournament)
        .order_by("pk")
        .values_list("pk", "name", "starts_at", "venue", "online", "check_in")
    ),
    tournament=int,
)


@dataclass(frozen=True)
class TournamentPublic:
    tournament_id: int
    topic: str
    version: str

    @cached_property
    def tournament(self) -> Tournament:
        return Tournament.objects.select_related("club").get(pk=self.tournament_id)


def tournament_public_get(*, tournament_id: int) -> TournamentPublic:
    """The tournament as an anonymous visitor sees it (NotFound for a draft) and the version of its
    page: every stage's results and standings versions (its rounds, series, seats, placings and
    voids move them), the stages' own fields, the entries, the sessions, whether it has a
    registration window, and the tournament's own fields. Whatever the page shows is in it, so the
    page's cached public part is never older than what it says."""
    row = _TOURNAMENT.rows(tournament=tournament_id)
    if not row or not _public(row[0][0], tournament_id):
        raise NotFound(code="tournament_not_found", message=_("No such tournament."))
    status, created_at, *fields = row[0]
    parts = (
        [status, *fields[:-1], fields[-1] is not None],
        _TOURNAMENT_STAGES.rows(tournament=tournament_id),
        _TOURNAMENT_ENTRIES.rows(tournament=tournament_id),
        _TOURNAMENT_SESSIONS.rows(tournament=tournament_id),
    )
    return TournamentPublic(
        tournament_id=tournament_id,
        topic=f"tournament:{tournament_id}:{created_at.timestamp()}",
        version=_version(parts),
    )


# --- The series page ----------------------------------------------------------------------------

_SERIES = CompiledRead(
    lambda series: Series.objects.filter(pk=series).values_list(
        "stage__tournament__status",
        "stage__tournament_id",
        "seed_hash",
        "stage__results_version",
        "stage__name",
        "stage__tournament__name",
        "stage__tournament__game",
        "stage__tournament__result_mode",
        "status",
        "placings",
        "flagged",
        "table",
        "format",
        "round__number",
    ),
    series=int,
)
_SERIES_REPORTS = CompiledRead(
    lambda series: (
        ResultReport.objects.filter(series_id=series)
        .order_by()
        .values("series_id")
        .annotate(n=Count("pk"), done=Count("pk", filter=~Q(status=ResultReport.Status.PENDING)))
        .values_list("n", "done")
    ),
    series=int,
)
_SERIES_HANDS = CompiledRead(
    lambda series: (
        OnlineGame.objects.filter(table_game__series_id=series, source=OnlineGame.Source.HAND)
        .order_by()
        .values("source")
        .annotate(n=Count("pk"))
        .values_list("n")
    ),
    series=int,
)


@dataclass(frozen=True)
class SeriesPublic:
    series_id: int
    tournament_id: int
    topic: str
    version: str

    @cached_property
    def series(self) -> Series:
        return Series.objects.select_related("round", "stage__tournament").get(pk=self.series_id)

    @cached_property
    def tournament(self) -> Tournament:
        tournament: Tournament = self.series.stage.tournament
        return tournament


def series_public_get(*, series_id: int) -> SeriesPublic:
    """The series as an anonymous visitor sees it (NotFound in a draft) and the version of its page:
    the stage's results version (every result, correction and void of its games, and so their
    status, placings, seats and flags: each goes through the result service, which raises it, as
    does an online game's end in the same transaction), the reports and their changes (the live
    part's own version), the hands entered card by card, and the fields the page prints."""
    row = _SERIES.rows(series=series_id)
    if not row or not _public(row[0][0], row[0][1]):
        raise NotFound(code="series_not_found", message=_("No such series."))
    _status, tournament_id, seed_hash, *fields = row[0]
    parts = (fields, _SERIES_REPORTS.rows(series=series_id), _SERIES_HANDS.rows(series=series_id))
    return SeriesPublic(
        series_id=series_id,
        tournament_id=tournament_id,
        topic=f"series:{series_id}:{seed_hash}",
        version=_version(parts),
    )


# --- The stage and standings pages --------------------------------------------------------------

_STAGE = CompiledRead(
    lambda stage: Stage.objects.filter(pk=stage).values_list(
        "tournament__status",
        "tournament_id",
        "seed_commitment",
        "results_version",
        "standings_version",
        "name",
        "format",
        "status",
        "tournament__name",
    ),
    stage=int,
)


@dataclass(frozen=True)
class StageLive:
    """What keys a stage's live fragment (its rounds and bracket, its standings table): as a Stage
    gives it to tournaments/competitions/views/stages.py."""

    pk: int
    seed_commitment: str
    results_version: int
    standings_version: int


_NO_ROLES = Roles(organiser=False, referee=False)


@dataclass(frozen=True)
class StagePublic:
    live: StageLive
    topic: str
    version: str
    roles: Roles = _NO_ROLES  # an anonymous visitor's

    @cached_property
    def stage(self) -> Stage:
        return Stage.objects.select_related("tournament__club").get(pk=self.live.pk)

    @cached_property
    def tournament(self) -> Tournament:
        tournament: Tournament = self.stage.tournament
        return tournament


def stage_public_get(*, stage_id: int, page: str) -> StagePublic:
    """The stage as an anonymous visitor sees it (NotFound in a draft) and the version of its
    ``page`` ("stage" or "standings"): the live fragment's own version (results and standings) and
    what the header prints (the stage's name, format and status, the tournament's name)."""
    row = _STAGE.rows(stage=stage_id)
    if not row or not _public(row[0][0], row[0][1]):
        raise NotFound(code="stage_not_found", message=_("No such stage."))
    _status, _tournament_id, seed_commitment, results_version, standings_version, *shown = row[0]
    live = StageLive(stage_id, seed_commitment, results_version, standings_version)
    return StagePublic(
        live=live,
        topic=f"{page}-page:{stage_id}:{seed_commitment}",
        version=_version((results_version, standings_version, shown)),
    )
