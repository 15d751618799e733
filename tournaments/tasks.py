"""Celery entry points: thin, idempotent, safe to run twice or in parallel."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.accounts.tasks import mail_send_task, mails_reconcile_task  # noqa: F401  (registers them)
from tournaments.competitions.selectors.standings import stages_with_stale_standings
from tournaments.competitions.services import stage_standings_recompute
from tournaments.competitions.stages.advance import stage_advance, stages_due
from tournaments.integrations.webhooks.services import webhook_deliveries_reconcile, webhook_delivery_attempt
from tournaments.notifications.tasks import (  # noqa: F401  (registers them)
    notifications_dispatch_task,
    notifications_reconcile_task,
    push_delivery_send_task,
)
from tournaments.rankings.ladder.services import challenges_expire
from tournaments.rankings.ratings.services import club_ratings_recompute, clubs_with_stale_ratings


@shared_task(name="tournaments.tasks.stage_standings_recompute_task")
def stage_standings_recompute_task(stage_id: int, version: int | None = None, claim: bool = False) -> bool:
    """The stage's standings; ``version``: the results_version it was sent for (a task that finds
    it stored already returns at once); ``claim``: the task the stage's ``standings_pending`` flag
    stands for (docs/reliability.md, "Queues")."""
    return stage_standings_recompute(stage_id=stage_id, version=version, claim=claim)


@shared_task(name="tournaments.tasks.club_ratings_recompute_task")
def club_ratings_recompute_task(club_id: int, ticket: int | None = None) -> bool:
    """A club's ratings from its whole result history, stored if still current (docs/ratings.md);
    returns at once when a newer request (``ticket``) was sent after this one."""
    return club_ratings_recompute(club_id=club_id, ticket=ticket)


@shared_task(name="tournaments.tasks.stage_advance_task")
def stage_advance_task(stage_id: int, version: int | None = None, claim: bool = False) -> dict[str, object]:
    """The stage task: after a result (or a withdrawal, a forfeit, a publish) publish the rounds
    due, flag what a correction changed, finish the stage after its last round. ``version``: the
    results_version a result's task was sent for (seen already by an earlier run: returns at once);
    ``claim``: the task the stage's ``advance_pending`` flag stands for."""
    outcome = stage_advance(stage_id=stage_id, version=version, claim=claim)
    return {
        "skipped": outcome.skipped,
        "published": list(outcome.published),
        "finished": outcome.finished,
        "flagged": list(outcome.flagged),
        "problem": outcome.problem,
    }


@shared_task(name="tournaments.tasks.standings_reconcile_task")
def standings_reconcile_task() -> list[int]:
    """Beat: repair any stage whose standings lag its results (a lost message, a crashed worker),
    advance every running stage whose next round is due (a lost stage task), and recompute every
    club whose ratings lag its results.

    Its tasks claim the stages' pending flags: they stand in for a result's task that was lost, so
    a flag left up by one never stops later results from sending their own."""
    stale = stages_with_stale_standings()
    for stage_id in stale:
        stage_standings_recompute_task.delay(stage_id, None, True)
    for stage_id in stages_due():
        stage_advance_task.delay(stage_id, None, True)
    for club_id in clubs_with_stale_ratings():
        club_ratings_recompute_task.delay(club_id)
    return stale


@shared_task(bind=True, name="tournaments.tasks.webhook_delivery_send_task", max_retries=None)
def webhook_delivery_send_task(self: Any, delivery_id: int) -> str:
    """Post a webhook delivery once; when it failed and may be tried again, Celery's retry runs
    this again after the backoff the attempt recorded. Safe twice: the service claims the delivery
    first and never posts one that is delivered, failed, not due yet or held by another run.

    Run eagerly (tests, CELERY_TASK_ALWAYS_EAGER) a retry would run at once, inside the request:
    then the retry is left to beat's reconciler, which sends the delivery when it is due."""
    outcome = webhook_delivery_attempt(delivery_id=delivery_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="tournaments.tasks.webhook_deliveries_reconcile_task")
def webhook_deliveries_reconcile_task() -> list[int]:
    """Beat: send the webhook deliveries whose message was lost (overdue, held by nobody)."""
    return webhook_deliveries_reconcile()


@shared_task(name="tournaments.tasks.ladder_challenges_expire_task")
def ladder_challenges_expire_task() -> list[int]:
    """Beat: the challenged forfeits every ladder challenge not played by its day. Safe twice or in
    parallel: each challenge is decided under its ladder's lock and only while still open."""
    return challenges_expire()


@shared_task(name="tournaments.tasks.reports_sweep_task")
def reports_sweep_task() -> dict[str, list[int]]:
    """Beat: confirm the players' reports whose minutes are up (``auto`` mode) and tell the
    organisers of series past their report deadline (docs/results.md); safe twice."""
    from tournaments.competitions.results.reporting import reports_auto_confirm, reports_deadlines

    return {"confirmed": reports_auto_confirm(), "overdue": reports_deadlines()}
