"""Clubs, players, tournaments, stages, rounds, series, games and their result versions.

Fields, constraints and tiny properties only: every workflow is in ``services.py``. The models
leave room for every format of rules/tournaments.md; the services build round robin today.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The engines' own GameKind (a pure StrEnum); other modules import it from here too.
from games.engine.protocol import GameKind
from tournaments.accounts.models import AccountProfile, OutgoingMail  # noqa: F401  (registered with the app)
from tournaments.competitions.formats.base import FormatKey, Phase
from tournaments.competitions.results.values import ResultValue, result_from_json

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
    # SHA-256 hex of ``seed`` (tournaments.competitions.series.seed_commitment); empty for a stage created before
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
    # The round as its format planned it (formats.base.rounds_to_json of this one round): published
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


class PlayerRating(models.Model):
    """A player's current rating in one game of their club (docs/ratings.md): Glicko-2 for
    Snapszer (``mu`` the rating, ``sigma`` its deviation RD, ``volatility``), OpenSkill for Snap
    (``mu``, ``sigma``). ``value`` is what tables show and seeding sorts by. Rewritten whole by
    every recomputation (``tournaments/rankings/ratings/services.py``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=16, choices=GAME_KIND_CHOICES)
    value = models.FloatField(_("rating"))
    mu = models.FloatField()
    sigma = models.FloatField()
    volatility = models.FloatField(null=True, blank=True)
    played = models.PositiveIntegerField(_("rated games"), default=0)

    class Meta:
        ordering = ["club", "game", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_player_and_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.value:.1f}"


class RatingPoint(models.Model):
    """A player's rating after one rating period (Snapszer: a club day) or one game (Snap), with
    what moved it: ``moves`` lists {"series", "game", "challenge", "opponents", "placing",
    "players"} (a ladder match: "challenge" is its id and "series" is None)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    game = models.CharField(max_length=16, choices=GAME_KIND_CHOICES)
    seq = models.PositiveIntegerField()
    period = models.CharField(max_length=10)  # the club day, YYYY-MM-DD
    value = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    delta = models.FloatField()
    moves = models.JSONField(default=list)

    class Meta:
        ordering = ["player", "game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game", "seq"], name="rating_point_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game} #{self.seq}"


class ClubRatings(models.Model):
    """What a club's stored ratings were computed from: every stage's and every ladder's
    ``results_version`` at the time ({"stage id": version, "ladder:<id>": version}). The ratings
    are stale while it differs from the versions now."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True, related_name="rating_stamp")
    versions = models.JSONField(default=dict)
    computed_at = models.DateTimeField(null=True, blank=True)
    # Raised by every request for a recomputation; a task sent with an older number returns at once
    # (ratings/services.py, club_ratings_ticket).
    requested = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        verbose_name_plural = _("club ratings")

    def __str__(self) -> str:
        return f"{self.club} ratings"


class AuditEntry(models.Model):
    """Who did what, when, to which tournament's data: result writes and corrections, voids,
    pairings published, withdrawals, no-shows, stage changes, and sign-ins. Append-only; written in
    the same transaction as the change it records (``tournaments/audit.py``)."""

    class Action(models.TextChoices):
        RESULT_RECORDED = "result_recorded", _("Result recorded")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
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


# Outbound webhooks and personal API tokens live beside their services (tournaments/integrations/webhooks/,
# tournaments/integrations/tokens/); this is the app's models module.

# --- Club nights (tournaments/nights/) -----------------------------------------------------------


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


