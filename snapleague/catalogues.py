"""Compile the translation catalogues (locale/<lang>/LC_MESSAGES/*.po → .mo) with polib, so that
neither a fresh machine nor the image needs GNU gettext's msgfmt. bin/run and bin/test run it
(`python -m snapleague.catalogues`): it compiles only what changed; the .mo files are not kept in git.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def compile_catalogues(locale: Path = LOCALE) -> list[Path]:
    """Write each .po's .mo where it is missing or older than the .po; the ones written."""
    written = []
    for po_path in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"compiled {path.relative_to(LOCALE.parent)}", file=sys.stderr)
