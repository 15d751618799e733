"""Load figures for a club server (issue 16, "Load"; figures in docs/reliability.md).

Against a running snapleague (``bin/run`` on a spare port), from the project's directory with the
same DATABASE_URL / CELERY_BROKER_URL as the server (the set-up writes a load league through the
services; the soak reads connections and the queue):

    PYTHONPATH=. .venv/bin/python benchmarks/load.py setup                   # once: the "Load League"
    PYTHONPATH=. .venv/bin/python benchmarks/load.py pages --rate 50 --seconds 60
    PYTHONPATH=. .venv/bin/python benchmarks/load.py burst --results 64 --within 5
    PYTHONPATH=. .venv/bin/python benchmarks/load.py soak --minutes 30

``--base`` is the server (default http://127.0.0.1:8000).

- **pages**: the public pages (club, tournament, a double elimination's stage page with its
  bracket, standings, series) at a fixed arrival rate (open loop: a request is sent at its time
  whether or not the earlier ones have answered, and its latency counts from that time, so a slow
  server cannot slow the clients down and hide its queue), while the referee posts results to the
  load league in the background (``--post-rate`` a second) and the worker recomputes its standings.
- **burst**: the end of a round: ``--results`` submissions through the API by the referee (each
  the next game of a different series of the load league), spread evenly over ``--within``
  seconds; every answer must be a 201; then the time until the stage's standings follow all of
  them (``standings_version`` reaches the ``results_version`` after the last one).
- **soak**: pages at ``--rate`` and results in the background for ``--minutes``; every 10 s the
  resident memory of the server's and the worker's processes, the database's connections and the
  broker's queue length; it says whether each stayed flat.

The clients are threads with one keep-alive connection each (``http.client``, no dependency); the
referee signs in once through the login page and sends the session cookie with its CSRF token, as
the pages' script does (HTTP Basic would hash the password on every request: about 0.3 s of CPU).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import ssl
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
LOAD_TOURNAMENT = "Load League"
LOAD_PLAYERS = 32  # a round robin of 32: 496 series of best of 3, each result recomputes it


# --- HTTP ----------------------------------------------------------------------------------------------


class Http:
    """One keep-alive connection per thread, cookies shared (a signed-in referee, or nobody)."""

    def __init__(self, base: str, ca: str | None = None) -> None:
        parts = urlsplit(base)
        self.tls = ssl.create_default_context(cafile=ca) if parts.scheme == "https" else None
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or (443 if self.tls else 80)
        self.cookies: dict[str, str] = {}
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            if self.tls is not None:  # behind Caddy (two hosts): its CA given with --ca
                connection = http.client.HTTPSConnection(self.host, self.port, timeout=30, context=self.tls)
            else:
                connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            self._local.connection = connection
        return connection

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        form: bool = False,
    ) -> tuple[int, bytes]:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if body is not None:
            payload = urlencode(body).encode() if form else json.dumps(body).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded" if form else "application/json"
        for attempt in range(2):  # a keep-alive connection the server closed: once more, new
            connection = self._connection()
            try:
                connection.request(method, path, body=payload, headers=sent)
                response = connection.getresponse()
                data = response.read()
                for value in response.headers.get_all("Set-Cookie") or []:
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
                return response.status, data
            except (http.client.HTTPException, OSError):
                connection.close()
                self._local.connection = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        status, data = self.request(method, path, body, headers)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, data[:200]

    def login(self, username: str, password: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _ = self.request(
            "POST",
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": self.cookies["csrftoken"]},
            {"Referer": f"http://{self.host}:{self.port}/accounts/login/"},
            form=True,
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"could not sign in as {username}: {status}")

    def write_headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.cookies.get("csrftoken", ""), "Idempotency-Key": str(uuid.uuid4())}


# --- The load league and the pages ---------------------------------------------------------------------


def setup() -> None:
    """A Snapszer round robin of LOAD_PLAYERS in the demo club, refereed by the demo referee, its
    rounds published (idempotent: an existing one is kept)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.competitions.services import (
        tournament_create,
        tournament_players_enter,
        tournament_referee_add,
    )
    from tournaments.competitions.stages import create as stages_create
    from tournaments.competitions.stages import publish as stages_publish
    from tournaments.models import Club, GameKind, Tournament

    club = Club.objects.get(slug="demo")
    if Tournament.objects.filter(club=club, name=LOAD_TOURNAMENT).exists():
        print(f"{LOAD_TOURNAMENT} is there already")
        return
    organiser = get_user_model().objects.get(username="organiser")
    tournament = tournament_create(user=organiser, club=club, name=LOAD_TOURNAMENT, game=GameKind.SNAPSZER)
    tournament_players_enter(
        user=organiser, tournament=tournament, new_names=[f"Load {n:02d}" for n in range(1, LOAD_PLAYERS + 1)]
    )
    tournament_referee_add(user=organiser, tournament=tournament, username="referee")
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin"
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    print(f"{LOAD_TOURNAMENT}: tournament {tournament.pk}, stage {stage.pk}, {stage.series.count()} series")


