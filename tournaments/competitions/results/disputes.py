"""The officials' queue of disputes, read (issue 26, docs/results.md "Who records results"): open
disputes with their versions side by side, the latest decided, and the counts the tournament page
and the big screen show. Writes are in ``reporting.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from snapleague.users import AnyUser
from tournaments.access import require_recorder
from tournaments.models import GameResult, ResultDispute, ResultReport, Series


@dataclass(frozen=True)
class DisputeRow:
    dispute: ResultDispute
    series: Series
    names: dict[int, str]
    reports: list[ResultReport]
    confirmed: GameResult | None  # a correction request: the result it asks to change

    @property
    def overdue(self) -> bool:
        return self.dispute.status == ResultDispute.Status.OPEN and self.dispute.due_at < timezone.now()


def disputes_get(
    *, user: AnyUser, tournament_id: int, decided: int = 10
) -> tuple[Any, list[DisputeRow], list[DisputeRow]]:
    """The tournament, its open disputes (oldest deadline first) and the ``decided`` latest decided
    ones, for its referees and organisers. Raises NotFound, PermissionDenied."""
    from tournaments.competitions.selectors.tournaments import tournament_get

    tournament = tournament_get(user=user, tournament_id=tournament_id)
    require_recorder(user, tournament)
    rows = ResultDispute.objects.filter(series__stage__tournament=tournament).select_related(
        "series__round", "series__stage", "decided_by", "result"
    )
    open_ = list(rows.filter(status=ResultDispute.Status.OPEN).order_by("due_at", "pk"))
    done = list(rows.filter(status=ResultDispute.Status.DECIDED).order_by("-decided_at", "-pk")[:decided])
    return tournament, [_row(d) for d in open_], [_row(d) for d in done]


def _row(dispute: ResultDispute) -> DisputeRow:
    series = dispute.series
    names = {seat.player_id: seat.player.name for seat in series.seats.select_related("player")}
    confirmed = None
    if dispute.kind == ResultDispute.Kind.CORRECTION:
        confirmed = (
            GameResult.objects.filter(game__series=series, game__number=dispute.game_number)
            .exclude(pk=dispute.result_id)
            .order_by("-version")
            .first()
            if dispute.result_id
            else GameResult.objects.filter(
                game__series=series, game__number=dispute.game_number, confirmed=True
            ).first()
        )
    reports = list(dispute.reports.select_related("reported_by").order_by("created_at", "pk"))
    return DisputeRow(dispute, series, names, reports, confirmed)


def disputes_overdue_count(*, tournament: Any) -> int:
    """Open disputes past their deadline (the tournament's organiser page and the big screen show it)."""
    return ResultDispute.objects.filter(
        series__stage__tournament=tournament, status=ResultDispute.Status.OPEN, due_at__lt=timezone.now()
    ).count()


def open_disputes_count(*, tournament: Any) -> int:
    return ResultDispute.objects.filter(
        series__stage__tournament=tournament, status=ResultDispute.Status.OPEN
    ).count()
