"""Who may see which tournament and its parts, the by-id fetches the services write through, roles,
the club and tournament pages, the organisers' form fetches and the audit log page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder, user_is_organiser, user_is_referee
from tournaments.clubs.selectors import club_get
from tournaments.models import (
    Club,
    Entry,
    Game,
    GameResult,
    Player,
    Round,
    Series,
    Stage,
    Tournament,
)
from tournaments.rows import row_by_id

# --- Who may see what ---------------------------------------------------------------------------


def tournaments_visible(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments ``user`` may read. A tournament is public once it runs or its pairings are out;
    before that (a draft being set up) only its club's organisers and its referees see it."""
    queryset = Tournament.objects.select_related("club")
    if user.is_superuser:
        return queryset
    paired = Exists(Round.objects.filter(stage__tournament=OuterRef("pk")))
    public = ~Q(status=Tournament.Status.DRAFT) | Q(paired)
    if not signed_in(user):
        return queryset.filter(public)
    staff = Q(pk__in=Tournament.objects.filter(Q(club__organisers=user) | Q(referees=user)).values("pk"))
    return queryset.filter(public | staff)


def tournament_visible_to(user: AnyUser, tournament: Tournament) -> bool:
    """The rule of :func:`tournaments_visible` for one tournament already read: a page's check in
    the usual case (a public tournament) is the read itself, not a subquery built per request."""
    if user.is_superuser or tournament.status != Tournament.Status.DRAFT:
        return True
    if Round.objects.filter(stage__tournament=tournament).exists():
        return True
    return signed_in(user) and (
        Tournament.objects.filter(pk=tournament.pk)
        .filter(Q(club__organisers=user) | Q(referees=user))
        .exists()
    )


def _visible_tournament_ids(user: AnyUser) -> QuerySet[Tournament]:
    return tournaments_visible(user=user).values("pk")


def stages_visible(*, user: AnyUser) -> QuerySet[Stage]:
    return Stage.objects.select_related("tournament__club").filter(
        tournament__in=_visible_tournament_ids(user)
    )


def rounds_visible(*, user: AnyUser) -> QuerySet[Round]:
    return Round.objects.select_related("stage", "bye").filter(
        stage__tournament__in=_visible_tournament_ids(user)
    )


def series_visible(*, user: AnyUser) -> QuerySet[Series]:
    return (
        Series.objects.select_related("round", "stage__tournament")
        .prefetch_related("seats__player")
        .filter(stage__tournament__in=_visible_tournament_ids(user))
    )


def games_visible(*, user: AnyUser) -> QuerySet[Game]:
    return Game.objects.select_related("series").filter(
        series__stage__tournament__in=_visible_tournament_ids(user)
    )


def results_visible(*, user: AnyUser) -> QuerySet[GameResult]:
    return GameResult.objects.select_related("game__series", "recorded_by").filter(
        game__series__stage__tournament__in=_visible_tournament_ids(user)
    )


