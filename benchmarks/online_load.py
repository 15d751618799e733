"""Online play under load (issue 14, "Benchmarks"; figures in docs/benchmarks.md, "Online play").

Real websockets on loopback against a running snapleague (``bin/run`` on a spare port), from the
project's directory with the same DATABASE_URL as the server (the set-up and the runs make their
tables through the services, and the runs read the fresh tables' seats from the database):

    PORT=8766 WEB_CONCURRENCY=1 bin/run                                     # the server, elsewhere
    PYTHONPATH=. .venv/bin/python benchmarks/online_load.py setup --base http://127.0.0.1:8766
    PYTHONPATH=. .venv/bin/python benchmarks/online_load.py run --base http://127.0.0.1:8766 \\
        --snapszer 100 --snap 20 --seconds 150
    PYTHONPATH=. .venv/bin/python benchmarks/online_load.py ramp --base http://127.0.0.1:8766 \\
        --pin-server 1 --pin-client 0 --steps 20,40,80,120,160,200,250 --svg docs/online-load-ramp.svg

- **setup**: ``--accounts`` benchmark accounts (``onload-001`` …), each signed in once through the
  login page (the session cookies are kept in var/online_load/sessions.json: a login hashes the
  password, about 0.3 s of the server's CPU, which is not what is measured here), and fresh casual
  tables. Every seat of every table is a person: a Snapszer table has two human seats, a Snap
  table four (the issue's "bots on the client side": each seat is played by a client-side bot
  over its own socket, as a person's browser would; the server runs no bot). ``run`` and ``ramp``
  top the fresh tables up themselves before their clock starts.
- **run**: (restart the server between runs: its owners keep the last run's games in memory) ``--snapszer`` Snapszer and ``--snap`` four-seat Snap games at once for ``--seconds``
  (a game that ends is replaced by a fresh table with the same accounts' sockets, so the number
  of live games stays put). Each seat opens ``/ws/games/<id>/`` with its session cookie and plays
  from its own frames only: Snapszer picks a legal action of its view (``hand.legal_actions``,
  never a declaration) after a human think time (0.7–2 s); Snap runs the engine's Snap bot
  (``games.engine.snap.bots.Bot``, "club" level: its flip pace and its reaction times) on the
  view the frame carries, and answers the server's pings. Reported: action → acknowledgement
  p50/p95/p99 (per game too), actions/s, errors (error frames, unanswered actions, dropped
  sockets), the server processes' CPU per live game, the client's own loop lag.
- **ramp**: one web process (start the server with WEB_CONCURRENCY=1; ``--pin-server 1`` pins
  its threads to core 1 with sched_setaffinity, ``--pin-client 0`` this script to core 0), the
  number of concurrent games raised step by step (``--steps``, the issue's mix: one four-seat
  Snap game for every ``--snap-every`` games) until a step's p95 passes ``--target-ms``: the
  largest step under it is the games one core holds. ``--svg`` draws p95 against games.

**The acknowledgement of an action** is the first frame the acting socket receives that answers
it: Snapszer, the first view of a later version than the act answered (the owner broadcasts it
after the log row is written), or the error frame that refuses it. Snap, whose versions also move
with timers and round trips: a call is acknowledged by the first later view whose events name
the caller's seat as calling (``call``, ``call_refused``, ``late``); a flip by the first later
view (or a ``flip_refused`` naming the seat). An action with no acknowledgement within
``--give-up`` seconds counts as an error, and the socket asks for a resync.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = ROOT / "var" / "online_load" / "sessions.json"
PASSWORD = "onload-benchmark-pw"  # benchmark accounts only
PREFIX = "onload-"
# The longest absence a table allows: a run's games left unfinished when it ends wait for their
# players instead of being played on by stand-in bots in the server (a later run would measure them).
ABSENT_SECONDS = 3600
SNAPSZER_OPTIONS: dict[str, Any] = {"profile": "snapszer"}
SNAP_OPTIONS: dict[str, Any] = {"profile": "classic", "max_game_seconds": 120}  # the lobby's "2 minutes"
SNAP_SEATS = 4
SNAP_LEVEL = "club"
THINK_SECONDS = (0.7, 2.0)  # Snapszer: a person's think time before each action
GAME_RACES = frozenset(
    {"stale", "not_started", "finished"}
)  # refusals that are races between players, not faults


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
    import django

    django.setup()


# --- Accounts and sessions ------------------------------------------------------------------------


def sign_in(base: str, username: str, password: str) -> dict[str, str]:
    """The session cookies of ``username``, signed in through the login page as a browser does."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=60)
    cookies: dict[str, str] = {}

    def request(
        method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> int:
        sent = dict(headers or {})
        if cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status

    try:
        request("GET", "/accounts/login/")
        form = {
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": cookies.get("csrftoken", ""),
        }
        status = request(
            "POST",
            "/accounts/login/",
            urlencode(form).encode(),
            {"Content-Type": "application/x-www-form-urlencoded", "Referer": f"{base}/accounts/login/"},
        )
    finally:
        connection.close()
    if status != 302 or "sessionid" not in cookies:
        raise SystemExit(f"could not sign in as {username}: {status}")
    return cookies


def accounts_ensure(count: int, password: str = PASSWORD) -> list[str]:
    """``count`` benchmark accounts (created when missing); their usernames."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    names = [f"{PREFIX}{n:03d}" for n in range(1, count + 1)]
    existing = set(model.objects.filter(username__in=names).values_list("username", flat=True))
    for name in names:
        if name not in existing:
            model.objects.create_user(username=name, password=password)
    return names


def sessions_load() -> dict[str, dict[str, str]]:
    if not SESSIONS.exists():
        raise SystemExit("no sessions: run `benchmarks/online_load.py setup` first")
    data: dict[str, dict[str, str]] = json.loads(SESSIONS.read_text())
    return data


# --- Tables --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    game_id: int
    kind: str  # "snapszer" or "snap"
    options: dict[str, Any]
    usernames: tuple[str, ...]  # by seat number


def tables_create(kind: str, count: int, usernames: list[str], start: int = 0) -> list[int]:
    """``count`` started casual tables of ``kind`` with a person in every seat (the table's creator
    in seat 0, the others joined by the invitation, as in the lobby): their ids. Seat j of the i-th
    table is account ``start + i * seats + j`` (mod the accounts: one account may sit at several
    tables, never twice at one)."""
    from django.contrib.auth import get_user_model

    from games.online.services import seat_join, table_create

    seats = SNAP_SEATS if kind == "snap" else 2
    if len(usernames) < seats:
        raise SystemExit(f"a {kind} table needs {seats} accounts: `setup --accounts {seats}` at least")
    options = SNAP_OPTIONS if kind == "snap" else SNAPSZER_OPTIONS
    users = {u.username: u for u in get_user_model().objects.filter(username__in=usernames)}
    ids = []
    for i in range(count):
        seated = [users[usernames[(start + i * seats + j) % len(usernames)]] for j in range(seats)]
        game = table_create(
            user=seated[0], kind=kind, options=options, seats=seats, absent_seconds=ABSENT_SECONDS
        )
        for user in seated[1:]:
            seat_join(user=user, token=game.invite_token)
        ids.append(game.pk)
    return ids


def tables_fresh(kind: str) -> list[Table]:
    """The benchmark's started tables of ``kind`` nobody has played yet (version 0), oldest first."""
    from games.models import OnlineGame
    from games.online.services import TABLE_OPTIONS

    games = (
        OnlineGame.objects.filter(
            kind=kind, status=OnlineGame.Status.PLAYING, version=0, created_by__username__startswith=PREFIX
        )
        .prefetch_related("seats__user")
        .order_by("pk")
    )
    return [
        Table(
            g.pk,
            kind,
            {k: v for k, v in g.options.items() if k not in TABLE_OPTIONS},  # the engine's only
            tuple(s.user.username for s in sorted(g.seats.all(), key=lambda s: s.number)),
        )
        for g in games
    ]


def tables_close() -> int:
    """Mark the benchmark's played, unfinished tables finished, so that no owner (this server's
    after a restart, another's sweeper) plays them on into a later run; restart the server between
    runs too, since its live owners hold them in memory."""
    from django.db import transaction

    from games.models import OnlineGame

    with transaction.atomic():
        # Locked in the order of their ids, as every writer of online games locks them (a server
        # still playing them writes batches in that order; one bulk UPDATE in the scan's order
        # deadlocked with it once: games/online/services.py, log_append_many).
        ids = list(
            OnlineGame.objects.select_for_update(of=("self",))
            .filter(status=OnlineGame.Status.PLAYING, version__gt=0, created_by__username__startswith=PREFIX)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        return OnlineGame.objects.filter(pk__in=ids).update(status=OnlineGame.Status.FINISHED)


def tables_ensure(kind: str, count: int, usernames: list[str]) -> list[Table]:
    """At least ``count`` fresh tables of ``kind`` (made now when there are fewer)."""
    fresh = tables_fresh(kind)
    missing = count - len(fresh)
    if missing > 0:
        print(f"making {missing} {kind} tables ...", file=sys.stderr)
        tables_create(kind, missing, usernames, start=random.randrange(len(usernames)))
        fresh = tables_fresh(kind)
    return fresh


def setup(args: argparse.Namespace) -> None:
    django_setup()
    from concurrent.futures import ThreadPoolExecutor

    usernames = accounts_ensure(args.accounts)
    sessions: dict[str, dict[str, str]] = json.loads(SESSIONS.read_text()) if SESSIONS.exists() else {}
    todo = [u for u in usernames if u not in sessions]
    with ThreadPoolExecutor(max_workers=4) as pool:
        signed = tqdm(
            pool.map(lambda u: (u, sign_in(args.base, u, PASSWORD)), todo), total=len(todo), desc="sign in"
        )
        sessions |= dict(signed)
    SESSIONS.parent.mkdir(parents=True, exist_ok=True)
    SESSIONS.write_text(json.dumps(sessions, indent=1) + "\n")
    for kind, count in (("snapszer", args.snapszer_tables), ("snap", args.snap_tables)):
        fresh = tables_ensure(kind, count, usernames)
        print(f"{len(fresh)} fresh {kind} tables")
    print(f"{len(usernames)} accounts signed in ({SESSIONS.relative_to(ROOT)})")


# --- Measuring ------------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


@dataclass
class Sample:
    sent: float  # time.monotonic() when the action was sent
    latency: float  # seconds to its acknowledgement
    kind: str  # snapszer / snap
    action: str  # play, flip, call, ...


@dataclass
class Stats:
    samples: list[Sample] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)  # error frames by code, unanswered, dropped
    refusals: Counter[str] = field(
        default_factory=Counter
    )  # refused by the game's rules or races (not errors)
    games_finished: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    live: Counter[str] = field(default_factory=Counter)  # games of each kind being played now
    dry: int = 0  # times a seat group found no fresh table


class PendingAction:
    __slots__ = ("action", "sent", "version")

    def __init__(self, action: str, version: int) -> None:
        self.action, self.version, self.sent = action, version, time.monotonic()


class SeatClient:
    """One seat's socket and its client-side bot: it sees only the frames of its own socket."""

    kind = ""

    def __init__(self, table: Table, seat: int, stats: Stats, pace: float, give_up: float) -> None:
        self.table, self.seat, self.stats = table, seat, stats
        self.pace = pace  # a factor on every human delay (1: a person's pace; tests: less)
        self.give_up = give_up
        self.version = -1
        self.pending: deque[PendingAction] = deque()
        self.finished = False
        self.ws: Any = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))

    async def act(self, name: str, action: dict[str, Any]) -> None:
        if self.finished:
            return
        self.pending.append(PendingAction(name, self.version))
        await self.send({"type": "act", "version": self.version, "action": action})

    def acknowledged(self, pending: PendingAction) -> None:
        latency = time.monotonic() - pending.sent
        self.stats.samples.append(Sample(pending.sent, latency, self.kind, pending.action))

    def later(self, delay: float, coroutine: Callable[[], Any]) -> None:
        async def run() -> None:
            await asyncio.sleep(delay)
            with contextlib.suppress(Exception):  # the socket closed meanwhile: nothing to do
                await coroutine()

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "view":
            if frame["version"] < self.version:
                return  # an older view, late (a reply and a broadcast crossed)
            self.version = frame["version"]
            await self.on_view(frame)
            if frame["finished"]:
                self.finished = True
        elif frame["type"] == "error":
            # A refusal answers the action too. Two are races of the game, as between people: both
            # seats may pass after a Snapszer hand's last trick (the second is ``stale``), and a
            # Snap press may reach the server after the end (``finished``, or ``not_started`` before
            # it began).
            code = frame["code"]
            if code in GAME_RACES:
                self.stats.refusals[code] += 1
            else:
                self.stats.errors[f"error:{code}"] += 1
            if self.pending:
                pending = self.pending.popleft()
                pending.action += " (refused)"
                self.acknowledged(pending)
            if not self.finished:
                await self.send({"type": "resync", "version": self.version})
        elif frame["type"] == "ping":
            await self.send({"type": "pong", "t": frame["t"]})

    async def on_view(self, frame: dict[str, Any]) -> None:
        raise NotImplementedError

    async def watchdog(self) -> None:
        """An action unanswered for ``give_up`` seconds is an error; ask for the view again."""
        while not self.finished:
            await asyncio.sleep(1.0)
            if self.pending and time.monotonic() - self.pending[0].sent > self.give_up:
                self.pending.popleft()
                self.stats.errors["unanswered"] += 1
                with contextlib.suppress(Exception):
                    await self.send({"type": "resync", "version": self.version})


