"""How fast the formats pair, and how well (docs/benchmarks.md "Formats").

Usage: PYTHONPATH=. .venv/bin/python benchmarks/formats_pairing.py [--sizes 64 256 1024] [--full]

1. Swiss (two seats): plays rounds 1-4 of a Swiss of n players with seeded random results (a
   tenth of them draws), then times pairing round 5 (CPU time of this process, median of 3: the
   machine is shared, so wall time is noisy), and the slowest round of a 9-round Swiss. The growth
   rate is the exponent k in time ~ n**k between neighbouring sizes. Quality: the checker (tests/tournaments/formats)
   proves the whole stage valid, and the pairing's floaters, seat-rule breaks and sum of squared
   score differences are compared with one maximum-weight matching of the whole field (``--full``:
   also for the largest size, which takes minutes).
2. Swiss tables (Snap, tables of 4, 5 rounds): repeat table-mates against seating each round at
   random, printed and drawn as an SVG bar chart (docs/formats-swiss-tables-repeats.svg).
3. Standings (pure part) of a 1,024-player, 9-round Swiss: stage_standings with the Swiss list.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from games.engine.protocol import GameKind
from tests.tournaments.competitions.formats import checker
from tests.tournaments.competitions.formats.driver import Config, play
from tournaments.competitions.formats import swiss
from tournaments.competitions.formats.base import SeriesResult, StageState
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.formats.stored import rounds_to_json
from tournaments.competitions.series.values import BEST_OF_3
from tournaments.competitions.standings.chain import SeriesRecord
from tournaments.competitions.standings.stage import stage_standings

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "docs" / "formats-swiss-tables-repeats.svg"


def _random_results(state: StageState, rng: random.Random, *, draws: float) -> StageState:
    results = dict(state.results)
    for series in state.rounds[-1].series:
        if len(series.players) == 2:
            roll = rng.random()
            results[series.key] = SeriesResult(
                (1, 1) if roll < draws else (1, 2) if roll < 0.5 + draws / 2 else (2, 1)
            )
        else:
            order = list(range(len(series.seats)))
            rng.shuffle(order)
            placings = [0] * len(order)
            for place, seat in enumerate(order, start=1):
                placings[seat] = place
            results[series.key] = SeriesResult(tuple(placings))
    return replace(state, results=results)


def swiss_at_round_5(n: int, seed: int = 1) -> StageState:
    """A Swiss of ``n`` after 4 rounds of random results."""
    rng = random.Random(seed)
    state = StageState(
        entrants=tuple(range(1, n + 1)), seed=f"bench-{n}", game=GameKind.SNAPSZER, options={"rounds": 9}
    )
    fmt = FORMATS["swiss"]  # type: ignore[index]
    for _ in range(4):
        state = replace(state, rounds=state.rounds + fmt.next_rounds(state))
        state = _random_results(state, rng, draws=0.1)
    return state


def _cost(state: StageState, round_json: str) -> tuple[int, int, int]:
    """(floaters, seat-rule breaks, sum of squared score differences) of the round to pair."""
    (rnd,) = json.loads(round_json)
    record = {"rounds": json.loads(rounds_to_json(state.rounds))}
    players = list(state.entrants)
    results = {k: list(v.placings) for k, v in state.results.items()}
    score = checker.swiss_scores(record["rounds"], results, {}, players, "win")
    seats: dict[object, list[int]] = {p: [] for p in players}
    for old in record["rounds"]:
        for s in old["series"]:
            seats[s["seats"][0]].append(0)
            seats[s["seats"][1]].append(1)
    floaters = breaks = squares = 0
    for s in rnd["series"]:
        a, b = s["seats"]
        floaters += score[a] != score[b]
        breaks += checker.seat_rule_breaks(seats[a], 0) + checker.seat_rule_breaks(seats[b], 1)
        squares += (score[a] - score[b]) ** 2
    return floaters, breaks, squares


def bench_swiss(sizes: list[int], full_for_all: bool) -> list[dict[str, float]]:
    rows: list[dict[str, float]] = []
    fmt = FORMATS["swiss"]  # type: ignore[index]
    for n in tqdm(sizes, desc="Swiss round 5"):
        state = swiss_at_round_5(n)
        times = []
        for _ in range(3):
            start = time.process_time()
            rounds = fmt.next_rounds(state)
            times.append(time.process_time() - start)
        row: dict[str, float] = {"n": n, "seconds": statistics.median(times), "slowest": slowest_round(n)}
        row.update(zip(("floaters", "breaks", "squares"), _cost(state, rounds_to_json(rounds)), strict=True))
        if full_for_all or n <= 256:
            saved = swiss.BLOCK
            swiss.BLOCK = 10**6  # one matching of the whole field
            try:
                start = time.process_time()
                whole = fmt.next_rounds(state)
                row["full_seconds"] = time.process_time() - start
            finally:
                swiss.BLOCK = saved
            row.update(
                zip(
                    ("full_floaters", "full_breaks", "full_squares"),
                    _cost(state, rounds_to_json(whole)),
                    strict=True,
                )
            )
        rows.append(row)
    return rows


def slowest_round(n: int, rounds: int = 9) -> float:
    """The slowest pairing (CPU seconds) over the rounds of a ``rounds``-round Swiss of ``n``."""
    rng = random.Random(n)
    state = StageState(
        entrants=tuple(range(1, n + 1)), seed=f"slow-{n}", game=GameKind.SNAPSZER, options={"rounds": rounds}
    )
    fmt = FORMATS["swiss"]  # type: ignore[index]
    slowest = 0.0
    for _ in range(rounds):
        start = time.process_time()
        due = fmt.next_rounds(state)
        slowest = max(slowest, time.process_time() - start)
        state = _random_results(replace(state, rounds=state.rounds + due), rng, draws=0.1)
    return slowest


def check_swiss_stages(sizes: list[int]) -> int:
    """Whole stages at the benchmark's sizes through the independent checker; returns how many."""
    for n in tqdm(sizes, desc="checker"):
        checker.check(play(Config("swiss", "snapszer", n, {"rounds": 5}, seed=n, draw=0.1, withdraw=0.05)))
    return len(sizes)