def tournament_get(*, user: AnyUser, tournament_id: int) -> Tournament:
    """Raises NotFound when there is no such tournament or ``user`` may not see it (a draft)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or not tournament_visible_to(user, tournament):
        raise NotFound(code="tournament_not_found", message=_("No such tournament."))
    return tournament


def stage_get(*, user: AnyUser, stage_id: int) -> Stage:
    stage = Stage.objects.select_related("tournament__club").filter(pk=stage_id).first()
    if stage is None or not tournament_visible_to(user, stage.tournament):
        raise NotFound(code="stage_not_found", message=_("No such stage."))
    return stage


def series_get(*, user: AnyUser, series_id: int) -> Series:
    series = (
        Series.objects.select_related("round", "stage__tournament__club")
        .prefetch_related("seats__player")
        .filter(pk=series_id)
        .first()
    )
    if series is None or not tournament_visible_to(user, series.stage.tournament):
        raise NotFound(code="series_not_found", message=_("No such series."))
    return series


# --- Fetches for the services ---------------------------------------------------------------------
# A service fetches what it writes by id, without the visibility check of the *_get above: it
# checks what the user may do itself (tournaments/access.py), after the lock if it takes one.


def series_by_id(*, series_id: int) -> Series:
    """The series with its stage, tournament, club and round. Raises NotFound."""
    try:
        return Series.objects.select_related("stage__tournament__club", "round").get(pk=series_id)
    except Series.DoesNotExist:
        raise NotFound(code="series_not_found", message=_("No such series.")) from None


def stage_by_id(*, stage_id: int, lock: bool = False) -> Stage:
    """The stage with its tournament and club. ``lock``: its row stays locked (select_for_update)
    until the transaction ends; every result of a stage, and its rounds, are written under it.
    Raises NotFound."""
    return row_by_id(
        Stage.objects.select_related("tournament__club"),
        stage_id,
        lock=lock,
        missing=NotFound(code="stage_not_found", message=_("No such stage.")),
    )


# --- Pages --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roles:
    organiser: bool
    referee: bool

    @property
    def can_record(self) -> bool:
        return self.organiser or self.referee


def roles_get(*, user: AnyUser, tournament: Tournament) -> Roles:
    return Roles(
        organiser=user_is_organiser(user, tournament.club), referee=user_is_referee(user, tournament)
    )


@dataclass(frozen=True)
class ClubPage:
    club: Club
    running: list[Tournament]
    upcoming: list[Tournament]
    finished: list[Tournament]
    players: list[Player]
    is_organiser: bool


def club_page_get(*, user: AnyUser, slug: str) -> ClubPage:
    club = club_get(slug=slug)
    tournaments = list(
        tournaments_visible(user=user)
        .filter(club=club)
        .annotate(entrant_count=Count("entries", distinct=True))
    )
    by_status: dict[str, list[Tournament]] = {s: [] for s in Tournament.Status.values}
    for tournament in tournaments:
        by_status[tournament.status].append(tournament)
    return ClubPage(
        club=club,
        running=by_status[Tournament.Status.RUNNING],
        upcoming=by_status[Tournament.Status.DRAFT],
        finished=by_status[Tournament.Status.FINISHED],
        players=list(club.players.all()),
        is_organiser=user_is_organiser(user, club),
    )


@dataclass(frozen=True)
class StagePart:
    stage: Stage
    rounds: list[tuple[Round, list[Series]]]


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    roles: Roles
    entries: list[Entry]
    stages: list[StagePart]
    referees: list[Account]
    addable_players: list[Player]
    # The void versions of voided games, by series id (who voided each game, when and why).
    voided: dict[int, list[GameResult]]


def tournament_page_get(*, user: AnyUser, tournament_id: int) -> TournamentPage:
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    roles = roles_get(user=user, tournament=tournament)
    entries = list(tournament.entries.select_related("player"))
    series_by_round: dict[int, list[Series]] = {}
    for series in (
        Series.objects.filter(stage__tournament=tournament)
        .prefetch_related("seats__player")
        .order_by("round__number", "table")
    ):
        series_by_round.setdefault(series.round_id, []).append(series)
    voided: dict[int, list[GameResult]] = {}
    for result in (
        GameResult.objects.filter(game__series__stage__tournament=tournament, confirmed=True, void=True)
        .select_related("game", "recorded_by")
        .order_by("game__number")
    ):
        voided.setdefault(result.game.series_id, []).append(result)
    stages = []
    for stage in tournament.stages.prefetch_related("rounds__bye"):
        rounds = [(r, series_by_round.get(r.pk, [])) for r in stage.rounds.all()]
        stages.append(StagePart(stage=stage, rounds=rounds))
    entered = {e.player_id for e in entries}
    addable = [p for p in tournament.club.players.all() if p.pk not in entered] if roles.organiser else []
    return TournamentPage(
        tournament=tournament,
        roles=roles,
        entries=entries,
        stages=stages,
        referees=list(tournament.referees.all()),
        addable_players=addable,
        voided=voided,
    )


# --- What an organiser's form is posted to -----------------------------------------------------------
# A form of the organisers is refused by who posts it, before its body is read: someone who may not
# manage the tournament is told 403 (404 for a draft they may not see) whatever they send, never
# their form's errors (tests/test_permission_matrix.py holds every route to it).


def club_manage_page_get(*, user: AnyUser, slug: str) -> ClubPage:
    """The club page for its "new tournament" form. Raises NotFound, PermissionDenied."""
    page = club_page_get(user=user, slug=slug)
    require_organiser(user, page.club)
    return page


def tournament_manage_get(*, user: AnyUser, tournament_id: int) -> Tournament:
    """A tournament its club's organisers set up. Raises NotFound (also for a draft ``user`` may
    not see), PermissionDenied."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    require_organiser(user, tournament.club)
    return tournament


def series_manage_get(*, user: AnyUser, series_id: int) -> Series:
    """A series its club's organisers manage (a no-show). Raises NotFound, PermissionDenied."""
    series = series_get(user=user, series_id=series_id)
    require_organiser(user, series.stage.tournament.club)
    return series


def series_record_get(*, user: AnyUser, series_id: int) -> Series:
    """A series ``user`` may record results of (its referees, its club's organisers). Raises
    NotFound, PermissionDenied."""
    series = series_get(user=user, series_id=series_id)
    require_recorder(user, series.stage.tournament)
    return series


AUDIT_PAGE_SIZE = 200


@dataclass(frozen=True)
class AuditPage:
    tournament: Tournament
    entries: list[Any]
    more: bool


def tournament_audit_get(*, user: AnyUser, tournament_id: int) -> AuditPage:
    """The newest audit entries of a tournament (organisers of its club only). Raises NotFound,
    PermissionDenied."""
    from tournaments.models import AuditEntry

    tournament = tournament_get(user=user, tournament_id=tournament_id)
    require_organiser(user, tournament.club)
    entries = list(
        AuditEntry.objects.filter(tournament=tournament)
        .select_related("user", "stage", "series__round")
        .order_by("-created_at", "-pk")[: AUDIT_PAGE_SIZE + 1]
    )
    return AuditPage(tournament, entries[:AUDIT_PAGE_SIZE], len(entries) > AUDIT_PAGE_SIZE)
