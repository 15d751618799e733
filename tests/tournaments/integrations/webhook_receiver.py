"""A real HTTP receiver on 127.0.0.1 for the webhook tests: a threaded ``http.server`` that records
every request (path, headers, body) and answers as a test tells it (status, a delay)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    # What to answer, in turn (the last one is repeated): a status, and seconds to wait first.
    answers: list[tuple[int, float]] = field(default_factory=lambda: [(200, 0.0)])

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/hooks/snapleague"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Received]:
        """Poll until ``count`` requests arrived (the sender may run in another thread or process)."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self.received)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            index = min(len(receiver.received), len(receiver.answers) - 1)
            status, delay = receiver.answers[index]
            receiver.received.append(Received(self.path, dict(self.headers.items()), body))
            if delay:
                time.sleep(delay)
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"thanks" if status < 300 else b"no thanks")

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    made = Receiver(server=server)
    server.RequestHandlerClass = _handler(made)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield made
    server.shutdown()
    server.server_close()