class SnapszerSeat(SeatClient):
    kind = "snapszer"

    async def on_view(self, frame: dict[str, Any]) -> None:
        if self.pending and frame["version"] > self.pending[0].version:
            self.acknowledged(self.pending.popleft())
        hand = frame["view"].get("hand") or {}
        legal = [a for a in hand.get("legal_actions") or [] if a.get("type") != "declare"]
        if frame["finished"] or not legal or self.pending:
            return
        version = frame["version"]
        choice = self.rng.choice(legal)
        think = self.rng.uniform(*THINK_SECONDS) * self.pace

        async def move() -> None:
            if self.version == version and not self.pending:  # nothing newer came meanwhile
                await self.act(choice["type"], choice)

        self.later(think, move)


class SnapSeat(SeatClient):
    """The engine's Snap bot on the frames' views (their ``live`` clock tells when flips resume)."""

    kind = "snap"

    def __init__(self, table: Table, seat: int, stats: Stats, pace: float, give_up: float) -> None:
        super().__init__(table, seat, stats, pace, give_up)
        from games.engine.snap.bots import LEVELS, Bot
        from games.engine.snap.contract import game_rules

        self.bot = Bot(seat, LEVELS[SNAP_LEVEL], game_rules(table.options), self.rng)
        self.resume_at = 0

    async def on_view(self, frame: dict[str, Any]) -> None:
        mine = {e["type"] for e in frame.get("events", ()) if e.get("seat") == self.seat}
        if self.pending and frame["version"] > self.pending[0].version:
            head = self.pending[0]
            if head.action == "flip" or mine & {"call", "call_refused", "late"}:
                self.acknowledged(self.pending.popleft())
        for refused in mine & {"call_refused", "flip_refused", "late"}:
            self.stats.refusals[refused] += 1
        if frame["finished"]:
            return
        # The bot's clock is the game's (the frame's ``live.now``, in game milliseconds); when play
        # may resume after a decision stays the same until the next one, as the server's bots see it.
        live = frame.get("live") or {}
        now = int(live.get("now", 0))
        if live.get("paused_ms"):
            self.resume_at = now + int(live["paused_ms"])
        resume_at = None if live.get("frozen") else self.resume_at
        for press in self.bot.on_view(snap_view(frame["view"]), now, resume_at):
            delay = max(0, press.at - now) / 1000 * self.pace
            if press.call is None:
                self.later(delay, lambda: self.act("flip", {"type": "flip"}))
            else:
                self.later(delay, self._call(*press.call))

    def _call(self, kind: Any, claim: Any, seq: int, reaction: int) -> Callable[[], Any]:
        from games.engine.snap.actions import claim_to_dict

        action = {
            "type": "call",
            "kind": kind.value,
            "claim": claim_to_dict(claim),
            "seq": seq,
            "reaction_ms": reaction,
        }
        return lambda: self.act("call", action)


