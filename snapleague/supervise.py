"""The process supervisor ``bin/run`` starts: the web server, the two Celery workers (the ``stages``
queue and the ``background`` queue) and Celery beat.

    python -m snapleague.supervise [--host H] [--port P] [--banner TEXT]
    python -m snapleague.supervise --child NAME=COMMAND ...   (any processes; the tests use this)

Why a supervisor of our own (docs/deployment.md, "Processes"): a club evening runs on one laptop or
one small server without systemd, and before this a kill -9 of the worker stopped the whole app
and left beat (the worker's ``--beat`` child) running as an orphan. Here:

- every child is started in a **process group of its own**, so stopping a child reaches its own
  children too (uvicorn's worker processes, Celery's prefork pool), and a dead child's leftovers
  are killed before it is started again;
- a child that exits is **restarted with backoff** (1 s, doubling to 30 s; back to 1 s after it
  has run for a minute), and every exit is logged with its exit code or signal;
- **SIGINT (Ctrl-C) and SIGTERM stop everything**: SIGTERM to every child, which stops its own
  children, then SIGKILL to every group: what is left after a grace period, and any grandchild
  that outlived its parent; nothing is left behind. Each child also gets SIGTERM from the kernel
  if the supervisor itself dies (``PR_SET_PDEATHSIG``), so even a kill -9 of the supervisor does
  not leave the web server holding the port.

Beat runs as a process of its own, not as the worker's ``--beat`` child: a dead worker then leaves
no orphaned beat, and beat keeps scheduling the reconciler while the worker restarts.

This module imports nothing of Django: it only starts processes.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent

BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
STABLE_AFTER = 60.0  # a child that ran this long is healthy again: its next restart waits BACKOFF_FIRST
STOP_GRACE = 10.0  # seconds between SIGTERM and SIGKILL when stopping
# The online consumers accept text frames of at most 2,048 characters (8 KiB in UTF-8), the live
# pages' 1,024: uvicorn's default of 16 MiB would let a client make the server buffer that much.
WS_MAX_SIZE = 16 * 1024

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """In the child before exec: SIGTERM this process when the supervisor dies (Linux only)."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Child:
    """One supervised command: ``argv`` started in a process group of its own."""

    name: str
    argv: Sequence[str]
    log: Path | None = None  # None: the supervisor's own stdout and stderr
    env: dict[str, str] | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restarts: int = 0
    next_delay: float = BACKOFF_FIRST
    restart_at: float | None = None
    _log_file: IO[bytes] | None = field(default=None, repr=False)


