"""The supervisor bin/run starts (snapleague/supervise.py), with tiny fake children: a dead child is
restarted with backoff and logged with its exit code, its leftover children go with it, and SIGTERM
or Ctrl-C leaves no process of any child's group behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from snapleague.supervise import (
    WS_MAX_SIZE,
    Child,
    ConfigurationError,
    describe_status,
    snapleague_children,
)

ROOT = Path(__file__).resolve().parents[2]

# A child that starts a grandchild (as Celery's prefork pool and uvicorn's workers do) and waits.
PARENT_WITH_GRANDCHILD = (
    'import subprocess, sys, time; subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]); '
    "time.sleep(600)"
)


def process_groups() -> dict[int, list[int]]:
    """Every live process of the machine by its process group (from /proc; zombies left out)."""
    groups: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        groups.setdefault(int(fields[2]), []).append(int(entry.name))
    return groups


def wait_until(condition: Callable[[], object], timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or condition}")


class Run:
    """A supervisor process whose log is read as it goes."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log_path = log
        self.log_file = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "snapleague.supervise", *args],
            cwd=ROOT,
            env=env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )

    @property
    def log(self) -> str:
        return self.log_path.read_text()

    def pids(self, name: str) -> list[int]:
        return [int(pid) for pid in re.findall(rf"started {name} \(pid (\d+)\)", self.log)]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.log_file.close()


@pytest.fixture
def supervise(tmp_path: Path) -> Iterator[Callable[..., Run]]:
    runs: list[Run] = []

    def start(*children: str, backoff: float = 0.2) -> Run:
        args = [f"--backoff={backoff}", "--stop-grace=3"]
        for child in children:
            args += ["--child", child]
        run = Run(args, tmp_path / f"supervise-{len(runs)}.log")
        runs.append(run)
        return run

    yield start
    for run in runs:
        groups = {pid for name in ("a", "b", "flaky") for pid in run.pids(name)}
        run.close()
        for pgid in groups:  # never leave a test's processes behind, whatever failed
            for pid in process_groups().get(pgid, []):
                os.kill(pid, signal.SIGKILL)


def test_a_killed_child_is_restarted_and_its_children_go_with_it(supervise: Callable[..., Run]) -> None:
    run = supervise(
        f"a={sys.executable} -c '{PARENT_WITH_GRANDCHILD}'",
        f"b={sys.executable} -c '{PARENT_WITH_GRANDCHILD}'",
    )
    wait_until(
        lambda: len(process_groups().get(next(iter(run.pids("a")), -1), [])) == 2, what="a and its child"
    )
    first = run.pids("a")[0]
    b = run.pids("b")[0]

    os.kill(first, signal.SIGKILL)  # given a dead child

    wait_until(lambda: len(run.pids("a")) == 2, what="a restarted")
    assert f"a (pid {first}) exited with signal SIGKILL (-9)" in run.log
    assert re.search(r"restarting in 0\.2 s \(restart 1\)", run.log)
    wait_until(lambda: first not in process_groups(), what="the dead child's grandchild killed")
    assert run.pids("b") == [b], "the other child was left alone"
    assert len(process_groups()[b]) == 2


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_supervisor_leaves_no_process_behind(
    supervise: Callable[..., Run], sig: signal.Signals
) -> None:
    run = supervise(
        f"a={sys.executable} -c '{PARENT_WITH_GRANDCHILD}'",
        f"b={sys.executable} -c '{PARENT_WITH_GRANDCHILD}'",
    )
    wait_until(
        lambda: all(len(process_groups().get(run.pids(n)[0] if run.pids(n) else -1, [])) == 2 for n in "ab")
    )
    groups = [run.pids("a")[0], run.pids("b")[0]]

    run.process.send_signal(sig)

    assert run.process.wait(timeout=15) == 0
    alive = process_groups()
    assert [pgid for pgid in groups if pgid in alive] == []
    assert f"{sig.name}: stopping everything" in run.log


def test_a_child_that_keeps_dying_is_restarted_with_growing_delays(supervise: Callable[..., Run]) -> None:
    run = supervise(f"flaky={sys.executable} -c 'raise SystemExit(3)'", backoff=0.1)
    wait_until(lambda: len(run.pids("flaky")) >= 4, what="three restarts")
    delays = [
        float(d)
        for d in re.findall(r"flaky \(pid \d+\) exited with exit code 3 .*restarting in ([\d.]+) s", run.log)
    ]
    assert delays[:3] == [0.1, 0.2, 0.4]