def snap_view(data: dict[str, Any]) -> Any:
    """The engine's PlayerView from a frame's ``view`` (what the bot reads; ``result`` stays a dict:
    the bot only asks whether there is one)."""
    from games.engine.snap.view import PileView, PlayerView, PoolView

    return PlayerView(
        seat=data["seat"],
        seq=data["seq"],
        players=data["players"],
        dealer=data["dealer"],
        turn=data["turn"],
        last_flipper=data["last_flipper"],
        flips=data["flips"],
        piles=tuple(PileView(**p) for p in data["piles"]),
        pools=tuple(PoolView(**p) for p in data["pools"]),
        central_size=data["central_size"],
        central_top=data["central_top"],
        central_below=data["central_below"],
        central_matches=tuple(data["central_matches"]),
        cap_reached=data["cap_reached"],
        result=data["result"],
    )


SEATS: dict[str, type[SeatClient]] = {"snapszer": SnapszerSeat, "snap": SnapSeat}


@dataclass
class Players:
    """What every seat of a run shares: the server, the accounts' cookies, the figures, the stop
    signal, the pace of the bots and how long an action may go unanswered."""

    base: str
    sessions: dict[str, dict[str, str]]
    stats: Stats
    stop: asyncio.Event
    pace: float = 1.0
    give_up: float = 10.0


