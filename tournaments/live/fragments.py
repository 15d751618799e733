"""Fragments the live socket carries in its "changed" frames (issue 27 item 1; docs/web.md,
"Rendered once per version").

A page's live section may name its fragment (``data-live-fragment="standings"``); its socket then
asks for it when it subscribes, and each "changed" frame of that stage brings the fragment's new
rendering in the watcher's language, so a thousand watchers swap their tables in without a thousand
requests. The watcher renders each (fragment, language) its followers asked for once per version,
through the same cache as the page's fetch (``snapleague/fragments.py``).

What renders a fragment is registered by the app that owns it (``tournaments/apps.py``), so this
package knows names, not pages. A renderer answers None when the stage is not public (a draft): its
followers are told "changed" without the fragment and fetch it, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import translation

from tournaments.live.topics import Topic, TopicKind

# (fragment name, stage id) -> its HTML in the active language, or None (not public, gone).
Renderer = Callable[[str, int], str | None]

MAX_FRAGMENTS = 4  # a page shows one or two; a subscribe naming more is malformed

_names: frozenset[str] = frozenset()
_renderer: Renderer | None = None


def register_stage_fragments(names: frozenset[str], renderer: Renderer) -> None:
    global _names, _renderer
    _names, _renderer = names, renderer


def fragment_names(topic: Topic) -> frozenset[str]:
    """The fragments a follower of ``topic`` may ask for (only stages have them)."""
    return _names if topic.kind is TopicKind.STAGE else frozenset()


def fragment_key(name: str, language: str) -> str:
    return f"{name}|{language}"


def fragments_render(topic: Topic, wanted: frozenset[tuple[str, str]]) -> dict[str, str]:
    """Each wanted (name, language) of ``topic`` rendered (or taken from the cache), keyed by
    ``fragment_key``; those that are not public are left out. Runs in the watcher's thread."""
    rendered: dict[str, str] = {}
    if _renderer is None:
        return rendered
    for name, language in sorted(wanted):
        if name not in fragment_names(topic):
            continue
        with translation.override(language):
            html = _renderer(name, topic.id)
        if html is None:
            return {}  # not public now: nobody gets any of it
        rendered[fragment_key(name, language)] = html
    return rendered
