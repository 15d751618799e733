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

    # Repairs any stage whose standings lag its results (a lost message, a crashed worker).
    sender.add_periodic_task(
        settings.STANDINGS_RECONCILE_SECONDS,
        sender.signature("tournaments.tasks.standings_reconcile_task"),
        name="standings reconcile",
    )
    # Sends the webhook deliveries whose Celery message was lost (docs/webhooks.md).
    sender.add_periodic_task(
        settings.WEBHOOK_RECONCILE_SECONDS,
        sender.signature("tournaments.tasks.webhook_deliveries_reconcile_task"),
        name="webhook deliveries reconcile",
    )
    # Sends the mails whose task was lost before their first attempt (docs/accounts.md).
    sender.add_periodic_task(
        settings.MAIL_RECONCILE_SECONDS,
        sender.signature("tournaments.accounts.tasks.mails_reconcile_task"),
        name="mails reconcile",
    )
    # Confirms due players' reports and finds series past their report deadline (docs/results.md).
    sender.add_periodic_task(
        settings.REPORTS_SWEEP_SECONDS,
        sender.signature("tournaments.tasks.reports_sweep_task"),
        name="reports sweep",
    )
    # Dispatches the notifications whose task was lost (docs/notifications.md).
    sender.add_periodic_task(
        settings.MAIL_RECONCILE_SECONDS,
        sender.signature("tournaments.notifications.tasks.notifications_reconcile_task"),
        name="notifications reconcile",
    )
    # Forfeits the ladder challenges not played by their day (docs/ladder.md).
    sender.add_periodic_task(
        settings.LADDER_EXPIRE_SECONDS,
        sender.signature("tournaments.tasks.ladder_challenges_expire_task"),
        name="ladder challenges expire",
    )
