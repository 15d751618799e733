"""Reading one's notifications and settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from tournaments.notifications.models import Channel, Event, Notification, NotificationPreferences
from tournaments.notifications.services import wants
from tournaments.notifications.texts import Text, notification_text


def unread_count(*, user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


@dataclass(frozen=True)
class Row:
    notification: Notification
    text: Text


def notifications_list(*, user: Any, limit: int = 50) -> list[Row]:
    """One's newest notifications, each with its text in the active language."""
    rows: QuerySet[Notification] = Notification.objects.filter(user=user).order_by("-created_at", "-pk")[
        :limit
    ]
    return [Row(n, notification_text(n.event, n.params)) for n in rows]


@dataclass(frozen=True)
class Switch:
    name: str  # "event:channel"
    channel: str
    label: str
    on: bool


@dataclass(frozen=True)
class EventSwitches:
    event: str
    label: str
    switches: list[Switch]


def preferences_grid(*, user: Any) -> list[EventSwitches]:
    """Every event with its e-mail and push switches as they stand for ``user``."""
    prefs = NotificationPreferences.objects.filter(user=user).first()
    return [
        EventSwitches(
            event,
            str(label),
            [
                Switch(f"{event}:{channel}", channel, str(channel_label), wants(prefs, event, channel))
                for channel, channel_label in Channel.choices
            ],
        )
        for event, label in Event.choices
    ]


def push_subscriptions_count(*, user: Any) -> int:
    return user.push_subscriptions.count()