@dataclass
class Targets:
    pages: list[str]
    load_stage: int
    open_series: list[dict[str, Any]]  # of the load league: id, seats, games recorded so far
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_game(self) -> tuple[int, dict[str, Any]] | None:
        """A series of the load league and its next game's result (seat 0 wins to 3), or None
        when every one is decided (a best of 3 is decided after two such games)."""
        with self.lock:
            for series in self.open_series:
                if series["games"] < 2:
                    series["games"] += 1
                    a, b = series["seats"]
                    return series["id"], {"game": series["games"], "result": {"score": {a: 7, b: 3}}}
        return None


def _getter(client: Http) -> Callable[[str], Any]:
    def get(path: str) -> Any:
        status, body = client.json("GET", path)
        if status != 200:
            raise SystemExit(f"GET {path}: {status}")
        return body

    return get


def demo_pages(client: Http) -> tuple[list[str], dict[str, Any]]:
    """The demo club's public pages (club, the cup's tournament page, its double elimination's
    stage page with the brackets, the league's standings, one of its series) and its tournaments
    by name."""
    get = _getter(client)
    club = get("/api/clubs/?slug=demo")["results"][0]["id"]
    tournaments = {t["name"]: t for t in get(f"/api/tournaments/?club={club}")["results"]}
    cup = tournaments["Snapszer Winter Cup"]
    cup_stage = get(f"/api/stages/?tournament={cup['id']}")["results"][0]["id"]
    league = next(t for name, t in tournaments.items() if "Snapszer" in name and name != cup["name"])
    league_stage = get(f"/api/stages/?tournament={league['id']}")["results"][0]["id"]
    some_series = get(f"/api/series/?stage={league_stage}")["results"][0]["id"]
    pages = [
        "/clubs/demo/",
        f"/tournaments/{cup['id']}/",
        f"/stages/{cup_stage}/",  # the double elimination's brackets
        f"/stages/{league_stage}/standings/",
        f"/series/{some_series}/",
    ]
    return pages, tournaments


def find_targets(client: Http) -> Targets:
    get = _getter(client)
    pages, tournaments = demo_pages(client)
    if LOAD_TOURNAMENT not in tournaments:
        raise SystemExit(f"no {LOAD_TOURNAMENT}: run `benchmarks/load.py setup` first")
    load_stage = get(f"/api/stages/?tournament={tournaments[LOAD_TOURNAMENT]['id']}")["results"][0]["id"]
    open_series = []
    path = f"/api/series/?stage={load_stage}&status=pending"
    while path:
        page = get(path)
        open_series += [
            {"id": s["id"], "seats": [str(seat["player"]) for seat in s["seats"]], "games": 0}
            for s in page["results"]
            if not s["walkover"]
        ]
        path = page["next"] and urlsplit(page["next"])._replace(scheme="", netloc="").geturl()
    games = get(f"/api/games/?series__stage={load_stage}")["count"]
    if games:  # games recorded by an earlier run: skip the series that have any
        played = set()
        path = f"/api/games/?series__stage={load_stage}"
        while path:
            page = get(path)
            played |= {g["series"] for g in page["results"]}
            path = page["next"] and urlsplit(page["next"])._replace(scheme="", netloc="").geturl()
        open_series = [s for s in open_series if s["id"] not in played]
    pages.insert(4, f"/stages/{load_stage}/standings/")  # the one the worker is recomputing
    return Targets(pages=pages, load_stage=load_stage, open_series=open_series)


# --- Open-loop runs --------------------------------------------------------------------------------------


@dataclass
class Sample:
    path: str
    status: int  # 0: no answer (a connection error or timeout)
    latency: float  # from the time the request was due