async def seat_play(players: Players, table: Table, seat: int) -> SeatClient:
    """Open the seat's socket and play until the game's end (or ``stop``)."""
    from websockets.asyncio.client import connect

    stats, stop = players.stats, players.stop
    client = SEATS[table.kind](table, seat, stats, players.pace, players.give_up)
    parts = urlsplit(players.base)
    cookies = players.sessions[table.usernames[seat]]
    headers = {
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "Origin": f"{parts.scheme}://{parts.netloc}",
    }
    uri = f"ws://{parts.netloc}/ws/games/{table.game_id}/"
    try:
        async with connect(uri, additional_headers=headers, ping_interval=None, open_timeout=60) as ws:
            client.ws = ws
            watchdog = asyncio.get_running_loop().create_task(client.watchdog())
            stopping = asyncio.get_running_loop().create_task(stop.wait())
            try:
                while not client.finished:
                    receive = asyncio.ensure_future(ws.recv())
                    done, _ = await asyncio.wait({receive, stopping}, return_when=asyncio.FIRST_COMPLETED)
                    if receive not in done:
                        receive.cancel()
                        break
                    stats.frames += 1
                    await client.on_frame(json.loads(receive.result()))
            finally:
                watchdog.cancel()
                stopping.cancel()
                for task in list(client.tasks):
                    task.cancel()
    except Exception as exc:  # a dropped or refused socket
        stats.errors[f"socket:{exc.__class__.__name__}"] += 1
    return client


