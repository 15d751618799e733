"""A club's ratings recomputed from its whole history: read, compute, store.

Usage (PostgreSQL, as CI; the database is created by the role and dropped after):
    DATABASE_URL=postgres://snapleague@127.0.0.1:5432/snapleague_bench \\
        PYTHONPATH=. .venv/bin/python benchmarks/club_ratings.py [players] [matches]
Without DATABASE_URL it runs on a SQLite file under var/.

Builds one club of ``players`` (default 200) with ``matches`` (default 2,000) decided Snapszer series
(two confirmed games each, winner drawn from a seeded ``random.Random`` weighted by a hidden
strength) over club days of one round each, and ``matches`` Snap games at four-player tables (a
series of four games per table), rows written in bulk as the result service writes them. Then it
times, median of 3 (wall and this process's CPU):
- reading the club's history (``club_encounters``),
- the pure computation (``snapszer_history``, ``snap_history``),
- the whole recomputation as the Celery task does it (``club_ratings_recompute``: read, compute,
  replace the stored ratings and rating points, stamp).
"""

from __future__ import annotations

import os
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
if "DATABASE_URL" not in os.environ:
    (ROOT / "var").mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'var' / 'bench-ratings.sqlite3'}"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from tournaments.competitions.results.values import SnapEnding, SnapszerMatchResult, SnapTableResult  # noqa: E402
from tournaments.models import (  # noqa: E402
    Club,
    ClubRatings,
    Game,
    GameKind,
    GameResult,
    Player,
    RatingPoint,
    Round,
    Series,
    SeriesSeat,
    Stage,
    Tournament,
)
from tournaments.rankings.ratings.history import snap_history, snapszer_history  # noqa: E402
from tournaments.rankings.ratings.services import club_encounters, club_ratings_recompute  # noqa: E402

START = datetime(2026, 1, 8, 19, 0, tzinfo=UTC)


def _stage(tournament: Tournament, order: int) -> Stage:
    return Stage.objects.create(
        tournament=tournament,
        order=order,
        name=f"Day {order}",
        format="round_robin",
        seed=secrets.token_hex(8),
    )


