"""A stage's page: its rounds and their series, whether it is a bracket, scores, the champion, and the
bracket and withdrawals the API gives."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.competitions import outcomes
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.standings import stage_standings_list
from tournaments.competitions.selectors.tournaments import (
    Roles,
    roles_get,
    stage_get,
)
from tournaments.models import (
    BracketSlot,
    GameResult,
    Player,
    ResultReport,
    Round,
    Series,
    SeriesSeat,
    Stage,
    Tournament,
    Withdrawal,
)

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


@dataclass(frozen=True)
class StageHeader:
    """What a stage's pages show around their live fragment (the fragment itself comes from the
    cache, rendered once per version): the stage, its tournament and the reader's roles."""

    stage: Stage
    tournament: Tournament
    roles: Roles


def stage_header_get(*, user: AnyUser, stage_id: int) -> StageHeader:
    """Raises NotFound (``stage_not_found``) when there is no such stage or ``user`` may not see it."""
    stage = stage_get(user=user, stage_id=stage_id)
    return StageHeader(
        stage=stage, tournament=stage.tournament, roles=roles_get(user=user, tournament=stage.tournament)
    )


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
        .annotate(
            # Players' reports still waiting (docs/results.md): the round page marks the series.
            reports_waiting=Count(
                "reports",
                filter=Q(reports__status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]),
            )
        )
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
    from tournaments.competitions.stages.state import stage_state

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
