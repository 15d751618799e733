"""Shared reads of the tournament side."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Exists, F, Model, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.models import OnlineGame
from snapleague.errors import ApplicationError, NotFound
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder, user_is_organiser, user_is_referee
from tournaments.competitions import outcomes
from tournaments.competitions.messages import series_error_message
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.results.payload import snapszer_rules
from tournaments.competitions.results.values import PlayedResult, SnapszerMatchResult, VoidResult
from tournaments.competitions.series import Due
from tournaments.models import (
    BracketSlot,
    Club,
    Entry,
    Game,
    GameKind,
    GameResult,
    Player,
    Round,
    Series,
    SeriesSeat,
    Stage,
    StandingRow,
    Tournament,
    Withdrawal,
)


def stages_with_stale_standings() -> list[int]:
    return list(Stage.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True))


def stage_standings_list(*, stage: Stage) -> QuerySet[StandingRow]:
    return StandingRow.objects.filter(stage=stage).select_related("player").order_by("group", "position")


def series_with_seats(*, stage: Stage) -> QuerySet[Series]:
    return (
        Series.objects.filter(stage=stage)
        .select_related("round")
        .prefetch_related("seats__player", "games__results")
        .order_by("round__number", "table")
    )


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
    try:
        return tournaments_visible(user=user).get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(code="tournament_not_found", message=_("No such tournament.")) from None


def stage_get(*, user: AnyUser, stage_id: int) -> Stage:
    try:
        return stages_visible(user=user).get(pk=stage_id)
    except Stage.DoesNotExist:
        raise NotFound(code="stage_not_found", message=_("No such stage.")) from None


def series_get(*, user: AnyUser, series_id: int) -> Series:
    try:
        return series_visible(user=user).get(pk=series_id)
    except Series.DoesNotExist:
        raise NotFound(code="series_not_found", message=_("No such series.")) from None


# --- Fetches for the services ---------------------------------------------------------------------
# A service fetches what it writes by id, without the visibility check of the *_get above: it
# checks what the user may do itself (tournaments/access.py), after the lock if it takes one.


def series_by_id(*, series_id: int) -> Series:
    """The series with its stage, tournament, club and round. Raises NotFound."""
    try:
        return Series.objects.select_related("stage__tournament__club", "round").get(pk=series_id)
    except Series.DoesNotExist:
        raise NotFound(code="series_not_found", message=_("No such series.")) from None


def row_by_id[M: Model](queryset: QuerySet[M], pk: int, *, lock: bool, missing: NotFound) -> M:
    """The row ``pk`` of ``queryset``. ``lock``: that row (not the ones its select_related joins)
    stays locked until the transaction ends. Raises ``missing`` when there is no such row."""
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    try:
        return queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise missing from None


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


def club_get(*, slug: str) -> Club:
    try:
        return Club.objects.get(slug=slug)
    except Club.DoesNotExist:
        raise NotFound(code="club_not_found", message=_("No such club.")) from None


def club_get_by_id(*, club_id: int) -> Club:
    try:
        return Club.objects.get(pk=club_id)
    except Club.DoesNotExist:
        raise NotFound(code="club_not_found", message=_("No such club.")) from None


def players_by_ids(*, player_ids: list[int]) -> list[Player]:
    """The players in the order given. Raises NotFound naming the first unknown id."""
    found = Player.objects.in_bulk(player_ids)
    for pid in player_ids:
        if pid not in found:
            raise NotFound(
                code="player_not_found", message=_("No player %(id)s.") % {"id": pid}, extra={"player": pid}
            )
    return [found[pid] for pid in player_ids]


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.select_related("club").get(pk=player_id)
    except Player.DoesNotExist:
        raise NotFound(code="player_not_found", message=_("No such player.")) from None


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


@dataclass(frozen=True)
class GameLine:
    game: Game
    versions: list[GameResult]  # oldest first; the last confirmed one is the result

    @property
    def current(self) -> GameResult | None:
        return next((r for r in reversed(self.versions) if r.confirmed), None)

    @property
    def players(self) -> list[int]:
        return [int(p) for p in self.game.seats]

    @property
    def voided(self) -> bool:
        """The game counts for nothing: a correction decided the series before it."""
        return self.current is not None and self.current.void

    @property
    def counted(self) -> bool:
        return self.current is not None and not self.current.void

    @property
    def voided_result(self) -> GameResult | None:
        """For a void game, the result it had before it was voided."""
        if not self.voided:
            return None
        return next((r for r in reversed(self.versions) if not r.void), None)


@dataclass(frozen=True)
class SeriesPage:
    series: Series
    tournament: Tournament
    seats: list[SeriesSeat]
    games: list[GameLine]
    status: outcomes.SeriesView | None
    problem: str  # the recorded games no longer make a valid series (shown, never a 500)
    roles: Roles
    version: int
    # The finished online games of the series by game number: their replays (games:replay).
    replays: dict[int, int] = field(default_factory=dict)
    # Snapszer hands entered card by card, by game number (games/hand_entry.py), and whether the
    # user may enter more (an organiser of the club, or one of the series' players).
    entered_hands: dict[int, list[int]] = field(default_factory=dict)
    may_enter_hands: bool = False

    @property
    def names(self) -> dict[int, str]:
        return {s.player_id: s.player.name for s in self.seats}

    @property
    def next_game(self) -> int:
        return len([g for g in self.games if g.counted]) + 1

    @property
    def next_game_void(self) -> bool:
        """The next game was recorded, then voided: it is recorded again as a correction of it."""
        return any(g.voided and g.game.number == self.next_game for g in self.games)

    @property
    def due_players(self) -> list[Player]:
        if self.status is None or self.status.decided:
            return []
        due = set(self.status.next_player_ids)
        return [s.player for s in self.seats if s.player_id in due]

    @property
    def is_snap(self) -> bool:
        return self.tournament.game == GameKind.SNAP

    @property
    def match_games_to_win(self) -> int:
        """Snapszer: how many games of the target make a match (2 for ``snapszer-hu``); else 1."""
        if self.tournament.game != GameKind.SNAPSZER:
            return 1
        try:
            rules = snapszer_rules(self.tournament.rules_profile, self.tournament.rules_options)
        except ApplicationError:
            return 1
        return rules.match.games_to_win if rules.match is not None else 1

    @property
    def awaiting_coin_flip(self) -> bool:
        return self.status is not None and self.status.status.due is Due.COIN_FLIP


def series_page_get(*, user: AnyUser, series_id: int) -> SeriesPage:
    series = series_get(user=user, series_id=series_id)
    tournament = series.stage.tournament
    seats = list(series.seats.select_related("player"))
    versions: dict[int, list[GameResult]] = {}
    for result in GameResult.objects.filter(game__series=series).select_related("recorded_by", "game"):
        versions.setdefault(result.game_id, []).append(result)
    games = [GameLine(game=g, versions=versions.get(g.pk, [])) for g in series.games.all()]
    confirmed = outcomes.series_games(line.current for line in games if line.current is not None)
    entered: dict[int, list[int]] = {}
    for number, pk in (
        OnlineGame.objects.filter(table_game__series=series, source=OnlineGame.Source.HAND)
        .values_list("table_game__number", "pk")
        .order_by("pk")
    ):
        entered.setdefault(number, []).append(pk)
    status: outcomes.SeriesView | None = None
    problem = ""
    try:
        status = outcomes.series_status(series, confirmed)
    except outcomes.SeriesInconsistent as exc:
        problem = series_error_message(exc.error, seat_names=exc.seat_names, player_names=exc.player_names)
    return SeriesPage(
        series=series,
        tournament=tournament,
        seats=seats,
        games=games,
        status=status,
        problem=problem,
        roles=roles_get(user=user, tournament=tournament),
        version=sum(len(v) for v in versions.values()),
        replays=dict(
            series.online_games.filter(
                status=OnlineGame.Status.FINISHED, game_number__isnull=False
            ).values_list("game_number", "pk")
        ),
        entered_hands=entered,
        may_enter_hands=tournament.game == GameKind.SNAPSZER
        and (
            user_is_organiser(user, tournament.club)
            or (signed_in(user) and any(s.player.user_id == user.pk for s in seats))
        ),
    )


def series_version_get(*, user: AnyUser, series_id: int) -> int:
    """How many result versions the series has: it rises with every result and correction."""
    series = series_get(user=user, series_id=series_id)
    return GameResult.objects.filter(game__series=series).count()


@dataclass(frozen=True)
class StandingsGroup:
    number: int  # a Snap table, or 0 for a two-seat stage
    series: Series | None
    rows: list[StandingRow]


@dataclass(frozen=True)
class GroupTableRow:
    """One player's line in a group's own table (groups → playoff), and whether and why they go
    to the playoff."""

    position: int
    rank: int
    player: Player
    values: dict[str, Any]
    separated_by: str
    qualified: bool  # goes to the playoff (while the group plays: would, if it ended now)
    withdrawn: bool  # withdrawn by the playoff: does not qualify
    reason: str  # translated: why they qualified, or why not; empty for the others

    @property
    def player_id(self) -> int:
        return self.player.pk


@dataclass(frozen=True)
class GroupTable:
    """A group's own table (groups → playoff): ``rows`` in the order that ranks the group, by
    the format's group tiebreaks (``chain``); ``qualifiers`` the player ids who go on, best first."""

    label: str
    advance: int
    complete: bool  # every group series decided: the qualifiers are final
    chain: list[str]
    rows: list[GroupTableRow]
    qualifiers: list[int]


