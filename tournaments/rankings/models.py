"""Rankings: ratings (a player's current rating, its history, a club's recomputation stamp),
seasons and their tournaments, ladders, their rungs and challenges (docs/ratings.md,
docs/seasons.md, docs/ladder.md). Loaded by ``tournaments/models.py``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, Player
from tournaments.competitions.models import GAME_KIND_CHOICES, Tournament


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