class Pool:
    """The fresh tables of each kind, handed out in order."""

    def __init__(self, tables: dict[str, list[Table]]) -> None:
        self.tables = {kind: deque(found) for kind, found in tables.items()}

    def take(self, kind: str) -> Table | None:
        queue = self.tables.get(kind)
        return queue.popleft() if queue else None


async def slot(players: Players, kind: str, pool: Pool) -> None:
    """One concurrent game: a table's seats play it to the end, then the next fresh table."""
    stats = players.stats
    while not players.stop.is_set():
        table = pool.take(kind)
        if table is None:
            stats.dry += 1
            return
        stats.live[kind] += 1
        try:
            clients = await asyncio.gather(
                *(seat_play(players, table, n) for n in range(len(table.usernames)))
            )
        finally:
            stats.live[kind] -= 1
        if all(c.finished for c in clients):
            stats.games_finished[kind] += 1


# --- The server's processes ---------------------------------------------------------------------------


def web_pids() -> list[int]:
    """bin/run's uvicorn processes and their children (``--workers N`` spawns N processes whose
    command line does not name uvicorn)."""
    from benchmarks.load import server_processes

    found = set(server_processes()["web"])
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    grown = True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in found} - found
        found |= children
        grown = bool(children)
    return sorted(found)


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU of ``pids`` (every thread), in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def database_pids() -> list[int]:
    """The PostgreSQL backends connected to this project's database (the server's pool)."""
    import subprocess

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return []
    name = urlsplit(url).path.lstrip("/")
    query = f"select pid from pg_stat_activity where datname = '{name}' and pid <> pg_backend_pid()"
    out = subprocess.run(["psql", url, "-Atc", query], capture_output=True, text=True, check=False)
    return [int(line) for line in out.stdout.split()] if out.returncode == 0 else []