def test_a_child_gets_sigterm_when_the_supervisor_itself_is_killed(supervise: Callable[..., Run]) -> None:
    run = supervise(f"a={sys.executable} -c 'import time; time.sleep(600)'")
    wait_until(lambda: run.pids("a"), what="a started")
    child = run.pids("a")[0]

    run.process.kill()  # kill -9: no chance to stop anything itself

    run.process.wait()
    wait_until(lambda: child not in process_groups(), what="the orphan gone (PR_SET_PDEATHSIG)")


def test_exit_statuses_read_as_people_say_them() -> None:
    assert describe_status(3) == "exit code 3"
    assert describe_status(-9) == "signal SIGKILL (-9)"


def test_more_web_processes_need_a_redis_channel_layer(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="CHANNEL_LAYER_URL"):
        snapleague_children({"WEB_CONCURRENCY": "3"}, host="127.0.0.1", port=8000, var_dir=tmp_path)
    with pytest.raises(ConfigurationError, match="whole number"):
        snapleague_children({"WEB_CONCURRENCY": "many"}, host="127.0.0.1", port=8000, var_dir=tmp_path)

    web, worker, _background, beat = snapleague_children(
        {"WEB_CONCURRENCY": "3", "CHANNEL_LAYER_URL": "redis://127.0.0.1:6379/1"},
        host="127.0.0.1",
        port=8000,
        var_dir=tmp_path,
    )

    assert web.argv[web.argv.index("--workers") + 1] == "3"
    assert web.argv[web.argv.index("--ws-max-size") + 1] == str(WS_MAX_SIZE)
    assert "--beat" not in worker.argv and "beat" in beat.argv  # beat is a process of its own


def test_one_web_process_by_default(tmp_path: Path) -> None:
    web, _worker, _background, _beat = snapleague_children({}, host="127.0.0.1", port=8000, var_dir=tmp_path)
    assert "--workers" not in web.argv


def test_websocket_frames_go_uncompressed_unless_asked(tmp_path: Path) -> None:
    """Per-message deflate costs CPU for every frame of every socket (docs/benchmarks.md)."""
    web = snapleague_children({}, host="127.0.0.1", port=8000, var_dir=tmp_path)[0]
    assert web.argv[web.argv.index("--ws-per-message-deflate") + 1] == "false"
    web = snapleague_children({"WS_DEFLATE": "1"}, host="127.0.0.1", port=8000, var_dir=tmp_path)[0]
    assert "--ws-per-message-deflate" not in web.argv


def test_the_supervisor_refuses_several_web_processes_without_redis(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CHANNEL_LAYER_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "snapleague.supervise"],
        check=False,
        cwd=ROOT,
        env={**env, "WEB_CONCURRENCY": "2", "SNAPLEAGUE_VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "WEB_CONCURRENCY=2 needs CHANNEL_LAYER_URL" in done.stderr


def test_a_program_that_cannot_be_started_is_tried_again_and_the_rest_runs(
    supervise: Callable[..., Run],
) -> None:
    run = supervise(
        "missing=/nonexistent/program", f"a={sys.executable} -c 'import time; time.sleep(600)'", backoff=0.1
    )
    wait_until(lambda: run.log.count("could not start missing") >= 3, what="three attempts")
    assert run.process.poll() is None and len(run.pids("a")) == 1
    assert "trying again in 0.1 s" in run.log and "trying again in 0.2 s" in run.log


def test_the_workers_consume_every_queue_a_task_is_routed_to_the_stages_one_alone(tmp_path: Path) -> None:
    """bin/run's workers between them consume every queue a task can land in, and the stages
    queue has a worker of its own: a flood of background work cannot hold up a round."""
    from django.conf import settings

    _web, worker, background, _beat = snapleague_children({}, host="127.0.0.1", port=8000, var_dir=tmp_path)

    def queues(child: Child) -> set[str]:
        (arg,) = [a for a in child.argv if a.startswith("--queues=")]
        return set(arg.removeprefix("--queues=").split(","))

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert queues(worker) == {settings.CELERY_STAGES_QUEUE}
    assert queues(background) == {settings.CELERY_BACKGROUND_QUEUE}
    assert routed | {settings.CELERY_TASK_DEFAULT_QUEUE} <= queues(worker) | queues(background)
    hostnames = {a for c in (worker, background) for a in c.argv if a.startswith("--hostname=")}
    assert len(hostnames) == 2  # two nodes on one machine need distinct names


def test_every_host_but_one_runs_no_beat(tmp_path: Path) -> None:
    """scripts/two_hosts.sh starts the second host with --no-beat: one beat in the installation."""
    with_beat = snapleague_children({}, host="127.0.0.1", port=8000, var_dir=tmp_path)
    without = snapleague_children({}, host="127.0.0.1", port=8000, var_dir=tmp_path, beat=False)
    assert [c.name for c in with_beat] == ["web", "worker", "background", "beat"]
    assert [c.name for c in without] == ["web", "worker", "background"]
