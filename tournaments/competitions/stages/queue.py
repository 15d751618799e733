"""Sending the stage's tasks: the stage task and the standings (docs/reliability.md, "Queues"). A
broker that is down: the reconciler sends them later."""

from __future__ import annotations


def advance_enqueue(stage_id: int) -> None:
    from snapleague.celery import enqueue
    from tournaments.tasks import stage_advance_task

    enqueue(stage_advance_task, stage_id)  # a broker that is down: the reconciler sends it later


def standings_enqueue(stage_id: int, version: int | None = None) -> None:
    from snapleague.celery import enqueue
    from tournaments.tasks import stage_standings_recompute_task

    # ``version``: the results_version committed (coalescing); a broker that is down: the reconciler
    # sends it later.
    enqueue(stage_standings_recompute_task, stage_id, version)
