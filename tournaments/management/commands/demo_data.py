"""Load the demo club: players, a Snap league and a Snapszer league with some results in, a club
night of the Snapszer league tonight (its tables, rounds and check-ins) and next week, and a season.

Idempotent: when the demo club exists nothing changes. ``--reset`` throws it away and loads it
afresh. ``--accounts`` only prints the demo accounts. Results go through the same service a
referee uses, so the demo exercises the real path (standings are computed by the worker).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from snapleague.users import Account
from tournaments.clubs.services import club_create
from tournaments.competitions.registration import registration_window_set
from tournaments.competitions.results.reporting import report_submit, tournament_result_mode_set
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.results.services import UserSource, result_record
from tournaments.competitions.services import (
    stage_rounds_generate,
    tournament_create,
    tournament_players_add,
    tournament_referee_add,
)
from tournaments.competitions.stages.advance import stage_advance
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import (
    Club,
    GameKind,
    Player,
    ResultMode,
    Round,
    Series,
    SeriesFormat,
    StageFormat,
    Tournament,
)
from tournaments.nights import checkin as session_checkin
from tournaments.nights import services as session_services
from tournaments.rankings.seasons.services import season_create

DEMO_SLUG = "demo"
ACCOUNTS = [  # (username, password, role)
    ("organiser", "organiser-demo", "organiser of the demo club (also /admin/)"),
    ("referee", "referee-demo", "referee of both demo leagues"),
    ("anna", "player-demo", "player (Anna)"),
    ("bence", "player-demo", "player (Bence)"),
    ("csilla", "player-demo", "player (Csilla)"),
    ("daniel", "player-demo", "player (Dániel)"),
]
PLAYER_NAMES = [
    "Anna",
    "Bence",
    "Csilla",
    "Dániel",
    "Eszter",
    "Ferenc",
    "Gabi",
    "Hanna",
    "István",
    "Judit",
    "Kata",
    "László",
]


class Command(BaseCommand):
    help = "Load the demo club (idempotent); --reset to start over, --accounts to print the accounts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete the demo club and load it again")
        parser.add_argument("--accounts", action="store_true", help="only print the demo accounts")
        parser.add_argument("--seed", type=int, default=2026, help="seed for the demo results")

    def handle(self, *args: Any, reset: bool, accounts: bool, seed: int, **options: Any) -> None:
        if accounts:
            self._print_accounts()
            return
        if reset:
            self._delete()
        self._verify_emails()
        if Club.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("Demo data already loaded (bin/run --reset starts over).")
            return
        self._load(random.Random(seed))
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))

    def _print_accounts(self) -> None:
        from django.conf import settings

        db = settings.DATABASES["default"]
        self.stdout.write(f"  Database: {db['ENGINE'].rsplit('.', 1)[-1]} {db['NAME']}")
        self.stdout.write(f"  Broker:   {settings.CELERY_BROKER_URL.split('@')[-1]}")
        self.stdout.write("  Demo accounts (username / password):")
        for username, password, role in ACCOUNTS:
            self.stdout.write(f"    {username:<10} / {password:<15} {role}")

    def _verify_emails(self) -> None:
        """Each demo account has a confirmed address (name@example.org), so it logs in by name or
        by address like any signed-up account (docs/accounts.md)."""
        from allauth.account.models import EmailAddress

        for user in get_user_model().objects.filter(username__in=[name for name, _p, _r in ACCOUNTS]):
            address = f"{user.username}@example.org"
            if not user.email:
                user.email = address
                user.save(update_fields=["email"])
            EmailAddress.objects.update_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )

    @transaction.atomic
    def _delete(self) -> None:
        club = Club.objects.filter(slug=DEMO_SLUG).first()
        if club is None:
            return
        for tournament in club.tournaments.all():
            tournament.delete()
        club.players.all().delete()
        club.delete()

    def _load(self, rng: random.Random) -> None:
        users = get_user_model().objects
        people = {}
        for username, password, _role in ACCOUNTS:
            user, _ = users.get_or_create(username=username)
            user.set_password(password)
            user.is_staff = username == "organiser"  # organisers use the admin for their club
            user.save()
            people[username] = user
        self._verify_emails()
        organiser, referee = people["organiser"], people["referee"]
        with transaction.atomic():
            club = club_create(user=organiser, name="Demo Card Club", slug=DEMO_SLUG)
            players = [Player.objects.create(club=club, name=name) for name in PLAYER_NAMES]
            for player, username in zip(players, ["anna", "bence", "csilla", "daniel"], strict=False):
                player.user = people[username]
                player.save(update_fields=["user"])

        snap = tournament_create(
            user=organiser,
            club=club,
            name="Thursday Snap League",
            game=GameKind.SNAP,
            series_format=SeriesFormat.BEST_OF_3,
        )
        snapszer = tournament_create(
            user=organiser,
            club=club,
            name="Snapszer League",
            game=GameKind.SNAPSZER,
            series_format=SeriesFormat.BEST_OF_3,
        )
        for tournament, entrants, options in (
            (snap, players, {"table_size": 4}),
            (snapszer, players[:8], {}),
        ):
            tournament_players_add(user=organiser, tournament=tournament, players=entrants)
            tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
            stage = stage_create(
                user=organiser,
                tournament=tournament,
                name="League",
                format=StageFormat.ROUND_ROBIN,
                options=options,
            )
            stage_rounds_generate(user=organiser, stage_id=stage.pk)

        # Some results in, some series open: two of three Snap tables finished, the third one game in;
        # the first half of the Snapszer rounds played.
        snap_tables = list(Series.objects.filter(stage__tournament=snap).order_by("table"))
        for index, series in enumerate(snap_tables):
            self._play(series, referee, rng, games=1 if index == len(snap_tables) - 1 else None)
        snapszer_series = list(
            Series.objects.filter(stage__tournament=snapszer).order_by("round__number", "table")
        )
        for series in snapszer_series[: len(snapszer_series) // 2]:
            self._play(series, referee, rng)

        # A Snapszer knockout with a losers' bracket (three rounds played) and a Snap Swiss by tables
        # (its first round played): the bracket page and the Swiss round pages have something to show.
        cup = tournament_create(user=organiser, club=club, name="Snapszer Winter Cup", game=GameKind.SNAPSZER)
        swiss = tournament_create(user=organiser, club=club, name="Snap Swiss Night", game=GameKind.SNAP)
        for tournament, entrants, name, format, options, rounds in (
            (cup, players[:8], "Knockout", StageFormat.DOUBLE_ELIMINATION, {"seeding": "manual"}, 3),
            (swiss, players, "Swiss", StageFormat.SWISS_TABLES, {"table_size": 4, "rounds": 3}, 1),
        ):
            tournament_players_add(user=organiser, tournament=tournament, players=entrants)
            tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
            stage = stage_create(
                user=organiser, tournament=tournament, name=name, format=format, options=options
            )
            stage_round_publish(user=organiser, stage_id=stage.pk)
            for _ in range(rounds):
                for series in Series.objects.filter(stage=stage, status=Series.Status.PENDING):
                    self._play(series, referee, rng)
                stage_advance(stage_id=stage.pk)  # as the stage task does after the last result

        # Open for registration (for a week, 16 places, a waiting list): a newcomer on a fresh
        # bin/run signs up, confirms, and registers for it (docs/tournaments.md, "Registration").
        spring = tournament_create(
            user=organiser, club=club, name="Snapszer Spring Open", game=GameKind.SNAPSZER
        )
        registration_window_set(
            user=organiser,
            tournament=spring,
            opens_at=timezone.now() - timedelta(hours=1),
            closes_at=timezone.now() + timedelta(days=7),
            cap=16,
            waiting_list=True,
        )
        # Its stage waits for the registrations: publishing round 1 (the organiser's "Preview the
        # first round") takes whoever registered, and tells each their table (docs/notifications.md).
        tournament_players_add(user=organiser, tournament=spring, players=players[4:8])
        stage_create(user=organiser, tournament=spring, name="Swiss", format=StageFormat.SWISS)
        self._players_report(organiser, club, players, people)
        self._club_night(organiser, snapszer, players)
        today = timezone.localdate()
        season_create(
            user=organiser,
            club=club,
            name=f"Season {today.year}",
            starts_on=date(today.year, 1, 1),
            ends_on=date(today.year, 12, 31),
        )

    def _players_report(
        self, organiser: Account, club: Club, players: list[Player], people: dict[str, Account]
    ) -> None:
        """A tournament where the players report (docs/results.md, "Who records results"): round 1
        out, Anna's report of her game 1 waiting for her opponent's confirmation, and at the other
        table two reports that disagree (a dispute for the referee's queue)."""
        friday = tournament_create(
            user=organiser, club=club, name="Friday Snapszer (players report)", game=GameKind.SNAPSZER
        )
        tournament_referee_add(user=organiser, tournament=friday, username=people["referee"].username)
        tournament_result_mode_set(user=organiser, tournament=friday, result_mode=ResultMode.CONFIRM)
        tournament_players_add(user=organiser, tournament=friday, players=players[:4])
        stage = stage_create(
            user=organiser, tournament=friday, name="Round robin", format=StageFormat.ROUND_ROBIN
        )
        stage_round_publish(user=organiser, stage_id=stage.pk)
        first_round = Round.objects.get(stage=stage, number=1)
        for series in Series.objects.filter(round=first_round).order_by("table"):
            seated = [seat.player for seat in series.seats.order_by("seat")]
            target = result_target_get(user=organiser, series_id=series.pk, game_number=1)
            # Anna reports at her table (Bence is told to confirm); at the other, both report and disagree.
            a, b = sorted(seated, key=lambda p: p != players[0])
            mine = target.parse({"score": {str(a.pk): 7, str(b.pk): 4}})
            report_submit(user=a.user, series_id=series.pk, game_number=1, result=mine)
            if players[0] not in seated:
                theirs = target.parse({"score": {str(b.pk): 7, str(a.pk): 5}})
                report_submit(user=b.user, series_id=series.pk, game_number=1, result=theirs)

    def _club_night(self, organiser: Account, tournament: Tournament, players: list[Player]) -> None:
        """Tonight's session of the Snapszer league: four named tables, the round being played and
        the next one scheduled, most players checked in (check-in still open); and next week's."""
        now = timezone.localtime()
        start = now.replace(second=0, microsecond=0) + timedelta(minutes=15 - now.minute % 15)
        tonight = session_services.session_create(
            user=organiser, tournament=tournament, name="Club night", starts_at=start, venue="Back room"
        )
        session_services.session_stations_set(
            user=organiser,
            session_id=tonight.pk,
            stations=session_services.parse_stations("1 Window\n2 Fireplace\n3 Bar\n4 Door"),
        )
        rounds = list(Round.objects.filter(stage__tournament=tournament).order_by("number"))
        open_rounds = [r for r in rounds if r.series.exclude(status=Series.Status.DECIDED).exists()]
        for index, round_ in enumerate(open_rounds[:2]):
            session_services.session_round_schedule(
                user=organiser,
                session_id=tonight.pk,
                round_id=round_.pk,
                starts_at=start + timedelta(hours=index),
            )
        for player in players[1:7]:  # Anna (the demo player account) checks in on her own phone
            session_checkin.session_check_in(user=organiser, session_id=tonight.pk, player_id=player.pk)
        next_week = session_services.session_create(
            user=organiser,
            tournament=tournament,
            name="Club night",
            starts_at=start + timedelta(days=7),
            venue="Back room",
        )
        for index, round_ in enumerate(open_rounds[2:]):
            session_services.session_round_schedule(
                user=organiser,
                session_id=next_week.pk,
                round_id=round_.pk,
                starts_at=start + timedelta(days=7, hours=index),
            )

    def _play(self, series: Series, referee: Account, rng: random.Random, games: int | None = None) -> None:
        number = 0
        while series.status != Series.Status.DECIDED and (games is None or number < games):
            number += 1
            # As the referee's form does: the result is read against the game's table, then recorded.
            target = result_target_get(user=referee, series_id=series.pk, game_number=number)
            order = list(target.table.players)
            rng.shuffle(order)
            if series.stage.tournament.game == GameKind.SNAP:
                payload: dict[str, Any] = {"ending": "last_player_standing", "eliminated": order[1:]}
            else:
                payload = {"score": {str(order[0]): 7, str(order[1]): rng.randint(0, 6)}}
            result_record(
                source=UserSource(referee),
                series_id=series.pk,
                game_number=number,
                result=target.parse(payload),
                client_key=f"demo-{series.pk}-{number}",
            )
            series.refresh_from_db()
