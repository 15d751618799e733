"""Clubs and people: a club and its organisers, organiser invitations, players and the claims that
link a player to an account (docs/people.md). Loaded by ``tournaments/models.py``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_clubs", blank=True, verbose_name=_("organisers")
    )
    # Who created it through the site (null: the admin, the demo data before this field, a deleted
    # account). Also what the hourly limit on new clubs counts (services.club_create).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_clubs",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Whether a signed-in person may ask to join from the club page (organisers approve or refuse).
    join_requests_open = models.BooleanField(_("join requests open"), default=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class OrganiserInvitation(models.Model):
    """A link an organiser sends so that someone becomes an organiser of the club too.

    The link carries a token signed with ``SECRET_KEY`` that names this row; the row says whether
    it has expired or been used (once), so neither can be forged or replayed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club} #{self.pk}"


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(user__isnull=False), name="player_user_once_per_club"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerClaim(models.Model):
    """An organiser's invitation for a person to claim one of the club's players as theirs
    (tournaments/clubs/, docs/people.md). The link carries a token signed with ``SECRET_KEY``
    naming this row; the row says whether it expired, was used (once) or was replaced by a newer
    one, so neither can be forged or replayed."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    # A newer invitation for the player, or an unlink, withdraws the ones still open.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"claim of {self.player} #{self.pk}"


class JoinRequest(models.Model):
    """A person asking to join a club (docs/accounts.md, "Join requests"): pending until an
    organiser approves it (the person is linked to one of the club's players, an unclaimed one or a
    new one) or refuses it (with a reason the person sees). One pending request per person and club."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an organiser")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests")
    message = models.CharField(_("message"), max_length=500, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(status="pending"), name="join_request_pending_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} -> {self.club} ({self.status})"
