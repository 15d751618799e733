"""One POST of a delivery: to the address ``targets`` checked, with a timeout, no redirects followed.

The standard library's ``http.client`` (no extra dependency), with a connection that opens its
socket to the checked address while sending the URL's host name (``Host`` header, TLS server
name and certificate check), so a second DNS answer cannot send it elsewhere.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass

from tournaments.integrations.webhooks.models import WebhookAttempt
from tournaments.integrations.webhooks.targets import Target, TargetRefused, target_for

# What of the answer is read and kept for the log.
EXCERPT_BYTES = 500


@dataclass(frozen=True)
class Answer:
    """What one POST came to. ``failure`` is empty for a 2xx answer."""

    status_code: int | None
    failure: str
    error: str
    excerpt: str
    duration_ms: int

    @property
    def ok(self) -> bool:
        return not self.failure


class _PinnedConnection(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedTLSConnection(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: Mapping[str, str], *, timeout: float) -> Answer:
    """POST ``body`` to ``url``. Never raises for what the network or the endpoint does: a refused
    address, a timeout, a refused connection, a bad certificate or an error status is an Answer
    with its ``failure``."""
    started = time.monotonic()

    def answer(status: int | None, failure: str, error: str, excerpt: str = "") -> Answer:
        elapsed = int((time.monotonic() - started) * 1000)
        return Answer(status, failure, error[:500], excerpt[:EXCERPT_BYTES], elapsed)

    try:
        target = target_for(url)
    except TargetRefused as exc:
        return answer(None, WebhookAttempt.Failure.ADDRESS, str(exc.message))
    connection_class = _PinnedTLSConnection if target.scheme == "https" else _PinnedConnection
    connection = connection_class(target, timeout)
    try:
        connection.request("POST", target.path, body=body, headers=dict(headers))
        response = connection.getresponse()
        excerpt = response.read(EXCERPT_BYTES).decode("utf-8", "replace")
    except TimeoutError as exc:
        return answer(None, WebhookAttempt.Failure.TIMEOUT, f"timed out after {timeout:g} s ({exc})")
    except ssl.SSLError as exc:
        return answer(None, WebhookAttempt.Failure.TLS, str(exc))
    except (OSError, http.client.HTTPException) as exc:
        return answer(None, WebhookAttempt.Failure.CONNECTION, f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()
    status = response.status
    if 200 <= status < 300:
        return answer(status, WebhookAttempt.Failure.NONE, "", excerpt)
    reason = f"HTTP {status} {response.reason}".strip()
    return answer(status, WebhookAttempt.Failure.STATUS, reason, excerpt)
