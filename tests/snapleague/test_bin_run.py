"""The real ``bin/run`` on a spare port (the embedded default, in a var directory of its own): a kill -9
of the Celery worker brings it back, a result recorded meanwhile still reaches the standings, and
SIGTERM leaves no process of any of its groups behind."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.snapleague.test_supervise import process_groups, wait_until

ROOT = Path(__file__).resolve().parents[2]
AUTH = "Basic " + base64.b64encode(b"referee:referee-demo").decode()

pytestmark = pytest.mark.worker


def _environ(var: Path) -> dict[str, str]:
    """bin/run's environment: the embedded default (SQLite, the file broker) in ``var``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CHANNEL_LAYER_URL", "WEB_CONCURRENCY"}
    }
    return env | {"SNAPLEAGUE_VAR_DIR": str(var), "PATH": f"{ROOT / '.venv' / 'bin'}:{env.get('PATH', '')}"}


class BinRun:
    def __init__(self, tmp_path: Path, migrated: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / "bin-run.log"
        shutil.copytree(migrated, tmp_path / "var")
        env = _environ(tmp_path / "var") | {"PORT": str(self.port)}
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [str(ROOT / "bin" / "run")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    @property
    def log(self) -> str:
        return self.log_path.read_text()

    def pids(self, name: str) -> list[int]:
        return [int(pid) for pid in re.findall(rf"started {name} \(pid (\d+)\)", self.log)]

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Authorization": AUTH,
                "Content-Type": "application/json",
                "Idempotency-Key": str(uuid.uuid4()),
            },
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A var directory where bin/run's first two steps have run once, as bin/run runs them
    (``manage.py migrate``, ``manage.py demo_data``): each test's bin/run starts on a copy of it and
    runs them again (both change nothing then). Migrating SQLite and loading the demo took 40 to 50 s
    of each test's set-up on the loaded machine. Made once per run, by the first test to need it
    (the pytest-xdist workers share the run's temporary directory, a lock between them); no log
    file is kept: the tests look for the logs their own bin/run writes."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    made = shared / "bin-run-migrated"
    with (shared / "bin-run-migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (made / "done").exists():
            shutil.rmtree(made, ignore_errors=True)
            env = _environ(made / "var")
            for command in (["migrate", "--noinput"], ["demo_data"]):
                done = subprocess.run(
                    [str(ROOT / ".venv" / "bin" / "python"), "manage.py", *command],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
                assert done.returncode == 0, done.stdout.decode()[-4000:]
            for log in (made / "var").rglob("*.log"):
                log.unlink()
            (made / "done").touch()
    return made / "var"


@pytest.fixture
def bin_run(tmp_path: Path, migrated: Path) -> Iterator[BinRun]:
    run = BinRun(tmp_path, migrated)
    try:
        wait_until(
            lambda: "snapleague is running" in run.log or run.process.poll() is not None, 240, "bin/run"
        )
        assert run.process.poll() is None, run.log
        yield run
    finally:
        groups = [pid for name in ("web", "worker", "background", "beat") for pid in run.pids(name)]
        if run.process.poll() is None:
            run.process.send_signal(signal.SIGTERM)
            try:
                run.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                run.process.kill()
        for pgid in groups:  # whatever failed, leave nothing running
            for pid in process_groups().get(pgid, []):
                os.kill(pid, signal.SIGKILL)
        print(run.log[-4000:])


def test_bin_run_restarts_a_killed_worker_and_stops_everything(bin_run: BinRun) -> None:
    worker = bin_run.pids("worker")[0]
    series = bin_run.call("GET", "/api/series/?status=pending&game=snapszer")["results"][0]
    seats = [seat["player"] for seat in series["seats"]]
    stage = series["stage"]
    wait_until(
        lambda: not bin_run.call("GET", f"/api/stages/{stage}/standings/")["stale"],
        60,
        "the demo's standings",
    )

    os.kill(worker, signal.SIGKILL)  # given a dead worker
    recorded = bin_run.call(  # when a referee records a result before it is back
        "POST",
        f"/api/series/{series['id']}/results/",
        {"game": 1, "result": {"score": {str(seats[0]): 7, str(seats[1]): 2}}},
    )

    assert recorded["version"] == 1
    wait_until(lambda: len(bin_run.pids("worker")) == 2, 30, "the worker restarted")
    assert f"worker (pid {worker}) exited with signal SIGKILL (-9)" in bin_run.log
    wait_until(lambda: worker not in process_groups(), 10, "the dead worker's pool gone")
    standings = {}

    def caught_up() -> bool:
        standings.update(bin_run.call("GET", f"/api/stages/{stage}/standings/"))
        return not standings["stale"]

    wait_until(caught_up, 60, "the standings with the result recorded while the worker was down")
    assert standings["results_version"] == standings["standings_version"]
    assert "web" in bin_run.log and len(bin_run.pids("web")) == 1, "the web server was not restarted"

    groups = [pid for name in ("web", "worker", "background", "beat") for pid in bin_run.pids(name)]
    bin_run.process.send_signal(signal.SIGTERM)  # then SIGTERM stops everything

    assert bin_run.process.wait(timeout=30) == 0
    alive = process_groups()
    assert [pgid for pgid in groups if pgid in alive] == []


def test_bin_run_banner_names_the_var_directory_it_writes_to(bin_run: BinRun, tmp_path: Path) -> None:
    """SNAPLEAGUE_VAR_DIR points away from the project's var/: the banner's logs are the files the
    worker and beat really write, there."""
    var = (tmp_path / "var").resolve()
    banner = next(line for line in bin_run.log.splitlines() if "logs:" in line)
    assert f"logs: {var}/worker.log, {var}/beat.log" in banner, banner
    wait_until(lambda: (var / "worker.log").exists() and (var / "beat.log").exists(), 30, "the logs")
