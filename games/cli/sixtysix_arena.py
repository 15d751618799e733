"""Arena: two 66 bots play paired matches; prints who is stronger and how sure we are.

    python -m games.cli.sixtysix_arena expert heuristic --matches 500 --profile snapszer --seed 1

Matches are played in pairs on the same deals: match pair ``p`` deals hand ``k`` from
``random.Random(f"{seed}:{p}:{k}")`` and is played twice, the bots swapping seats (so seats
alternate and the luck of the cards largely cancels). A profile without a match (`schnapsen-lite`)
plays single hands: a "match" is then one hand. Reported: hands and matches won with 95 % Wilson
intervals, game points per hand (mean and 95 % interval) and each bot's share of all game points,
and decision time per bot (median and 95th percentile, over decisions with a real choice: two or
more legal actions). ``--progress FILE`` also writes the progress bar there (for background runs).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from tqdm import tqdm

from games.engine.sixtysix import (
    Action,
    HandResult,
    PlayerView,
    SixtySixRules,
    apply,
    deck,
    match_apply,
    new_hand,
    new_match,
    profile,
)
from games.engine.sixtysix.bots import BOT_NAMES, Bot, make_bot
from games.engine.sixtysix.bots.base import next_action


@dataclass
class Tally:
    """One bot's side of the arena."""

    name: str
    hands_won: int = 0
    matches_won: int = 0
    game_points: list[int] = field(default_factory=list)  # per hand played
    times: list[float] = field(default_factory=list)


def play_hand(
    rules: SixtySixRules,
    deal: Sequence[Any],
    dealer: int,
    bots: Sequence[Bot],
    times: Sequence[list[float]],
) -> HandResult:
    """One hand; ``bots[seat]`` plays ``seat``. A seat that may only declare (X25) is asked first
    and may wait; then the seat on move must act. Decision times go to ``times[seat]``."""
    state = new_hand(rules, deal, dealer)

    def timed(bot: Bot, view: PlayerView) -> Action | None:
        start = time.perf_counter()
        action = bot.act(view)
        if len(view.legal_actions) > 1:
            times[view.seat].append(time.perf_counter() - start)
        return action

    while state.result is None:
        state, _ = apply(state, next_action(state, bots, timed))
    return state.result


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    if not values:
        return (0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, 0.0)
    return (m, 1.96 * statistics.stdev(values) / math.sqrt(len(values)))


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    names: tuple[str, str],
    rules: SixtySixRules,
    matches: int,
    seed: int,
    *,
    seconds: float | None = None,
    progress: TextIO | None = None,
    checkpoint: str | None = None,
) -> dict[str, Any]:
    """Play ``matches`` matches (rounded up to pairs) and return the summary as a dict. With
    ``checkpoint`` the summary so far is written there (JSON) after every pair."""
    tallies = (Tally(names[0]), Tally(names[1]))
    pairs = (matches + 1) // 2
    hands = ties = 0
    pack = list(deck(rules.deck_size))
    bar = tqdm(total=pairs * 2, desc=f"{names[0]} vs {names[1]}", unit="match", file=progress or sys.stderr)
    for p in range(pairs):
        for swap in (0, 1):
            # side i of the pair sits at seat i ^ swap
            bots: list[Bot] = [None, None]  # type: ignore[list-item]
            for side in (0, 1):
                rng = random.Random(f"{seed}:{p}:{swap}:{side}")
                bots[side ^ swap] = make_bot(names[side], rules, rng, time.perf_counter, seconds)
            seat_times: list[list[float]] = [[], []]
            match = new_match(rules, p % 2) if rules.match is not None else None
            dealer = p % 2
            k = 0
            while True:
                order = list(pack)
                random.Random(f"{seed}:{p}:{k}").shuffle(order)
                result = play_hand(rules, order, dealer if match is None else match.dealer, bots, seat_times)
                hands += 1
                k += 1
                for side in (0, 1):
                    won = result.winner == side ^ swap
                    tallies[side].game_points.append(result.game_points if won else 0)
                    tallies[side].hands_won += won
                ties += result.winner is None
                if match is None:
                    winner_seat = result.winner
                    break
                match = match_apply(match, result)
                if match.winner is not None:
                    winner_seat = match.winner
                    break
            for side in (0, 1):
                tallies[side].times += seat_times[side ^ swap]
                if winner_seat == side ^ swap:
                    tallies[side].matches_won += 1
            bar.update(1)
            if checkpoint is not None and swap == 1:
                partial = _summary(tallies, rules, played=(p + 1) * 2, hands=hands, ties=ties, seed=seed)
                with open(checkpoint, "w") as f:
                    json.dump(partial | {"report": report(partial), "complete": False}, f, indent=2)
    bar.close()
    return _summary(tallies, rules, played=pairs * 2, hands=hands, ties=ties, seed=seed)


