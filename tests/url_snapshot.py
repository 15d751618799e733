"""Every URL the project answers, as ``name  pattern`` lines: the proof that a layout move changes no URL.

Walks Django's resolver (every namespace, unnamed routes too) and the websocket routes that
snapleague/asgi.py mounts, and writes one sorted line per route: its namespaced name (``-`` when it
has none) and its full path pattern. The view that answers is left out on purpose: moving a view to
another module is no change of behaviour, changing its URL or name is.

tests/test_url_snapshot.py compares it with the committed tests/snapshots/urls.txt. When a URL
change is intended, refresh the file and commit it with the change:

    .venv/bin/python -m tests.url_snapshot --write
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "urls.txt"
REFRESH = ".venv/bin/python -m tests.url_snapshot --write"


def _walk(patterns: Iterable[object], prefix: str, namespace: str) -> Iterator[str]:
    from django.urls import URLPattern, URLResolver

    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}{entry.name}" if entry.name else "-"
            yield f"{name}  {prefix}{entry.pattern}"


def url_lines() -> list[str]:
    """Every HTTP route and websocket route, sorted, one ``name  pattern`` line each."""
    from django.urls import get_resolver

    from games.routing import websocket_urlpatterns as game_sockets
    from tournaments.live.routing import websocket_urlpatterns as live_sockets

    http = sorted(_walk(get_resolver().url_patterns, "", ""))
    sockets = sorted(f"ws {line}" for line in _walk([*game_sockets, *live_sockets], "", ""))
    return http + sockets


def snapshot_text() -> str:
    return "".join(f"{line}\n" for line in url_lines())


def main(argv: list[str]) -> int:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
    django.setup()
    text = snapshot_text()
    if "--write" in argv:
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(text)
        print(f"wrote {SNAPSHOT} ({text.count(chr(10))} routes)")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
