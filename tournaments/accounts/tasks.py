"""The mail task (registered through ``tournaments/tasks.py``)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.accounts.mail import mail_send, mails_unsent


@shared_task(bind=True, name="tournaments.accounts.tasks.mail_send_task", max_retries=None)
def mail_send_task(self: Any, mail_id: int) -> str:
    """Send one queued mail; safe twice (the service sends a mail only while it is queued). After a
    failure Celery runs it again after the service's backoff; run eagerly, nothing is retried
    inside the request (the mail stays queued)."""
    outcome = mail_send(mail_id=mail_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="tournaments.accounts.tasks.mail_send_batch_task")
def mail_send_batch_task(mail_ids: list[int]) -> dict[str, int]:
    """Send a batch of queued mails (``mail_queue_many``), each at most once; one that fails is
    retried on its own (``mail_send_task`` after the service's backoff)."""
    counts: dict[str, int] = {}
    for mail_id in mail_ids:
        outcome = mail_send(mail_id=mail_id)
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        if outcome.retry_in is not None:
            mail_send_task.apply_async((mail_id,), countdown=outcome.retry_in)
    return counts


@shared_task(name="tournaments.accounts.tasks.mails_reconcile_task")
def mails_reconcile_task() -> list[int]:
    """Beat: send again the mails whose task was lost before their first attempt."""
    unsent = mails_unsent()
    for mail_id in unsent:
        mail_send_task.delay(mail_id)
    return unsent
