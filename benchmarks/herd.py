"""The herd: N watchers of one standings table and N of the same stage's rounds and bracket, one
result (issue 27 items 1 and 2).

Against a running snapleague (``bin/run``, demo data; one web process unless told otherwise):

    rm -rf /tmp/herdvar; SNAPLEAGUE_VAR_DIR=/tmp/herdvar PORT=8021 bin/run &
    .venv/bin/python benchmarks/herd.py --server http://127.0.0.1:8021 --watchers 100 300 1000 \
        --mode frame fetch [--pid <the web process's pid>] [--runs 3]

Each watcher is a page's socket, as ``static/js/live.js`` opens it: it follows the stage on
``/ws/live/`` and, told "changed", gets its new fragment. Two ways are compared (``--mode``):

- ``fetch``: the socket says "changed" and the watcher fetches its fragment
  (``/stages/<id>/standings/table/`` or ``/stages/<id>/body/``), rendered once per version and
  served from the cache (``snapleague/fragments.py``; ``FRAGMENT_CACHE_SECONDS=0`` on the server
  renders every request, the behaviour before issue 27);
- ``frame``: the watcher asks for its fragment when it subscribes, and the "changed" frame brings
  it (tournaments/live/fragments.py); a frame without it would be followed by a fetch (counted).

For each N and run the referee records the next game of an open series of the demo's Snapszer
league through the API (HTTP Basic, ``referee``). Reported per N: from the result's 201 to each
watcher's new fragment (p50, p95, last), from each watcher's "changed" frame to its new fragment
(p95), from the moment the result was sent (p95: the frame can arrive before the 201 is back, which
counts as 0 after the 201), the fetches made, and the web process's CPU per result (with ``--pid``). Every watcher's
fragment must hold the new version (the ``data-version`` attribute; counted as stale otherwise).
The watchers run in this process (aiohttp) on the same machine as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import ssl
import statistics
import time
import urllib.request
from dataclasses import dataclass
from typing import Any

import aiohttp

AUTH = "Basic " + base64.b64encode(b"referee:referee-demo").decode()
# https (the two-host set-up behind Caddy): trust the CA given with --ca (Caddy's own local CA).
_TLS: list[ssl.SSLContext] = []


def _tls() -> ssl.SSLContext | None:
    return _TLS[0] if _TLS else None


FRAGMENTS = {"standings": "/stages/{}/standings/table/", "stage": "/stages/{}/body/"}
VERSION = re.compile(r'data-version="([^"]+)"')


def _api(server: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": AUTH, "Content-Type": "application/json", "Accept": "application/json"},
        method="POST" if body is not None else "GET",
    )
    try:
        with urllib.request.urlopen(request, timeout=30, context=_tls()) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _cpu(pids: list[int] | None) -> float:
    total = 0.0
    for pid in pids or []:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _open_series(server: str) -> tuple[int, int, list[int]]:
    """(stage, series, its players) of a Snapszer series with no game yet."""
    _status, found = _api(server, "/api/series/?game=snapszer&status=pending&page_size=200")
    for series in found["results"]:
        seats = [s for s in series["seats"] if s]
        if len(seats) == 2 and not series["walkover"]:
            return series["stage"], series["id"], [s["player"] for s in seats]
    raise SystemExit("no Snapszer series left without a game: reload the demo (bin/run --reset)")


def _results(version: str) -> int:
    return int(version.split(".", maxsplit=1)[0])


@dataclass
class Watcher:
    fragment: str
    socket: Any = None
    changed_at: float | None = None
    table_at: float | None = None
    version: str = ""
    fetched: bool = False


async def _connect(
    session: aiohttp.ClientSession, server: str, stage: int, watcher: Watcher, mode: str
) -> None:
    ws_url = server.replace("http", "ws", 1) + "/ws/live/"
    watcher.socket = await session.ws_connect(
        ws_url, headers={"Origin": server}, max_msg_size=0, ssl=_tls() or True
    )
    frame: dict[str, Any] = {"type": "subscribe", "topic": f"stage:{stage}"}
    if mode == "frame":
        frame["fragments"] = [watcher.fragment]
    await watcher.socket.send_str(json.dumps(frame))
    answer = json.loads(await watcher.socket.receive_str())
    assert answer["type"] == "subscribed", answer


async def _follow(
    session: aiohttp.ClientSession, server: str, stage: int, watcher: Watcher, after: int
) -> None:
    """Wait for the "changed" frame past results version ``after``; then the new fragment."""
    while True:
        frame = json.loads(await watcher.socket.receive_str())
        if frame.get("type") == "changed" and _results(frame["version"]) > after:
            break
    watcher.changed_at = time.monotonic()
    html = (frame.get("html") or {}).get(watcher.fragment)
    if html is None:
        watcher.fetched = True
        async with session.get(
            server + FRAGMENTS[watcher.fragment].format(stage), ssl=_tls() or True
        ) as answer:
            html = await answer.text()
    watcher.table_at = time.monotonic()
    found = VERSION.search(html)
    watcher.version = found.group(1) if found else ""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


async def run_once(server: str, watchers: int, mode: str, pid: list[int] | None) -> dict[str, Any]:
    stage, series, players = _open_series(server)
    after = _results(_api(server, f"/stages/{stage}/version/")[1]["version"])
    herd = [Watcher("standings") for _ in range(watchers)] + [Watcher("stage") for _ in range(watchers)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        for start in range(0, len(herd), 100):  # connect in batches: a thousand at once is a storm
            await asyncio.gather(
                *(_connect(session, server, stage, w, mode) for w in herd[start : start + 100])
            )
        await asyncio.sleep(0.5)  # the watcher's next tick has everyone
        followed = [asyncio.create_task(_follow(session, server, stage, w, after)) for w in herd]
        cpu = _cpu(pid)
        result = {"score": {str(players[0]): 7, str(players[1]): 3}}
        loop = asyncio.get_running_loop()
        posted = time.monotonic()
        status, body = await loop.run_in_executor(
            None, lambda: _api(server, f"/api/series/{series}/results/", {"game": 1, "result": result})
        )
        if status != 201:
            raise SystemExit(f"could not record a result: {status} {body}")
        started = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*followed), timeout=120)
        spent = _cpu(pid) - cpu
        for w in herd:
            await w.socket.close()
    out: dict[str, Any] = {"cpu": spent}
    for fragment in FRAGMENTS:
        group = [w for w in herd if w.fragment == fragment]
        # Before the 201 is back (the frame can beat the answer to the referee): 0.
        to_table = [max(0.0, w.table_at - started) for w in group if w.table_at is not None]
        from_post = [w.table_at - posted for w in group if w.table_at is not None]
        after_changed = [w.table_at - w.changed_at for w in group if w.table_at and w.changed_at]
        out[fragment] = {
            "post_p95": _pct(from_post, 0.95),
            "p50": statistics.median(to_table),
            "p95": _pct(to_table, 0.95),
            "last": max(to_table),
            "changed_p95": _pct(after_changed, 0.95),
            "fetches": sum(w.fetched for w in group),
            "stale": sum(1 for w in group if not w.version or _results(w.version) <= after),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--watchers", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--mode", nargs="+", choices=["frame", "fetch"], default=["frame", "fetch"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--pid", type=int, nargs="+", default=None, help="web processes (their CPU is summed)"
    )
    parser.add_argument("--ca", help="a CA certificate to trust for https (two hosts: Caddy's root.crt)")
    args = parser.parse_args()
    if args.ca:
        _TLS.append(ssl.create_default_context(cafile=args.ca))
    print(
        "| mode | watchers (each page) | page | after the 201: p50 / p95 / last (s) "
        '| after "changed": p95 (s) | after the result was sent: p95 (s) | fetches | stale '
        "| web CPU per result (s) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for mode in args.mode:
        for watchers in args.watchers:
            runs = [asyncio.run(run_once(args.server, watchers, mode, args.pid)) for _ in range(args.runs)]
            cpu = statistics.median(r["cpu"] for r in runs)
            for fragment in FRAGMENTS:
                med = {
                    k: statistics.median(r[fragment][k] for r in runs)
                    for k in ("p50", "p95", "last", "changed_p95", "post_p95")
                }
                fetches = sum(r[fragment]["fetches"] for r in runs)
                stale = sum(r[fragment]["stale"] for r in runs)
                print(
                    f"| {mode} | {watchers} | {fragment} | {med['p50']:.3f} / {med['p95']:.3f} / {med['last']:.3f} "
                    f"| {med['changed_p95']:.3f} | {med['post_p95']:.3f} | {fetches} | {stale} | {cpu:.2f} |"
                )
    print(f"(median of {args.runs} runs each; load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
