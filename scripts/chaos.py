"""Chaos run against a real bin/run: referees post results through the API while processes and
services are killed, then every acknowledged result is looked for in the database (documented in
docs/reliability.md, with the figures of the runs there).

    .venv/bin/python scripts/chaos.py services    # PostgreSQL + Redis (private instances)
    .venv/bin/python scripts/chaos.py services --machine-services   # the machine's own, as .ci/run starts them
    .venv/bin/python scripts/chaos.py embedded    # SQLite + the file broker: kill -9 of the whole bin/run

``services``: while the clients post, kill -9 one of the worker's pool processes, then the whole
worker, kill -9 Redis (down a few seconds, restarted empty: every queued message is lost), and stop
PostgreSQL for longer than the pool's 10-s wait, then start it again. ``embedded``: kill -9 every
process of bin/run at once during writes, check the SQLite file (``PRAGMA integrity_check``), start
bin/run again, twice.

Then: every 201 a client saw is in the database exactly once, no game has two confirmed results,
no response was a 500, the outage answered 503 with Retry-After, and the standings of every stage
caught up with its results (how long after the load ended, target 60 s). Exit status 1 when a check
fails. The services are always left running at the end, even on failure: the private ones are
removed, the machine's are started again if they are down.

Private services (the default) are a throwaway PostgreSQL cluster (initdb, as the postgres user when
run as root) and a redis-server on free ports under /tmp: the run restarts and kills them without
disturbing anyone else using the machine's. ``--machine-services`` restarts the machine's PostgreSQL
cluster (pg_ctlcluster) and kills the machine's Redis (every database of it is emptied: it runs
without persistence): only when nobody else is using them.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import http.cookiejar
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
T0 = time.monotonic()


def say(message: str) -> None:
    print(f"[{time.monotonic() - T0:7.1f} s] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: its tools run as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


# --- Services ---------------------------------------------------------------------------------------


def redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(7).startswith(b"+PONG")
    except OSError:
        return False


def wait_for(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up within {timeout:.0f} s")


class PrivateServices:
    """A throwaway PostgreSQL cluster and Redis on free ports (removed at the end)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="snapleague-chaos-"))
        self.dir.chmod(0o755)
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
        if not bins:
            raise RuntimeError("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")
        self.pg_bin = Path(bins[-1])
        self.pg_data = self.dir / "pg"
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.database_url = f"postgres://snapleague@127.0.0.1:{self.pg_port}/snapleague_chaos"
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}"

    def start(self) -> None:
        self.pg_data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            shutil.chown(self.pg_data, "postgres")
        done = run(
            as_postgres(
                [str(self.pg_bin / "initdb"), "-D", str(self.pg_data), "-A", "trust", "-U", "postgres"]
            )
        )
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr}")
        self.pg_start()
        for sql in (
            "CREATE ROLE snapleague LOGIN CREATEDB",
            "CREATE DATABASE snapleague_chaos OWNER snapleague",
        ):
            run(["psql", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "-qc", sql])
        self.redis_start()

    def pg_ctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run(as_postgres([str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_data), *args]))

    def pg_start(self) -> None:
        options = f"-p {self.pg_port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=100"
        done = self.pg_ctl("-l", str(self.dir / "pg.log"), "-o", options, "-w", "start")
        if done.returncode:
            raise RuntimeError(
                f"PostgreSQL did not start: {done.stderr}{(self.dir / 'pg.log').read_text()[-800:]}"
            )

    def pg_stop(self) -> None:
        self.pg_ctl("-m", "fast", "-w", "stop")

    def pg_up(self) -> bool:
        return run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.pg_port)]).returncode == 0

    def redis_start(self) -> None:
        run(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                str(self.dir),
                "--pidfile",
                str(self.dir / "redis.pid"),
                "--logfile",
                str(self.dir / "redis.log"),
            ]
        )
        wait_for(lambda: redis_up(self.redis_port), "Redis")

    def redis_kill(self) -> None:
        pid = int((self.dir / "redis.pid").read_text())
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not redis_up(self.redis_port), "Redis going down", 10)
        with contextlib.suppress(FileNotFoundError):
            (self.dir / "redis.pid").unlink()

    def finish(self) -> None:
        """Always: stop and remove the private instances."""
        with contextlib.suppress(Exception):
            self.pg_stop()
        with contextlib.suppress(Exception):
            run(["redis-cli", "-p", str(self.redis_port), "shutdown", "nosave"])
        shutil.rmtree(self.dir, ignore_errors=True)


