"""Every URL name and path pattern is the committed tests/snapshots/urls.txt (issue 24 item 4).

The proof that a layout move changes no URL: the resolver is walked (tests/url_snapshot.py) and the
sorted ``name  pattern`` lines compared with the committed copy.
"""

from __future__ import annotations

import difflib

from django.urls import reverse

from tests.url_snapshot import REFRESH, SNAPSHOT, _walk, snapshot_text, url_lines


def test_url_names_and_patterns_are_the_committed_snapshot() -> None:
    new, old = snapshot_text(), SNAPSHOT.read_text()
    if new != old:
        diff = "\n".join(
            difflib.unified_diff(old.splitlines(), new.splitlines(), "committed", "now", lineterm="")
        )
        raise AssertionError(
            f"The URL names or patterns differ from tests/snapshots/urls.txt.\n"
            f"If the change is intended, refresh the snapshot and commit it with the change:\n    {REFRESH}\n"
            f"If not, the change moved or renamed a URL.\n{diff}"
        )


def test_snapshot_covers_every_namespace_and_reverses() -> None:
    lines = url_lines()
    names = {line.split("  ")[0] for line in lines}
    for namespaced in ("home", "schema", "admin:index", "tournaments_api:webhook-test"):
        assert namespaced in names
    assert "ws -  ws/games/<int:game_id>/" in lines
    # A name with no arguments reverses to its snapshot pattern.
    assert f"home  {reverse('home').lstrip('/')}" in lines
    assert f"schema  {reverse('schema').lstrip('/')}" in lines


def test_walk_joins_prefixes_and_namespaces() -> None:
    from django.urls import include, path

    def view() -> None: ...

    inner = ([path("b/<int:pk>/", view, name="leaf"), path("c/", view)], "inner")
    lines = sorted(_walk([path("a/", include(inner, namespace="outer"))], "", ""))
    assert lines == ["-  a/c/", "outer:leaf  a/b/<int:pk>/"]