def describe_status(returncode: int) -> str:
    """A Popen return code as people read it: "exit code 1" or "signal SIGKILL (-9)"."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"signal {name} ({returncode})"
    return f"exit code {returncode}"


class Supervisor:
    """Starts ``children``, restarts the ones that exit, and stops them all on SIGINT/SIGTERM."""

    def __init__(
        self,
        children: Sequence[Child],
        *,
        backoff_first: float = BACKOFF_FIRST,
        backoff_max: float = BACKOFF_MAX,
        stable_after: float = STABLE_AFTER,
        stop_grace: float = STOP_GRACE,
        out: IO[str] | None = None,
        ready: Callable[[], bool] | None = None,
    ) -> None:
        self.children = list(children)
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.stable_after = stable_after
        self.stop_grace = stop_grace
        self.out = out or sys.stderr
        self.ready = ready  # polled every tick until it returns True (the banner once the port is open)
        self.stopping = False
        for child in self.children:
            child.next_delay = backoff_first

    def log(self, message: str) -> None:
        self.out.write(f"{time.strftime('%H:%M:%S')} supervise: {message}\n")
        self.out.flush()

    # --- Children ---------------------------------------------------------------------------

    def start(self, child: Child) -> None:
        if child.log is not None:
            child.log.parent.mkdir(parents=True, exist_ok=True)
            child._log_file = child.log.open("ab")
        try:
            child.process = self._spawn(child)
        except OSError as exc:  # a missing program, no memory: try again later, as for an exit
            if child._log_file:
                child._log_file.close()
                child._log_file = None
            delay = child.next_delay
            child.next_delay = min(self.backoff_max, delay * 2)
            child.restart_at = time.monotonic() + delay
            self.log(f"could not start {child.name}: {exc}; trying again in {delay:.1f} s")
            return
        child.started_at = time.monotonic()
        child.restart_at = None
        self.log(f"started {child.name} (pid {child.process.pid})")

    def _spawn(self, child: Child) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            list(child.argv),
            cwd=ROOT,
            env=child.env,
            stdin=subprocess.DEVNULL,
            stdout=child._log_file,
            stderr=subprocess.STDOUT if child._log_file else None,
            start_new_session=True,  # its own process group (and session: Ctrl-C reaches us only)
            # The supervisor runs no threads, so preexec_fn is safe here.
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,  # noqa: PLW1509
        )

    def _kill_group(self, pgid: int, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)

    def _exited(self, child: Child, status: int) -> None:
        assert child.process is not None
        pgid = child.process.pid
        # Whatever the child left in its group (a prefork pool, uvicorn's workers) goes with it.
        self._kill_group(pgid, signal.SIGKILL)
        child.process = None
        if child._log_file:
            child._log_file.close()
            child._log_file = None
        if self.stopping:
            self.log(f"{child.name} stopped ({describe_status(status)})")
            return
        ran = time.monotonic() - child.started_at
        if ran >= self.stable_after:
            child.next_delay = self.backoff_first
        delay = child.next_delay
        child.next_delay = min(self.backoff_max, delay * 2)
        child.restarts += 1
        child.restart_at = time.monotonic() + delay
        self.log(
            f"{child.name} (pid {pgid}) exited with {describe_status(status)} after {ran:.1f} s; "
            f"restarting in {delay:.1f} s (restart {child.restarts})"
        )

    def _reap(self) -> None:
        for child in self.children:
            if child.process is not None and (status := child.process.poll()) is not None:
                self._exited(child, status)

    # --- Running and stopping ---------------------------------------------------------------

    def _on_signal(self, signum: int, _frame: object) -> None:
        if not self.stopping:
            self.log(f"{signal.Signals(signum).name}: stopping everything")
        self.stopping = True

    def run(self) -> int:
        """Run until SIGINT or SIGTERM; returns the exit status for the supervisor (0)."""
        signal.signal(signal.SIGINT, self._on_signal)
        signal.signal(signal.SIGTERM, self._on_signal)
        try:
            for child in self.children:
                self.start(child)
            while not self.stopping:
                self._reap()
                now = time.monotonic()
                for child in self.children:
                    if child.process is None and child.restart_at is not None and now >= child.restart_at:
                        self.start(child)
                if self.ready is not None and self.ready():
                    self.ready = None
                time.sleep(0.1)
        finally:
            self.stop()
        return 0

    def stop(self) -> None:
        """SIGTERM every child, SIGKILL every child's group after it (or the grace period) ends."""
        self.stopping = True
        groups = [child.process.pid for child in self.children if child.process is not None]
        # SIGTERM to each child only: it stops its own children in order (uvicorn's manager its
        # workers, Celery's worker its pool after the running tasks); a TERM to the whole group
        # would reach the pool processes behind the worker's back and stall its warm shutdown.
        for child in self.children:
            if child.process is not None:
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.stop_grace
        while time.monotonic() < deadline and any(child.process is not None for child in self.children):
            self._reap()
            time.sleep(0.05)
        for child in self.children:
            if child.process is not None:
                self.log(f"{child.name} did not stop within {self.stop_grace:.0f} s: SIGKILL")
        # Grandchildren that outlived their parent are still in its group: kill every group.
        for pgid in groups:
            self._kill_group(pgid, signal.SIGKILL)
        while any(child.process is not None for child in self.children):
            self._reap()
            time.sleep(0.05)


# --- snapleague's processes ---------------------------------------------------------------------


class ConfigurationError(Exception):
    """The environment asks for something that cannot work; the message says what to change."""


