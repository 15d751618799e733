"""What the live-pages version watcher costs (docs/architecture.md, "Live updates").

In this process, on the configured database (the embedded SQLite file, or DATABASE_URL), with the
stages and series that are there (``bin/run`` loads the demo club):

    .venv/bin/python benchmarks/live_watcher.py [--ticks 2000] [--topics 1 10 100]

times the watcher's ``tick()`` with that many followed topics and nothing moving (the steady state:
one primary-key query, an executor hop, the comparisons), wall and CPU per tick, and what that
makes at the default interval; and one tick in which every followed series' stage moved (the
recount). Topics beyond the stages and series in the database get ids past the real ones (a stage
topic's id is in the query even when no row has it; a series topic counts its real series' rows).

Against a running server (``bin/run``), its process's CPU with nobody following anything and then
with ``--sockets`` websockets each following a stage:

    .venv/bin/python benchmarks/live_watcher.py --server http://127.0.0.1:8011 --pid <uvicorn pid> \
        --sockets 50 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _watcher(topics: int) -> object:
    """A watcher following ``topics`` topics of this database, half stages and half series."""
    from django.conf import settings

    from tournaments.live.selectors import series_versions, stage_versions
    from tournaments.live.topics import Topic, TopicKind
    from tournaments.live.watcher import VersionWatcher
    from tournaments.models import Series, Stage

    stage_ids = list(Stage.objects.values_list("pk", flat=True))
    series = list(Series.objects.values_list("pk", "stage_id"))
    if not stage_ids or not series:
        sys.exit("No stages or series in this database: run bin/run (demo data) first.")
    watcher = VersionWatcher(interval=settings.LIVE_WATCH_SECONDS, layer_alias=settings.LIVE_CHANNEL_LAYER)
    versions = stage_versions(stage_ids=stage_ids)
    counts = series_versions(series_ids=[pk for pk, _ in series])
    # Topics past the real ones get ids offset by 10**9 per round (see the docstring).
    for i in range(topics):
        if i % 2 == 0:
            stage_id = stage_ids[(i // 2) % len(stage_ids)]
            topic = Topic(TopicKind.STAGE, stage_id + 10**9 * (i // 2 // len(stage_ids)))
            watcher._watches[topic] = _watch(version=str(versions[stage_id]), stage_id=topic.id)
        else:
            series_id, stage_id = series[(i // 2) % len(series)]
            topic = Topic(TopicKind.SERIES, series_id + 10**9 * (i // 2 // len(series)))
            watcher._watches[topic] = _watch(version=str(counts[series_id]), stage_id=stage_id)
    return watcher


def _watch(*, version: str, stage_id: int) -> object:
    from tournaments.live.watcher import _Watch

    return _Watch(followers=1, version=version, stage_id=stage_id)


async def _ticks(watcher: Any, ticks: int) -> tuple[list[float], float, int]:
    """Tick ``watcher`` by hand (its own task is never started: no sleeping between ticks)."""
    recount_started = time.perf_counter()
    await watcher.tick()  # the first tick counts every followed series
    recount = time.perf_counter() - recount_started
    walls: list[float] = []
    cpu_started = time.process_time()
    for _ in range(ticks):
        started = time.perf_counter()
        moved = await watcher.tick()
        walls.append(time.perf_counter() - started)
        assert not moved
    return walls, (time.process_time() - cpu_started) / ticks, round(recount * 1e6)


def in_process(topic_counts: list[int], ticks: int) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    interval = settings.LIVE_WATCH_SECONDS
    print(f"database: {connection.vendor}; interval {interval} s; {ticks} ticks each")
    print(
        "| topics | tick wall p50 | p95 | CPU per tick | CPU at the interval | first tick (all series counted) |"
    )
    print("|---|---|---|---|---|---|")
    for topics in topic_counts:
        walls, cpu, recount = asyncio.run(_ticks(_watcher(topics), ticks))
        p95 = sorted(walls)[int(0.95 * (len(walls) - 1))]
        print(
            f"| {topics} | {statistics.median(walls) * 1e6:.0f} µs | {p95 * 1e6:.0f} µs | {cpu * 1e6:.0f} µs"
            f" | {cpu / interval * 100:.2f} % of a core | {recount} µs |"
        )


async def _follow(server: str, sockets: int, seconds: float, pid: int) -> None:
    from websockets.asyncio.client import connect

    url = server.replace("http", "ws", 1).rstrip("/") + "/ws/live/"
    with urllib.request.urlopen(server.rstrip("/") + "/api/stages/") as response:
        stage_ids = [stage["id"] for stage in json.load(response)["results"]]
    opened = []
    for i in range(sockets):
        ws = await connect(url, additional_headers={"Origin": server})
        await ws.send(json.dumps({"type": "subscribe", "topic": f"stage:{stage_ids[i % len(stage_ids)]}"}))
        answer = json.loads(await ws.recv())
        assert answer["type"] == "subscribed", answer
        opened.append(ws)
    await asyncio.sleep(1)
    before, started = _cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    used = (_cpu_seconds(pid) - before) / (time.monotonic() - started)
    print(f"{sockets} sockets following {len(stage_ids)} stages: server CPU {used * 100:.2f} % of a core")
    for ws in opened:
        await ws.close()


def against_server(server: str, pid: int, sockets: int, seconds: float) -> None:
    time.sleep(2)  # let sockets of an earlier run be gone
    before, started = _cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    idle = (_cpu_seconds(pid) - before) / (time.monotonic() - started)
    print(f"nobody following: server CPU {idle * 100:.2f} % of a core")
    asyncio.run(_follow(server, sockets, seconds, pid))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ticks", type=int, default=2000)
    parser.add_argument("--topics", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--server", help="a running snapleague's base URL")
    parser.add_argument("--pid", type=int, help="its uvicorn process id")
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    if args.server:
        if not args.pid:
            parser.error("--server needs --pid (the uvicorn process whose CPU to measure)")
        against_server(args.server, args.pid, args.sockets, args.seconds)
    else:
        in_process(args.topics, args.ticks)


if __name__ == "__main__":
    main()
