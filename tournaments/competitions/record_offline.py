"""What the record form needs to work through the venue's bad Wi-Fi (docs/results.md, "Offline entry").

The service worker (``templates/tournaments/record_sw.js``, served at ``/record-sw.js`` so that its
scope is the whole site) keeps the record-form pages a referee opened and the static files they use;
the page script (``static/js/record_offline.js``) keeps submissions in IndexedDB and sends them when
the network returns. This module gives both what the server knows: the files of the form's shell,
the cache version, the page's texts in its language.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The static files the record form's page loads (templates/base.html and record.html): kept by the
# service worker when it installs, so that the form opens offline as it does online.
SHELL_ASSETS = (
    "css/snapleague.css",
    "vendor/htmx-2.0.11.min.js",
    "js/language.js",
    "js/record.js",
    "js/offline_queue.js",
    "js/record_offline.js",
)
SW_TEMPLATE = "tournaments/record_sw.js"
# The record form's address (tournaments/competitions/page_urls.py "record"), as the worker matches it.
RECORD_PATH_PATTERN = r"^/series/\d+/record/$"


@cache
def _version_cached() -> str:
    return _version()


def _version() -> str:
    """A hash of the worker's source and of every shell file: a change of any of them makes a new
    worker with a new cache (the old one is deleted when it activates)."""
    digest = hashlib.sha256()
    template = get_template(SW_TEMPLATE)
    digest.update(Path(template.origin.name).read_bytes())
    for asset in SHELL_ASSETS:
        found = finders.find(asset)
        digest.update(asset.encode())
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


def cache_version() -> str:
    return _version() if settings.DEBUG else _version_cached()


def service_worker_config() -> dict[str, Any]:
    from django.urls import reverse

    return {
        "version": cache_version(),
        "shell": [static(asset) for asset in SHELL_ASSETS],
        "record_path": RECORD_PATH_PATTERN,
        # Signing in or out (whoever is next on this phone) drops the kept pages.
        "session_paths": [reverse("account_login"), reverse("account_logout")],
        "static_prefix": static(""),
    }


def service_worker_source() -> str:
    config = json.dumps(service_worker_config(), separators=(",", ":"))
    return get_template(SW_TEMPLATE).render({"config": config})


# gettext's plural rule cannot be evaluated under the CSP (no eval), so the page carries which form
# each count takes: counts 0-199 as they are, a larger one as n % 100 + 100 (every gettext plural
# rule depends only on n % 10, n % 100 and comparisons with small numbers).
PLURAL_TABLE_SIZE = 200


def _plural(message: Callable[[int], str]) -> dict[str, Any]:
    """``message(n)`` for every count, as the distinct forms and which form each count takes."""
    forms: list[str] = []
    index: list[int] = []
    for n in range(PLURAL_TABLE_SIZE):
        text = message(n)
        if text not in forms:
            forms.append(text)
        index.append(forms.index(text))
    return {"forms": forms, "index": index}


def _waiting(n: int) -> str:
    return ngettext("%(n)s result waiting to be sent", "%(n)s results waiting to be sent", n)


def page_texts() -> dict[str, Any]:
    """The record page script's texts, in the request's language (``%(name)s`` filled in by it)."""
    return {
        "waiting": _plural(_waiting),
        "offline": _("No network: results are kept on this phone and sent when it returns."),
        "saved": _("Game %(game)s saved on this phone. Enter the next one, or wait for the network."),
        "sending": _("Sending…"),
        "sent": _("Sent: game %(game)s of %(series)s."),
        "replayed": _("Game %(game)s of %(series)s was already recorded (sent twice); nothing new."),
        "sign_in": _("Sign in again to send the results waiting on this phone."),
        "retry": _("The server did not answer; trying again in %(s)s s."),
        "record_game": _("Record game %(n)s"),
        "problem": _("Not recorded: game %(game)s of %(series)s"),
        "held": _("On the server: %(result)s (recorded by %(who)s)"),
        "held_nothing": _("On the server: nothing for this game."),
        "entered": _("You entered: %(result)s"),
        "entered_fields": _("You entered a result the server could not read."),
        "refused": _("You may no longer record results of this series (HTTP %(status)s)."),
        "dismiss": _("Dismiss"),
    }