def snapleague_children(
    env: dict[str, str], *, host: str, port: int, var_dir: Path, beat: bool = True
) -> list[Child]:
    """The web server, the two workers and beat, as ``bin/run`` starts them.

    ``beat=False`` (``--no-beat``, or ``SNAPLEAGUE_BEAT=0``): no beat, for every host but one of an
    installation of several (scripts/two_hosts.sh): two beats send every periodic task twice.

    The ``worker`` consumes the ``stages`` queue (``WORKER_CONCURRENCY`` processes, 2 by default),
    ``background`` the ``background`` queue (``BACKGROUND_CONCURRENCY``, 1): see settings.py's
    ``CELERY_TASK_ROUTES``.

    ``WS_DEFLATE=1``: websocket frames compressed (per-message deflate); off by default.

    ``WEB_CONCURRENCY`` (1 by default) web processes: more than one needs ``CHANNEL_LAYER_URL``
    (Redis), because online play sends a game's messages between the processes its players are
    connected to; refused otherwise.
    """
    try:
        web = int(env.get("WEB_CONCURRENCY") or "1")
    except ValueError:
        raise ConfigurationError(
            f"WEB_CONCURRENCY={env['WEB_CONCURRENCY']!r}: expected a whole number of web processes."
        ) from None
    if web < 1:
        raise ConfigurationError("WEB_CONCURRENCY must be at least 1.")
    if web > 1 and not env.get("CHANNEL_LAYER_URL"):
        raise ConfigurationError(
            f"WEB_CONCURRENCY={web} needs CHANNEL_LAYER_URL (a Redis, e.g. redis://127.0.0.1:6379/1): "
            "online games send their moves between the web processes their players are connected to, "
            "and the in-memory channel layer reaches only its own process. Set CHANNEL_LAYER_URL, or "
            "run one web process."
        )
    python = sys.executable
    uvicorn = [
        python,
        "-m",
        "uvicorn",
        "snapleague.asgi:application",
        "--host",
        host,
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--ws-max-size",
        str(WS_MAX_SIZE),
        "--timeout-graceful-shutdown",
        "5",
    ]
    # Websocket frames go uncompressed unless WS_DEFLATE=1: per-message deflate compresses each frame
    # once per socket (a fragment for a thousand watchers, a thousand times) and cost the online
    # load benchmark about 7 % of the web process's CPU and half its p95 (docs/benchmarks.md,
    # "Websocket compression"); the frames are small JSON, or HTML a phone takes uncompressed.
    if env.get("WS_DEFLATE", "0").lower() not in {"1", "true", "yes", "on"}:
        uvicorn += ["--ws-per-message-deflate", "false"]
    if web > 1:
        # uvicorn's own manager keeps N workers on one socket and replaces a dead one; we supervise
        # the manager (and kill its whole group when it goes).
        uvicorn += ["--workers", str(web)]
    celery = [python, "-m", "celery", "-A", "snapleague"]
    children = [
        Child("web", uvicorn, env=env),
        # Two workers (docs/reliability.md, "Queues"): the stage tasks and standings that publish
        # rounds never wait behind ratings, webhook deliveries or game analysis.
        Child(
            "worker",
            [
                *celery,
                "worker",
                "--loglevel=INFO",
                "--queues=stages",
                "--hostname=stages@%h",
                f"--concurrency={env.get('WORKER_CONCURRENCY') or '2'}",
            ],
            log=var_dir / "worker.log",
            env=env,
        ),
        Child(
            "background",
            [
                *celery,
                "worker",
                "--loglevel=INFO",
                "--queues=background",
                "--hostname=background@%h",
                f"--concurrency={env.get('BACKGROUND_CONCURRENCY') or '1'}",
            ],
            log=var_dir / "background.log",
            env=env,
        ),
    ]
    if beat:
        children.append(
            Child(
                "beat",
                [*celery, "beat", "--loglevel=INFO", "--schedule", str(var_dir / "celerybeat-schedule")],
                log=var_dir / "beat.log",
                env=env,
            )
        )
    return children


def port_open(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), 0.2).close()
    except OSError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m snapleague.supervise", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--banner",
        default=os.environ.get("SNAPLEAGUE_BANNER", ""),
        help="printed once the web server accepts connections (default: $SNAPLEAGUE_BANNER)",
    )
    parser.add_argument(
        "--child",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="supervise these commands instead of snapleague's processes",
    )
    parser.add_argument(
        "--no-beat",
        dest="beat",
        action="store_false",
        default=os.environ.get("SNAPLEAGUE_BEAT", "1").lower() not in {"0", "false", "no", "off"},
        help="start no Celery beat (every host but one of several; default: $SNAPLEAGUE_BEAT, on)",
    )
    parser.add_argument("--backoff", type=float, default=BACKOFF_FIRST, help="first restart delay (s)")
    parser.add_argument("--stop-grace", type=float, default=STOP_GRACE)
    args = parser.parse_args(argv)

    env = dict(os.environ)
    ready: Callable[[], bool] | None = None
    if args.child:
        children = []
        for spec in args.child:
            name, _, command = spec.partition("=")
            children.append(Child(name, shlex.split(command)))
    else:
        var_dir = Path(env.get("SNAPLEAGUE_VAR_DIR") or ROOT / "var")
        try:
            children = snapleague_children(
                env, host=args.host, port=args.port, var_dir=var_dir, beat=args.beat
            )
        except ConfigurationError as exc:
            print(f"snapleague: {exc}", file=sys.stderr)
            return 2

        def ready() -> bool:
            if not port_open(args.host, args.port):
                return False
            if args.banner:
                print(args.banner, flush=True)
            return True

    supervisor = Supervisor(children, backoff_first=args.backoff, stop_grace=args.stop_grace, ready=ready)
    return supervisor.run()


if __name__ == "__main__":
    sys.exit(main())
