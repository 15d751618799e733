"""Live fragments rendered once per version (issue 27 items 1 and 2, docs/web.md "Rendered once
per version").

A page fragment that depends only on a topic's version (a stage's standings table, a stage's rounds
and bracket, a tournament's big screen) is rendered once per (topic, version, language, role) and
served from the cache afterwards: a hundred watchers told "changed" cost one rendering, not a
hundred. The version is read first, in the query that also checks the reader may see the topic,
and is part of the key, so a new result makes a new key: no timed expiry decides what is fresh (the
timeout only frees memory), and a stale table is never served. The content stored under a version
is never older than it (it is rendered after the version was read).

HTTP: the fragment carries an ``ETag`` made of the same four parts; a conditional GET whose
``If-None-Match`` names it is answered 304 without rendering. Anonymous readers get
``Cache-Control: public, max-age=0, s-maxage=1, must-revalidate`` (a reverse proxy may micro-cache
it for a second and must revalidate after); signed-in readers ``private, no-cache``. ``Vary`` names
the language and the cookie.

The cache is Django's default: per process in the embedded default, shared by every process and
host with ``CACHE_URL`` (Redis). With a shared cache each process also keeps the fragments it
served last in its own memory (``FRAGMENT_LOCAL_ENTRIES``, least recently used out first): what is
stored under a key never goes stale (the key holds the version), so a copy is as good as the shared
one, and a crowd's request costs no round trip to Redis and no copy of the page over it.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import render as render_page
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language


def fragment_tag(*, topic: str, version: str, role: str) -> str:
    """The ETag (and cache key) of a fragment: its topic, version, language and role."""
    raw = f"{topic}|{version}|{get_language() or settings.LANGUAGE_CODE}|{role}"
    return hashlib.sha256(raw.encode()).hexdigest()[:40]


def fragment_html(*, topic: str, version: str, render: Callable[[], str], role: str = "public") -> str:
    """The fragment of ``topic`` at ``version`` in the active language, from the cache or rendered
    by ``render`` and kept: what the live socket sends its watchers in the "changed" frame, under
    the same key as the page's fetch (so either one renders it for both)."""
    return _cached(fragment_tag(topic=topic, version=version, role=role), render)


def page_part(*, topic: str, version: str, render: Callable[[], str]) -> SafeString:
    """The part of a page that is the same for every anonymous visitor at ``version`` (all of it
    but the header's user, messages and CSRF token), from the cache or rendered by ``render``: a
    crowd opening the tournament page costs one rendering per version, not one each."""
    html = fragment_html(topic=topic, version=version, render=render, role="anonymous-page")
    return mark_safe(html)  # rendered by our templates, which escaped what they put in


# Where the cached copy of an anonymous visitor's page has the visitor's CSRF token (the footer's
# language form, htmx's header): each response puts its own visitor's token there.
CSRF_SLOT = "csrf-slot-of-the-visitor-7c1f0e"


class Public(Protocol):
    """What a ``*_public_get`` selector read for a page: its topic and the version of all it shows."""

    @property
    def topic(self) -> str: ...

    @property
    def version(self) -> str: ...


def public_page(
    request: HttpRequest,
    *,
    public: Public,
    template: str,
    main: Callable[[], str],
) -> HttpResponse:
    """An anonymous visitor's whole page of ``topic`` at ``version``: rendered once per version,
    language and path, with a slot where the visitor's CSRF token goes, and filled for each
    response. What else a page holds for one visitor only (messages to show, a query string that
    the page repeats in its links) is rendered for that request, as before.

    ``public`` is what the view's ``*_public_get`` selector read: its ``topic`` and ``version``
    (everything the page shows, title and header included), given to the template as ``page``;
    ``main`` renders the page's ``<main>``, itself cached as a ``page_part`` (the template shows
    it as ``body``)."""
    topic, version = public.topic, public.version
    body = functools.cache(lambda: page_part(topic=topic, version=version, render=main))
    context = {"page": public, "body": body}
    if request.GET or len(get_messages(request)):
        return render_page(request, template, context)
    html = fragment_html(
        topic=topic,
        version=version,
        role=f"anonymous-whole-page|{request.path}",
        render=lambda: render_to_string(template, {**context, "csrf_token": CSRF_SLOT}, request=request),
    )
    return HttpResponse(html.replace(CSRF_SLOT, get_token(request)))


class _Recent:
    """The fragments this process served last, by key: a bounded, thread-safe LRU in front of the
    shared cache (its entries never go stale: each key holds its version)."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            html = self._entries.get(key)
            if html is not None:
                self._entries.move_to_end(key)
            return html

    def put(self, key: str, html: str, most: int) -> None:
        with self._lock:
            self._entries[key] = html
            self._entries.move_to_end(key)
            while len(self._entries) > most:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


recent = _Recent()


def _cached(tag: str, render: Callable[[], str]) -> str:
    key = f"fragment:{tag}"
    keep = settings.FRAGMENT_CACHE_SECONDS  # 0: render every time (for comparison)
    if not keep:
        return render()
    local = settings.FRAGMENT_LOCAL_ENTRIES  # 0: none (the default cache is already this process's)
    html = recent.get(key) if local else None
    if html is None:
        html = cache.get(key)
        if html is None:
            html = render()
            cache.set(key, html, keep)
        if local:
            recent.put(key, html, local)
    return html


def _matches(request: HttpRequest, etag: str) -> bool:
    given = request.headers.get("If-None-Match", "")
    return any(part.strip().removeprefix("W/") == etag for part in given.split(",")) or given.strip() == "*"


def fragment_response(
    request: HttpRequest, *, topic: str, version: str, render: Callable[[], str], role: str = "public"
) -> HttpResponse:
    """The fragment of ``topic`` at ``version`` for readers of ``role``: 304 when the reader has it,
    else from the cache, rendered by ``render`` (called at most once per key and process) when
    absent."""
    tag = fragment_tag(topic=topic, version=version, role=role)
    etag = f'"{tag}"'
    if _matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(_cached(tag, render))
    response["ETag"] = etag
    signed_in = getattr(getattr(request, "user", None), "is_authenticated", False)
    response["Cache-Control"] = (
        "private, no-cache" if signed_in else "public, max-age=0, s-maxage=1, must-revalidate"
    )
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