class CalendarToken(models.Model):
    """The secret of a player's private calendar feed (``/calendar/<token>.ics``): a calendar app
    cannot sign in, so the address is the key. Made on first use, replaced to revoke."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="calendar_token")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar of {self.player}"


def default_points_scale() -> list[int]:
    """Season points for 1st, 2nd, … place (tournaments/rankings/seasons/table.py ``DEFAULT_SCALE``)."""
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Season(models.Model):
    """A club's season: its tournaments from ``starts_on`` to ``ends_on`` (by the day a tournament
    starts, or was created when it has no start), less those the organiser excluded, plus those
    they included (``SeasonTournament``); a table of points per final placing (docs/seasons.md)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    # Only this game's tournaments (blank: both games).
    game = models.CharField(_("game"), max_length=16, choices=GAME_KIND_CHOICES, blank=True)
    points_scale = models.JSONField(_("points per place"), default=default_points_scale)
    best_results = models.PositiveSmallIntegerField(
        _("best results counting"), null=True, blank=True, help_text=_("Blank: every result counts.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(best_results__isnull=True) | Q(best_results__gte=1), name="season_best_results_1"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonTournament(models.Model):
    """The organiser's choice for one tournament of the club: in the season (``included``) although
    its date is outside, or out of it although its date is inside. No row: by date."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="choices")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="season_choices")
    included = models.BooleanField()

    class Meta:
        ordering = ["season", "tournament"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="season_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.tournament} {'in' if self.included else 'out'}"


class Ladder(models.Model):
    """A club's ladder for one game (docs/ladder.md): its players in order (``LadderRung``), who
    challenge those up to ``reach`` places above; a challenge is played within ``reply_days`` as a
    best-of-``best_of`` match, or the challenged forfeits. Optionally part of a season."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ladders")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="ladders"
    )
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=16, choices=GAME_KIND_CHOICES)
    reach = models.PositiveSmallIntegerField(_("places a player may challenge above"), default=3)
    reply_days = models.PositiveSmallIntegerField(_("days to play a challenge"), default=7)
    best_of = models.PositiveSmallIntegerField(_("games per match (best of)"), default=3)
    rematch_days = models.PositiveSmallIntegerField(
        _("days before a lost challenge may be repeated"), default=7
    )
    # Raised by every decision the club's ratings count (a played match), under the ladder's row
    # lock and in the decision's transaction: the ratings' stamp reads it beside the stages'
    # ``results_version`` (docs/ratings.md).
    results_version = models.PositiveIntegerField(default=0, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="ladder_name_unique_in_club"),
            models.CheckConstraint(condition=Q(reach__gte=1), name="ladder_reach_1"),
            models.CheckConstraint(condition=Q(reply_days__gte=1), name="ladder_reply_days_1"),
        ]

    def __str__(self) -> str:
        return self.name


class LadderRung(models.Model):
    """A player's place on a ladder (1 = top); the places of a ladder are 1…n without gaps."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ladder_rungs")
    place = models.PositiveIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "place"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "player"], name="ladder_player_once"),
            models.UniqueConstraint(fields=["ladder", "place"], name="ladder_place_once"),
        ]

    def __str__(self) -> str:
        return f"{self.ladder}: {self.place}. {self.player}"


class LadderChallenge(models.Model):
    """One challenge: open (waiting for the challenged), accepted (to be played), then decided
    (a result or a forfeit) or cancelled. ``reports`` holds each player's reported score until
    they agree."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted, to be played")
        DECIDED = "decided", _("decided")
        CANCELLED = "cancelled", _("cancelled")

    class How(models.TextChoices):
        PLAYED = "played", _("played")
        DECLINED = "declined", _("declined: forfeit")
        EXPIRED = "expired", _("not played in time: forfeit")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    how = models.CharField(max_length=12, choices=How.choices, blank=True)
    # Places when the challenge was issued, and the challenger's after it was decided.
    challenger_place = models.PositiveIntegerField()
    challenged_place = models.PositiveIntegerField()
    challenger_won = models.BooleanField(null=True, blank=True)
    challenger_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    challenged_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    reports = models.JSONField(default=dict, blank=True)
    due_at = models.DateTimeField(_("to be played by"))
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "due_at"], name="ladder_challenge_due")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=models.F("challenged")), name="ladder_challenge_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.challenged} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.OPEN, self.Status.ACCEPTED)