@dataclass(frozen=True)
class StandingsPage:
    stage: Stage
    tournament: Tournament
    chain: list[str]
    groups: list[StandingsGroup]
    # Groups → playoff: each group's own table (empty for other formats, and before round 1).
    group_tables: list[GroupTable] = field(default_factory=list)

    @property
    def version(self) -> str:
        return f"{self.stage.results_version}.{self.stage.standings_version}"


def standings_chain(stage: Stage) -> list[str]:
    """The tiebreak names of ``stage``'s standings, in order (JSON keeps no order on PostgreSQL)."""
    from tournaments.competitions.formats.registry import format_for

    fmt = format_for(stage.format)
    game = GameKind(stage.tournament.game)
    chain_of = getattr(fmt, "standings_chain", None)  # a bracket's finish first (docs/formats.md)
    if callable(chain_of):
        return [str(t) for t in chain_of(game, stage.options, tuple(stage.tiebreaks or ()))]
    if stage.tiebreaks:
        return [str(t) for t in stage.tiebreaks]
    return [str(t) for t in fmt.default_tiebreaks(game, stage.options)]


def stage_standings_page_get(*, user: AnyUser, stage_id: int) -> StandingsPage:
    stage = stage_get(user=user, stage_id=stage_id)
    rows = list(stage_standings_list(stage=stage))
    tables = (
        {s.table: s for s in Series.objects.filter(stage=stage).order_by("round__number", "table")}
        if stage.tournament.game == GameKind.SNAP
        else {}
    )
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    return StandingsPage(
        stage=stage,
        tournament=stage.tournament,
        chain=standings_chain(stage),
        groups=[StandingsGroup(number=n, series=tables.get(n), rows=r) for n, r in sorted(groups.items())],
        group_tables=stage_group_tables(stage),
    )


