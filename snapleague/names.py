"""What a name may hold (players, clubs, tournaments, stages, ladders, seasons, club nights): any
script and its accents, but no character that hides or reorders text. ``Zoë\u202eevil`` (a
right-to-left override) shows as ``Zoëlive`` on a page and in a spreadsheet, so one player could
pass for another; a control character (a tab, a line break) breaks rows and exports. Refused with a
field error that names the character (docs/security.md, "Names")."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

# Zero-width joiner and non-joiner: part of how Persian, Indic scripts and emoji are written.
JOINERS = frozenset("\u200c\u200d")
# Control (Cc), format (Cf: the bidi overrides and isolates, zero-width spaces, the byte-order
# mark), surrogate, private use and unassigned code points; line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def name_clean(name: str) -> str:
    """``name`` in Unicode's composed form (NFC: "Zoë" typed either way is one name) with its white
    space folded to single spaces."""
    return " ".join(unicodedata.normalize("NFC", str(name or "")).split())


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a name (its first hidden or control character, by code point and
    position), or None."""
    for position, char in enumerate(name, start=1):
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in JOINERS:
            return _(
                "Names cannot hold control or text-direction characters: %(code)s%(what)s at "
                "character %(position)s. Type the name again without it."
            ) % {
                "code": f"U+{ord(char):04X}",
                "what": f" ({unicodedata.name(char)})" if unicodedata.name(char, "") else "",
                "position": position,
            }
    return None
