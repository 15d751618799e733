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

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    confirmed = models.BooleanField(default=True)
    # The result value as JSON (format version 2): see tournaments/competitions/results/values.py.
    data = models.JSONField()
    source = models.CharField(max_length=12, choices=Source.choices)
    recorded_by = models.ForeignKey(
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