def bench_tables(sizes: list[int], rounds: int = 5) -> list[dict[str, float]]:
    rows = []
    for n in tqdm(sizes, desc="Swiss tables"):
        record = play(Config("swiss_tables", "snap", n, {"table_size": 4, "rounds": rounds}, seed=n))
        checker.check(record)
        generated = checker.quality(record)["repeats"]
        rng = random.Random(n)
        baseline = []
        for trial in range(5):
            seated: list[list[list[int]]] = []
            for rnd in record["rounds"]:
                players = [p for s in rnd["series"] for p in s["seats"]]
                rng.shuffle(players)
                sizes_here = [len(s["seats"]) for s in rnd["series"]]
                tables, start = [], 0
                for size in sizes_here:
                    tables.append(players[start : start + size])
                    start += size
                seated.append(tables)
            total = 0
            for index, tables in enumerate(seated):
                met = checker.table_mates(
                    [{"series": [{"seats": t} for t in earlier]} for earlier in seated[:index]]
                )
                total += checker.repeats(tables, met)
            baseline.append(total)
            del trial
        rows.append({"n": n, "generated": generated, "random": statistics.mean(baseline)})
    return rows


def write_svg(rows: list[dict[str, float]], path: Path) -> None:
    """A grouped bar chart: repeat table-mates per size, generated v random seating."""
    width, height, left, bottom = 560, 300, 60, 40
    top = max(max(r["random"], r["generated"]) for r in rows) or 1
    scale = (height - bottom - 30) / top
    group = (width - left - 20) / len(rows)
    bars = []
    for i, row in enumerate(rows):
        x = left + i * group + group * 0.15
        for j, (key, colour) in enumerate((("generated", "#2b7a3d"), ("random", "#b9b9b9"))):
            h = row[key] * scale
            bx = x + j * group * 0.35
            bars.append(
                f'<rect x="{bx:.1f}" y="{height - bottom - h:.1f}" width="{group * 0.33:.1f}" height="{h:.1f}" '
                f'fill="{colour}"><title>{key}: {row[key]:.0f}</title></rect>'
                f'<text x="{bx + group * 0.165:.1f}" y="{height - bottom - h - 4:.1f}" font-size="11" '
                f'text-anchor="middle">{row[key]:.0f}</text>'
            )
        bars.append(
            f'<text x="{x + group * 0.34:.1f}" y="{height - bottom + 16}" font-size="12" '
            f'text-anchor="middle">{row["n"]:.0f} players</text>'
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
        f'<text x="{left}" y="18" font-size="13">Repeat table-mates over 5 rounds of Swiss tables (tables of 4)</text>'
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#333"/>'
        + "".join(bars)
        + f'<rect x="{width - 190}" y="28" width="12" height="12" fill="#2b7a3d"/>'
        f'<text x="{width - 172}" y="38" font-size="12">Swiss tables</text>'
        f'<rect x="{width - 100}" y="28" width="12" height="12" fill="#b9b9b9"/>'
        f'<text x="{width - 82}" y="38" font-size="12">random</text></svg>\n'
    )
    path.write_text(svg)