def pin(pids: Iterable[int], core: int) -> None:
    """Every thread of ``pids`` on ``core`` (threads started later inherit it)."""
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), {core})


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Sampler:
    """CPU of the web processes, the database's backends and this client between two marks."""

    def __init__(self) -> None:
        self.web = web_pids()
        if not self.web:
            raise SystemExit(f"no uvicorn process runs from {ROOT}: start `bin/run` here first")

    def mark(self) -> dict[str, float]:
        return {
            "t": time.monotonic(),
            "web": cpu_seconds(self.web),
            "db": cpu_seconds(database_pids()),
            "client": time.process_time(),
        }

    @staticmethod
    def between(a: dict[str, float], b: dict[str, float], live_games: float) -> dict[str, Any]:
        wall = b["t"] - a["t"]
        web = (b["web"] - a["web"]) / wall
        return {
            "web_cpu_cores": round(web, 3),  # CPU seconds a second of the web process(es)
            "db_cpu_cores": round(max(0.0, b["db"] - a["db"]) / wall, 3),
            "client_cpu_cores": round((b["client"] - a["client"]) / wall, 3),
            "live_games_mean": round(live_games, 1),
            "web_cpu_ms_per_game_second": round(1000 * web / live_games, 2) if live_games else None,
        }


async def loop_lag(lags: list[float], stop: asyncio.Event) -> None:
    """This client's event-loop lag (a 100 ms sleep's overshoot): a busy client delays acks too."""
    while not stop.is_set():
        start = time.monotonic()
        await asyncio.sleep(0.1)
        lags.append(time.monotonic() - start - 0.1)


def summary(samples: list[Sample], seconds: float) -> dict[str, Any]:
    if not samples:
        return {"actions": 0}
    latencies = [s.latency for s in samples]
    figures: dict[str, Any] = {
        "actions": len(samples),
        "actions_per_s": round(len(samples) / seconds, 1),
        "p50_ms": round(1000 * percentile(latencies, 50), 1),
        "p95_ms": round(1000 * percentile(latencies, 95), 1),
        "p99_ms": round(1000 * percentile(latencies, 99), 1),
        "max_ms": round(1000 * max(latencies), 1),
    }
    by_kind: dict[str, list[float]] = {}
    for s in samples:
        by_kind.setdefault(f"{s.kind}:{s.action}", []).append(s.latency)
    figures["by_action"] = {
        name: {
            "n": len(values),
            "p50_ms": round(1000 * percentile(values, 50), 1),
            "p95_ms": round(1000 * percentile(values, 95), 1),
        }
        for name, values in sorted(by_kind.items())
    }
    return figures


# --- Runs ---------------------------------------------------------------------------------------------


def tables_needed(games: int, seconds: float, kind: str) -> int:
    """Fresh tables a run of ``seconds`` may use: a Snapszer match lasts a minute or more at a
    person's pace, a Snap game at most its cap (2 minutes)."""
    shortest = 45 if kind == "snapszer" else 60
    return games * (math.ceil(seconds / shortest) + 1)


def prepare(games: dict[str, int], seconds: float) -> tuple[Pool, dict[str, dict[str, str]]]:
    django_setup()
    sessions = sessions_load()
    usernames = sorted(sessions)
    tables = {
        kind: tables_ensure(kind, tables_needed(n, seconds, kind), usernames)
        for kind, n in games.items()
        if n
    }
    return Pool(tables), sessions