def open_loop(
    work: Callable[[int], tuple[str, int]], count: int, rate: float, threads: int, label: str
) -> list[Sample]:
    """Starts ``work(i)`` at start + i / rate (whatever the earlier ones are doing) on a pool of
    ``threads``; each sample's latency counts from its due time."""
    samples: list[Sample] = []
    lock = threading.Lock()
    start = time.monotonic() + 0.2

    def run(i: int, due: float) -> None:
        try:
            path, status = work(i)
        except Exception as exc:
            path, status = f"error: {exc.__class__.__name__}", 0
        with lock:
            samples.append(Sample(path, status, time.monotonic() - due))

    with ThreadPoolExecutor(max_workers=threads) as pool, tqdm(total=count, desc=label, unit="req") as bar:
        futures = []
        for i in range(count):
            due = start + i / rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            futures.append(pool.submit(run, i, due))
            bar.update(1)
        for future in futures:
            future.result()
    return samples


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def report(samples: list[Sample], seconds: float) -> dict[str, Any]:
    latencies = [s.latency for s in samples]
    by_status: dict[int, int] = {}
    for s in samples:
        by_status[s.status] = by_status.get(s.status, 0) + 1
    errors = sum(n for status, n in by_status.items() if status == 0 or status >= 400)
    figures = {
        "requests": len(samples),
        "answered_per_s": round(len(samples) / seconds, 1),  # over the whole run, its tail included
        "p50_ms": round(1000 * percentile(latencies, 50), 1),
        "p95_ms": round(1000 * percentile(latencies, 95), 1),
        "p99_ms": round(1000 * percentile(latencies, 99), 1),
        "max_ms": round(1000 * max(latencies), 1),
        "statuses": by_status,
        "errors": errors,
    }
    per_path: dict[str, list[float]] = {}
    for s in samples:
        per_path.setdefault(s.path, []).append(s.latency)
    figures["p95_ms_by_page"] = {
        path: round(1000 * percentile(values, 95), 1) for path, values in sorted(per_path.items())
    }
    return figures


class Poster(threading.Thread):
    """The referee recording results in the background, ``rate`` a second (keeps the worker busy)."""

    def __init__(self, base: str, targets: Targets, rate: float) -> None:
        super().__init__(daemon=True)
        self.client = Http(base)
        self.client.login("referee", "referee-demo")
        self.targets, self.rate = targets, rate
        self.stop = threading.Event()
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        if self.rate <= 0:
            return
        while not self.stop.wait(1 / self.rate):
            game = self.targets.next_game()
            if game is None:
                return
            series_id, body = game
            status, _ = self.client.json(
                "POST", f"/api/series/{series_id}/results/", body, **self.client.write_headers()
            )
            self.statuses[status] = self.statuses.get(status, 0) + 1


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pages(args: argparse.Namespace) -> dict[str, Any]:
    reader = Http(args.base)
    targets = find_targets(reader)
    poster = Poster(args.base, targets, args.post_rate)
    count = int(args.rate * args.seconds)
    before = load_average()
    poster.start()

    def fetch(i: int) -> tuple[str, int]:
        path = targets.pages[i % len(targets.pages)]
        return path, reader.request("GET", path)[0]

    started = time.monotonic()
    samples = open_loop(fetch, count, args.rate, args.threads, f"pages at {args.rate}/s")
    elapsed = time.monotonic() - started
    poster.stop.set()
    poster.join()
    figures = report(samples, elapsed)
    if args.post_rate and not poster.statuses:
        # Every series of the Load League is decided: the worker had nothing to recompute.
        print(
            f"warning: no result was posted: the {LOAD_TOURNAMENT} is played out (496 series); "
            "the figures are of the pages alone",
            file=sys.stderr,
        )
    figures |= {
        "rate": args.rate,
        "seconds": args.seconds,
        "background_results": poster.statuses,
        "load_average_before": before,
        "load_average_after": load_average(),
    }
    return figures


def burst(args: argparse.Namespace) -> dict[str, Any]:
    referee = Http(args.base)
    referee.login("referee", "referee-demo")
    targets = find_targets(referee)
    # One game of a different series each, as at the end of a round.
    chosen = targets.open_series[: args.results]
    if len(chosen) < args.results:
        raise SystemExit(f"only {len(chosen)} open series left in the load league: `setup` a new one")
    _, before = referee.json("GET", f"/api/stages/{targets.load_stage}/standings/")
    versions: list[int] = []
    load_before = load_average()

    def submit(i: int) -> tuple[str, int]:
        series = chosen[i]
        a, b = series["seats"]
        body = {"game": 1, "result": {"score": {a: 7, b: 2}}}
        status, answer = referee.json(
            "POST", f"/api/series/{series['id']}/results/", body, **referee.write_headers()
        )
        if status == 201:
            versions.append(answer["version"])
        return f"POST results ({status})", status

    started = time.monotonic()
    samples = open_loop(submit, args.results, args.results / args.within, args.threads, "burst")
    submitted = time.monotonic()
    _, after = referee.json("GET", f"/api/stages/{targets.load_stage}/standings/")
    target_version = after["results_version"]
    while True:
        _, now = referee.json("GET", f"/api/stages/{targets.load_stage}/standings/")
        if now["standings_version"] >= target_version:
            break
        if time.monotonic() - submitted > 120:
            raise SystemExit(f"standings did not follow within 120 s: {now}")
        time.sleep(0.05)
    followed = time.monotonic()
    figures = report(samples, submitted - started)
    figures |= {
        "results": args.results,
        "within_s": args.within,
        "all_201": figures["statuses"] == {201: args.results},
        "results_version": f"{before['results_version']} -> {target_version}",
        "submitting_took_s": round(submitted - started, 2),
        "standings_followed_after_last_answer_s": round(followed - submitted, 2),
        "standings_followed_after_first_request_s": round(followed - started, 2),
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }
    return figures