class MachineServices:
    """The machine's PostgreSQL cluster and Redis, started as .ci/run starts them."""

    def __init__(self, redis_db: int) -> None:
        self.version = sorted(os.listdir("/etc/postgresql"))[0]
        self.pg_port = 5432
        self.redis_port = 6379
        self.database_url = "postgres://snapleague@127.0.0.1:5432/snapleague_chaos"
        self.redis_url = "redis://127.0.0.1:6379"
        self.redis_db = redis_db

    def start(self) -> None:
        self.ensure_up()
        run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-qc",
                "CREATE DATABASE snapleague_chaos OWNER snapleague",
            ]
        )

    def pg_start(self) -> None:
        run(["pg_ctlcluster", "--skip-systemctl-redirect", self.version, "main", "start"])
        wait_for(self.pg_up, "PostgreSQL")

    def pg_stop(self) -> None:
        run(["pg_ctlcluster", "--skip-systemctl-redirect", self.version, "main", "stop", "-m", "fast"])

    def pg_up(self) -> bool:
        return run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"]).returncode == 0

    def redis_start(self) -> None:
        run(
            [
                "redis-server",
                "--daemonize",
                "yes",
                "--bind",
                "127.0.0.1",
                "-::1",
                "--port",
                "6379",
                "--save",
                "",
                "--appendonly",
                "no",
            ]
        )
        wait_for(lambda: redis_up(6379), "Redis")

    def redis_kill(self) -> None:
        info = run(["redis-cli", "-p", "6379", "info", "server"]).stdout
        pid = int(next(line.split(":")[1] for line in info.splitlines() if line.startswith("process_id:")))
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not redis_up(6379), "Redis going down", 10)

    def ensure_up(self) -> None:
        if not self.pg_up():
            self.pg_start()
        if not redis_up(6379):
            self.redis_start()

    def finish(self) -> None:
        """Always: the machine's services are running when the run ends (CI runs here next)."""
        self.ensure_up()


# --- The app under test -----------------------------------------------------------------------------


class App:
    """bin/run in a var directory of its own, on a free port."""

    def __init__(self, var: Path, env: dict[str, str]) -> None:
        self.var = var
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CHANNEL_LAYER_URL"}
            },
            "SNAPLEAGUE_VAR_DIR": str(var),
            "PORT": str(self.port),
            "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ.get('PATH', '')}",
            **env,
        }
        self.log_path = var / "bin-run.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.offset = 0  # where this start's lines begin in the log

    def start(self, timeout: float = 300) -> None:
        self.var.mkdir(parents=True, exist_ok=True)
        self.offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [str(ROOT / "bin" / "run")], cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        started = time.monotonic()
        while "snapleague is running" not in self.log_since_start():
            if self.process.poll() is not None or time.monotonic() - started > timeout:
                raise RuntimeError(f"bin/run did not start:\n{self.log_path.read_text()[-3000:]}")
            time.sleep(0.3)
        say(f"bin/run is up on {self.base} ({time.monotonic() - started:.1f} s)")

    def log_since_start(self) -> str:
        with self.log_path.open("rb") as log:
            log.seek(self.offset)
            return log.read().decode(errors="replace")

    def pids(self, name: str) -> list[int]:
        import re

        return [int(p) for p in re.findall(rf"started {name} \(pid (\d+)\)", self.log_since_start())]

    def manage(self, *args: str) -> str:
        done = run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)[:60]} failed: {done.stderr[-2000:]}")
        return done.stdout

    def all_pids(self) -> list[int]:
        groups = {pid for name in ("web", "worker", "background", "beat") for pid in self.pids(name)}
        found = [pid for pgid, pids in process_groups().items() if pgid in groups for pid in pids]
        return found + ([self.process.pid] if self.process and self.process.poll() is None else [])

    def kill_everything(self) -> None:
        """kill -9 of the whole bin/run: the supervisor and every process of its children's groups."""
        for pid in self.all_pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process:
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill_everything()
        for pid in self.all_pids():  # whatever happened, nothing of it is left
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def process_groups() -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                groups.setdefault(int(fields[2]), []).append(int(entry.name))
    return groups


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


