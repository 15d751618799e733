"""Standings of a whole Swiss stage from its rows, against a raw SQL aggregate of the same rows.

Usage (PostgreSQL, as CI; the database is created by the role and dropped after):
    DATABASE_URL=postgres://snapleague@127.0.0.1:5432/snapleague_bench \\
        PYTHONPATH=. .venv/bin/python benchmarks/stage_standings_db.py [players ...]
Without DATABASE_URL it runs on a SQLite file under var/.

For each size (default 64, 256, 1024) it builds, through the stage services, a Snapszer Swiss stage
of ``rounds`` rounds (default 9; fewer when the field cannot play that many): the Swiss format pairs
every round; each series gets two confirmed game results (2-0, winner drawn from a seeded
``random.Random``), written as the result service writes them. Then it times, median of 5:
- the standings recompute's work: ``outcomes.stage_standings`` (read the rows, fold every series,
  rank by the Swiss tiebreaks: series won, median Buchholz, Buchholz, Sonneborn-Berger, …);
- a raw SQL aggregate of the same rows (seats ⋈ series ⋈ games ⋈ confirmed results, grouped by
  player): the floor any standings must pay to read them.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")  # the stage tasks run here, not on a broker
if "DATABASE_URL" not in os.environ:
    (ROOT / "var").mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'var' / 'bench-standings.sqlite3'}"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from tqdm import tqdm  # noqa: E402

from tournaments.competitions import outcomes  # noqa: E402
from tournaments.competitions.formats.swiss import most_rounds  # noqa: E402
from tournaments.competitions.results.values import SnapszerMatchResult  # noqa: E402
from tournaments.competitions.services import tournament_create, tournament_players_enter  # noqa: E402
from tournaments.competitions.stages.advance import stage_advance  # noqa: E402
from tournaments.competitions.stages.create import stage_create  # noqa: E402
from tournaments.competitions.stages.publish import stage_round_publish  # noqa: E402
from tournaments.models import Club, Game, GameKind, GameResult, Series, Stage  # noqa: E402

RAW_SQL = """
SELECT seat.player_id, COUNT(DISTINCT s.id), COUNT(r.id)
FROM tournaments_seriesseat seat
JOIN tournaments_series s ON s.id = seat.series_id
JOIN tournaments_game g ON g.series_id = s.id
JOIN tournaments_gameresult r ON r.game_id = g.id AND r.confirmed
WHERE s.stage_id = %s
GROUP BY seat.player_id
"""


def build(n: int, rounds: int, rng: random.Random) -> Stage:
    """A finished Swiss of ``n`` players and ``rounds`` rounds, played through the stage services."""
    user_model = get_user_model()
    organiser, _ = user_model.objects.get_or_create(username="bench-organiser")
    club = Club.objects.create(name=f"Bench {n}", slug=f"bench-{n}-{secrets.token_hex(3)}")
    club.organisers.add(organiser)
    tournament = tournament_create(user=organiser, club=club, name=f"Swiss {n}", game=GameKind.SNAPSZER)
    tournament_players_enter(user=organiser, tournament=tournament, new_names=[f"P{i:04d}" for i in range(n)])
    stage = stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": rounds}
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    for _ in tqdm(range(rounds), desc=f"{n} players: rounds", leave=False):
        with transaction.atomic():
            pending = list(
                Series.objects.filter(stage=stage, status=Series.Status.PENDING).prefetch_related("seats")
            )
            games, results = [], []
            for series in pending:
                a, b = (s.player_id for s in sorted(series.seats.all(), key=lambda s: s.seat))
                winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
                value = SnapszerMatchResult(players=(a, b), games=((7, 3),) if winner == a else ((3, 7),))
                for number in (1, 2):
                    game = Game(series=series, number=number, seats=[0, 1])
                    games.append(game)
                    results.append((game, value))
                series.placings = {str(winner): 1, str(loser): 2}
                series.status = Series.Status.DECIDED
                series.decided_at = timezone.now()
            Game.objects.bulk_create(games)
            GameResult.objects.bulk_create(
                GameResult(game=game, version=1, confirmed=True, data=value.to_json(), source="referee")
                for game, value in results
            )
            Series.objects.bulk_update(pending, ["placings", "status", "decided_at"])
            Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
            stage.refresh_from_db()
        stage_advance(stage_id=stage.pk)
    stage.refresh_from_db()
    return stage


def timed(work: object) -> float:
    """Median wall time of 5 runs (the database server's work included)."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu(work: object) -> float:
    """Median CPU time of this process over 5 runs: what the recompute costs here, less sensitive to
    other load on the machine than wall time (the database server's work is not in it)."""
    times = []
    for _ in range(5):
        start = time.process_time()
        work()  # type: ignore[operator]
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [64, 256, 1024]
    call_command("migrate", verbosity=0)
    rng = random.Random(2026)
    rows = []
    for n in tqdm(sizes, desc="stages"):
        rounds = min(9, most_rounds(n))
        stage = build(n, rounds, rng)
        series = Series.objects.filter(stage=stage).count()
        results = GameResult.objects.filter(game__series__stage=stage).count()
        standings = timed(lambda stage=stage: outcomes.stage_standings(stage))
        standings_cpu = cpu(lambda stage=stage: outcomes.stage_standings(stage))

        def raw(stage_id: int = stage.pk) -> None:
            with connection.cursor() as cursor:
                cursor.execute(RAW_SQL, [stage_id])
                cursor.fetchall()

        sql = timed(raw)
        rows.append((n, rounds, series, results, standings, standings_cpu, sql))
        tqdm.write(
            f"{n} players, {rounds} rounds, {series} series, {results} results: standings {standings * 1000:.0f} ms "
            f"({standings_cpu * 1000:.0f} ms CPU), raw SQL {sql * 1000:.1f} ms, ratio {standings / sql:.1f}×"
        )
    print(f"\n{connection.vendor}")
    print("| players | rounds | series | results | standings (wall) | standings (CPU) | raw SQL | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, rounds, series, results, standings, standings_cpu, sql in rows:
        print(
            f"| {n} | {rounds} | {series} | {results} | {standings * 1000:.0f} ms | {standings_cpu * 1000:.0f} ms "
            f"| {sql * 1000:.1f} ms | {standings / sql:.1f}× |"
        )
    for (n1, *_a, t1, _c1, _s1), (n2, *_b, t2, _c2, _s2) in itertools.pairwise(rows):
        print(
            f"growth {n1}→{n2}: time ×{t2 / t1:.2f} for players ×{n2 / n1:.0f} (exponent {math.log(t2 / t1) / math.log(n2 / n1):.2f})"
        )


if __name__ == "__main__":
    main()
