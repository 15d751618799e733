"""Tournaments, entries, stages, rounds, series, seats, bracket slots, withdrawals, no-shows and
stored standings. Games and their result versions are in ``results/models.py``.

Fields, constraints and tiny properties only: every workflow is in the services. Loaded by
``tournaments/models.py``; club nights' ``Session`` and ``Station`` are named by string (the
nights depend on the competitions, not the other way round)."""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The engines' own GameKind (a pure StrEnum); other modules import it from here too.
from games.engine.protocol import GameKind
from tournaments.clubs.models import Club, Player
from tournaments.competitions.formats.base import FormatKey, Phase

# The games by name, as people read them. The values are the engines' GameKind: a kind without a
# label here fails at import.
GAME_KIND_LABELS: Final[dict[GameKind, Promise]] = {
    GameKind.SNAP: _("Snap"),
    GameKind.SNAPSZER: _("Snapszer"),
}
GAME_KIND_CHOICES: Final[list[tuple[str, Promise]]] = [
    (kind.value, GAME_KIND_LABELS[kind]) for kind in GameKind
]


class SeriesFormat(models.TextChoices):
    BEST_OF_3 = "best_of_3", _("Best of 3")
    BEST_OF_5 = "best_of_5", _("Best of 5")
    FIRST_TO_3 = "first_to_3", _("First to 3")


class StageFormat(models.TextChoices):
    ROUND_ROBIN = FormatKey.ROUND_ROBIN.value, _("Round robin")
    SWISS = FormatKey.SWISS.value, _("Swiss")
    SWISS_TABLES = FormatKey.SWISS_TABLES.value, _("Swiss tables")
    SINGLE_ELIMINATION = FormatKey.SINGLE_ELIMINATION.value, _("Single elimination")
    DOUBLE_ELIMINATION = FormatKey.DOUBLE_ELIMINATION.value, _("Double elimination")
    GROUPS_PLAYOFF = FormatKey.GROUPS_PLAYOFF.value, _("Groups then playoff")
    HEATS = FormatKey.HEATS.value, _("Free-for-all heats")


class SeriesPhase(models.TextChoices):
    """What part of its stage a series belongs to (the formats' ``Phase``)."""

    ROUND_ROBIN = Phase.ROUND_ROBIN.value, _("Round robin")
    SWISS = Phase.SWISS.value, _("Swiss")
    WINNERS = Phase.WINNERS.value, _("Winners' bracket")
    LOSERS = Phase.LOSERS.value, _("Losers' bracket")
    THIRD_PLACE = Phase.THIRD_PLACE.value, _("Third place")
    GRAND_FINAL = Phase.GRAND_FINAL.value, _("Grand final")
    GRAND_FINAL_RESET = Phase.GRAND_FINAL_RESET.value, _("Grand final reset")
    FINAL = Phase.FINAL.value, _("Final")
    GROUP = Phase.GROUP.value, _("Group")
    HEAT = Phase.HEAT.value, _("Heat")
    REPECHAGE = Phase.REPECHAGE.value, _("Repechage")