# The load: a Snapszer round robin of its own in the demo club, every series published at once.
SETUP = """
from tournaments.models import Club, Player, GameKind, StageFormat
from tournaments.competitions.services import tournament_create, tournament_players_add, tournament_referee_add, stage_rounds_generate
from tournaments.competitions.stages.create import stage_create
from django.contrib.auth import get_user_model
club = Club.objects.get(slug="demo")
organiser = get_user_model().objects.get(username="organiser")
players = [Player.objects.get_or_create(club=club, name=f"Chaos {{n:02d}}")[0] for n in range({players})]
t = tournament_create(user=organiser, club=club, name="Chaos league {run}", game=GameKind.SNAPSZER)
tournament_players_add(user=organiser, tournament=t, players=players)
tournament_referee_add(user=organiser, tournament=t, username="referee")
stage = stage_create(user=organiser, tournament=t, name="League", format=StageFormat.ROUND_ROBIN, options={{}})
stage_rounds_generate(user=organiser, stage_id=stage.pk)
print("STAGE", stage.pk)
"""


# --- The database, read directly --------------------------------------------------------------------


class Database:
    def __init__(self, url: str, sqlite_path: Path | None = None) -> None:
        self.url = url
        self.sqlite_path = sqlite_path

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite_path is not None:
            with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=30)) as db:
                return db.execute(sql, params).fetchall()
        import psycopg

        with psycopg.connect(self.url, connect_timeout=5) as db:
            return db.execute(sql.replace("?", "%s"), params).fetchall()

    def stage_series(self, stage: int) -> dict[int, list[int]]:
        seats: dict[int, list[int]] = {}
        rows = self.query(
            "SELECT s.id, ss.player_id FROM tournaments_series s JOIN tournaments_seriesseat ss "
            "ON ss.series_id = s.id WHERE s.stage_id = ? AND s.status = 'pending' ORDER BY s.id, ss.seat",
            (stage,),
        )
        for series, player in rows:
            seats.setdefault(series, []).append(player)
        return seats

    def lagging_stages(self) -> int:
        return int(
            self.query("SELECT count(*) FROM tournaments_stage WHERE standings_version < results_version")[0][
                0
            ]
        )


# --- Clients ----------------------------------------------------------------------------------------


