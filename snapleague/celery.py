"""The Celery application. Configuration comes from Django settings (``CELERY_*``)."""

import logging
import os
from typing import Any

from celery import Celery
from kombu.exceptions import OperationalError as BrokerError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")

app = Celery("snapleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def enqueue(task: Any, *args: Any) -> bool:
    """Send ``task(*args)`` to the broker after a commit; ``False`` (logged) when the broker does not
    answer. What was committed stays committed and the request succeeds: the beat reconciler
    (``standings_reconcile_task``) finds every stage whose standings lag or whose round is due and
    sends the work again once the broker is back (docs/reliability.md)."""
    try:
        task.delay(*args)
    except BrokerError as exc:
        logger.warning("broker unavailable, %s(%s) left to the reconciler: %s", task.name, args, exc)
        return False
    return True


@app.on_after_finalize.connect
def _schedule_periodic_tasks(sender: Celery, **_kwargs: object) -> None:
    from django.conf import settings

    # (the setting of its interval, the task, its name): each repairs or sweeps, and is safe twice.
    schedule = [
        # Stages whose standings lag their results (a lost message, a crashed worker).
        ("STANDINGS_RECONCILE_SECONDS", "tournaments.tasks.standings_reconcile_task", "standings reconcile"),
        # Webhook deliveries whose Celery message was lost (docs/webhooks.md).
        (
            "WEBHOOK_RECONCILE_SECONDS",
            "tournaments.tasks.webhook_deliveries_reconcile_task",
            "webhook deliveries reconcile",
        ),
        # Mails whose task was lost before their first attempt (docs/accounts.md).
        ("MAIL_RECONCILE_SECONDS", "tournaments.accounts.tasks.mails_reconcile_task", "mails reconcile"),
        # Due players' reports, series past their report deadline (docs/results.md).
        ("REPORTS_SWEEP_SECONDS", "tournaments.tasks.reports_sweep_task", "reports sweep"),
        # Notifications whose dispatch task was lost (docs/notifications.md).
        (
            "MAIL_RECONCILE_SECONDS",
            "tournaments.notifications.tasks.notifications_reconcile_task",
            "notifications reconcile",
        ),
        # Ladder challenges not played by their day (docs/ladder.md).
        (
            "LADDER_EXPIRE_SECONDS",
            "tournaments.tasks.ladder_challenges_expire_task",
            "ladder challenges expire",
        ),
    ]
    for interval, task, name in schedule:
        sender.add_periodic_task(getattr(settings, interval), sender.signature(task), name=name)