def _group_reason(table: Any, position: int, qualified: bool, withdrawn: bool) -> str:
    if withdrawn:
        return str(_("Withdrawn: does not go to the playoff."))
    if not qualified:
        return ""
    values = {"n": table.advance, "group": table.label}
    if not table.complete:
        return str(_("In line: top %(n)s of group %(group)s so far (the group is still playing).") % values)
    if position > table.advance:
        return str(_("Through: top %(n)s of group %(group)s, in place of a player who withdrew.") % values)
    return str(_("Through: top %(n)s of group %(group)s.") % values)


def stage_group_tables(stage: Stage) -> list[GroupTable]:
    """Each group's own table and who goes to the playoff from it, for a format with groups (groups
    → playoff) once its groups are drawn (round 1 published); otherwise none. Worked out from the
    results now, by the very code that seeds the playoff (``GroupsPlayoff.group_tables``), so the
    qualifiers shown are the players the playoff seats."""
    from tournaments.competitions.formats.registry import format_for  # stages.py imports this module
    from tournaments.competitions.stages import stage_state

    tables_of = getattr(format_for(stage.format), "group_tables", None)
    if not callable(tables_of) or not Round.objects.filter(stage=stage).exists():
        return []
    try:
        tables = tables_of(stage_state(stage))
    except TournamentInputError:
        return []  # the stage cannot be read as its format (logged by the stage task)
    ids = [int(str(row.player)) for table in tables for row in table.standings.rows]
    players = Player.objects.in_bulk(ids)
    out = []
    for table in tables:
        qualifiers = {int(str(p)) for p in table.qualifiers}
        withdrawn = {int(str(p)) for p in table.withdrawn}
        rows = []
        for line in outcomes.standing_lines(table.standings, 0):
            qualified = line.player_id in qualifiers
            rows.append(
                GroupTableRow(
                    position=line.position,
                    rank=line.rank,
                    player=players[line.player_id],
                    values=line.values,
                    separated_by=line.separated_by,
                    qualified=qualified,
                    withdrawn=line.player_id in withdrawn,
                    reason=_group_reason(table, line.position, qualified, line.player_id in withdrawn),
                )
            )
        out.append(
            GroupTable(
                label=table.label,
                advance=table.advance,
                complete=table.complete,
                chain=[str(t) for t in table.standings.chain],
                rows=rows,
                qualifiers=[int(str(p)) for p in table.qualifiers],
            )
        )
    return out


