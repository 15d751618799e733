"""The one notification service (docs/notifications.md).

``notify_many`` stores the notifications (one per user, event and subject: a second call for the
same is a no-op) in the caller's transaction and, after the commit, sends the dispatch task. The
dispatch task queues each notification's e-mail (``tournaments.accounts.mail``: once per key) and
its pushes (one ``PushDelivery`` per subscription: once per pair) by the person's preferences,
then marks it dispatched, all in one transaction; ``push_delivery_send`` sends one push at most
once. So a retried or duplicated task sends nothing twice, on any channel.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from snapleague.errors import ApplicationError, NotFound
from tournaments.accounts.mail import mail_key
from tournaments.accounts.models import AccountProfile
from tournaments.notifications.models import (
    Channel,
    Event,
    Notification,
    NotificationPreferences,
    PushDelivery,
    PushSubscription,
)
from tournaments.notifications.push import push_payload, push_send
from tournaments.notifications.texts import notification_text

logger = logging.getLogger(__name__)

# What a person gets unless they say otherwise. E-mail for "your move" is off: by the time a mail
# is read, the absence allowance has run out (docs/notifications.md).
OFF_BY_DEFAULT = frozenset({f"{Event.YOUR_MOVE}:{Channel.EMAIL}"})


@dataclass(frozen=True)
class Notice:
    """One notification to make: to ``user_id``, about ``key`` (the event's subject)."""

    user_id: int
    event: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    url: str = ""


def wants(preferences: NotificationPreferences | None, event: str, channel: str) -> bool:
    name = f"{event}:{channel}"
    if preferences is None:
        return name not in OFF_BY_DEFAULT
    if name in OFF_BY_DEFAULT:
        return name in preferences.on
    return name not in preferences.off


def notify_many(notices: Iterable[Notice]) -> int:
    """Store the notices' notifications (those already made are left as they are) and send their
    dispatch after the commit. Returns how many were given."""
    rows = [
        Notification(user_id=n.user_id, event=n.event, key=n.key[:80], params=n.params, url=n.url[:300])
        for n in notices
    ]
    if not rows:
        return 0
    Notification.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    subjects = sorted({(row.event, row.key) for row in rows})
    transaction.on_commit(lambda: _enqueue_dispatch(subjects))
    return len(rows)


def notify(notice: Notice) -> int:
    return notify_many([notice])


def _enqueue_dispatch(subjects: Sequence[tuple[str, str]]) -> None:
    from snapleague.celery import enqueue
    from tournaments.notifications.tasks import notifications_dispatch_task

    for event, key in subjects:
        enqueue(notifications_dispatch_task, event, key)


def absolute(url: str) -> str:
    return url if "://" in url else settings.SITE_URL.rstrip("/") + url


def unsubscribe_token(user_id: int, event: str) -> str:
    return signing.dumps({"u": user_id, "e": event}, salt="notifications.unsubscribe", compress=True)


def unsubscribe_check(token: str) -> tuple[int, str]:
    """Who and which event a one-click link stands for. Raises NotFound for a forged or mangled
    link, or one whose person is gone."""
    try:
        data = signing.loads(token, salt="notifications.unsubscribe")
        user_id, event = int(data["u"]), str(data["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise NotFound(code="bad_link", message=_("This link is not valid.")) from None
    if event not in Event.values or not get_user_model().objects.filter(pk=user_id).exists():
        raise NotFound(code="bad_link", message=_("This link is not valid."))
    return user_id, event


def unsubscribe(token: str) -> tuple[int, str]:
    """Turn off the e-mail of one event for one person (the one-click link of RFC 8058: no log-in,
    valid as long as the person exists). Raises NotFound as :func:`unsubscribe_check`."""
    user_id, event = unsubscribe_check(token)
    with transaction.atomic():
        prefs, _created = NotificationPreferences.objects.select_for_update().get_or_create(user_id=user_id)
        _set(prefs, f"{event}:{Channel.EMAIL}", False)
        prefs.save(update_fields=["off", "on"])
    return user_id, event


def _set(prefs: NotificationPreferences, name: str, enabled: bool) -> None:
    off, on = set(prefs.off), set(prefs.on)
    if name in OFF_BY_DEFAULT:
        (on.add if enabled else on.discard)(name)
    else:
        (off.discard if enabled else off.add)(name)
    prefs.off, prefs.on = sorted(off), sorted(on)


def preferences_set(*, user: Any, enabled: Iterable[str]) -> NotificationPreferences:
    """Set every (event, channel) switch at once: ``enabled`` holds the ``"event:channel"`` names
    that are on. Raises ApplicationError for a name that is no switch."""
    chosen = set(enabled)
    names = {f"{e}:{c}" for e in Event.values for c in Channel.values}
    unknown = chosen - names
    if unknown:
        raise ApplicationError(
            code="invalid",
            message=_("Choose among the listed notifications."),
            fields={
                "enabled": [_("Not a notification you can choose: %(name)s") % {"name": sorted(unknown)[0]}]
            },
        )
    with transaction.atomic():
        prefs, _created = NotificationPreferences.objects.select_for_update().get_or_create(user=user)
        for name in sorted(names):
            _set(prefs, name, name in chosen)
        prefs.save(update_fields=["off", "on"])
    return prefs


def notifications_read(*, user: Any, ids: Sequence[int] | None = None) -> int:
    """Mark one's notifications read (``ids``: those; None: all). Returns how many changed."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


def notification_open(*, user: Any, notification_id: int) -> Notification:
    """One's own notification, marked read (the page it points to is where the reader goes)."""
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is None:
        raise NotFound(code="notification_not_found", message=_("No such notification."))
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def push_subscribe(
    *, user: Any, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Keep a browser's subscription for ``user`` (the same endpoint again: its keys and owner are
    updated; a browser belongs to whoever subscribed it last). Raises ApplicationError with field
    errors for a subscription that is not one."""
    problems: dict[str, list[Any]] = {}
    if not endpoint.startswith(("https://", "http://")) or len(endpoint) > 1000:
        problems["endpoint"] = [_("A push subscription's endpoint is an http(s) URL.")]
    for name, value in (("p256dh", p256dh), ("auth", auth)):
        if not value or len(value) > 200 or not all(c.isalnum() or c in "-_=" for c in value):
            problems[name] = [_("This key is not a base64url value.")]
    if problems:
        raise ApplicationError(code="invalid", message=_("This is not a push subscription."), fields=problems)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]},
    )
    return subscription


def push_unsubscribe(*, user: Any, endpoint: str) -> bool:
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0] > 0


# --- delivery (Celery) ---------------------------------------------------------------------------


def _language(profile: AccountProfile | None) -> str:
    return (profile.language if profile else "") or settings.LANGUAGE_CODE


def notifications_dispatch(*, event: str, key: str) -> dict[str, int]:
    """Queue the e-mails and pushes of the undispatched notifications of one subject, once: the
    rows are locked (``skip_locked``: a twin task takes the others) and marked dispatched in the
    same transaction as what they queued."""
    from snapleague.celery import enqueue
    from tournaments.accounts.mail import MailSpec, mail_queue_many
    from tournaments.notifications.tasks import push_delivery_send_task

    counts = {"email": 0, "push": 0}
    pushes: list[int] = []
    mails: list[MailSpec] = []
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(event=event, key=key, dispatched=False)
            .select_related("user", "user__profile", "user__notification_preferences")
            .order_by("pk")
        )
        if not rows:
            return counts
        user_ids = [n.user_id for n in rows]
        subscriptions: dict[int, list[PushSubscription]] = defaultdict(list)
        for sub in PushSubscription.objects.filter(user_id__in=user_ids).order_by("pk"):
            subscriptions[sub.user_id].append(sub)
        new_pushes: list[PushDelivery] = []
        for n in rows:
            user = n.user
            prefs = getattr(user, "notification_preferences", None)
            profile = getattr(user, "profile", None)
            if user.email and wants(prefs, event, Channel.EMAIL):
                language = _language(profile)
                text = notification_text(event, n.params, language)
                link = absolute(n.url or reverse("notifications:list"))
                off = absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user.pk, event)]))
                mails.append(
                    MailSpec(
                        key=mail_key("notification", str(n.pk)),
                        to=user.email,
                        subject=text.title,
                        text=_mail_text(text.body, link, off, language),
                        # The one-click header needs https (RFC 8058); on plain http the link is in the text.
                        unsubscribe_url=off if off.startswith("https://") or settings.DEBUG else "",
                    )
                )
            if subscriptions.get(user.pk) and wants(prefs, event, Channel.PUSH):
                new_pushes += [PushDelivery(notification=n, subscription=s) for s in subscriptions[user.pk]]
        counts["email"] = len(mail_queue_many(mails))
        if new_pushes:
            PushDelivery.objects.bulk_create(new_pushes, ignore_conflicts=True)
            pushes = list(
                PushDelivery.objects.filter(
                    notification__in=rows, status=PushDelivery.Status.QUEUED, attempts=0
                ).values_list("pk", flat=True)
            )
            counts["push"] = len(pushes)
        Notification.objects.filter(pk__in=[n.pk for n in rows]).update(dispatched=True)
        transaction.on_commit(lambda: [enqueue(push_delivery_send_task, pk) for pk in pushes])
    return counts


def _mail_text(body: str, link: str, off: str, language: str) -> str:
    from django.utils import translation

    with translation.override(language):
        return "\n\n".join(
            [
                body,
                _("Open it: %(url)s") % {"url": link},
                _("You get this mail because of your notification settings. Stop these mails: %(url)s")
                % {"url": off},
            ]
        )


@dataclass(frozen=True)
class PushResult:
    status: str
    retry_in: float | None = None


def push_delivery_send(*, delivery_id: int) -> PushResult:
    """Push one delivery, at most once (the row locked, sent only while queued, marked in the same
    transaction). 404/410 from the push service: the subscription is dropped (the browser revoked
    it). Other failures retry with a doubling wait, up to ``PUSH_MAX_ATTEMPTS``."""
    with transaction.atomic():
        delivery = (
            PushDelivery.objects.select_for_update(of=("self",))
            .select_related("notification", "notification__user__profile", "subscription")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return PushResult("missing")
        if delivery.status != PushDelivery.Status.QUEUED:
            return PushResult(delivery.status)
        sub = delivery.subscription
        if sub is None:
            delivery.status = PushDelivery.Status.GONE
            delivery.save(update_fields=["status"])
            return PushResult(delivery.status)
        n = delivery.notification
        text = notification_text(n.event, n.params, _language(getattr(n.user, "profile", None)))
        payload = push_payload(
            title=text.title,
            body=text.body,
            url=n.url or reverse("notifications:list"),
            tag=f"{n.event}:{n.key}",
        )
        delivery.attempts += 1
        outcome = push_send(endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload=payload)
        retry_in = None
        if outcome.status == "sent":
            delivery.status = PushDelivery.Status.SENT
            delivery.sent_at = timezone.now()
        elif outcome.status == "gone":
            delivery.status = PushDelivery.Status.GONE
            delivery.last_error = outcome.detail
            logger.info("push subscription %s is gone (%s): dropped", sub.pk, outcome.detail)
            delivery.subscription = None
            sub.delete()
        else:
            delivery.last_error = outcome.detail
            if delivery.attempts >= settings.PUSH_MAX_ATTEMPTS:
                delivery.status = PushDelivery.Status.FAILED
            else:
                retry_in = settings.PUSH_RETRY_BASE_SECONDS * 2 ** (delivery.attempts - 1)
        delivery.save(update_fields=["status", "attempts", "last_error", "sent_at", "subscription"])
    return PushResult(delivery.status, retry_in)


def notifications_undispatched() -> list[tuple[str, str]]:
    """Subjects with notifications never dispatched, made over a minute ago (their task was lost):
    beat sends them again."""
    cutoff = timezone.now() - timedelta(minutes=1)
    return list(
        Notification.objects.filter(dispatched=False, created_at__lt=cutoff)
        .values_list("event", "key")
        .distinct()
        .order_by("event", "key")[:200]
    )
