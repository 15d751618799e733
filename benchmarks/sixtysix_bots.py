"""Benchmark: how long a 66 bot takes per decision (the issue's target for the expert: p95 <= 250 ms).

    .venv/bin/python benchmarks/sixtysix_bots.py --bot expert --profile snapszer --hands 30

Plays ``--hands`` hands of the bot against the heuristic bot (seats alternating) and times every
decision of the bot that had a real choice (two or more legal actions), in wall time
(time.perf_counter) and in CPU time of this process (time.process_time, which other load on a
shared machine inflates less). Prints median, p95 and max of both. ``--seconds S`` passes the bot
a clock and a time cap (the expert then stops sampling worlds after S seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.sixtysix import (
    Action,
    PlayerView,
    apply,
    deck,
    new_hand,
    profile,
)
from games.engine.sixtysix.bots import make_bot
from games.engine.sixtysix.bots.base import Bot, next_action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Decision time of a 66 bot.")
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--profile", default="snapszer")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="also cap the search by wall time")
    args = parser.parse_args(argv)
    rules = profile(args.profile)
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(args.hands):
        order = list(deck(rules.deck_size))
        random.Random(f"{args.seed}:{i}").shuffle(order)
        seat_of_bot = i % 2
        bots = {
            seat_of_bot: make_bot(args.bot, rules, random.Random(i), time.perf_counter, args.seconds),
            1 - seat_of_bot: make_bot("heuristic", rules, random.Random(-i)),
        }
        state = new_hand(rules, order, i % 2)

        def timed(bot: Bot, view: PlayerView, bot_seat: int = seat_of_bot) -> Action | None:
            w0, c0 = time.perf_counter(), time.process_time()
            action = bot.act(view)
            w1, c1 = time.perf_counter(), time.process_time()
            if view.seat == bot_seat and len(view.legal_actions) > 1:
                wall.append(w1 - w0)
                cpu.append(c1 - c0)
            return action

        while state.result is None:
            state, _ = apply(state, next_action(state, bots, timed))

    def line(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        return (
            f"{name}: median {1000 * statistics.median(xs):.1f} ms, p95 {1000 * p95:.1f} ms, "
            f"max {1000 * xs[-1]:.1f} ms"
        )

    cap = f", time cap {args.seconds} s" if args.seconds else ""
    print(f"{args.bot} on {args.profile}{cap}: {len(wall)} decisions in {args.hands} hands")
    print(line("  wall", wall))
    print(line("  cpu ", cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
