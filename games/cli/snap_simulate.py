"""Simulate Snap bot games in virtual time and print what happened (issue 6).

    python -m games.cli.snap_simulate --players 4 --games 10000 --level club --seed 1

Every game is dealt from ``--seed`` (the deals come from one ``random.Random``) and played by bots
through the online timing layer (``games.engine.snap.timing``), so a run is reproducible. Prints
wins by seat, how games ended, tie and wrong-call rates and game lengths in flips, and writes an
SVG histogram of the lengths (``--svg``). ``--cap-table`` instead prints, for every level and
player count, how often the caps end a game (docs/snap-live.md).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tqdm import tqdm

from games.engine.snap import EndReason, SnapRules
from games.engine.snap.actions import CapReached
from games.engine.snap.bots import LEVELS, BotLevel, play_bot_game
from games.engine.snap.playout import shuffled_deal
from games.engine.snap.timing import TimingRules

ENDINGS = ("last player standing", "draw", "dead state", "cycle", "cap (max_flips)", "cap (max_game_seconds)")


@dataclass
class Stats:
    """Totals over a run of bot games."""

    players: int
    levels: tuple[str, ...]
    tie_window_ms: int = 30
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    calls: int = 0  # accepted by the timing layer
    refused: int = 0
    wrong: int = 0
    late: int = 0
    captures: int = 0  # won by a call (not the last player's sweep)
    ties: int = 0  # engine tie events: piles that went to the centre (one per pool a tie fed)
    tie_decisions: int = 0  # Tie inputs the layer made (a member may still turn out late)
    as_they_stand: int = 0
    flip_cap_at: list[int | None] = field(default_factory=list)  # when flip max_flips came (ms)


def ending_of(reason: EndReason, time_capped: bool) -> str:
    """The issue's names for how a game ended."""
    return {
        EndReason.LAST_PLAYER: "last player standing",
        EndReason.NOBODY_LEFT: "draw",
        EndReason.DEAD_STATE: "dead state",
        EndReason.CYCLE: "cycle",
        EndReason.CAP: "cap (max_game_seconds)" if time_capped else "cap (max_flips)",
    }[reason]


