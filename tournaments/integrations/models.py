"""The private calendar feeds' secret (``calendar.py``). API tokens and webhooks keep their models
in ``tokens/models.py`` and ``webhooks/models.py``. Loaded by ``tournaments/models.py``."""

from __future__ import annotations

from django.db import models

from tournaments.clubs.models import Player


class CalendarToken(models.Model):
    """The secret of a player's private calendar feed (``/calendar/<token>.ics``): a calendar app
    cannot sign in, so the address is the key. Made on first use, replaced to revoke."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="calendar_token")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar of {self.player}"
