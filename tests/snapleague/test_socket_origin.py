"""The websockets' same-origin check (snapleague/sockets.py): scheme, host and port, not the host
name alone (issue 27 item 4). The ASGI-level tests, with a player's cookie on the game and live
sockets, are in tests/games/online/test_socket.py and tests/tournaments/test_live.py."""

from __future__ import annotations

from typing import Any

import pytest

from snapleague.sockets import origin_of, socket_origin_allowed


def scope(origin: str | None, host: str | None = "club.example", scheme: str = "ws") -> dict[str, Any]:
    headers = [(b"cookie", b"sessionid=x")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.fixture(autouse=True)
def _hosts(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["club.example", "127.0.0.1"]
    settings.CSRF_TRUSTED_ORIGINS = []


@pytest.mark.parametrize(
    ("origin", "host", "scheme"),
    [
        ("http://club.example", "club.example", "ws"),
        ("http://club.example:80", "club.example", "ws"),
        ("HTTP://Club.Example", "club.example", "ws"),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws"),
        ("https://club.example", "club.example", "wss"),
        ("https://club.example", "club.example:443", "wss"),
    ],
)
def test_the_sites_own_origin_is_let_in(origin: str, host: str, scheme: str) -> None:
    assert socket_origin_allowed(scope(origin, host, scheme))


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "why"),
    [
        ("http://club.example:8001", "club.example", "ws", "another port of the same host"),
        ("http://127.0.0.1:9000", "127.0.0.1:8000", "ws", "another port, both given"),
        ("https://club.example", "club.example", "ws", "https page, plain socket"),
        ("http://club.example", "club.example", "wss", "plain page, TLS socket"),
        ("http://evil.example", "club.example", "ws", "another host"),
        ("http://club.example.evil.example", "club.example", "ws", "a host that starts like ours"),
        ("null", "club.example", "ws", "an opaque origin"),
        ("ftp://club.example", "club.example", "ws", "another scheme"),
        ("http://club.example:99999", "club.example", "ws", "a port out of range"),
        (None, "club.example", "ws", "no Origin"),
        ("http://club.example", None, "ws", "no Host"),
        ("http://other.example", "other.example", "ws", "a host not in ALLOWED_HOSTS"),
    ],
)
def test_anything_else_is_refused(origin: str | None, host: str | None, scheme: str, why: str) -> None:
    assert not socket_origin_allowed(scope(origin, host, scheme)), why


def test_a_trusted_origin_is_let_in_behind_a_proxy_that_rewrites_the_host(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://snap.club.example", "https://*.league.example"]
    # the proxy forwards Host: club.example, the page was https://snap.club.example
    assert socket_origin_allowed(scope("https://snap.club.example", "club.example", "wss"))
    assert socket_origin_allowed(scope("https://a.league.example", "club.example", "wss"))
    assert not socket_origin_allowed(scope("http://snap.club.example", "club.example", "ws"))
    assert not socket_origin_allowed(scope("https://snap.club.example:8443", "club.example", "wss"))
    assert not socket_origin_allowed(scope("https://league.example.evil", "club.example", "wss"))


def test_origin_of_fills_in_the_default_port() -> None:
    assert origin_of("https://Club.Example") == ("https", "club.example", 443)
    assert origin_of("http://[::1]:8000") == ("http", "::1", 8000)
    assert origin_of("null") is None
