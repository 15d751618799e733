"""The notification tasks (registered through ``tournaments/tasks.py``)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.notifications.services import (
    notifications_dispatch,
    notifications_undispatched,
    push_delivery_send,
)


@shared_task(name="tournaments.notifications.tasks.notifications_dispatch_task")
def notifications_dispatch_task(event: str, key: str) -> dict[str, int]:
    """Queue the e-mails and pushes of one subject's notifications; safe twice."""
    return notifications_dispatch(event=event, key=key)


@shared_task(bind=True, name="tournaments.notifications.tasks.push_delivery_send_task", max_retries=None)
def push_delivery_send_task(self: Any, delivery_id: int) -> str:
    """Send one push; safe twice. A failure is tried again after the service's backoff."""
    outcome = push_delivery_send(delivery_id=delivery_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="tournaments.notifications.tasks.notifications_reconcile_task")
def notifications_reconcile_task() -> list[tuple[str, str]]:
    """Beat: dispatch again the subjects whose task was lost (the broker was down at the commit)."""
    subjects = notifications_undispatched()
    for event, key in subjects:
        notifications_dispatch_task.delay(event, key)
    return subjects
