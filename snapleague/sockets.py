"""What every websocket consumer of the project shares (the live pages' ``/ws/live/``,
tournaments/live/consumers.py, and the game sockets' ``/ws/games/<id>/``, games/online/consumers.py):
the same-origin check in front of both, a frame allowance and the visitor's language."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host
from django.utils import translation

Origin = tuple[str, str, int]
Asgi = Callable[
    [dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]


def origin_of(url: str) -> Origin | None:
    """An http(s) origin as (scheme, host, port), the default port filled in; None for anything
    else (``null``, another scheme, no host, a bad port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80)


def _trusted(origin: Origin, pattern: str) -> bool:
    """``pattern``: an entry of CSRF_TRUSTED_ORIGINS, ``https://club.example`` or, as Django
    allows, ``https://*.club.example``."""
    wildcard = "://*." in pattern
    trusted = origin_of(pattern.replace("://*.", "://", 1))
    if trusted is None or (origin[0], origin[2]) != (trusted[0], trusted[2]):
        return False
    return origin[1] == trusted[1] or (wildcard and origin[1].endswith("." + trusted[1]))


def socket_origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether a websocket comes from one of the site's own pages: its Origin has the scheme, host
    and port of the address it was opened on (``ws`` for an ``http`` page, ``wss`` for ``https``,
    as the proxy reports it to uvicorn), or is one of CSRF_TRUSTED_ORIGINS; the host must be one of
    ALLOWED_HOSTS. A socket without an Origin (or ``null``) is refused: every browser sends one.
    Comparing host names only let a page on another port or scheme of the same host open a seat's
    socket with the player's cookie (docs/security.md)."""
    headers = {name.lower(): value for name, value in scope.get("headers") or []}
    raw_origin, raw_host = headers.get(b"origin"), headers.get(b"host")
    if raw_origin is None or raw_host is None:
        return False
    origin = origin_of(raw_origin.decode("latin1"))
    host = raw_host.decode("latin1").strip().lower()
    domain, _port = split_domain_port(host)
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    if origin is None or not domain or not validate_host(domain, allowed_hosts):
        return False
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    if origin == origin_of(f"{scheme}://{host}"):
        return True
    return any(_trusted(origin, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS)


class SameOriginOnly:
    """ASGI middleware in front of every websocket: a socket that fails
    :func:`socket_origin_allowed` is closed before any consumer, session or game sees it."""

    def __init__(self, application: Asgi) -> None:
        self.application = application

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        if socket_origin_allowed(scope):
            await self.application(scope, receive, send)
        else:
            await WebsocketDenier()(scope, receive, send)


class Socket(AsyncWebsocketConsumer):
    """A websocket consumer that hands each message to its handler without a trip to the
    database thread first.

    Channels' consumers close the sync thread's stale database connections before every message
    they dispatch (``aclose_old_connections``): one hop to that thread for each frame each socket
    forwards, behind whatever the thread is doing. The game owners' log writes run in that same
    thread, so under load every frame waited for a write to finish (online load benchmark,
    docs/benchmarks.md, "Online play: the hop back out"). Every database access of this
    project's sockets goes through ``database_sync_to_async``, which closes stale connections
    before and after it runs: the hop did nothing the call does not do itself."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


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