async def measure(
    args: argparse.Namespace, steps: list[dict[str, int]], pool: Pool, sessions: dict[str, dict[str, str]]
) -> list[dict[str, Any]]:
    """Play, raising the concurrent games to each step's numbers in turn; one window of figures
    per step (after ``--settle`` seconds of it)."""
    stats = Stats()
    stop = asyncio.Event()
    players = Players(args.base, sessions, stats, stop, args.pace, args.give_up)
    lags: list[float] = []
    sampler = Sampler()
    loop = asyncio.get_running_loop()
    lagger = loop.create_task(loop_lag(lags, stop))
    running: list[asyncio.Task[None]] = []
    started: dict[str, int] = {}
    results = []
    for step in steps:
        before_load = load_average()
        arrivals = [kind for kind, target in step.items() for _ in range(started.get(kind, 0), target)]
        random.shuffle(arrivals)
        for kind in arrivals:
            # Openings spread over a few seconds (players do not all arrive in one instant).
            await asyncio.sleep(args.arrive / len(arrivals))
            running.append(loop.create_task(slot(players, kind, pool)))
        started = {kind: max(started.get(kind, 0), target) for kind, target in step.items()}
        await asyncio.sleep(args.settle)
        mark = sampler.mark()
        first_sample, first_lag = len(stats.samples), len(lags)
        errors_before, refusals_before = Counter(stats.errors), Counter(stats.refusals)
        live: list[int] = []
        with tqdm(total=int(args.seconds), desc=f"{step}", unit="s", leave=False) as bar:
            for _ in range(int(args.seconds)):
                await asyncio.sleep(1)
                live.append(sum(stats.live.values()))
                bar.set_postfix(live=live[-1], acts=len(stats.samples) - first_sample)
                bar.update(1)
        end = sampler.mark()
        window = stats.samples[first_sample:]
        figures = {"games": step, "games_total": sum(step.values())}
        figures |= summary(window, end["t"] - mark["t"])
        figures |= Sampler.between(mark, end, statistics.mean(live) if live else 0)
        step_lags = lags[first_lag:] or [0.0]
        figures["client_loop_lag_p95_ms"] = round(1000 * percentile(step_lags, 95), 1)
        figures["errors"] = dict(stats.errors - errors_before)
        figures["refusals"] = dict(stats.refusals - refusals_before)
        figures["load_average_before"] = before_load
        figures["load_average_after"] = load_average()
        results.append(figures)
        print(json.dumps({k: v for k, v in figures.items() if k != "by_action"}), file=sys.stderr)
        if args.command == "ramp" and figures.get("p95_ms", 0) > args.target_ms and not args.all_steps:
            break
    stop.set()
    await asyncio.gather(*running, return_exceptions=True)
    lagger.cancel()
    results[-1]["totals"] = {
        "games_finished": dict(stats.games_finished),
        "refusals": dict(stats.refusals),
        "frames": stats.frames,
        "pool_ran_dry": stats.dry,
        "errors": dict(stats.errors),
    }
    return results


def run_loop(coroutine: Any) -> Any:
    with contextlib.suppress(ImportError):
        import uvloop

        return uvloop.run(coroutine)
    return asyncio.run(coroutine)


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = {"snapszer": args.snapszer, "snap": args.snap}
    pool, sessions = prepare(games, args.seconds + args.settle + args.arrive)
    if args.pin_client is not None:
        os.sched_setaffinity(0, {args.pin_client})
    if args.pin_server is not None:
        pin(web_pids(), args.pin_server)
    [figures] = run_loop(measure(args, [games], pool, sessions))
    return figures | {"seconds": args.seconds, "web_processes": len(web_pids())}