class ResultMode(models.TextChoices):
    """Who records a tournament's results at the table (docs/results.md, "Who records results").
    Online games are recorded by the engine in every mode."""

    REFEREES = "referees", _("Referees and organisers only")
    CONFIRM = "confirm", _("Players report, an opponent confirms")
    AUTO = "auto", _("Players report, confirmed by itself unless disputed")


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=160)
    game = models.CharField(_("game"), max_length=16, choices=GAME_KIND_CHOICES)
    rules_profile = models.CharField(
        _("rules profile"), max_length=40, help_text=_("e.g. classic (Snap) or snapszer (Snapszer)")
    )
    rules_options = models.JSONField(_("rule options"), default=dict, blank=True)
    series_format = models.CharField(
        _("series format"), max_length=16, choices=SeriesFormat.choices, default=SeriesFormat.BEST_OF_3
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_tournaments", blank=True, verbose_name=_("referees")
    )
    players = models.ManyToManyField(Player, through="Entry", related_name="tournaments")
    # Players' reports (issue 26, docs/results.md).
    result_mode = models.CharField(
        _("who records results"), max_length=10, choices=ResultMode.choices, default=ResultMode.REFEREES
    )
    auto_confirm_minutes = models.PositiveSmallIntegerField(
        _("minutes before a report confirms itself"), default=15
    )
    # From the round's start: past it with nothing reported, the organisers are told (and, with
    # no_show_at_deadline, both players forfeit). None: no deadline.
    report_deadline_minutes = models.PositiveSmallIntegerField(
        _("minutes to report a series"), null=True, blank=True
    )
    no_show_at_deadline = models.BooleanField(
        _("a series not reported by its deadline is a double no-show"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "name"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player entered in a tournament (seed order, withdrawal)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["seed", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Stage(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(_("name"), max_length=120)
    format = models.CharField(_("format"), max_length=24, choices=StageFormat.choices)
    # Format options, e.g. {"table_size": 4, "double": false, "bye": "win"}.
    options = models.JSONField(default=dict, blank=True)
    # An ordered list of tiebreak names; empty means the format's default chain.
    tiebreaks = models.JSONField(default=list, blank=True)
    # Recorded randomness: the random draw and the coin-flip tiebreak derive from it. Secret until
    # round 1 is published; its SHA-256 (``seed_commitment``) is published from creation
    # (docs/formats.md "Checking a random draw").
    seed = models.CharField(max_length=64)
    # SHA-256 hex of ``seed`` (tournaments.competitions.series.fold.seed_commitment); empty for a stage created before
    # draws could be verified (migration 0019): its draw predates verification.
    seed_commitment = models.CharField(max_length=64, blank=True, default="")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETUP)
    # Raised (under select_for_update) by every confirmed result or correction in this stage.
    results_version = models.PositiveIntegerField(default=0)
    # The results_version the stored standings were computed from.
    standings_version = models.PositiveIntegerField(default=0)
    standings_computed_at = models.DateTimeField(null=True, blank=True)
    # The results_version the last stage task (stages.stage_advance) read under the row lock: while
    # it is the current one, a result's stage task has nothing new to do (coalescing).
    advanced_version = models.PositiveIntegerField(default=0, editable=False)
    # A stage task / a standings task has been sent and has not started yet: a result sends another
    # only when not (set under the row lock with the result, cleared by the task when it starts).
    advance_pending = models.BooleanField(default=False, editable=False)
    standings_pending = models.BooleanField(default=False, editable=False)
    # Its series are played online (games/online/series.py): seated players get "Play".
    online_play = models.BooleanField(_("played online"), default=False)

    class Publishing(models.TextChoices):
        AUTOMATIC = "automatic", _("Automatically, as soon as a round is due")
        REVIEW = "review", _("After the organiser has reviewed it")

    # How the rounds after the first are published (the first always by the organiser).
    publishing = models.CharField(
        _("publishing"), max_length=12, choices=Publishing.choices, default=Publishing.AUTOMATIC
    )
    # The stage's entrants (player ids) in the order handed to its seeding (entry list, rating, an
    # earlier stage's standings), fixed when its first round is published.
    entrants = models.JSONField(default=list, blank=True)
    # The seeding order (player ids, seed 1 first), fixed when its first round is published: for a
    # random seeding the draw of ``draw_entrants`` by ``seed``. Read as is from then on.
    seeding = models.JSONField(default=list, blank=True)
    # The tournament's players the organiser chose for the stage; empty: all of them (those entered
    # later too, until round 1 is published).
    players = models.JSONField(default=list, blank=True)
    # Seeded from an earlier stage's standings: its top ``seeded_take`` players (all when empty).
    seeded_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seeded_stages",
        verbose_name=_("seeded from"),
    )
    seeded_take = models.PositiveSmallIntegerField(_("players taken"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.CheckConstraint(
                condition=Q(standings_version__lte=models.F("results_version")),
                name="standings_not_ahead_of_results",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.name}"

    @property
    def standings_stale(self) -> bool:
        return self.standings_version < self.results_version

    @property
    def drawn(self) -> bool:
        """Is its seeding order fixed (round 1 published)?"""
        return bool(self.seeding)

    @property
    def seed_revealed(self) -> str | None:
        """The seed once round 1 is published, for a stage that committed to it; else None."""
        return self.seed if self.seed_commitment and self.drawn else None

    @property
    def draw_entrants(self) -> list[int]:
        """The draw's input: ``entrants`` in their order, only those drawn into round 1."""
        drawn = set(self.seeding)
        return [p for p in self.entrants if p in drawn]


class Round(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)
    # Two-seat round robin with an odd count: the player who sits out (scored per the stage's bye rule).
    bye = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # The round as its format planned it (formats.stored.rounds_to_json of this one round): published
    # pairings never change, and the stage state is read back from it.
    plan = models.JSONField(default=dict, blank=True)
    # The decided series the round was generated from (key -> placings): a correction that changes
    # one of them flags the round's series (``Series.flagged``).
    inputs = models.JSONField(default=dict, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # The sitting it is played in (tournaments/nights/); ``starts_at`` is then its start time.
    session = models.ForeignKey(
        "Session",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rounds",
        verbose_name=_("session"),
    )

    class Meta:
        ordering = ["stage", "number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Series(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        PLAYING = "playing", _("Playing")
        DECIDED = "decided", _("Decided")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="series")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="series")
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    format = models.CharField(max_length=16, choices=SeriesFormat.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    # The coin flip of S42 comes from this seed; its hash is published when the series starts.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    # {"player id": placing} once decided (S43). A player who forfeited has no placing.
    placings = models.JSONField(default=dict, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # Where the series stands in its format: its stable key ("R3-2", "W2-1", "L4-1", "GF1" …), phase,
    # the round of that phase, its group, how many of its players go on (top k; 0 = nobody by this
    # series alone), its number of seats (a bracket seat may be empty: a bye).
    key = models.CharField(max_length=24)
    phase = models.CharField(max_length=20, choices=SeriesPhase.choices, default=SeriesPhase.ROUND_ROBIN)
    phase_round = models.PositiveSmallIntegerField(default=1)
    group = models.CharField(max_length=8, blank=True)
    advance = models.PositiveSmallIntegerField(default=0)
    seat_count = models.PositiveSmallIntegerField(default=2)
    # Not played: its players are no more than those who go on (a bye in a bracket).
    walkover = models.BooleanField(_("walkover"), default=False)
    # A correction changed a result this series was paired from (rules: later rounds are flagged).
    flagged = models.BooleanField(_("flagged"), default=False)
    # Where it is played in the room (assigned in table order when its round is scheduled; the
    # organiser can change it). None: no stations set up, the table number stands.
    station = models.ForeignKey(
        "Station",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="series",
        verbose_name=_("station"),
    )

    class Meta:
        ordering = ["round", "table"]
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="series_table_unique_in_round"),
            models.UniqueConstraint(fields=["stage", "key"], name="series_key_unique_in_stage"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · " + _("table %(table)s") % {"table": self.table}

    @property
    def seats_in_order(self) -> list[SeriesSeat | None]:
        """Every seat by its index, ``seat_count`` of them, None for an empty one (a bye, or nobody
        through yet): the one shape of seats the API, the exports and the webhooks give
        (docs/formats.md, "Empty seats"). Reads ``seats.all()``: prefetch it for many series."""
        seats: list[SeriesSeat | None] = [None] * self.seat_count
        for seat in self.seats.all():
            if seat.seat < len(seats):
                seats[seat.seat] = seat
        return seats


class SeriesSeat(models.Model):
    """A player's seat in a series; seat 0 deals first in tournament play (rules/tournaments.md)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["series", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["series", "seat"], name="seat_unique_in_series"),
            models.UniqueConstraint(fields=["series", "player"], name="player_once_per_series"),
        ]

    def __str__(self) -> str:
        return f"{self.series}: seat {self.seat}"


class BracketSlot(models.Model):
    """Where the player finishing ``place``-th in ``series`` goes: seat ``to_seat`` of the series
    keyed ``to_key`` in the same stage (published when its round is due). In a double elimination
    the winner goes on in the winners' bracket and the loser drops into the losers' bracket."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="slots")
    place = models.PositiveSmallIntegerField()
    to_key = models.CharField(max_length=24)
    to_seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["series", "place"]
        constraints = [models.UniqueConstraint(fields=["series", "place"], name="slot_place_unique")]

    def __str__(self) -> str:
        return f"{self.series.key} #{self.place} → {self.to_key}:{self.to_seat}"


class Withdrawal(models.Model):
    """A player withdrawn from a stage: not seated from round ``from_round`` on. Their published
    series without a result are walkovers for the others (docs/formats.md)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="withdrawals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="withdrawals")
    from_round = models.PositiveSmallIntegerField(_("from round"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "from_round", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="withdrawal_once_per_stage"),
            models.CheckConstraint(condition=Q(from_round__gte=1), name="withdrawal_from_round_1"),
        ]

    def __str__(self) -> str:
        return f"{self.player} withdrawn from round {self.from_round} of {self.stage}"


class Forfeit(models.Model):
    """A player who did not come to a series (a no-show): placed below everyone who played; the
    series is decided for the others when they are no more than those who go on."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="forfeits")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="forfeits")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The session whose check-in close recorded it (a no-show); reopening check-in withdraws it.
    session = models.ForeignKey(
        "Session", null=True, blank=True, on_delete=models.SET_NULL, related_name="no_shows"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="forfeit_once_per_series"),
        ]

    def __str__(self) -> str:
        return f"{self.player} forfeits {self.series}"


class StandingRow(models.Model):
    """One row of a stage's stored standings (a group is a Snap table; 0 for two-seat stages)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="standing_rows")
    group = models.PositiveSmallIntegerField(default=0)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    # Every tiebreak value that ordered this row, by tiebreak name.
    values = models.JSONField(default=dict)
    # The first tiebreak that separated this row from the one above (empty for the first row).
    separated_by = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["stage", "group", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "group", "player"], name="standing_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} #{self.position}: {self.player}"


class RegistrationWindow(models.Model):
    """A tournament open for sign-ups (docs/tournaments.md, "Registration"): when, how many places,
    whether a waiting list takes the rest, whether an organiser approves each sign-up, and an
    optional question every person answers."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="registration_window"
    )
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    cap = models.PositiveIntegerField(_("places"), null=True, blank=True)  # None: no limit
    waiting_list = models.BooleanField(_("waiting list"), default=True)
    approval = models.BooleanField(_("an organiser approves each sign-up"), default=False)
    question = models.CharField(_("question"), max_length=200, blank=True)

    def __str__(self) -> str:
        return f"registration of {self.tournament}"


class Registration(models.Model):
    """A person's sign-up for a tournament. Accepted: entered (``player`` is their player of the
    club, an entrant of the tournament); waiting: in line for a place, first come first served;
    pending: waiting for an organiser's approval. One active sign-up per person and tournament."""

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("Registered")
        WAITING = "waiting", _("On the waiting list")
        PENDING = "pending", _("Waiting for approval")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    ACTIVE: Final = ("accepted", "waiting", "pending")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices)
    answer = models.CharField(_("answer"), max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(status__in=["accepted", "waiting", "pending"]),
                name="registration_active_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} for {self.tournament} ({self.status})"
