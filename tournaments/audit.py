"""The audit log: its model, ``AuditEntry`` (loaded by ``tournaments/models.py``), and its one writer,
:func:`audit`: every service that changes a tournament's results, pairings or players calls it inside
its own transaction, so an entry exists exactly when the change does.

Sign-ins come from Django's ``user_logged_in`` / ``user_login_failed`` signals (``apps.py``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from snapleague.users import AnyUser, signed_in
from tournaments.competitions.models import Series, Stage, Tournament


class AuditEntry(models.Model):
    """Who did what, when, to which tournament's data: result writes and corrections, voids,
    pairings published, withdrawals, no-shows, stage changes, and sign-ins. Append-only; written in
    the same transaction as the change it records (``tournaments/audit.py``)."""

    class Action(models.TextChoices):
        RESULT_RECORDED = "result_recorded", _("Result recorded")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
        RESULT_REPORTED = "result_reported", _("Result reported by a player")
        RESULT_DISPUTED = "result_disputed", _("Result disputed")
        DISPUTE_DECIDED = "dispute_decided", _("Dispute decided")
        RESULT_MODE_SET = "result_mode_set", _("Who records results changed")
        GAME_VOIDED = "game_voided", _("Game voided")
        ROUND_PUBLISHED = "round_published", _("Round published")
        WITHDRAWAL = "withdrawal", _("Player withdrawn")
        FORFEIT = "forfeit", _("No-show recorded")
        STAGE_ONLINE = "stage_online", _("Stage played online or at the tables")
        SESSION_CREATED = "session_created", _("Session created")
        SESSION_UPDATED = "session_updated", _("Session changed")
        ROUND_SCHEDULED = "round_scheduled", _("Round scheduled")
        STATIONS_SET = "stations_set", _("Tables set up")
        CHECKED_IN = "checked_in", _("Checked in")
        CHECK_IN_UNDONE = "check_in_undone", _("Check-in undone")
        CHECK_IN_CLOSED = "check_in_closed", _("Check-in closed")
        CHECK_IN_REOPENED = "check_in_reopened", _("Check-in reopened")
        FORFEIT_WITHDRAWN = "forfeit_withdrawn", _("No-show taken back")
        CALENDAR_REPLACED = "calendar_replaced", _("Calendar address replaced")
        SIGNED_IN = "signed_in", _("Signed in")
        SIGN_IN_FAILED = "sign_in_failed", _("Sign-in failed")
        PLAYER_CLAIM_INVITED = "player_claim_invited", _("Player invited to claim")
        PLAYER_CLAIMED = "player_claimed", _("Player claimed")
        PLAYER_UNLINKED = "player_unlinked", _("Player unlinked")
        JOIN_REQUESTED = "join_requested", _("Asked to join the club")
        JOIN_APPROVED = "join_approved", _("Join request approved")
        JOIN_REFUSED = "join_refused", _("Join request refused")
        JOIN_REQUESTS_SET = "join_requests_set", _("Join requests opened or closed")
        REGISTRATION_SET = "registration_set", _("Registration opened or changed")
        REGISTERED = "registered", _("Registered for a tournament")
        REGISTRATION_WITHDRAWN = "registration_withdrawn", _("Registration withdrawn")
        REGISTRATION_DECIDED = "registration_decided", _("Registration approved or refused")
        API_TOKEN_CREATED = "api_token_created", _("API token created")
        API_TOKEN_REVOKED = "api_token_revoked", _("API token revoked")
        API_TOKEN_REFUSED = "api_token_refused", _("API token refused")

    action = models.CharField(max_length=24, choices=Action.choices)
    # None: the system (the stage task, an online game's end) or someone not signed in.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    username = models.CharField(max_length=150, blank=True)  # as typed, for a failed sign-in
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_entries"
    )
    stage = models.ForeignKey(Stage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    series = models.ForeignKey(Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The version of what changed before and after (a game's result version; a stage's results
    # version for a publish or a withdrawal).
    before_version = models.PositiveIntegerField(null=True, blank=True)
    after_version = models.PositiveIntegerField(null=True, blank=True)
    # What a person reads next to the action: the game, the round, the players, the reason.
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.action} by {self.user or self.username or '—'}"


def audit(
    action: AuditEntry.Action,
    *,
    user: AnyUser | None,
    tournament: Tournament | int | None = None,
    stage: Stage | int | None = None,
    series: Series | int | None = None,
    before: int | None = None,
    after: int | None = None,
    username: str = "",
    **detail: Any,
) -> AuditEntry:
    """Record ``action`` (call inside the transaction of the change it records)."""
    account = user if user is not None and signed_in(user) else None
    return AuditEntry.objects.create(
        action=action,
        user=account,
        username=username or (account.get_username() if account is not None else ""),
        tournament_id=_pk(tournament),
        stage_id=_pk(stage),
        series_id=_pk(series),
        before_version=before,
        after_version=after,
        detail=detail,
    )


def _pk(value: object) -> int | None:
    if value is None:
        return None
    return value if isinstance(value, int) else value.pk  # type: ignore[attr-defined,no-any-return]