def ramp_steps(totals: list[int], snap_every: int) -> list[dict[str, int]]:
    """The issue's mix at each total: one four-seat Snap game for every ``snap_every`` games."""
    return [{"snapszer": n - n // snap_every, "snap": n // snap_every} for n in totals]


def ramp(args: argparse.Namespace) -> dict[str, Any]:
    steps = ramp_steps([int(n) for n in args.steps.split(",")], args.snap_every)
    top = steps[-1]
    seconds = len(steps) * (args.seconds + args.settle + args.arrive)
    pool, sessions = prepare(top, seconds)
    if len(web_pids()) > 1:
        print("warning: more than one web process: start the server with WEB_CONCURRENCY=1", file=sys.stderr)
    if args.pin_client is not None:
        os.sched_setaffinity(0, {args.pin_client})
    if args.pin_server is not None:
        pin(web_pids(), args.pin_server)
    results = run_loop(measure(args, steps, pool, sessions))
    under = [r["games_total"] for r in results if r.get("p95_ms", math.inf) <= args.target_ms]
    figures = {
        "steps": results,
        "target_p95_ms": args.target_ms,
        "games_one_core_holds": max(under) if under else 0,
        "passed_target_at": next(
            (r["games_total"] for r in results if r.get("p95_ms", 0) > args.target_ms), None
        ),
        "pinned_server_core": args.pin_server,
    }
    if args.svg:
        write_svg(results, args.target_ms, args.svg)
    return figures


# --- The plot ------------------------------------------------------------------------------------------


def write_svg(steps: list[dict[str, Any]], target_ms: float, path: Path) -> None:
    """p95 (and p50) of action → acknowledgement against concurrent games, the target as a line."""
    width, height, left, right, top, bottom = 560, 320, 56, 16, 24, 44
    xs = [s["games_total"] for s in steps]
    highest = max([target_ms * 1.25, *(s.get("p95_ms", 0) for s in steps)])
    x_max = max(xs) * 1.05

    def x(v: float) -> float:
        return left + (width - left - right) * v / x_max

    def y(v: float) -> float:
        return height - bottom - (height - top - bottom) * v / highest

    def line(key: str, colour: str) -> str:
        points = " ".join(f"{x(s['games_total']):.1f},{y(s.get(key, 0)):.1f}" for s in steps)
        dots = "".join(
            f'<circle cx="{x(s["games_total"]):.1f}" cy="{y(s.get(key, 0)):.1f}" r="3" fill="{colour}"/>'
            for s in steps
        )
        return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>{dots}'

    ticks = "".join(
        f'<text x="{x(v):.1f}" y="{height - bottom + 16}" font-size="11" text-anchor="middle">{v}</text>'
        for v in xs
    )
    step = 50 if highest <= 400 else 100 if highest <= 1000 else 500
    y_ticks = "".join(
        f'<text x="{left - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{v}</text>'
        f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>'
        for v in range(0, int(highest) + 1, step)
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif">'
        f'<rect width="{width}" height="{height}" fill="white"/>{y_ticks}{ticks}'
        f'<line x1="{left}" x2="{width - right}" y1="{y(target_ms):.1f}" y2="{y(target_ms):.1f}" '
        f'stroke="#c00" stroke-dasharray="5,4"/>'
        f'<text x="{width - right - 4}" y="{y(target_ms) - 5:.1f}" font-size="11" fill="#c00" text-anchor="end">'
        f"target p95 {target_ms:g} ms</text>"
        f"{line('p95_ms', '#1f5fa8')}{line('p50_ms', '#7aa6d6')}"
        f'<text x="{left + 8}" y="{top + 4}" font-size="12" fill="#1f5fa8">p95</text>'
        f'<text x="{left + 40}" y="{top + 4}" font-size="12" fill="#7aa6d6">p50</text>'
        f'<text x="{(width + left) / 2:.1f}" y="{height - 8}" font-size="12" text-anchor="middle">'
        f"concurrent games (one web process on one core)</text>"
        f'<text x="14" y="{(height - bottom + top) / 2:.1f}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 14 {(height - bottom + top) / 2:.1f})">action → ack (ms)</text></svg>\n'
    )
    path.write_text(svg)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("command", choices=["setup", "run", "ramp", "svg"])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--accounts", type=int, default=120, help="benchmark accounts (setup)")
    parser.add_argument(
        "--snapszer-tables", type=int, default=0, help="fresh Snapszer tables to have (setup)"
    )
    parser.add_argument("--snap-tables", type=int, default=0, help="fresh Snap tables to have (setup)")
    parser.add_argument("--snapszer", type=int, default=100, help="concurrent Snapszer games (run)")
    parser.add_argument("--snap", type=int, default=20, help="concurrent four-seat Snap games (run)")
    parser.add_argument("--seconds", type=float, default=150, help="measured seconds (run; each ramp step)")
    parser.add_argument("--settle", type=float, default=15, help="seconds before measuring (after arrivals)")
    parser.add_argument("--arrive", type=float, default=10, help="seconds over which a step's new games open")
    parser.add_argument("--steps", default="20,40,80,120,160,200,250,300", help="concurrent games (ramp)")
    parser.add_argument("--snap-every", type=int, default=6, help="one Snap game in this many (ramp)")
    parser.add_argument("--target-ms", type=float, default=150, help="the p95 a ramp stops after passing")
    parser.add_argument("--all-steps", action="store_true", help="ramp: go on past the target (the curve)")
    parser.add_argument("--pace", type=float, default=1.0, help="factor on the bots' human delays")
    parser.add_argument(
        "--give-up", type=float, default=10, help="seconds before an unanswered action is an error"
    )
    parser.add_argument("--pin-server", type=int, help="pin the web process(es) to this core")
    parser.add_argument("--pin-client", type=int, help="pin this client to this core")
    parser.add_argument("--json", type=Path, help="also write the figures here (svg: read them from here)")
    parser.add_argument("--svg", type=Path, help="ramp: draw p95 against games here")
    args = parser.parse_args()
    if args.command == "setup":
        setup(args)
        return
    if args.command == "svg":
        if not (args.json and args.svg):
            raise SystemExit("svg needs --json (a ramp's figures) and --svg")
        write_svg(json.loads(args.json.read_text())["steps"], args.target_ms, args.svg)
        return
    try:
        figures = {"run": run, "ramp": ramp}[args.command](args)
    finally:
        print(f"{tables_close()} played benchmark tables closed", file=sys.stderr)
    text = json.dumps(figures, indent=2, default=str)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