# --- Soak ------------------------------------------------------------------------------------------------


def server_processes() -> dict[str, list[int]]:
    """The uvicorn and Celery processes started from this project's directory (bin/run's)."""
    found: dict[str, list[int]] = {"web": [], "worker": []}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "cwd") != str(ROOT):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "uvicorn" in command:
            found["web"].append(int(entry.name))
        elif "celery" in command:
            found["worker"].append(int(entry.name))
    # uvicorn --workers N spawns its workers (multiprocessing): their command line does not say
    # uvicorn, so count every descendant of a uvicorn process with it.
    found["web"] += descendants(found["web"])
    return found


def descendants(roots: list[int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in roots and child not in found:
                found.append(child)
                todo.append(child)
    return found


def rss_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else 0.0


def database_connections() -> int | None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return None
    name = urlsplit(url).path.lstrip("/")
    query = f"select count(*) from pg_stat_activity where datname = '{name}'"
    out = subprocess.run(["psql", url, "-Atc", query], capture_output=True, text=True, check=False)
    return int(out.stdout.strip()) if out.returncode == 0 else None


def queue_length() -> int | None:
    url = os.environ.get("CELERY_BROKER_URL", "")
    if url.startswith("redis"):
        import redis

        return int(redis.Redis.from_url(url).llen("celery"))
    folder = ROOT / "var" / "celery-broker"
    return len(list(folder.glob("*.msg"))) if folder.is_dir() else None


def sample_server() -> dict[str, Any]:
    processes = server_processes()
    return {
        "t": time.monotonic(),
        "web_mb": round(sum(rss_mb(p) for p in processes["web"]), 1),
        "worker_mb": round(sum(rss_mb(p) for p in processes["worker"]), 1),
        "db_connections": database_connections(),
        "queue": queue_length(),
    }


def soak(args: argparse.Namespace) -> dict[str, Any]:
    seconds = args.minutes * 60
    series: list[dict[str, Any]] = [sample_server()]
    stop = threading.Event()

    def sampler() -> None:
        while not stop.wait(10):
            series.append(sample_server())

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    figures = pages(argparse.Namespace(**{**vars(args), "seconds": seconds}))
    stop.set()
    thread.join()
    series.append(sample_server())

    def trend(key: str) -> dict[str, Any]:
        values = [s[key] for s in series if s[key] is not None]
        if not values:
            return {"measured": False}
        third = max(1, len(values) // 3)
        first, last = statistics.mean(values[:third]), statistics.mean(values[-third:])
        return {
            "first_third_mean": round(first, 1),
            "last_third_mean": round(last, 1),
            "min": min(values),
            "max": max(values),
            # Flat: the last third's mean within 10% (or 2 units) of the first third's.
            "flat": abs(last - first) <= max(2.0, 0.1 * abs(first)),
        }

    figures["soak"] = {key: trend(key) for key in ("web_mb", "worker_mb", "db_connections", "queue")}
    figures["samples"] = [
        {k: v for k, v in s.items() if k != "t"} | {"at_s": round(s["t"] - series[0]["t"])} for s in series
    ]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["setup", "pages", "burst", "soak"])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--rate", type=float, default=50, help="page requests a second (pages, soak)")
    parser.add_argument("--seconds", type=float, default=60, help="how long (pages)")
    parser.add_argument("--minutes", type=float, default=30, help="how long (soak)")
    parser.add_argument("--post-rate", type=float, default=2, help="background results a second")
    parser.add_argument("--results", type=int, default=64, help="submissions (burst)")
    parser.add_argument("--within", type=float, default=5, help="seconds to spread them over (burst)")
    parser.add_argument("--threads", type=int, default=64, help="client threads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.command == "setup":
        setup()
        return
    figures = {"pages": pages, "burst": burst, "soak": soak}[args.command](args)
    text = json.dumps(figures, indent=2, default=str)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