def standings_body(page: StandingsPage) -> dict[str, Any]:
    """A stage's standings as the API and the export give them: the stored rows (every group or
    Snap table one after the other) and, for groups → playoff, each group's own table."""
    stage = page.stage
    return {
        "stage": stage.pk,
        "results_version": stage.results_version,
        "standings_version": stage.standings_version,
        "computed_at": stage.standings_computed_at,
        "stale": stage.standings_stale,
        "rows": [row for group in page.groups for row in group.rows],
        "groups": page.group_tables,
    }


def stage_version_get(*, user: AnyUser, stage_id: int) -> str:
    """``results_version.standings_version``: changes when a result comes in and when the table follows."""
    stage = stage_get(user=user, stage_id=stage_id)
    return f"{stage.results_version}.{stage.standings_version}"


@dataclass(frozen=True)
class PlayerGameLine:
    """One game of a series, as the player's page lists it."""

    game: Game
    result: GameResult
    place: int | None  # None for a void game
    points: int | None  # Snapszer: the player's game points in the match
    won: bool

    @property
    def counted(self) -> bool:
        return not self.result.void


@dataclass(frozen=True)
class PlayerSeriesLine:
    series: Series
    opponents: list[Player]
    placing: int | None
    games: list[PlayerGameLine]


def _player_game_line(game: Game, result: GameResult, player_id: int) -> PlayerGameLine | None:
    """The line of ``player_id`` in ``game``, or None when they did not play it (sudden death)."""
    value = result.value
    if isinstance(value, VoidResult):
        return PlayerGameLine(game, result, None, None, False) if player_id in game.seats else None
    played: PlayedResult = value
    if player_id not in played.players:
        return None
    points = played.score[player_id] if isinstance(played, SnapszerMatchResult) else None
    return PlayerGameLine(game, result, played.placings[player_id], points, played.winner == player_id)


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    tournaments: list[Tournament]
    history: list[PlayerSeriesLine]
    series_won: int
    series_decided: int
    games_won: int
    games_played: int


def player_page_get(*, user: AnyUser, player_id: int) -> PlayerPage:
    player = player_get(player_id=player_id)
    visible = _visible_tournament_ids(user)
    series_list = list(
        Series.objects.filter(seats__player=player, stage__tournament__in=visible)
        .select_related("round", "stage__tournament")
        .prefetch_related("seats__player")
        .order_by("-stage__tournament__starts_at", "stage__tournament_id", "round__number", "table")
    )
    lines: dict[int, list[PlayerGameLine]] = {}
    for result in (
        GameResult.objects.filter(game__series__in=series_list, confirmed=True)
        .select_related("game", "recorded_by")
        .order_by("game__series_id", "game__number")
    ):
        line = _player_game_line(result.game, result, player.pk)
        if line is not None:
            lines.setdefault(result.game.series_id, []).append(line)
    key = str(player.pk)
    history = []
    games_won = games_played = series_won = series_decided = 0
    for series in series_list:
        # A void game is listed (as voided) but counts for nothing.
        games = lines.get(series.pk, [])
        counted = [line for line in games if line.counted]
        games_played += len(counted)
        games_won += sum(1 for line in counted if line.won)
        placing = series.placings.get(key) if series.status == Series.Status.DECIDED else None
        series_decided += placing is not None
        series_won += placing == 1
        history.append(
            PlayerSeriesLine(
                series=series,
                opponents=[s.player for s in series.seats.all() if s.player_id != player.pk],
                placing=placing,
                games=games,
            )
        )
    return PlayerPage(
        player=player,
        tournaments=list(tournaments_visible(user=user).filter(entries__player=player)),
        history=history,
        series_won=series_won,
        series_decided=series_decided,
        games_won=games_won,
        games_played=games_played,
    )


