"""The Celery wiring: beat repairs lagging standings; tasks are registered under stable names."""

from __future__ import annotations

from snapleague.celery import app


def test_beat_schedules_the_standings_reconcile() -> None:
    app.finalize()
    schedule = app.conf.beat_schedule
    entry = schedule["standings reconcile"]
    assert entry["task"] == "tournaments.tasks.standings_reconcile_task"
    assert float(entry["schedule"]) > 0


def test_tasks_are_registered_under_their_names() -> None:
    app.autodiscover_tasks(force=True)
    assert {
        "tournaments.tasks.stage_standings_recompute_task",
        "tournaments.tasks.standings_reconcile_task",
    } <= set(app.tasks)


def test_beat_schedules_the_mails_reconcile() -> None:
    app.finalize()
    entry = app.conf.beat_schedule["mails reconcile"]
    assert entry["task"] == "tournaments.accounts.tasks.mails_reconcile_task"
    assert float(entry["schedule"]) > 0
