"""The header's unread count: one indexed count per signed-in page, none for anyone else."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.notifications.selectors import unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user=user)}
