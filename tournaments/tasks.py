"""Celery entry points: thin, idempotent, safe to run twice or in parallel."""

from __future__ import annotations

from celery import shared_task

from tournaments.selectors import stages_with_stale_standings
from tournaments.services import stage_standings_recompute


@shared_task(name="tournaments.tasks.stage_standings_recompute_task")
def stage_standings_recompute_task(stage_id: int) -> bool:
    return stage_standings_recompute(stage_id=stage_id)


@shared_task(name="tournaments.tasks.standings_reconcile_task")
def standings_reconcile_task() -> list[int]:
    """Beat: repair any stage whose standings lag its results (a lost message, a crashed worker)."""
    stale = stages_with_stale_standings()
    for stage_id in stale:
        stage_standings_recompute_task.delay(stage_id)
    return stale
