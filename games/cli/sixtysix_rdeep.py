"""Our expert against the `schnapsen` package's RdeepBot, in the package's own game (`schnapsen-lite`).

Run it from the oracle venv (scripts/oracle-venv.sh builds it; the package cannot share our venv);
this file puts the repository root on sys.path so our pure engine and bots import:

    var/oracle-venv/bin/python games/cli/sixtysix_rdeep.py --deals 200 --progress var/rdeep.progress

Deal ``i`` is the package's shuffle with ``random.Random(seed + i)``, played twice with the seats
swapped (paired deals): once with our bot as the package's first player (the leader of trick 1),
once with RdeepBot there. The package runs the game and decides the result. Our side keeps our
engine's state in lockstep (the deal mapped as in sixtysix_oracle.py): our bot only ever gets
``observe(state, seat)`` and its action is played as the matching package move; RdeepBot's moves
are mirrored into our state. The package's result is checked against ours. RdeepBot is
``RdeepBot(num_samples=16, depth=4)`` unless told otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from schnapsen.bots import RdeepBot
from schnapsen.game import Bot, Move, PlayerPerspective, SchnapsenGamePlayEngine

from games.cli.sixtysix_oracle import DEALER, RULES, action_key, map_deal, move_key
from games.engine.sixtysix import SixtySixState, apply, legal_actions, new_hand, observe
from games.engine.sixtysix.bots import make_bot
from games.engine.sixtysix.bots.base import Bot as OurBot


class Table:
    """Our engine's state of the hand the package is playing."""

    def __init__(self, state: SixtySixState) -> None:
        self.state = state

    def play(self, seat: int, key: tuple[str, str]) -> None:
        by_key = {action_key(a): a for a in legal_actions(self.state, seat)}
        if key not in by_key:
            raise RuntimeError(f"package move {key} is not legal in our engine: {sorted(by_key)}")
        self.state, _ = apply(self.state, by_key[key])


class Ours(Bot):
    """Seats one of our bots in the package's game; it sees only our engine's view."""

    def __init__(self, seat: int, table: Table, bot: OurBot, times: list[float]) -> None:
        super().__init__(f"ours-{bot.name}")
        self.seat, self.table, self.bot, self.times = seat, table, bot, times

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        view = observe(self.table.state, self.seat)
        start = time.perf_counter()
        action = self.bot.act(view)
        if len(view.legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        assert action is not None  # schnapsen-lite has no declarations: the seat on move must act
        theirs = {move_key(m): m for m in perspective.valid_moves()}
        key = action_key(action)
        self.table.play(self.seat, key)
        return theirs[key]


class Mirrored(Bot):
    """The package's bot, its moves mirrored into our state."""

    def __init__(self, seat: int, table: Table, bot: Bot) -> None:
        super().__init__(f"theirs-{type(bot).__name__}")
        self.seat, self.table, self.bot = seat, table, bot

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        move = self.bot.get_move(perspective, leader_move)
        self.table.play(self.seat, move_key(move))
        return move


def play_deal(
    engine: SchnapsenGamePlayEngine, seed: int, ours_first: bool, args: argparse.Namespace, times: list[float]
) -> int:
    """One hand of deal ``seed``; returns our game points (negative when RdeepBot won)."""
    order = list(
        engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), random.Random(seed))
    )
    table = Table(new_hand(RULES, map_deal(order), DEALER))
    our_seat = 0 if ours_first else 1
    ours = Ours(our_seat, table, make_bot(args.bot, RULES, random.Random(f"ours:{seed}:{ours_first}")), times)
    rdeep = RdeepBot(args.samples, args.depth, random.Random(f"rdeep:{seed}:{ours_first}"))
    theirs = Mirrored(1 - our_seat, table, rdeep)
    bots: tuple[Bot, Bot] = (ours, theirs) if ours_first else (theirs, ours)
    winner_bot, game_points, _score = engine.play_game(bots[0], bots[1], random.Random(seed))
    result = table.state.result
    if result is None or result.winner != bots.index(winner_bot) or result.game_points != game_points:
        raise RuntimeError(f"deal {seed}: package {winner_bot} +{game_points}, engine {result}")
    return game_points if winner_bot is ours else -game_points


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="paired deals (each played twice)")
    parser.add_argument("--seed", type=int, default=1, help="deal i uses seed + i")
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--progress", default=None, help="append a progress line per deal here")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    engine = SchnapsenGamePlayEngine()
    ours_points: list[int] = []
    times: list[float] = []
    start = time.perf_counter()
    for i in range(args.deals):
        for ours_first in (True, False):
            ours_points.append(play_deal(engine, args.seed + i, ours_first, args, times))
        if args.progress:
            won = sum(p for p in ours_points if p > 0)
            lost = -sum(p for p in ours_points if p < 0)
            with open(args.progress, "a") as f:
                f.write(
                    f"{i + 1}/{args.deals} deals, {time.perf_counter() - start:.0f} s, "
                    f"game points ours {won} theirs {lost}\n"
                )
    summary = summarize(ours_points, times, args)
    print(summary["report"])
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    return 0


def summarize(points: list[int], times: list[float], args: argparse.Namespace) -> dict[str, Any]:
    hands = len(points)
    won = sum(1 for p in points if p > 0)
    gp_ours = sum(p for p in points if p > 0)
    gp_theirs = -sum(p for p in points if p < 0)
    share = gp_ours / max(1, gp_ours + gp_theirs)
    # 95 % interval of the share by the delta method over hands (each hand's points are one draw)
    mean_diff = statistics.fmean(points)
    sd = statistics.stdev(points) if hands > 1 else 0.0
    half = 1.96 * sd / math.sqrt(hands) if hands else 0.0
    mean_abs = statistics.fmean(abs(p) for p in points) if points else 1.0
    share_lo = 0.5 + (mean_diff - half) / (2 * mean_abs)
    share_hi = 0.5 + (mean_diff + half) / (2 * mean_abs)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
    report = (
        f"{args.bot} vs RdeepBot({args.samples}, {args.depth}) on schnapsen-lite: {args.deals} paired deals, "
        f"{hands} hands; hands won {won} ({100 * won / hands:.1f} %); game points {gp_ours} to {gp_theirs} "
        f"(share {100 * share:.1f} %, 95 % CI {100 * share_lo:.1f}-{100 * share_hi:.1f}); "
        f"our game points per hand {mean_diff:+.3f} ± {half:.3f}; our decision time median "
        f"{1000 * statistics.median(times) if times else 0:.1f} ms, p95 {1000 * p95:.1f} ms"
    )
    return {
        "deals": args.deals,
        "hands": hands,
        "hands_won": won,
        "game_points": [gp_ours, gp_theirs],
        "share": share,
        "share_ci": [share_lo, share_hi],
        "seed": args.seed,
        "report": report,
    }


if __name__ == "__main__":
    sys.exit(main())
