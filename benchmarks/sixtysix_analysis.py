"""Benchmark: how long the analysis of a full Snapszer hand takes (issue 17's target: <= 5 s on one core).

    .venv/bin/python benchmarks/sixtysix_analysis.py --profile snapszer --hands 40

Plays ``--hands`` hands between a casual and a club bot (seats alternating; hands that a club
player could have played, with mistakes to find) and analyses each whole hand for **both** seats
with the analysis budget the web uses (``AnalysisBudget()``; ``--worlds`` / ``--nodes`` try
others), as the Celery task does. Times each hand in CPU time of this process
(time.process_time: one core; other load on a shared machine inflates it less than wall time) and
wall time; prints median, p95 and max, decisions per hand and how their values were reached.
tqdm shows the progress on stderr.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.sixtysix import Action, apply, deck, new_hand, profile
from games.engine.sixtysix.analysis import AnalysisBudget, analyse_hand
from games.engine.sixtysix.bots import make_bot
from games.engine.sixtysix.bots.base import next_action


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    defaults = AnalysisBudget()
    parser = argparse.ArgumentParser(description="Time of the analysis of a full 66 hand.")
    parser.add_argument("--profile", default="snapszer")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=defaults.worlds)
    parser.add_argument("--nodes", type=int, default=defaults.nodes)
    args = parser.parse_args(argv)
    rules = profile(args.profile)
    budget = AnalysisBudget(worlds=args.worlds, nodes=args.nodes)
    cpu: list[float] = []
    wall: list[float] = []
    decisions: list[int] = []
    methods: Counter[str] = Counter()
    for i in tqdm(range(args.hands), desc="hands", unit="hand"):
        order = list(deck(rules.deck_size))
        random.Random(f"{args.seed}:{i}").shuffle(order)
        bots = [make_bot("casual", rules, random.Random(i)), make_bot("club", rules, random.Random(-i))]
        if i % 2:
            bots.reverse()
        start = new_hand(rules, order, i % 2)
        state, actions = start, list[Action]()
        while state.result is None:
            action = next_action(state, bots)
            actions.append(action)
            state, _ = apply(state, action)
        w0, c0 = time.perf_counter(), time.process_time()
        analysis = analyse_hand(start, actions, random.Random(i), budget)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        decisions.append(len(analysis.decisions))
        methods.update(d.method.value for d in analysis.decisions)
    print(f"profile {args.profile}, {args.hands} hands, budget {budget}")
    print(f"decisions per hand: median {statistics.median(decisions)}, max {max(decisions)}; {dict(methods)}")
    for name, values in (("cpu", cpu), ("wall", wall)):
        print(
            f"{name} s per hand: median {statistics.median(values):.2f}, p95 {p95(values):.2f}, max {max(values):.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