def series_record_page_get(*, user: AnyUser, series_id: int) -> SeriesPage:
    """The series page for its "record result" form. Raises PermissionDenied for non-recorders."""
    page = series_page_get(user=user, series_id=series_id)
    require_recorder(user, page.tournament)
    return page


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


def series_manage_page_get(*, user: AnyUser, series_id: int) -> SeriesPage:
    """The series page for an organiser's form (a no-show). Raises NotFound, PermissionDenied."""
    page = series_page_get(user=user, series_id=series_id)
    require_organiser(user, page.tournament.club)
    return page


def game_correction_get(*, user: AnyUser, series_id: int, game_number: int) -> tuple[SeriesPage, GameLine]:
    """The series page and the game an organiser corrects. Raises PermissionDenied, NotFound."""
    page = series_page_get(user=user, series_id=series_id)
    require_organiser(user, page.tournament.club)
    for line in page.games:
        if line.game.number == game_number and line.current is not None:
            return page, line
    raise NotFound(code="game_not_found", message=_("This game has no result to correct."))


# --- Stage pages: rounds, round pairings, the bracket ----------------------------------------------


@dataclass(frozen=True)
class RoundLine:
    round: Round
    series: list[Series]
    flagged: bool


@dataclass(frozen=True)
class StagePage:
    stage: Stage
    tournament: Tournament
    roles: Roles
    rounds: list[RoundLine]
    bracket: bool  # drawn as a bracket (series that send players on)
    version: str
    champion: Player | None
    withdrawn: list[Any]
    players: list[Player]
    # Games won so far in each series by seat, by series id (the bracket's score column).
    scores: dict[int, tuple[int, ...]]


def stage_page_get(*, user: AnyUser, stage_id: int) -> StagePage:
    """A stage's page: its rounds (each series with its seats), whether it is a bracket, its
    withdrawals, and the champion of a finished bracket."""
    stage = stage_get(user=user, stage_id=stage_id)
    tournament = stage.tournament
    by_round: dict[int, list[Series]] = {}
    series_all = list(
        Series.objects.filter(stage=stage)
        .select_related("station")
        .prefetch_related("seats__player", "slots", "forfeits")
        .order_by("round__number", "table")
    )
    for series in series_all:
        by_round.setdefault(series.round_id, []).append(series)
    rounds = [
        RoundLine(r, by_round.get(r.pk, []), any(s.flagged for s in by_round.get(r.pk, [])))
        for r in stage.rounds.select_related("bye").order_by("number")
    ]
    bracket = any(s.advance > 0 for s in series_all)
    players = list(Player.objects.filter(pk__in=stage.entrants).order_by("name")) if stage.entrants else []
    return StagePage(
        stage=stage,
        tournament=tournament,
        roles=roles_get(user=user, tournament=tournament),
        rounds=rounds,
        bracket=bracket,
        version=f"{stage.results_version}.{stage.standings_version}",
        champion=stage_champion(stage),
        withdrawn=list(stage.withdrawals.select_related("player")),
        players=players,
        scores=series_scores(stage=stage, series=series_all),
    )


def stage_manage_page_get(*, user: AnyUser, stage_id: int) -> StagePage:
    """The stage page for an organiser's form (a withdrawal). Raises NotFound, PermissionDenied."""
    page = stage_page_get(user=user, stage_id=stage_id)
    require_organiser(user, page.tournament.club)
    return page


def stage_manage_get(*, user: AnyUser, stage_id: int) -> Stage:
    """A stage its club's organisers manage. Raises NotFound (also for a draft's stage ``user``
    may not see), PermissionDenied."""
    stage = stage_get(user=user, stage_id=stage_id)
    require_organiser(user, stage.tournament.club)
    return stage


