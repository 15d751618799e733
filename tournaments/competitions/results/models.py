"""A game of a series and the versions of its result. Loaded by ``tournaments/models.py``."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.competitions.models import Series
from tournaments.competitions.results.values import ResultValue, result_from_json


class Game(models.Model):
    """One game of a series: a Snap game, or one Snapszer match."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    sudden_death = models.BooleanField(default=False)
    # The seats that play this game (all of the series', or only the tied ones in sudden death).
    seats = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="game_number_unique")]

    def __str__(self) -> str:
        return f"{self.series} game {self.number}"


class GameResult(models.Model):
    """One version of a game's result. Append-only: a correction is a new version.

    ``data`` is the result value's stored JSON; read it as ``value`` (only
    ``tournaments/competitions/results/values.py`` knows its keys). A **void** version (``void=True``, a
    ``VoidResult``) says the game counts for nothing: a correction of an earlier game decided the
    series before it (docs/results.md). It is written by that correction, with its organiser and
    reason; the voided result stays in the version before it.
    """

    class Source(models.TextChoices):
        REFEREE = "referee", _("Referee")
        ORGANISER = "organiser", _("Organiser")
        ENGINE = "engine", _("Online game")
        PLAYERS = "players", _("Players")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    confirmed = models.BooleanField(default=True)
    # The result value as JSON (format version 2): see tournaments/competitions/results/values.py.
    data = models.JSONField()
    source = models.CharField(max_length=12, choices=Source.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Source "players": who confirmed the report of ``recorded_by`` (None: it confirmed itself).
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(_("reason"), blank=True)
    void = models.BooleanField(
        default=False,
        verbose_name=_("void"),
        help_text=_("The game was played after the series was decided."),
    )
    # NULL, not "": the unique constraint below only applies to submissions that sent a key.
    client_key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001
    # The online game this result came from (source "engine"): recording it again finds this row.
    engine_game = models.PositiveBigIntegerField(
        null=True, blank=True, verbose_name=_("online game"), help_text=_("The online game it was played as.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="result_version_unique"),
            # The heart of corrections: at most one confirmed version per game.
            models.UniqueConstraint(
                fields=["game"], condition=Q(confirmed=True), name="one_confirmed_result"
            ),
            models.UniqueConstraint(
                fields=["recorded_by", "client_key"],
                condition=Q(client_key__isnull=False),
                name="result_client_key_unique",
            ),
            # An online game records its result once (result_record is idempotent by it).
            models.UniqueConstraint(
                fields=["engine_game"],
                condition=Q(engine_game__isnull=False),
                name="result_engine_game_unique",
            ),
            models.CheckConstraint(
                condition=Q(engine_game__isnull=True) | Q(source="engine"),
                name="result_engine_game_only_from_engine",
            ),
        ]

    def __str__(self) -> str:
        void = " void" if self.void else ""
        return f"{self.game} v{self.version}{void}{'' if self.confirmed else ' (superseded)'}"

    @cached_property
    def value(self) -> ResultValue:
        """The result this version holds. Raises ValueError for a row that is not format 2."""
        return result_from_json(self.data)


class ResultDispute(models.Model):
    """Two versions of one game's result that disagree, or a player's request to correct a
    confirmed one: for a referee or an organiser to decide (docs/results.md, "Disputes")."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DECIDED = "decided", _("Decided")

    class Kind(models.TextChoices):
        DISPUTE = "dispute", _("Two reports disagree")
        CORRECTION = "correction", _("A player asks for a correction")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="disputes")
    game_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.DISPUTE)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    result = models.ForeignKey(GameResult, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "game_number"], condition=Q(status="open"), name="one_open_dispute_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} game {self.game_number}: {self.kind} ({self.status})"


class ResultReport(models.Model):
    """A seated player's version of a game's result, not yet confirmed: standings and brackets
    never read it. Confirmed (by another seat, by itself after the tournament's minutes, or by an
    official's decision) it becomes a confirmed ``GameResult`` through the result service."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        REPLACED = "replaced", _("Not chosen")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="reports")
    game_number = models.PositiveSmallIntegerField()
    data = models.JSONField()  # the result value's JSON (values.py), like GameResult.data
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The confirmed version the reporter saw (0: the game had none; a correction request: the current).
    expected_version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    dispute = models.ForeignKey(
        ResultDispute, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    auto_confirm_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.ForeignKey(GameResult, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # One report waits for confirmation per game: a second one confirms it or disputes it.
            models.UniqueConstraint(
                fields=["series", "game_number"],
                condition=Q(status="pending"),
                name="one_pending_report_per_game",
            ),
        ]
        indexes = [
            models.Index(
                fields=["auto_confirm_at"], condition=Q(status="pending"), name="report_auto_confirm_due"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} game {self.game_number} by {self.reported_by_id} ({self.status})"

    @cached_property
    def value(self) -> ResultValue:
        return result_from_json(self.data)
