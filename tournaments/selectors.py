"""Shared reads of the tournament side."""

from __future__ import annotations

from django.db.models import F, QuerySet

from tournaments.models import Series, Stage, StandingRow


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