def stage_round_page_get(*, user: AnyUser, stage_id: int, number: int) -> tuple[StagePage, RoundLine]:
    page = stage_page_get(user=user, stage_id=stage_id)
    line = next((r for r in page.rounds if r.round.number == number), None)
    if line is None:
        raise NotFound(code="not_found", message=_("This stage has no round %(n)s yet.") % {"n": number})
    return page, line


# --- Brackets and withdrawals of any format, for the API -----------------------------------------


@dataclass(frozen=True)
class BracketLine:
    """One series of a stage as a bracket shows it: its seats by index (``None``: an empty seat, a
    bye or nobody through yet), where its players go (``slots``, by place) and, once a game is
    recorded, the games won so far by seat (``score``; None before the first game, for a walkover,
    or when the recorded games no longer make a valid series)."""

    series: Series
    seats: list[SeriesSeat | None]
    slots: list[BracketSlot]
    score: tuple[int, ...] | None


@dataclass(frozen=True)
class StageBracket:
    stage: Stage
    lines: list[BracketLine]
    champion: Player | None


def stage_bracket_get(*, user: AnyUser, stage_id: int) -> StageBracket:
    """Every series of a stage, in round and table order, with its seats, slots and score so far,
    and the champion once the stage is finished. Raises NotFound (no such stage, or a draft the
    user may not see)."""
    stage = stage_get(user=user, stage_id=stage_id)
    series = list(
        Series.objects.filter(stage=stage)
        .select_related("round", "stage__tournament")
        .prefetch_related("seats__player", "slots")
        .order_by("round__number", "table")
    )
    scores = series_scores(stage=stage, series=series)
    lines = []
    for one in series:
        lines.append(
            BracketLine(
                series=one, seats=one.seats_in_order, slots=list(one.slots.all()), score=scores.get(one.pk)
            )
        )
    return StageBracket(stage=stage, lines=lines, champion=stage_champion(stage))


def series_scores(*, stage: Stage, series: list[Series]) -> dict[int, tuple[int, ...]]:
    """Games won so far by seat (sudden death included), by series id, for the series of ``stage``
    with confirmed games (their seats prefetched): the series fold's count, as the series page shows."""
    confirmed: dict[int, list[GameResult]] = {}
    for result in GameResult.objects.filter(game__series__stage=stage, confirmed=True).select_related("game"):
        confirmed.setdefault(result.game.series_id, []).append(result)
    scores = {}
    for one in series:
        if one.stage_id == stage.pk:
            one.stage = stage  # the fold reads the game from stage.tournament: no query per series
        if one.pk in confirmed and not one.walkover:
            # A series whose games no longer add up shows no score (its page says what is wrong).
            with contextlib.suppress(outcomes.SeriesInconsistent):
                scores[one.pk] = outcomes.series_status(
                    one, outcomes.series_games(confirmed[one.pk])
                ).status.games_won
    return scores


def stage_champion(stage: Stage) -> Player | None:
    """The winner of a finished stage: the winner of its final for a format played to a champion
    (the format says who), otherwise the top of its standings (group 0, position 1) once they
    reflect every result. None while the stage runs, or when nobody is left (a double forfeit)."""
    if stage.status != Stage.Status.FINISHED:
        return None
    # stages.py fetches through this module: imported here, not at the top, to avoid the cycle.
    from tournaments.competitions.formats.registry import format_for
    from tournaments.competitions.stages import stage_state

    champion_of = getattr(format_for(stage.format), "champion", None)
    if callable(champion_of):
        try:
            player_id = champion_of(stage_state(stage))
        except TournamentInputError:
            return None  # the stage cannot be read as its format (logged by the stage task)
        return None if player_id is None else Player.objects.filter(pk=int(str(player_id))).first()
    if stage.standings_version < stage.results_version:
        return None
    top = stage_standings_list(stage=stage).filter(group=0, position=1).first()
    return top.player if top is not None else None


def stage_withdrawals_list(*, stage: Stage) -> QuerySet[Withdrawal]:
    return (
        Withdrawal.objects.filter(stage=stage)
        .select_related("player", "recorded_by")
        .order_by("from_round", "player__name")
    )


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
