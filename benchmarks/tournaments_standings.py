"""How long a stage's standings recompute takes (the Celery task's pure part).

Usage: PYTHONPATH=. .venv/bin/python benchmarks/tournaments_standings.py [players ...]
Builds a complete double round robin of best-of-3 Snap series with seeded random results, then
times round_robin_standings (median of 5) and series_status per series.
"""

import random
import statistics
import sys
import time

from tqdm import tqdm

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import round_robin_schedule
from tournaments.competitions.series.fold import series_status
from tournaments.competitions.series.values import BEST_OF_3, GameOutcome
from tournaments.competitions.standings.chain import SeriesRecord
from tournaments.competitions.standings.stage import round_robin_standings


def stage(n: int, rng: random.Random) -> tuple[list[str], list[SeriesRecord], list[str]]:
    players = [f"p{i}" for i in range(n)]
    records: list[SeriesRecord] = []
    byes: list[str] = []
    for rnd in round_robin_schedule(players, double=True):
        if rnd.bye is not None:
            byes.append(str(rnd.bye))
        for pairing in rnd.pairings:
            games: list[GameOutcome] = []
            wins = [0, 0]
            while max(wins) < 2:
                winner = rng.randrange(2)
                wins[winner] += 1
                games.append(GameOutcome((1, 2) if winner == 0 else (2, 1)))
            records.append(SeriesRecord(pairing.seats, BEST_OF_3, tuple(games)))
    return players, records, byes


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [16, 64, 128]
    for n in tqdm(sizes, desc="stages"):
        players, records, byes = stage(n, random.Random(n))
        times = []
        for _ in range(5):
            start = time.perf_counter()
            round_robin_standings(players, records, game=GameKind.SNAP, stage_seed="bench", byes=byes)
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for record in records:
            series_status(record.length, 2, record.games)
        per_series = (time.perf_counter() - start) / len(records)
        tqdm.write(
            f"{n} players, {len(records)} series: standings {statistics.median(times) * 1000:.1f} ms "
            f"(median of 5); series_status {per_series * 1e6:.1f} us per series"
        )


if __name__ == "__main__":
    main()