def simulate(
    players: int,
    games: int,
    levels: Sequence[BotLevel],
    seed: int,
    *,
    rules: SnapRules | None = None,
    timing: TimingRules | None = None,
    progress: bool = True,
) -> Stats:
    """Play ``games`` bot games (one level per seat) and total them."""
    rules = rules or SnapRules()
    timing = timing or TimingRules()
    rng = random.Random(seed)
    stats = Stats(players, tuple(level.name for level in levels), timing.tie_window_ms)
    desc = f"{players}p {'/'.join(sorted(set(stats.levels)))}"
    for _ in tqdm(range(games), desc=desc, disable=not progress, unit="game", leave=False):
        deal = shuffled_deal(rules, players, rng)
        played = play_bot_game(rules, levels, deal, rng.randrange(players), rng, timing=timing)
        game = played.game
        result = game.state.result
        assert result is not None
        stats.games += 1
        if result.winner is None:
            stats.draws += 1
        else:
            stats.wins[result.winner] += 1
        time_capped = any(isinstance(action, CapReached) for _at, action in game.engine_log)
        stats.endings[ending_of(result.ended_by, time_capped)] += 1
        stats.lengths.append(game.state.flips)
        stats.seconds.append(game.now / 1000)
        flip_cap_at = None
        for at, event in game.events:
            kind = event.type
            if kind == "call_queued":
                stats.calls += 1
            elif kind == "call_refused":
                stats.refused += 1
            elif kind == "wrong_call":
                stats.wrong += 1
            elif kind == "ignored_call" and getattr(event, "reason", "") == "late":
                stats.late += 1
            elif kind == "capture" and getattr(event, "kind", "") != "last_player":
                stats.captures += 1
            elif kind == "tie":
                stats.ties += 1
            elif kind == "cap" and not time_capped:
                flip_cap_at = at
            elif kind == "decided":
                stats.tie_decisions += bool(getattr(event, "tie", False))
                stats.as_they_stand += bool(getattr(event, "as_they_stand", False))
        stats.flip_cap_at.append(flip_cap_at)
    return stats


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an ascending sequence (q in 0..100)."""
    if not sorted_values:
        return 0.0
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


def report(stats: Stats) -> str:
    """The figures issue 6 asks for, as text."""
    g = stats.games
    lines = [
        f"{g} games, {stats.players} players, levels by seat: {', '.join(stats.levels)}, "
        f"tie window {stats.tie_window_ms} ms"
    ]
    lines.append("wins by seat: " + ", ".join(f"{s}: {stats.wins[s] / g:.1%}" for s in range(stats.players)))
    lines.append(f"drawn games: {stats.draws / g:.1%}")
    lines.append("how games ended: " + ", ".join(f"{name} {stats.endings[name] / g:.1%}" for name in ENDINGS))
    resolved = stats.captures + stats.ties
    lines.append(
        f"tie rate: {stats.ties / max(1, resolved):.1%} of won or tied claims "
        f"({stats.ties / g:.2f} ties per game, {stats.tie_decisions / g:.2f} tie decisions per game)"
    )
    lines.append(
        f"wrong-call rate: {stats.wrong / max(1, stats.calls):.1%} of accepted calls "
        f"({1000 * stats.wrong / max(1, sum(stats.lengths)):.2f} per 1000 flips); "
        f"late {stats.late / max(1, stats.calls):.1%}, refused calls {stats.refused / g:.2f} per game, "
        f"won as they stood (S35) {stats.as_they_stand / g:.2f} per game"
    )
    lengths = sorted(stats.lengths)
    mean = sum(lengths) / g
    lines.append(
        f"game length in flips: mean {mean:.1f}, median {percentile(lengths, 50):.0f}, "
        f"p90 {percentile(lengths, 90):.0f}, p99 {percentile(lengths, 99):.0f}, max {lengths[-1]}"
    )
    seconds = sorted(stats.seconds)
    lines.append(
        f"game length in (virtual) time: mean {sum(seconds) / g:.0f} s, p99 {percentile(seconds, 99):.0f} s"
    )
    return "\n".join(lines)


def histogram_svg(values: Sequence[int], title: str, width: int = 720, height: int = 360) -> str:
    """A dependency-free SVG bar chart of ``values`` (counts per bin of a round width)."""
    top = max(values, default=0)
    step = next(w for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if top / w <= 60)
    bins = Counter(v // step for v in values)
    nbins = top // step + 1
    peak = max(bins.values(), default=1)
    left, right, upper, lower = 56, 16, 36, 44
    plot_w, plot_h = width - left - right, height - upper - lower
    bar_w = plot_w / nbins
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="13">{_escape(title)}</text>',
    ]
    for b in range(nbins):
        count = bins.get(b, 0)
        if count:
            h = plot_h * count / peak
            x = left + b * bar_w
            parts.append(
                f'<rect x="{x:.2f}" y="{upper + plot_h - h:.2f}" width="{max(bar_w - 1, 0.5):.2f}" '
                f'height="{h:.2f}" fill="#4a78b5">'
                f"<title>{b * step}-{(b + 1) * step - 1}: {count}</title></rect>"
            )
    base = upper + plot_h
    parts.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="black"/>')
    parts.append(f'<line x1="{left}" y1="{upper}" x2="{left}" y2="{base}" stroke="black"/>')
    ticks = max(1, nbins // 8)
    for b in range(0, nbins + 1, ticks):
        x = left + b * bar_w
        parts.append(f'<text x="{x:.2f}" y="{base + 14}" text-anchor="middle">{b * step}</text>')
    for frac in (0, 0.5, 1):
        y = upper + plot_h * (1 - frac)
        parts.append(f'<text x="{left - 6}" y="{y + 4:.2f}" text-anchor="end">{round(peak * frac)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">flips per game</text>')
    parts.append(
        f'<text x="14" y="{upper + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {upper + plot_h / 2})">games</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cap_table(games: int, seed: int, progress: bool = True) -> str:
    """Markdown table: for each level and player count, how often each cap would end a game.

    The games are played with the time cap switched off (``max_game_seconds`` very large): until
    the moment the 720 s cap would fire, such a game is identical to the classic one, so one run
    tells both which cap comes first and how often each ends a classic online game.
    """
    limit = SnapRules().max_game_seconds * 1000
    rules = replace(SnapRules(), max_game_seconds=10**7)
    rows = [
        "| level | players | games | mean flips | p99 flips | max flips | reach 1000 flips | "
        "1000 flips before 720 s (flip cap binds) | still on at 720 s (time cap binds) | mean s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, level in LEVELS.items():
        for players in range(2, 7):
            stats = simulate(players, games, [level] * players, seed, rules=rules, progress=progress)
            lengths = sorted(stats.lengths)
            reached = [at for at in stats.flip_cap_at if at is not None]
            flip_binds = sum(at <= limit for at in reached)
            time_binds = sum(
                end * 1000 > limit and (at is None or at > limit)
                for end, at in zip(stats.seconds, stats.flip_cap_at, strict=True)
            )
            rows.append(
                f"| {name} | {players} | {games} | {sum(lengths) / games:.0f} | "
                f"{percentile(lengths, 99):.0f} | {lengths[-1]} | {len(reached) / games:.1%} | "
                f"{flip_binds / games:.1%} | {time_binds / games:.1%} | {sum(stats.seconds) / games:.0f} |"
            )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.cli.snap_simulate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--level", default="club", choices=sorted(LEVELS))
    parser.add_argument("--levels", help="one level per seat, comma-separated (overrides --level)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--svg", type=Path, help="histogram file (default snap-lengths-<players>p-<level>.svg)"
    )
    parser.add_argument("--tie-window", type=int, help="tie_window_ms (S34; default 30)")
    parser.add_argument("--cap-table", action="store_true", help="the cap report for every level and size")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    progress = not args.no_progress
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.cap_table:
        print(cap_table(args.games, args.seed, progress))
        return 0
    names = args.levels.split(",") if args.levels else [args.level] * args.players
    if len(names) != args.players or any(name not in LEVELS for name in names):
        parser.error(f"--levels needs {args.players} names from {', '.join(LEVELS)}")
    timing = TimingRules() if args.tie_window is None else TimingRules(tie_window_ms=args.tie_window)
    levels = [LEVELS[name] for name in names]
    stats = simulate(args.players, args.games, levels, args.seed, timing=timing, progress=progress)
    print(report(stats))
    label = args.level if not args.levels else "mixed"
    path = args.svg or Path(f"snap-lengths-{args.players}p-{label}.svg")
    title = f"Snap: flips per game, {args.players} players, {label}, {stats.games} games (seed {args.seed})"
    path.write_text(histogram_svg(stats.lengths, title))
    print(f"histogram: {path}")
    return 0


if __name__ == "__main__":
    # Nothing loaded so far dies before the run ends: keep the cycle collector from walking it at
    # every full collection (a bot game allocates millions of objects, so there are many).
    gc.freeze()
    sys.exit(main())
