"""Club nights: a session (one dated sitting of a tournament), its stations and check-ins
(docs/sessions.md). Loaded by ``tournaments/models.py``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, Player
from tournaments.competitions.models import Tournament


class Session(models.Model):
    """One dated sitting of a tournament: a club evening at a venue, or an online slot. Rounds are
    scheduled into it; players check in for it; closing check-in makes the absent no-shows."""

    class CheckIn(models.TextChoices):
        OPEN = "open", _("Check-in open")
        CLOSED = "closed", _("Check-in closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    name = models.CharField(_("name"), max_length=120)
    starts_at = models.DateTimeField(_("starts at"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    online = models.BooleanField(_("online"), default=False)
    check_in = models.CharField(_("check-in"), max_length=8, choices=CheckIn.choices, default=CheckIn.OPEN)
    check_in_closed_at = models.DateTimeField(null=True, blank=True)
    # How many rounds are played in it: a round published later goes into the earliest session with
    # room (tournaments/nights/services.py ``rounds_schedule_published``). None: none by itself.
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def check_in_open(self) -> bool:
        return self.check_in == self.CheckIn.OPEN


class Station(models.Model):
    """A table in the room (numbered, optionally named: "Window table"), of one session or, with
    no session, the club's own tables every session without its own uses."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="stations")
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="stations"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=60, blank=True)

    class Meta:
        ordering = ["club", "session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"],
                condition=Q(session__isnull=False),
                name="station_number_in_session",
            ),
            models.UniqueConstraint(
                fields=["club", "number"], condition=Q(session__isnull=True), name="station_number_in_club"
            ),
        ]

    def __str__(self) -> str:
        label = _("Table %(n)s") % {"n": self.number}
        return f"{label} · {self.name}" if self.name else str(label)


class CheckIn(models.Model):
    """A player who is here for a session (at the desk, or on their own phone)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="check_in_once_per_session")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session}"
