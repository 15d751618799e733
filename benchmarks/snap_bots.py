"""Snap bots + timing speed: full bot games per second on one core, in virtual time (issue 6).

    .venv/bin/python benchmarks/snap_bots.py [--games 100] [--level club] [--seed 1] [--repeat 5]
                                             [--players 2 4 6] [--profile]

For each table size, plays ``--games`` bot games (every seat at ``--level``) through the timing
layer (``play_bot_game``: network delays, a view per state change, bot decisions, the layer's
queue and decisions, the engine) and reports games/s and flips/s. Three engine-side figures are
measured in the same run, so that the ratios compare like with like:

- the bare engine: random 4-player games replayed through ``apply()`` (benchmarks/snap_engine.py's
  measure, issue 3's figure);
- the engine alone on the same inputs: the engine inputs the bot games produced, replayed through
  ``apply()`` (bot games call far more often than random play, and a call costs the engine several
  flips' worth);
- the timing layer with the engine: the bot games' timed logs replayed through ``LiveGame.feed``
  (``replay_timed``), so that the time splits into engine, timing layer, and bots with the loop.

Method: everything replayed is recorded first (not timed) and frozen out of the cycle collector
(``gc.freeze()``), so that holding the recordings does not slow the collector down for the code
being timed; bot games are timed without keeping them. The figures are interleaved round by
round and each is the best of ``--repeat`` rounds of CPU time (``time.process_time``: "on one
core", and steadier than wall time on a shared machine); ratios are the median of the rounds'
ratios, so drift in the machine's speed hits both sides of each ratio alike.

Targets (issue 6): at least 50 four-player games/s, and bots plus timing costing at most 3x the
engine alone (see docs/benchmarks.md for how each reading of that comes out).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm

from games.engine.snap import Action, Deal, SnapRules, apply, new_game
from games.engine.snap.bots import LEVELS, play_bot_game
from games.engine.snap.playout import random_game, shuffled_deal
from games.engine.snap.timing import TimedInput, replay_timed


@dataclass
class Recorded:
    """One bot game as the replays need it."""

    deal: Deal
    dealer: int
    timed: list[TimedInput]
    actions: list[Action]


def bot_games(
    rules: SnapRules, players: int, games: int, level: str, seed: int, *, keep: bool
) -> tuple[int, list[Recorded]]:
    """Play ``games`` bot games; return the flips played and (``keep``) their recordings."""
    rng = random.Random(seed)
    flips = 0
    kept = []
    for _ in range(games):
        deal = shuffled_deal(rules, players, rng)
        dealer = rng.randrange(players)
        game = play_bot_game(rules, [LEVELS[level]] * players, deal, dealer, rng).game
        flips += game.state.flips
        if keep:
            kept.append(Recorded(deal, dealer, game.log, [action for _at, action in game.engine_log]))
    return flips, kept


def cpu_seconds(run: Callable[[], object]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="club", choices=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--profile", action="store_true", help="print a cProfile of 4-player bot games")
    args = parser.parse_args()
    rules = SnapRules()

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(bot_games, rules, 4, args.games, args.level, args.seed, keep=False)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return

    rng = random.Random(args.seed)
    recorded = [random_game(rules, 4, rng) for _ in tqdm(range(args.games), desc="recording engine games")]
    engine_flips = sum(g.final.flips for g in recorded)
    bots: dict[int, list[Recorded]] = {}
    flips: dict[int, int] = {}
    for players in tqdm(args.players, desc="recording bot games"):
        flips[players], bots[players] = bot_games(
            rules, players, args.games, args.level, args.seed, keep=True
        )
    gc.collect()
    gc.freeze()  # the recordings stay alive; keep the collector from walking them again and again

    def bare_engine() -> None:
        for g in recorded:
            state = new_game(g.rules, g.deal, g.dealer)
            for action in g.inputs:
                state, _events = apply(state, action)

    def same_inputs(games: list[Recorded]) -> None:
        for g in games:
            state = new_game(rules, g.deal, g.dealer)
            for action in g.actions:
                state, _events = apply(state, action)

    def timing_layer(games: list[Recorded]) -> None:
        for g in games:
            replay_timed(rules, g.deal, g.dealer, g.timed)

    engine_runs: list[float] = []
    runs: dict[tuple[str, int], list[float]] = {}
    for _ in tqdm(range(args.repeat), desc="timing"):
        engine_runs.append(cpu_seconds(bare_engine))
        for players in args.players:
            games = bots[players]
            for name, run in (
                (
                    "bots",
                    lambda p=players: bot_games(rules, p, args.games, args.level, args.seed, keep=False),
                ),
                ("engine", lambda g=games: same_inputs(g)),  # type: ignore[misc]
                ("layer", lambda g=games: timing_layer(g)),  # type: ignore[misc]
            ):
                runs.setdefault((name, players), []).append(cpu_seconds(run))

    engine_rate = engine_flips / min(engine_runs)
    print(f"bare engine, random 4-player games: {engine_rate:,.0f} flips/s ({args.games} games)")
    print(
        "| table | games/s | flips/s | flips per game | engine alone, same inputs | "
        "ratio to it | ratio to the bare engine | engine : timing layer : bots and loop |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players in args.players:
        bot_t, eng_t, layer_t = (runs[(name, players)] for name in ("bots", "engine", "layer"))
        n = flips[players]
        same_ratio = statistics.median(b / e for b, e in zip(bot_t, eng_t, strict=True))
        bare_ratio = statistics.median(
            (b / n) / (e / engine_flips) for b, e in zip(bot_t, engine_runs, strict=True)
        )
        engine_us = min(eng_t) / n * 1e6
        layer_us = (min(layer_t) - min(eng_t)) / n * 1e6
        loop_us = (min(bot_t) - min(layer_t)) / n * 1e6
        print(
            f"| {players} players | {args.games / min(bot_t):.1f} | {n / min(bot_t):,.0f} | {n / args.games:.0f} "
            f"| {n / min(eng_t):,.0f} flips/s | {same_ratio:.2f}x | {bare_ratio:.2f}x "
            f"| {engine_us:.1f} : {layer_us:.1f} : {loop_us:.1f} us per flip |"
        )


if __name__ == "__main__":
    main()
