"""A series' page: its games and their result versions, its status, replays and entered hands; the
forms of recorders and organisers on it."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from games.models import OnlineGame
from snapleague.errors import ApplicationError, NotFound
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder, user_is_organiser
from tournaments.competitions import outcomes
from tournaments.competitions.messages import series_error_message
from tournaments.competitions.results.payload import snapszer_rules
from tournaments.competitions.selectors.tournaments import (
    Roles,
    roles_get,
    series_get,
)
from tournaments.competitions.series.values import Due
from tournaments.models import (
    Game,
    GameKind,
    GameResult,
    Player,
    ResultMode,
    ResultReport,
    Series,
    SeriesSeat,
    Stage,
    Tournament,
)


def series_with_seats(*, stage: Stage) -> QuerySet[Series]:
    return (
        Series.objects.filter(stage=stage)
        .select_related("round")
        .prefetch_related("seats__player", "games__results")
        .order_by("round__number", "table")
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
    # Players' reports (docs/results.md): those waiting (pending or disputed), the user's players
    # in the series, and whether they may report here (the tournament lets players report).
    reports: list[ResultReport] = field(default_factory=list)
    my_players: list[int] = field(default_factory=list)
    players_report: bool = False

    @property
    def may_report(self) -> bool:
        return self.players_report and bool(self.my_players) and self.series.status != Series.Status.DECIDED

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
        version=sum(len(v) for v in versions.values()) + _reports_version(series),
        reports=list(
            ResultReport.objects.filter(
                series=series, status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]
            ).select_related("reported_by", "dispute")
        ),
        my_players=[s.player_id for s in seats if signed_in(user) and s.player.user_id == user.pk],
        players_report=tournament.result_mode != ResultMode.REFEREES,
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


def _reports_version(series: Series) -> int:
    """Rises with every players' report and every report that stops waiting (docs/results.md)."""
    rows = ResultReport.objects.filter(series=series)
    return rows.count() + rows.exclude(status=ResultReport.Status.PENDING).count()


def series_version_get(*, user: AnyUser, series_id: int) -> int:
    """How many result versions and report changes the series has: it rises with every result,
    correction, report, confirmation and dispute."""
    series = series_get(user=user, series_id=series_id)
    return GameResult.objects.filter(game__series=series).count() + _reports_version(series)


def series_record_page_get(*, user: AnyUser, series_id: int) -> SeriesPage:
    """The series page for its "record result" form. Raises PermissionDenied for non-recorders."""
    page = series_page_get(user=user, series_id=series_id)
    require_recorder(user, page.tournament)
    return page


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