@transaction.atomic
def build(n_players: int, matches: int, rng: random.Random) -> Club:
    club = Club.objects.create(
        name=f"Bench ratings {n_players}", slug=f"bench-ratings-{secrets.token_hex(3)}"
    )
    players = Player.objects.bulk_create(Player(club=club, name=f"P{i:04d}") for i in range(n_players))
    strength = {p.pk: rng.gauss(0, 1) for p in players}
    ids = [p.pk for p in players]

    def beats(a: int, b: int) -> bool:
        return rng.random() < 1 / (1 + 10 ** ((strength[b] - strength[a]) / 2))

    # Snapszer: club days of one round, every player in one series a day.
    snapszer = Tournament.objects.create(
        club=club, name="Snapszer", game=GameKind.SNAPSZER, rules_profile="snapszer"
    )
    per_day = n_players // 2
    made = 0
    day = 0
    while made < matches:
        stage = _stage(snapszer, day + 1)
        round_ = Round.objects.create(stage=stage, number=1, published_at=START + timedelta(days=7 * day))
        order = ids[:]
        rng.shuffle(order)
        series_rows, pairs = [], []
        for table in range(min(per_day, matches - made)):
            a, b = order[2 * table], order[2 * table + 1]
            winner, loser = (a, b) if beats(a, b) else (b, a)
            seed = secrets.token_hex(8)
            series_rows.append(
                Series(
                    stage=stage,
                    round=round_,
                    table=table + 1,
                    key=f"R1-{table + 1}",
                    format="best_of_3",
                    status=Series.Status.DECIDED,
                    seed=seed,
                    seed_hash=seed,
                    placings={str(winner): 1, str(loser): 2},
                    decided_at=round_.published_at,
                )
            )
            pairs.append((a, b, winner))
        Series.objects.bulk_create(series_rows)
        SeriesSeat.objects.bulk_create(
            SeriesSeat(series=s, player_id=p, seat=i)
            for s, (a, b, _w) in zip(series_rows, pairs, strict=True)
            for i, p in enumerate((a, b))
        )
        games = [Game(series=s, number=k, seats=[0, 1]) for s in series_rows for k in (1, 2)]
        Game.objects.bulk_create(games)
        results = []
        for game, (a, b, winner) in zip(games, [p for p in pairs for _ in (1, 2)], strict=True):
            value = SnapszerMatchResult(players=(a, b), games=((7, 3),) if winner == a else ((3, 7),))
            results.append(GameResult(game=game, version=1, data=value.to_json(), source="referee"))
        GameResult.objects.bulk_create(results)
        Stage.objects.filter(pk=stage.pk).update(results_version=1)
        made += len(series_rows)
        day += 1

    # Snap: tables of four, four games a series, a day a round.
    snap = Tournament.objects.create(club=club, name="Snap", game=GameKind.SNAP, rules_profile="classic")
    made = 0
    day = 0
    while made < matches:
        stage = _stage(snap, day + 1)
        round_ = Round.objects.create(
            stage=stage, number=1, published_at=START + timedelta(days=7 * day, hours=2)
        )
        order = ids[:]
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, n_players - 3, 4)]
        tables = tables[: max(1, (matches - made + 3) // 4)]
        series_rows = []
        for t, _seated in enumerate(tables, start=1):
            seed = secrets.token_hex(8)
            series_rows.append(
                Series(
                    stage=stage,
                    round=round_,
                    table=t,
                    key=f"R1-{t}",
                    format="best_of_3",
                    seat_count=4,
                    status=Series.Status.PLAYING,
                    seed=seed,
                    seed_hash=seed,
                )
            )
        Series.objects.bulk_create(series_rows)
        games, values = [], []
        for series, seated in zip(series_rows, tables, strict=True):
            for k in range(1, 5):
                if made >= matches:
                    break
                # Out first: the weakest, with noise.
                out = sorted(seated, key=lambda p: strength[p] + rng.gauss(0, 1))
                games.append(Game(series=series, number=k, seats=[0, 1, 2, 3]))
                values.append(
                    SnapTableResult(
                        players=tuple(seated),
                        ending=SnapEnding.LAST_PLAYER_STANDING,
                        eliminated=tuple((p,) for p in out[:-1]),
                    )
                )
                made += 1
        Game.objects.bulk_create(games)
        GameResult.objects.bulk_create(
            GameResult(game=g, version=1, data=v.to_json(), source="referee")
            for g, v in zip(games, values, strict=True)
        )
        Stage.objects.filter(pk=stage.pk).update(results_version=1)
        day += 1
    return club


def median_times(
    work: Callable[[], object], before: Callable[[], object] = lambda: None
) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(3):
        before()
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    call_command("migrate", verbosity=0)
    club = build(n_players, matches, random.Random(2026))
    encounters = club_encounters(club_id=club.pk)
    print(
        f"{connection.vendor}: {n_players} players, {len(encounters[GameKind.SNAPSZER])} Snapszer series, "
        f"{len(encounters[GameKind.SNAP])} Snap games"
    )
    rows = [
        ("read the history", median_times(lambda: club_encounters(club_id=club.pk))),
        ("Glicko-2 (Snapszer)", median_times(lambda: snapszer_history(encounters[GameKind.SNAPSZER]))),
        ("OpenSkill (Snap)", median_times(lambda: snap_history(encounters[GameKind.SNAP]))),
        (
            "whole recomputation, stored",
            median_times(
                lambda: club_ratings_recompute(club_id=club.pk),
                before=lambda: ClubRatings.objects.filter(club=club).update(versions={}),
            ),
        ),
    ]
    points = RatingPoint.objects.filter(club=club).count()
    print(f"rating points stored: {points}")
    print("| step | wall | CPU (this process) |")
    print("|---|---:|---:|")
    for name, (wall, cpu) in rows:
        print(f"| {name} | {wall * 1000:.0f} ms | {cpu * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
