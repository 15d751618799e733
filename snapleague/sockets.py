"""What every websocket consumer of the project shares (the live pages' ``/ws/live/``,
tournaments/live/consumers.py, and the game sockets' ``/ws/games/<id>/``, games/online/consumers.py):
a frame allowance and the visitor's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils import translation


@dataclass
class Allowance:
    """A token bucket: ``burst`` frames at once, refilled at ``per_second``."""

    burst: float
    per_second: float
    tokens: float
    at: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def scope_language(scope: dict[str, Any]) -> str:
    """The language a page request from this visitor would get (the language cookie, then
    Accept-Language): LocaleMiddleware does not see websockets."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin1")
    return translation.get_language_from_request(request)
