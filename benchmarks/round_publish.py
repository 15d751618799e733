"""How long a round takes to be published after its deciding result, with 4 stages at full speed.

Usage (PostgreSQL + Redis and real Celery workers; the database is migrated, and its tournaments
are left in it: use a database of its own):
    DATABASE_URL=postgres://snapleague@127.0.0.1:5432/snapleague_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 \\
        PYTHONPATH=. .venv/bin/python benchmarks/round_publish.py [--stages 4] [--players 16] [--runs 3]
        [--modes queues,one-worker,one-queue] [--history 0]

For each mode and run it starts the workers, then 4 threads (``--stages``), one per stage, enter
results through the result service (``result_record``, what the API and the pages call after
reading a request; not over HTTP, so the web server's time is not in the figures) as fast as the
database takes them: every series of the open round 2-0, then wait for the next round and go on,
until the Swiss of 16 players (4 rounds) is over. All stages are in one club, so every result also
asks for the club's ratings; ``--history N`` gives that club N earlier Snapszer series first (built
as benchmarks/club_ratings.py does), so each ratings recomputation takes seconds, as in a real club. Measured: from the moment the round's deciding result is committed
(``result_record`` returned) to the round's ``published_at`` (set by the worker in the same
transaction that publishes it), and the depth of each queue every 0.1 s.

Modes:
- ``queues``: the two workers ``bin/run`` starts (snapleague/supervise.py): ``stages`` (2
  processes) and ``background`` (1).
- ``one-worker``: the two queues, but one worker of 2 processes consuming both, ``stages`` first
  (``--queues=stages,background``; the Redis transport's ``priority`` queue order asks ``stages``
  first every time), so background work runs only when no stage task waits.
- ``one-queue``: ``SNAPLEAGUE_ONE_QUEUE=1``, every task in one queue and one worker of 2
  processes, as main was before issue 23 (the coalescing stays on in both modes).

Prints a table per mode (median, p95, max latency; the median of the runs' p95) and writes
docs/round-publish.svg (the latency distribution and the queue depths of the last run).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SVG = ROOT / "docs" / "round-publish.svg"
MODES = ("queues", "one-worker", "one-queue")


def _setup(one_queue: bool) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
    os.environ["SNAPLEAGUE_ONE_QUEUE"] = "1" if one_queue else "0"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    import django

    django.setup()


# --- One mode (a child process: the routes are read from the settings at start) -----------------


def _workers(mode: str, log_dir: Path) -> list[subprocess.Popen[bytes]]:
    from snapleague.supervise import snapleague_children

    env = {**os.environ, "DATABASE_POOL": "0"}
    children = snapleague_children(env, host="127.0.0.1", port=0, var_dir=log_dir)
    one = (
        sys.executable,
        "-m",
        "celery",
        "-A",
        "snapleague",
        "worker",
        "--loglevel=WARNING",
        "--concurrency=2",
    )
    if mode == "one-queue":  # main's single worker: every task, FIFO, 2 processes
        argvs = [[*one, "--queues=background", "--hostname=one@%h"]]
    elif mode == "one-worker":  # both queues, stages first, in one worker of 2 processes
        argvs = [[*one, "--queues=stages,background", "--hostname=one@%h"]]
    else:
        argvs = [list(c.argv) for c in children if c.name in {"worker", "background"}]
    started = []
    for number, argv in enumerate(argvs):
        log = (log_dir / f"worker-{number}.log").open("wb")
        started.append(
            subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        )
    return started


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _depths() -> dict[str, int]:
    from django.conf import settings

    from snapleague.celery import app

    with app.connection_for_read() as connection:
        channel = connection.default_channel
        found = {}
        for queue in (settings.CELERY_STAGES_QUEUE, settings.CELERY_BACKGROUND_QUEUE):
            try:
                found[queue] = channel.queue_declare(queue=queue, passive=True).message_count
            except connection.channel_errors:  # not declared yet: nothing was sent to it
                found[queue] = 0
        return found


def _purge() -> None:
    from django.conf import settings

    from snapleague.celery import app

    with app.connection_for_write() as connection:
        for queue in (settings.CELERY_STAGES_QUEUE, settings.CELERY_BACKGROUND_QUEUE):
            connection.default_channel.queue_purge(queue)


def _stages(count: int, players: int, history: int) -> tuple[Any, list[int]]:
    import random
    import secrets

    from django.contrib.auth import get_user_model

    from tournaments.competitions.services import tournament_create, tournament_players_enter
    from tournaments.competitions.stages.create import stage_create
    from tournaments.models import Club, GameKind

    organiser, _ = get_user_model().objects.get_or_create(username="bench-round-publish")
    if history:  # a club with a past: each ratings recomputation reads and rewrites all of it
        from benchmarks.club_ratings import build

        club = build(200, history, random.Random(2026))
    else:
        club = Club.objects.create(name="Round publish bench", slug=f"round-publish-{secrets.token_hex(4)}")
    club.organisers.add(organiser)
    ids = []
    for number in range(count):
        tournament = tournament_create(
            user=organiser, club=club, name=f"Swiss {number}", game=GameKind.SNAPSZER
        )
        tournament_players_enter(
            user=organiser, tournament=tournament, new_names=[f"S{number}P{i:03d}" for i in range(players)]
        )
        ids.append(stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss").pk)
    return organiser, ids


def _drive(stage_id: int, user: Any, latencies: list[float], progress: Any, failures: list[str]) -> None:
    """One client: every open series of the stage 2-0 (the lower seat wins), then wait for the next
    round; the latency of each round after the first is recorded."""
    from django.db import connection

    from tournaments.competitions.results.selectors import result_target_get
    from tournaments.competitions.results.services import UserSource, result_record
    from tournaments.competitions.stages.publish import stage_round_publish
    from tournaments.models import Round, Series, Stage

    try:
        stage_round_publish(user=user, stage_id=stage_id)
        number = 1
        while True:
            open_series = list(
                Series.objects.filter(stage_id=stage_id, round__number=number, walkover=False)
                .exclude(status=Series.Status.DECIDED)
                .prefetch_related("seats")
            )
            for series in open_series:
                seats = [s.player_id for s in sorted(series.seats.all(), key=lambda s: s.seat)]
                for game in (1, 2):
                    target = result_target_get(user=user, series_id=series.pk, game_number=game)
                    value = target.parse({"score": {str(seats[0]): 7, str(seats[1]): 3}})
                    result_record(
                        source=UserSource(user), series_id=series.pk, game_number=game, result=value
                    )
            decided = time.time()
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                published = (
                    Round.objects.filter(stage_id=stage_id, number=number + 1)
                    .values_list("published_at", flat=True)
                    .first()
                )
                if published is not None:
                    latencies.append(published.timestamp() - decided)
                    break
                if Stage.objects.filter(pk=stage_id, status=Stage.Status.FINISHED).exists():
                    return
                time.sleep(0.01)
            else:
                failures.append(f"stage {stage_id}: round {number + 1} not published within 120 s")
                return
            number += 1
            progress.update(1)
    except Exception as exc:  # reported; the other stages go on
        failures.append(f"stage {stage_id}: {exc!r}")
    finally:
        connection.close()


def _sample(stop: threading.Event, depths: list[tuple[float, int, int]], started: float) -> None:
    while not stop.is_set():
        d = _depths()
        depths.append((time.time() - started, d["stages"], d["background"]))
        stop.wait(0.1)


def run_mode(mode: str, runs: int, stages: int, players: int, history: int = 0) -> dict[str, Any]:
    _setup(one_queue=mode == "one-queue")
    from django.core.management import call_command
    from tqdm import tqdm

    call_command("migrate", verbosity=0)
    out: dict[str, Any] = {"mode": mode, "runs": []}
    rounds = max(1, (players - 1).bit_length()) - 1  # Swiss default: ceil(log2 n) rounds; after the 1st
    for run in range(runs):
        _purge()
        with tempfile.TemporaryDirectory() as logs:
            workers = _workers(mode, Path(logs))
            time.sleep(4)  # the workers connect
            user, stage_ids = _stages(stages, players, history)
            latencies: list[float] = []
            failures: list[str] = []
            depths: list[tuple[float, int, int]] = []
            stop = threading.Event()
            started = time.time()

            sampler = threading.Thread(target=_sample, args=(stop, depths, started), daemon=True)
            sampler.start()
            with tqdm(total=stages * rounds, desc=f"{mode} run {run + 1}/{runs}: rounds", leave=False) as bar:
                clients = [
                    threading.Thread(target=_drive, args=(s, user, latencies, bar, failures))
                    for s in stage_ids
                ]
                for client in clients:
                    client.start()
                for client in clients:
                    client.join()
            stop.set()
            sampler.join()
            _stop(workers)
        out["runs"].append(
            {"latencies": latencies, "failures": failures, "depths": depths, "load": os.getloadavg()}
        )
    return out


# --- The parent: every mode, the table, the figure -------------------------------------------


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def write_svg(results: list[dict[str, Any]], path: Path) -> None:
    """Left: every round's latency per mode (all runs), as a histogram of 0.1 s bins; right: the
    queue depths over the last run of each mode."""
    width, height, pad = 900, 340, 40
    colours = {"queues": "#1f77b4", "one-worker": "#2ca02c", "one-queue": "#d62728"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        f'font-size="11"><rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{pad}" y="18" font-size="13">Round published after its deciding result (s), all runs</text>',
        f'<text x="{width // 2 + pad}" y="18" font-size="13">Queue depth over the last run (messages)</text>',
    ]
    all_latencies = [x for r in results for run in r["runs"] for x in run["latencies"]]
    top = max([1.0, *all_latencies])
    bins = max(10, min(60, int(top / 0.1) + 1))
    step = top / bins
    left_w, plot_h = width // 2 - 2 * pad, height - 2 * pad - 20
    counts_by_mode = {}
    for result in results:
        counts = [0] * bins
        for x in (x for run in result["runs"] for x in run["latencies"]):
            counts[min(bins - 1, int(x / step))] += 1
        counts_by_mode[result["mode"]] = counts
    peak = max([1, *(c for counts in counts_by_mode.values() for c in counts)])
    bar_w = left_w / bins / max(1, len(results))
    for m, (mode, counts) in enumerate(counts_by_mode.items()):
        for i, c in enumerate(counts):
            h = plot_h * c / peak
            x = pad + i * left_w / bins + m * bar_w
            parts.append(
                f'<rect x="{x:.1f}" y="{pad + 10 + plot_h - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
                f'fill="{colours.get(mode, "#555")}"/>'
            )
        parts.append(
            f'<text x="{pad + 10}" y="{pad + 20 + 14 * m}" fill="{colours.get(mode, "#555")}">{mode}</text>'
        )
    base = pad + 10 + plot_h
    parts.append(f'<line x1="{pad}" y1="{base}" x2="{pad + left_w}" y2="{base}" stroke="black"/>')
    for tick in range(6):
        x = pad + left_w * tick / 5
        parts.append(f'<text x="{x:.0f}" y="{base + 14}" text-anchor="middle">{top * tick / 5:.1f}</text>')
    # Right: depth polylines.
    x0 = width // 2 + pad
    series = []
    for result in results:
        depths = result["runs"][-1]["depths"] if result["runs"] else []
        series.append((result["mode"], depths))
    t_max = max([1.0, *(d[0] for _m, ds in series for d in ds)])
    d_max = max([1, *(max(d[1], d[2]) for _m, ds in series for d in ds)])
    for mode, depths in series:
        for index, dash in ((1, ""), (2, ' stroke-dasharray="4 3"')):
            if not depths:
                continue
            points = " ".join(
                f"{x0 + left_w * d[0] / t_max:.1f},{base - plot_h * d[index] / d_max:.1f}" for d in depths
            )
            parts.append(
                f'<polyline points="{points}" fill="none" stroke="{colours.get(mode, "#555")}"{dash}/>'
            )
    parts.append(f'<line x1="{x0}" y1="{base}" x2="{x0 + left_w}" y2="{base}" stroke="black"/>')
    parts.append(f'<text x="{x0}" y="{base + 14}">0 s</text>')
    parts.append(f'<text x="{x0 + left_w}" y="{base + 14}" text-anchor="end">{t_max:.0f} s</text>')
    parts.append(f'<text x="{x0 + 4}" y="{pad + 20}">max {d_max}; solid: stages, dashed: background</text>')
    parts.append(f'<text x="{x0 + 4}" y="{pad + 34}">(one-queue: all in background)</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--history",
        type=int,
        default=0,
        help="earlier Snapszer series of the club (benchmarks/club_ratings.py)",
    )
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--child-mode", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--svg", type=Path, default=SVG)
    args = parser.parse_args()
    if args.child_mode:
        print(json.dumps(run_mode(args.child_mode, args.runs, args.stages, args.players, args.history)))
        return

    from rich.console import Console
    from rich.table import Table

    results = []
    for mode in args.modes.split(","):
        done = subprocess.run(
            [
                *(sys.executable, __file__, "--child-mode", mode, "--runs", str(args.runs)),
                *(
                    "--stages",
                    str(args.stages),
                    "--players",
                    str(args.players),
                    "--history",
                    str(args.history),
                ),
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    table = Table(
        title=f"Round publishing, {args.stages} stages of {args.players} at full speed, "
        f"club history {args.history} series"
    )
    for column in (
        "mode",
        "rounds",
        "median s",
        "p95 s",
        "max s",
        "median of runs' p95",
        "peak depth",
        "load",
    ):
        table.add_column(column)
    for result in results:
        runs = result["runs"]
        every = [x for run in runs for x in run["latencies"]]
        p95s = [_quantile(run["latencies"], 0.95) for run in runs]
        peak = max([(0, 0), *((d[1], d[2]) for run in runs for d in run["depths"])], key=sum)
        table.add_row(
            result["mode"],
            str(len(every)),
            f"{statistics.median(every):.3f}" if every else "-",
            f"{_quantile(every, 0.95):.3f}",
            f"{max(every):.3f}" if every else "-",
            f"{statistics.median(p95s):.3f}" if p95s else "-",
            f"stages {peak[0]}, background {peak[1]}",
            " ".join(f"{x:.2f}" for x in runs[-1]["load"]) if runs else "-",
        )
        for run in runs:
            for failure in run["failures"]:
                print("FAILED:", result["mode"], failure, file=sys.stderr)
    Console().print(table)
    write_svg(results, args.svg)
    print(f"wrote {args.svg.relative_to(ROOT) if args.svg.is_relative_to(ROOT) else args.svg}")


if __name__ == "__main__":
    main()
