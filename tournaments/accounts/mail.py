"""Mails to people: queued in the caller's transaction, sent by a Celery task, once.

``mail_queue`` stores the rendered mail (subject, plain text, optional HTML, headers) under an
idempotency key and sends the task after the commit; queueing the same key again is a no-op.
``mail_send`` (the task's body) takes the row under a lock, sends it if it is still queued and marks
it sent in the same transaction, so a duplicated or retried task finds it sent and sends nothing.
The Message-ID comes from the key: should a worker die between the SMTP server's "250" and the
commit, the one resend carries the same Message-ID (receivers and tests can tell).

Bulk mails (``bulk=True``) carry ``List-Unsubscribe`` and ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click`` (RFC 8058) with the one-click link given by the caller.
"""

from __future__ import annotations

import hashlib
import logging
import smtplib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from tournaments.accounts.models import OutgoingMail

logger = logging.getLogger(__name__)


def mail_key(*parts: str) -> str:
    """An idempotency key from what identifies one mail (the event and the recipient, or the
    rendered content when the mail is its own identity)."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def unsubscribe_headers(url: str) -> dict[str, str]:
    """RFC 8058 one-click unsubscription: the mail client POSTs ``List-Unsubscribe=One-Click`` to
    ``url`` (which must work without a log-in or a confirmation page)."""
    if not url.startswith("https://") and not settings.DEBUG:
        raise ValueError("List-Unsubscribe needs an https URL")
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def mail_queue(
    *,
    key: str,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    unsubscribe_url: str = "",
) -> OutgoingMail:
    """Store the mail (or find it: same key, same mail) and send its task after the commit."""
    all_headers = dict(headers or {})
    if unsubscribe_url:
        all_headers.update(unsubscribe_headers(unsubscribe_url))
    with transaction.atomic():
        mail, created = OutgoingMail.objects.get_or_create(
            key=key,
            defaults={
                "to": to,
                "subject": subject[:250],
                "text": text,
                "html": html,
                "headers": all_headers,
            },
        )
        if created:
            after_commit(lambda: _enqueue(mail.pk))
    return mail


@dataclass(frozen=True)
class MailSpec:
    """One mail for :func:`mail_queue_many` (the arguments of :func:`mail_queue`)."""

    key: str
    to: str
    subject: str
    text: str
    html: str = ""
    unsubscribe_url: str = ""


# Mails sent by one task of a bulk queueing: fewer broker messages, and one mail's slow SMTP answer
# does not hold up a thousand tasks' worth of overhead.
MAIL_BATCH = 50


def mail_queue_many(specs: Sequence[MailSpec]) -> list[int]:
    """Queue many mails at once (a round published to a thousand players): one insert for all (a
    key already stored is left as it is), then, after the commit, one task per ``MAIL_BATCH`` of
    the mails never tried. Returns their ids. Each mail is still sent at most once
    (:func:`mail_send`)."""
    rows = []
    for spec in specs:
        headers = unsubscribe_headers(spec.unsubscribe_url) if spec.unsubscribe_url else {}
        rows.append(
            OutgoingMail(
                key=spec.key,
                to=spec.to,
                subject=spec.subject[:250],
                text=spec.text,
                html=spec.html,
                headers=headers,
            )
        )
    if not rows:
        return []
    with transaction.atomic():
        OutgoingMail.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
        ids = list(
            OutgoingMail.objects.filter(
                key__in=[row.key for row in rows], status=OutgoingMail.Status.QUEUED, attempts=0
            )
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        after_commit(lambda: _enqueue_batches(ids))
    return ids


def _enqueue_batches(ids: Sequence[int]) -> None:
    from snapleague.celery import enqueue
    from tournaments.accounts.tasks import mail_send_batch_task

    for start in range(0, len(ids), MAIL_BATCH):
        enqueue(mail_send_batch_task, list(ids[start : start + MAIL_BATCH]))


def after_commit(callback: Callable[[], None]) -> None:
    """``transaction.on_commit`` (a seam: tests inside one transaction send at once)."""
    transaction.on_commit(callback)


def _enqueue(mail_id: int) -> None:
    from snapleague.celery import enqueue
    from tournaments.accounts.tasks import mail_send_task

    enqueue(mail_send_task, mail_id)


def mail_message(mail: OutgoingMail) -> EmailMultiAlternatives:
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(">") or "snapleague.invalid"
    headers = {"Message-ID": f"<{mail.key}@{domain}>", **mail.headers}
    message = EmailMultiAlternatives(
        mail.subject, mail.text, settings.DEFAULT_FROM_EMAIL, [mail.to], headers=headers
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


@dataclass(frozen=True)
class SendOutcome:
    status: str
    retry_in: float | None = None


def mail_send(*, mail_id: int) -> SendOutcome:
    """Send one queued mail, at most once. A refused or failed connection leaves it queued with a
    later retry (``retry_in``), until ``MAIL_MAX_ATTEMPTS``: then it is marked failed."""
    with transaction.atomic():
        mail = OutgoingMail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None:
            return SendOutcome("missing")
        if mail.status != OutgoingMail.Status.QUEUED:
            return SendOutcome(mail.status)
        mail.attempts += 1
        try:
            mail_message(mail).send()
        except (smtplib.SMTPException, OSError) as exc:
            mail.last_error = f"{type(exc).__name__}: {exc}"[:1000]
            retry_in = None
            if mail.attempts >= settings.MAIL_MAX_ATTEMPTS:
                mail.status = OutgoingMail.Status.FAILED
                logger.error("mail %s to %s failed for good: %s", mail.pk, mail.to, mail.last_error)
            else:
                retry_in = settings.MAIL_RETRY_BASE_SECONDS * 2 ** (mail.attempts - 1)
                logger.warning("mail %s to %s not sent (retry in %ss): %s", mail.pk, mail.to, retry_in, exc)
            mail.save(update_fields=["attempts", "last_error", "status"])
            return SendOutcome(mail.status, retry_in)
        mail.status = OutgoingMail.Status.SENT
        mail.sent_at = timezone.now()
        mail.save(update_fields=["attempts", "status", "sent_at"])
    return SendOutcome(OutgoingMail.Status.SENT)


def mails_unsent() -> list[int]:
    """Mails never tried, queued over a minute ago: their task's message was lost (the broker was
    down at the commit). Beat sends them again (``mails_reconcile_task``); mails waiting for a
    retry are the retry's."""
    cutoff = timezone.now() - timedelta(minutes=1)
    return list(
        OutgoingMail.objects.filter(
            status=OutgoingMail.Status.QUEUED, attempts=0, created_at__lt=cutoff
        ).values_list("pk", flat=True)[:500]
    )
