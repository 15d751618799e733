"""A run-time "hu" test catalogue: every message the tournament side words from a code (engine
problems and refused moves, series/standings/pairing problems), the headlines around them and the
games' names, translated to "[hu] " + the English. A message that bypassed gettext, or the
mappings, shows without the mark.
"""

from __future__ import annotations

import array
import struct
from pathlib import Path
from typing import Any

from django.utils import translation

from games import engine_messages
from snapleague import errors
from tournaments import models
from tournaments.competitions import messages as tournament_messages
from tournaments.live import consumers as live

HEADLINES = [
    "These rules cannot be played.",
    "This result cannot be recorded as it is.",
    "This correction does not fit the games recorded after it. %(problem)s",
    "The games recorded so far do not make a valid series, so no game can be added until an "
    "organiser puts them right. %(problem)s",
    "The request body could not be read: send a JSON object with the header Content-Type: application/json.",
    # A field error of a submitted result (tournaments/competitions/results/payload.py), read at the edge.
    "Choose how the game ended: last player standing, draw or adjudicated.",
]


def msgid(message: Any) -> str:
    with translation.override(None):  # no catalogue: the msgid itself
        return str(message)


def msgids() -> list[str]:
    """Every msgid the catalogue translates."""
    messages: list[Any] = [
        *engine_messages.MESSAGES.values(),
        *engine_messages.ACTION_MESSAGES.values(),
        *engine_messages.GAME_ACTION_MESSAGES.values(),
        *engine_messages.LOCATIONS.values(),
        *engine_messages.REASONS.values(),
        engine_messages.OR,
        *tournament_messages.MESSAGES.values(),
        *tournament_messages.DECIDED_BY.values(),
        tournament_messages.SEAT,
        tournament_messages.VOID_LATER_GAMES,
        tournament_messages.VOID_LATER_GAMES_FIELD,
        tournament_messages.GAME_NUMBER,
        tournament_messages.GAME_VOID,
        tournament_messages.GAME_VOID_CONFLICT,
        *models.GAME_KIND_LABELS.values(),
        *live.ERROR_MESSAGES.values(),  # the live-pages socket's refusals
        "No such stage.",
        errors.UNAVAILABLE_MESSAGE,  # 503: the database or the broker does not answer
    ]
    return [msgid(m) for m in messages] + HEADLINES


def mo_file(catalogue: dict[str, str]) -> bytes:
    """A GNU .mo file (the format msgfmt writes), so the tests need no gettext tools."""
    keys = sorted(catalogue)
    ids = strs = b""
    offsets = []
    for key in keys:
        k, v = key.encode(), catalogue[key].encode()
        offsets.append((len(ids), len(k), len(strs), len(v)))
        ids += k + b"\0"
        strs += v + b"\0"
    key_start = 7 * 4 + 16 * len(keys)
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_at, id_len, str_at, str_len in offsets:
        key_table += [id_len, id_at + key_start]
        value_table += [str_len, str_at + value_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return (
        header + array.array("i", key_table).tobytes() + array.array("i", value_table).tobytes() + ids + strs
    )


def install(settings: Any, folder: Path) -> None:
    """Write the catalogue under ``folder`` and point LOCALE_PATHS at it (Django reloads its
    catalogues when LOCALE_PATHS changes)."""
    catalogue = {m: f"[hu] {m}" for m in msgids()}
    catalogue[""] = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    messages = folder / "locale" / "hu" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "django.mo").write_bytes(mo_file(catalogue))
    settings.LOCALE_PATHS = [folder / "locale"]