def bench_standings(n: int = 1024, rounds: int = 9) -> float:
    state = StageState(
        entrants=tuple(range(1, n + 1)), seed="bench", game=GameKind.SNAPSZER, options={"rounds": rounds}
    )
    rng = random.Random(9)
    fmt = FORMATS["swiss"]  # type: ignore[index]
    for _ in tqdm(range(rounds), desc=f"{n}-player Swiss, {rounds} rounds"):
        state = replace(state, rounds=state.rounds + fmt.next_rounds(state))
        state = _random_results(state, rng, draws=0.0)
    records = [
        SeriesRecord(s.seats, BEST_OF_3, (), result=state.results[s.key].placings, round=r.number)  # type: ignore[arg-type]
        for r in state.rounds
        for s in r.series
    ]
    byes = [p for r in state.rounds for p in r.byes]
    chain = fmt.default_tiebreaks(GameKind.SNAPSZER, {})
    times = []
    for _ in range(3):
        start = time.perf_counter()
        stage_standings(
            state.entrants, records, game=GameKind.SNAPSZER, stage_seed="bench", chain=chain, byes=byes
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024])
    parser.add_argument("--full", action="store_true", help="also match the largest field whole (slow)")
    args = parser.parse_args()
    sizes = sorted(args.sizes)

    rows = bench_swiss(sizes, args.full)
    print("\nSwiss, pairing round 5 (CPU seconds, median of 3), the slowest of 9 rounds, and one matching")
    print("of the whole field ('whole') for comparison")
    print(
        "| players | round 5 | growth k | slowest round | floaters | seat-rule breaks | sum sq. diff "
        "| whole: time | floaters | breaks | sum sq. |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for i, row in enumerate(rows):
        growth = (
            f"{math.log(row['seconds'] / rows[i - 1]['seconds']) / math.log(row['n'] / rows[i - 1]['n']):.2f}"
            if i
            else "–"
        )
        whole = (
            f"{row['full_seconds']:.2f} s | {row['full_floaters']:.0f} | {row['full_breaks']:.0f} | {row['full_squares']:.0f}"
            if "full_seconds" in row
            else "– | – | – | –"
        )
        print(
            f"| {row['n']:.0f} | {row['seconds']:.3f} s | {growth} | {row['slowest']:.2f} s | {row['floaters']:.0f} "
            f"| {row['breaks']:.0f} "
            f"| {row['squares']:.0f} | {whole} |"
        )
    checked = check_swiss_stages(sizes)
    print(f"\nchecker: {checked} whole Swiss stages (5 rounds) at these sizes are valid")

    tables = bench_tables(sizes)
    print("\nSwiss tables (tables of 4, 5 rounds): repeat table-mates")
    print("| players | Swiss tables | random seating (mean of 5) |")
    print("|---|---|---|")
    for row in tables:
        print(f"| {row['n']:.0f} | {row['generated']:.0f} | {row['random']:.1f} |")
    write_svg(tables, SVG)
    print(f"wrote {SVG.relative_to(ROOT)}")

    seconds = bench_standings()
    print(f"\nstandings (pure) of a 1,024-player, 9-round Swiss: {seconds * 1000:.0f} ms (median of 3)")


if __name__ == "__main__":
    main()
