"""Online play (issue 14): a game played on the server, its append-only log, snapshots and lease.

A game is ``options + setup + ordered actions`` (games/engine/protocol.py): the log holds every
accepted action in order (``seq`` 1, 2, 3 …), so the state is always ``replay`` of the setup and the
log, or ``from_snapshot`` of the newest snapshot plus the log rows after it. docs/online.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.protocol import GameKind


class OnlineGame(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Source(models.TextChoices):
        ONLINE = "online", _("Played online")
        # A hand played at a table and entered card by card (games/hand_entry.py): finished when
        # stored, no server seed, not in the lobby, statistics or fairness pages.
        HAND = "hand", _("Entered by hand")

    kind = models.CharField(_("game"), max_length=16, choices=[(k.value, k.value) for k in GameKind])
    options = models.JSONField(_("options"), default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default=Source.ONLINE)
    # An entered hand's tournament game (a Snapszer match played at a table), if any.
    table_game = models.ForeignKey(
        "tournaments.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="entered_hands"
    )
    # An entered hand's names of its two seats (as typed, or its tournament players'): the replay's.
    seat_labels = models.JSONField(default=list, blank=True)
    invite_token = models.CharField(_("invite token"), max_length=43, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The tournament series game it is (games/online/series.py); ``players[seat]`` is its player.
    series = models.ForeignKey(
        "tournaments.Series", null=True, blank=True, on_delete=models.PROTECT, related_name="online_games"
    )
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    players = models.JSONField(default=list, blank=True)
    # Fair dealing: SHA-256 of the server seed, shown before the deal; the seed itself after the end.
    server_seed_hash = models.CharField(_("server seed commitment (SHA-256)"), max_length=64, blank=True)
    server_seed = models.CharField(_("server seed (revealed at the end)"), max_length=64, blank=True)
    sealed_seed = models.CharField(max_length=64, blank=True, editable=False)  # hidden until the end
    setup = models.JSONField(_("setup"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("online game")
        verbose_name_plural = _("online games")

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class OnlineSeat(models.Model):
    """A seat: a user, a bot of a level, or (while the table is open) nobody yet."""

    game = models.ForeignKey(OnlineGame, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True)
    client_seed = models.CharField(_("client seed (hex)"), max_length=128, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="online_seat_once")]

    def __str__(self) -> str:
        return f"{self.game} seat {self.number}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level


class GameLogEntry(models.Model):
    """One accepted action, append-only: the input, who sent it, when it arrived, what it did."""

    game = models.ForeignKey(OnlineGame, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    action = models.JSONField()
    seat = models.PositiveSmallIntegerField(null=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_level = models.CharField(max_length=16, blank=True)
    received_at = models.DateTimeField()
    events = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="online_log_seq_once")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}"


class GameSnapshot(models.Model):
    """The engine's ``to_snapshot`` after ``seq`` actions: a server cache (holds hidden cards)."""

    game = models.ForeignKey(OnlineGame, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    data = models.JSONField()
    taken_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="online_snapshot_once")]

    def __str__(self) -> str:
        return f"{self.game} @{self.seq}"


class GameLease(models.Model):
    """Who owns a live game: one process at a time, until ``expires_at`` unless renewed."""

    game = models.OneToOneField(OnlineGame, on_delete=models.CASCADE, primary_key=True, related_name="lease")
    owner = models.CharField(max_length=64, blank=True)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.game}: {self.owner}"


class GameAnalysis(models.Model):
    """The expert's analysis of a finished Snapszer game (docs/analysis.md): asked for from the
    replay page, worked out by a Celery task hand by hand (``AnalysedHand``), ``version`` the
    engine's ``ANALYSIS_VERSION`` it was asked for with (another version is done again)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Being analysed")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("Could not be analysed")

    game = models.OneToOneField(
        OnlineGame, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveSmallIntegerField(_("analysis version"))
    hands_total = models.PositiveSmallIntegerField(default=0)
    hands_done = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(_("requested"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of {self.game_id}: {self.status}"


class AnalysedHand(models.Model):
    """One hand's analysis: the engine's ``HandAnalysis.to_dict()`` plus each decision's log ``seq``."""

    game = models.ForeignKey(OnlineGame, on_delete=models.CASCADE, related_name="analysed_hands")
    hand = models.PositiveSmallIntegerField(_("hand"))
    version = models.PositiveSmallIntegerField(_("analysis version"))
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "hand"]
        constraints = [models.UniqueConstraint(fields=["game", "hand"], name="analysed_hand_once")]

    def __str__(self) -> str:
        return f"{self.game} hand {self.hand}"