def _summary(
    tallies: tuple[Tally, Tally], rules: SixtySixRules, *, played: int, hands: int, ties: int, seed: int
) -> dict[str, Any]:
    total_gp = sum(sum(t.game_points) for t in tallies)
    out: dict[str, Any] = {
        "profile": rules.name,
        "matches": played,
        "hands": hands,
        "ties": ties,
        "seed": seed,
        "bots": [],
    }
    for t in tallies:
        hw = wilson(t.hands_won, hands)
        mw = wilson(t.matches_won, played)
        gp, gp_half = mean_ci(t.game_points)
        out["bots"].append(
            {
                "name": t.name,
                "hands_won": t.hands_won,
                "hands_won_ci": hw,
                "matches_won": t.matches_won,
                "matches_won_ci": mw,
                "game_points_per_hand": gp,
                "game_points_per_hand_ci": gp_half,
                "game_point_share": (sum(t.game_points) / total_gp) if total_gp else 0.0,
                "decisions": len(t.times),
                "time_median_ms": 1000 * statistics.median(t.times) if t.times else 0.0,
                "time_p95_ms": 1000 * percentile(t.times, 0.95),
            }
        )
    return out


def report(summary: dict[str, Any]) -> str:
    lines = [
        f"profile {summary['profile']}: {summary['matches']} matches ({summary['matches'] // 2} paired), "
        f"{summary['hands']} hands, {summary['ties']} without a winner, seed {summary['seed']}"
    ]
    for b in summary["bots"]:
        name = b["name"]
        hl, hh = b["hands_won_ci"]
        ml, mh = b["matches_won_ci"]
        lines.append(
            f"  {name:>10}: hands won {b['hands_won']}/{summary['hands']} "
            f"({100 * b['hands_won'] / max(1, summary['hands']):.1f} %, CI {100 * hl:.1f}-{100 * hh:.1f}); "
            f"matches won {b['matches_won']}/{summary['matches']} "
            f"({100 * b['matches_won'] / max(1, summary['matches']):.1f} %, "
            f"CI {100 * ml:.1f}-{100 * mh:.1f}); "
            f"game points/hand {b['game_points_per_hand']:.3f} ± {b['game_points_per_hand_ci']:.3f} "
            f"(share {100 * b['game_point_share']:.1f} %); "
            f"decision ms median {b['time_median_ms']:.1f} p95 {b['time_p95_ms']:.1f} "
            f"({b['decisions']} decisions)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Paired matches between two 66 bots.")
    parser.add_argument("bot_a", choices=BOT_NAMES)
    parser.add_argument("bot_b", choices=BOT_NAMES)
    parser.add_argument(
        "--matches", type=int, default=100, help="matches in all (played in seat-swapped pairs)"
    )
    parser.add_argument("--profile", default="snapszer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="also cap search bots' time per move")
    parser.add_argument("--progress", default=None, help="also write the progress bar to this file")
    parser.add_argument("--json", default=None, help="write the summary as JSON to this file")
    parser.add_argument("--checkpoint", default=None, help="rewrite the summary so far here after every pair")
    args = parser.parse_args(argv)
    rules = profile(args.profile)
    progress = open(args.progress, "w") if args.progress else None  # noqa: SIM115
    try:
        summary = run(
            (args.bot_a, args.bot_b),
            rules,
            args.matches,
            args.seed,
            seconds=args.seconds,
            progress=progress,
            checkpoint=args.checkpoint,
        )
    finally:
        if progress is not None:
            progress.close()
    text = report(summary)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary | {"command": " ".join(sys.argv), "report": text}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
