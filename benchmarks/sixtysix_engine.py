"""Benchmark: random-playout hands per second of the 66 engine on `schnapsen-lite`, on one core,
side by side with the `schnapsen` package's own random games (the issue's target: at least 3x).

Every action of ours goes through legal_actions() and apply(). Run it from the oracle venv, which
has the package (scripts/oracle-venv.sh builds it); from any other venv only our figure is printed:

    var/oracle-venv/bin/python benchmarks/sixtysix_engine.py --hands 1000 --rounds 10

The two engines run in alternating rounds so that the noise of a shared machine hits both alike;
times are CPU time of this process (time.process_time), which other load inflates less than wall
time. Each round's ratio is printed; the summary gives total hands / total CPU time per engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.sixtysix import PROFILES, apply, deck, legal_actions, new_hand, seats_to_act


def ours(hands: int, seed: int) -> float:
    """Hands per second of random playouts through legal_actions() and apply()."""
    rules = PROFILES["schnapsen-lite"]
    rng = random.Random(seed)
    pack = list(deck(rules.deck_size))
    start = time.process_time()
    for i in range(hands):
        rng.shuffle(pack)
        state = new_hand(rules, pack, i % 2)
        while state.result is None:
            seat = seats_to_act(state)[0]
            state, _events = apply(state, rng.choice(legal_actions(state, seat)))
    return hands / (time.process_time() - start)


def package(hands: int, seed: int) -> float | None:
    """Hands per second of the package's own random games (RandBot against RandBot), or None."""
    try:
        from schnapsen.bots import RandBot
        from schnapsen.game import SchnapsenGamePlayEngine
    except ImportError:
        return None
    engine = SchnapsenGamePlayEngine()
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(hands):
        engine.play_game(RandBot(rng), RandBot(rng), rng)
    return hands / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description="66 engine random-playout benchmark (schnapsen-lite)")
    parser.add_argument("--hands", type=int, default=1000, help="hands per engine per round")
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds")
    args = parser.parse_args()
    ours_time = theirs_time = 0.0
    have_package = True
    ratios = []
    for r in range(args.rounds):
        a = ours(args.hands, seed=r)
        ours_time += args.hands / a
        b = package(args.hands, seed=r) if have_package else None
        if b is None:
            have_package = False
            print(f"round {r + 1}: engine {a:,.0f} hands/s", flush=True)
            continue
        theirs_time += args.hands / b
        ratios.append(a / b)
        print(
            f"round {r + 1}: engine {a:,.0f} hands/s, package {b:,.0f} hands/s, ratio {a / b:.2f}", flush=True
        )
    total = args.hands * args.rounds
    print(f"python {sys.version.split()[0]}; {args.rounds} rounds of {args.hands} hands per engine; CPU time")
    print(f"66 engine (schnapsen-lite): {total / ours_time:,.0f} hands/s")
    if not have_package:
        print("schnapsen package: not importable here (run from var/oracle-venv for the ratio)")
        return 0
    ratios.sort()
    print(f"schnapsen 0.0.5 package:    {total / theirs_time:,.0f} hands/s")
    print(
        f"ratio: {theirs_time / ours_time:.2f}x overall; per round median {ratios[len(ratios) // 2]:.2f}x, "
        f"min {ratios[0]:.2f}x, max {ratios[-1]:.2f}x (target >= 3x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
