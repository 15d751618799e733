"""Snap engine speed: flips per second applying recorded inputs of random 4-player games.

    .venv/bin/python benchmarks/snap_engine.py [--games 200] [--seed 1] [--repeat 3] [--profile]

Inputs are recorded first (random play, not timed; then frozen out of the cycle collector), then
replayed through ``apply()`` from ``new_game`` with cycle detection on (it always is). The figure is total flips / best wall time
of ``--repeat`` runs, on one core (the process's CPU time is printed too: on a shared machine it
is the steadier figure). Target (issue 3): at least 150,000 flips/s.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm

from games.engine.snap import SnapRules, apply, new_game
from games.engine.snap.playout import random_game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    args = parser.parse_args()

    rules = SnapRules()
    rng = random.Random(args.seed)
    games = [random_game(rules, args.players, rng) for _ in tqdm(range(args.games), desc="recording")]
    flips = sum(g.final.flips for g in games)
    inputs = sum(len(g.inputs) for g in games)
    # The recordings stay alive through the timing: freeze them out of the cycle collector, which
    # would otherwise walk them at every full collection and charge the engine for it.
    gc.collect()
    gc.freeze()

    def run() -> None:
        for g in games:
            state = new_game(g.rules, g.deal, g.dealer)
            for action in g.inputs:
                state, _events = apply(state, action)
            assert state.result == g.final.result

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        return
    best = best_cpu = float("inf")
    for _ in tqdm(range(args.repeat), desc="timing"):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    print(f"{args.games} games, {args.players} players, {inputs} inputs, {flips} flips")
    print(f"best of {args.repeat}, wall: {best:.3f} s, {flips / best:,.0f} flips/s")
    # On a shared machine the process's CPU time is the steadier figure (one thread: one core).
    print(f"best of {args.repeat}, CPU:  {best_cpu:.3f} s, {flips / best_cpu:,.0f} flips/s")


if __name__ == "__main__":
    main()
