"""The herd: N watchers of one standings table fetch it at once after a result (issue 27).

Against a running snapleague (``bin/run``, demo data; one web process unless told otherwise):

    PORT=8021 SNAPLEAGUE_VAR_DIR=var/herd bin/run &
    .venv/bin/python benchmarks/herd.py --server http://127.0.0.1:8021 --watchers 20 100 300 \
        [--pid <the web process's pid>] [--runs 3]

For each N and run: the referee records the next game of an open series of the demo's Snapszer
league through the API (HTTP Basic, ``referee``), then, as soon as the 201 is back, N watchers fetch
``/stages/<id>/standings/table/`` at once, as ``static/js/live.js`` does once told "changed" (the
socket's "changed" frame itself is not part of this figure). Reported per N: the time from the 201
to each watcher's new table (p50, p95, last), and the web process's CPU per result (with ``--pid``).
Every watcher's table must hold the new version (checked: the ``data-version`` attribute).

``FRAGMENT_CACHE_SECONDS=0`` on the server renders every request (the behaviour before issue 27's cache),
for the comparison in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import statistics
import time
import urllib.request
from typing import Any

import aiohttp

AUTH = "Basic " + base64.b64encode(b"referee:referee-demo").decode()


def _api(server: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": AUTH, "Content-Type": "application/json", "Accept": "application/json"},
        method="POST" if body is not None else "GET",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _cpu(pid: int | None) -> float:
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _open_series(server: str) -> tuple[int, int, int, list[int]]:
    """(stage, series, game 1, its players) of a Snapszer series with no game yet."""
    _status, found = _api(server, "/api/series/?game=snapszer&status=pending&page_size=200")
    for series in found["results"]:
        seats = [s for s in series["seats"] if s]
        if len(seats) == 2 and not series["walkover"]:
            return series["stage"], series["id"], 1, [s["player"] for s in seats]
    raise SystemExit("no Snapszer series left without a game: reload the demo (bin/run --reset)")


async def _watch(session: aiohttp.ClientSession, url: str, started: float) -> tuple[float, str]:
    async with session.get(url) as answer:
        text = await answer.text()
    found = re.search(r'data-version="([^"]+)"', text)
    return time.monotonic() - started, found.group(1) if found else ""


async def _herd(server: str, stage: int, watchers: int, started: float) -> list[tuple[float, str]]:
    url = f"{server}/stages/{stage}/standings/table/"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        return list(await asyncio.gather(*(_watch(session, url, started) for _ in range(watchers))))


def run_once(server: str, watchers: int, pid: int | None) -> dict[str, Any]:
    for _attempt in range(20):
        stage, series, game, players = _open_series(server)
        result = {"score": {str(players[0]): 7, str(players[1]): 3}}
        cpu = _cpu(pid)
        status, body = _api(server, f"/api/series/{series}/results/", {"game": game, "result": result})
        if status == 201:
            break
        # Someone else's game (a stale read of the series): try the next open one.
    else:
        raise SystemExit(f"could not record a result: {status} {body}")
    started = time.monotonic()
    stage_version = _api(server, f"/stages/{stage}/version/")[1]["version"]
    times = asyncio.run(_herd(server, stage, watchers, started))
    spent = _cpu(pid) - cpu
    results_version = stage_version.split(".")[0]
    stale = sum(1 for _t, version in times if version.split(".")[0] < results_version)
    seconds = sorted(t for t, _v in times)
    return {
        "p50": statistics.median(seconds),
        "p95": seconds[int(0.95 * (len(seconds) - 1))],
        "last": seconds[-1],
        "cpu": spent,
        "stale": stale,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--watchers", type=int, nargs="+", default=[20, 100, 300])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pid", type=int, default=None)
    args = parser.parse_args()
    print("| watchers | p50 (s) | p95 (s) | last (s) | web CPU per result (s) | stale tables |")
    print("|---|---|---|---|---|---|")
    for watchers in args.watchers:
        runs = [run_once(args.server, watchers, args.pid) for _ in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs) for k in ("p50", "p95", "last", "cpu")}
        stale = sum(r["stale"] for r in runs)
        print(
            f"| {watchers} | {med['p50']:.3f} | {med['p95']:.3f} | {med['last']:.3f} | "
            f"{med['cpu']:.2f} | {stale} |"
        )
    print(f"(median of {args.runs} runs each; load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