@dataclass
class Tally:
    acked: dict[str, float] = field(default_factory=dict)  # Idempotency-Key -> when the 201 came
    statuses: Counter[str] = field(default_factory=Counter)
    unavailable: list[tuple[float, bool]] = field(default_factory=list)  # (when, had Retry-After)
    server_errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Referee(threading.Thread):
    """Logs in once (a session: no password hashing per request), then records game 1 and game 2
    (the first seat wins both) of each of its series; the same Idempotency-Key again after any
    failure until a 201 or a refusal."""

    def __init__(
        self, app: App, run_id: str, series: dict[int, list[int]], tally: Tally, stop: threading.Event
    ) -> None:
        super().__init__(daemon=True)
        self.app, self.run_id, self.series, self.tally, self.stop_event = app, run_id, series, tally, stop
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def login(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.opener.open(self.app.base + "/accounts/login/", timeout=30).read()
                body = urllib.parse.urlencode(
                    {"username": "referee", "password": "referee-demo", "csrfmiddlewaretoken": self._csrf()}
                ).encode()
                self.opener.open(
                    urllib.request.Request(self.app.base + "/accounts/login/", data=body), timeout=30
                ).read()
                if any(c.name == "sessionid" for c in self.jar):
                    return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(1)

    def post(self, series: int, game: int, result: dict[str, Any]) -> None:
        key = f"chaos-{self.run_id}-{series}-{game}"
        body = json.dumps({"game": game, "result": result}).encode()
        refused = 0
        while not self.stop_event.is_set():
            request = urllib.request.Request(
                f"{self.app.base}/api/series/{series}/results/",
                data=body,
                method="POST",
                headers={
                    "Content-Type": "application/json",
                    "Idempotency-Key": key,
                    "X-CSRFToken": self._csrf(),
                },
            )
            started = time.monotonic()
            try:
                with self.opener.open(request, timeout=30) as response:
                    response.read()
                    status, headers = response.status, response.headers
                    text = ""
            except urllib.error.HTTPError as exc:
                status, headers = exc.code, exc.headers
                text = exc.read().decode(errors="replace")
            except (urllib.error.URLError, OSError) as exc:
                with self.tally.lock:
                    self.tally.statuses[f"no answer ({type(getattr(exc, 'reason', exc)).__name__})"] += 1
                time.sleep(0.5)
                continue
            with self.tally.lock:
                self.tally.statuses[str(status)] += 1
                if status == 201:
                    self.tally.acked[key] = time.monotonic()
                    self.tally.latencies.append(time.monotonic() - started)
                elif status == 503:
                    self.tally.unavailable.append((time.monotonic() - T0, bool(headers.get("Retry-After"))))
                elif status >= 500:
                    self.tally.server_errors.append(f"{status} {text[:300]}")
            if status == 201 or (400 <= status < 500 and (status != 403 or refused > 2)):
                return
            if status == 403:  # the session was lost with the database: log in again
                refused += 1
                self.login()
            time.sleep(0.5)

    def run(self) -> None:
        self.login()
        for series, seats in self.series.items():
            for game in (1, 2):
                if self.stop_event.is_set():
                    return
                self.post(series, game, {"score": {str(seats[0]): 7, str(seats[1]): random.randint(0, 5)}})
                time.sleep(0.05)


def start_referees(
    app: App, db: Database, *, stage: int, count: int, run_id: str, tally: Tally
) -> tuple[list[Referee], threading.Event]:
    series = list(db.stage_series(stage).items())
    random.shuffle(series)
    stop = threading.Event()
    referees = [Referee(app, run_id, dict(series[n::count]), tally, stop) for n in range(count)]
    for referee in referees:
        referee.start()
    say(f"{count} referees posting results to {len(series)} series (2 games each)")
    return referees, stop


class LagMonitor(threading.Thread):
    """Reads the load stage's two versions twice a second: the longest stretch in which its
    standings stayed behind its results (a dead worker, lost messages, the database away)."""

    def __init__(self, db: Database, stage: int) -> None:
        super().__init__(daemon=True)
        self.db, self.stage = db, stage
        self.stop_event = threading.Event()
        self.behind_since: float | None = None
        self.longest = 0.0
        self.unreadable = 0

    def run(self) -> None:
        while not self.stop_event.is_set():
            try:
                results, standings = self.db.query(
                    "SELECT results_version, standings_version FROM tournaments_stage WHERE id = ?",
                    (self.stage,),
                )[0]
            except Exception:
                self.unreadable += 1  # the database is away: still behind, as far as anyone can tell
            else:
                now = time.monotonic()
                if standings < results:
                    self.behind_since = self.behind_since or now
                    self.longest = max(self.longest, now - self.behind_since)
                else:
                    self.behind_since = None
            time.sleep(0.5)


# --- Checks -----------------------------------------------------------------------------------------


def check_results(db: Database, run_id: str, tally: Tally) -> dict[str, Any]:
    rows = db.query(
        "SELECT client_key, count(*) FROM tournaments_gameresult WHERE client_key LIKE ? GROUP BY client_key",
        (f"chaos-{run_id}-%",),
    )
    stored = {key: n for key, n in rows}
    missing = [key for key in tally.acked if key not in stored]
    twice = [key for key, n in stored.items() if n != 1]
    doubled = db.query(
        "SELECT game_id FROM tournaments_gameresult WHERE confirmed GROUP BY game_id HAVING count(*) > 1"
    )
    return {
        "acknowledged": len(tally.acked),
        "stored": len(stored),
        "acknowledged_missing": missing,
        "stored_more_than_once": twice,
        "games_with_two_confirmed_results": len(doubled),
        "stored_without_a_201_seen": len(set(stored) - set(tally.acked)),
    }


def wait_converged(db: Database, since: float, timeout: float = 180) -> float | None:
    while time.monotonic() - since < timeout:
        try:
            if db.lagging_stages() == 0:
                return time.monotonic() - since
        except Exception as exc:  # the database may still be coming back
            say(f"(reading the stages: {type(exc).__name__})")
        time.sleep(0.25)
    return None


def summary(tally: Tally) -> dict[str, Any]:
    lat = sorted(tally.latencies)
    return {
        "responses": dict(sorted(tally.statuses.items())),
        "server_errors": tally.server_errors[:5],
        "503_count": len(tally.unavailable),
        "503_without_retry_after": sum(1 for _when, ok in tally.unavailable if not ok),
        "201_latency_p50_s": round(statistics.median(lat), 3) if lat else None,
        "201_latency_p95_s": round(lat[int(0.95 * (len(lat) - 1))], 3) if lat else None,
    }


# --- The two runs -----------------------------------------------------------------------------------


def services_run(args: argparse.Namespace) -> dict[str, Any]:
    services: PrivateServices | MachineServices = (
        MachineServices(args.redis_db) if args.machine_services else PrivateServices()
    )
    report: dict[str, Any] = {"mode": "services", "machine_services": args.machine_services}
    app: App | None = None
    try:
        services.start()
        say(f"services up: {services.database_url}, {services.redis_url}")
        var = Path(tempfile.mkdtemp(prefix="snapleague-chaos-var-"))
        db_number = args.redis_db if args.machine_services else 0
        app = App(
            var,
            {
                "DATABASE_URL": services.database_url,
                "CELERY_BROKER_URL": f"{services.redis_url}/{db_number}",
                "CHANNEL_LAYER_URL": f"{services.redis_url}/{db_number + 1}",
                "WEB_CONCURRENCY": str(args.web),
            },
        )
        app.start()
        run_id = uuid.uuid4().hex[:8]
        stage = int(app.manage("shell", "-c", SETUP.format(players=args.players, run=run_id)).split()[-1])
        db = Database(services.database_url)
        tally = Tally()
        referees, stop = start_referees(app, db, stage=stage, count=args.clients, run_id=run_id, tally=tally)
        monitor = LagMonitor(db, stage)
        monitor.start()
        faults: list[dict[str, Any]] = []

        def at(second: float) -> None:
            time.sleep(max(0.0, second - (time.monotonic() - load_started)))

        load_started = time.monotonic()
        at(args.duration * 0.1)
        worker = app.pids("worker")[-1]
        pool = children_of(worker)
        if pool:
            os.kill(pool[0], signal.SIGKILL)
            faults.append(
                {
                    "at_s": round(time.monotonic() - load_started, 1),
                    "what": f"kill -9 a worker pool process ({pool[0]})",
                }
            )
            say(faults[-1]["what"])
        at(args.duration * 0.25)
        worker = app.pids("worker")[-1]
        os.kill(worker, signal.SIGKILL)
        faults.append(
            {"at_s": round(time.monotonic() - load_started, 1), "what": f"kill -9 the worker ({worker})"}
        )
        say(faults[-1]["what"])
        at(args.duration * 0.4)
        services.redis_kill()
        down = time.monotonic()
        say("kill -9 Redis")
        time.sleep(args.redis_down)
        services.redis_start()
        faults.append(
            {
                "at_s": round(down - load_started, 1),
                "what": f"kill -9 Redis, started again empty after {time.monotonic() - down:.1f} s",
            }
        )
        say("Redis started again (empty)")
        at(args.duration * 0.6)
        pg_before = len(tally.unavailable)
        services.pg_stop()
        down = time.monotonic()
        say("PostgreSQL stopped")
        time.sleep(args.pg_down)
        services.pg_start()
        wait_for(services.pg_up, "PostgreSQL")
        pg_outage = (round(down - T0, 1), round(time.monotonic() - T0, 1))
        faults.append(
            {
                "at_s": round(down - load_started, 1),
                "what": f"PostgreSQL stopped, started again after {time.monotonic() - down:.1f} s",
            }
        )
        say("PostgreSQL started again")
        at(args.duration)
        stop.set()
        for referee in referees:
            referee.join(timeout=60)
        load_ended = time.monotonic()
        say("load stopped; waiting for the standings")
        converged = wait_converged(db, load_ended)
        monitor.stop_event.set()
        report |= {
            "load_seconds": round(load_ended - load_started, 1),
            "faults": faults,
            "clients": summary(tally),
            "503_during_postgresql_outage": sum(
                1
                for when, _ok in tally.unavailable[pg_before:]
                if pg_outage[0] - 1 <= when <= pg_outage[1] + 15
            ),
            "results": check_results(db, run_id, tally),
            "standings_converged_after_load_s": round(converged, 1) if converged is not None else None,
            "standings_longest_behind_s": round(monitor.longest, 1),
            "503_at_s": [round(when - (load_started - T0), 1) for when, _ok in tally.unavailable],
            "supervisor_log": [line for line in app.log_since_start().splitlines() if "supervise:" in line],
        }
        return report
    finally:
        if app is not None:
            app.stop()
        services.finish()
        say("services left " + ("running (the machine's)" if args.machine_services else "removed (private)"))


def embedded_run(args: argparse.Namespace) -> dict[str, Any]:
    var = Path(tempfile.mkdtemp(prefix="snapleague-chaos-embedded-"))
    app = App(var, {})
    sqlite_path = var / "snapleague.sqlite3"
    db = Database("", sqlite_path)
    report: dict[str, Any] = {"mode": "embedded", "cycles": []}
    tally = Tally()
    run_id = uuid.uuid4().hex[:8]
    try:
        app.start()
        stage = int(app.manage("shell", "-c", SETUP.format(players=args.players, run=run_id)).split()[-1])
        for cycle in range(args.cycles):
            referees, stop = start_referees(
                app, db, stage=stage, count=args.clients, run_id=run_id, tally=tally
            )
            time.sleep(args.kill_after)
            acked_before = len(tally.acked)
            app.kill_everything()
            killed = time.monotonic()
            say(f"kill -9 of the whole bin/run ({acked_before} results acknowledged so far)")
            stop.set()
            for referee in referees:
                referee.join(timeout=60)
            with contextlib.closing(sqlite3.connect(sqlite_path)) as check:
                integrity = [row[0] for row in check.execute("PRAGMA integrity_check")]
            results = check_results(db, run_id, tally)
            app.start()
            back = time.monotonic()
            converged = wait_converged(db, back)
            report["cycles"].append(
                {
                    "integrity_check": integrity,
                    "results": {k: v for k, v in results.items()},
                    "bin_run_back_after_s": round(back - killed, 1),
                    "standings_converged_after_restart_s": round(converged, 1)
                    if converged is not None
                    else None,
                }
            )
            say(
                f"cycle {cycle + 1}: integrity {integrity}, {results['acknowledged']} acknowledged, "
                f"{len(results['acknowledged_missing'])} missing"
            )
        report["clients"] = summary(tally)
        report["results"] = check_results(db, run_id, tally)
        return report
    finally:
        app.stop()
        shutil.rmtree(var, ignore_errors=True)


def failures(report: dict[str, Any], target: float) -> list[str]:
    problems = []
    clients = report["clients"]
    if any(key.startswith("5") and key != "503" for key in clients["responses"]):
        problems.append(f"server errors: {clients['server_errors']}")
    if clients["503_without_retry_after"]:
        problems.append("503 without Retry-After")
    blocks = [report] if report["mode"] == "services" else report["cycles"]
    for block in blocks:
        results = block["results"]
        if (
            results["acknowledged_missing"]
            or results["stored_more_than_once"]
            or results["games_with_two_confirmed_results"]
        ):
            problems.append(f"results: {results}")
        took = block.get("standings_converged_after_load_s", block.get("standings_converged_after_restart_s"))
        if took is None or took > target:
            problems.append(f"standings converged after {took} s (target {target} s)")
        if block.get("integrity_check", ["ok"]) != ["ok"]:
            problems.append(f"integrity_check: {block['integrity_check']}")
    if report["mode"] == "services" and not report["503_during_postgresql_outage"]:
        problems.append("no 503 seen while PostgreSQL was down")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["services", "embedded"])
    parser.add_argument(
        "--machine-services", action="store_true", help="use (and restart) the machine's PostgreSQL and Redis"
    )
    parser.add_argument(
        "--redis-db",
        type=int,
        default=12,
        help="with --machine-services: broker db (the next one: channel layer)",
    )
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--players", type=int, default=24, help="players of the load's round robin")
    parser.add_argument("--duration", type=float, default=90, help="seconds of load")
    parser.add_argument("--cycles", type=int, default=2, help="embedded: kill -9 / restart cycles")
    parser.add_argument(
        "--kill-after", type=float, default=15, help="embedded: seconds of writes before each kill"
    )
    parser.add_argument("--web", type=int, default=2, help="services: WEB_CONCURRENCY")
    parser.add_argument("--redis-down", type=float, default=5)
    parser.add_argument(
        "--pg-down", type=float, default=15, help="longer than the pool's 10-s wait, to see 503s"
    )
    parser.add_argument("--target", type=float, default=60, help="standings must converge within this (s)")
    parser.add_argument("--report", help="write the figures as JSON here too")
    args = parser.parse_args()
    report = services_run(args) if args.mode == "services" else embedded_run(args)
    problems = failures(report, args.target)
    report["failures"] = problems
    text = json.dumps(report, indent=1, default=str)
    print(text)
    if args.report:
        Path(args.report).write_text(text)
    print("CHAOS RUN PASSED" if not problems else "CHAOS RUN FAILED:\n  " + "\n  ".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
