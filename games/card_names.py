"""The cards' names in the reader's language, for the table pages (docs/web.md, "Languages").

Each game names its cards as the players of its own deck do: Snap is played with French-suited
playing cards (in Hungarian: bubi, dáma, király, ász); Snapszer with the Hungarian deck in Hungary
(alsó, felső, király, tízes, ász; piros, tök, zöld, makk), which is why its names carry their own
translation context. The short labels go on the cards, the long names in their titles (what a
screen reader says). The engines' codes stay the keys: "J" is the Jack, "T" or "10" the ten.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext_lazy

SNAP_RANKS = {
    "A": (pgettext_lazy("playing card, short", "A"), pgettext_lazy("playing card", "ace")),
    "T": (pgettext_lazy("playing card, short", "10"), pgettext_lazy("playing card", "ten")),
    "J": (pgettext_lazy("playing card, short", "J"), pgettext_lazy("playing card", "jack")),
    "Q": (pgettext_lazy("playing card, short", "Q"), pgettext_lazy("playing card", "queen")),
    "K": (pgettext_lazy("playing card, short", "K"), pgettext_lazy("playing card", "king")),
}
SNAP_SUITS = {
    "C": pgettext_lazy("playing card suit", "clubs"),
    "D": pgettext_lazy("playing card suit", "diamonds"),
    "H": pgettext_lazy("playing card suit", "hearts"),
    "S": pgettext_lazy("playing card suit", "spades"),
}
SNAPSZER_RANKS = {
    "A": (pgettext_lazy("Snapszer card, short", "A"), pgettext_lazy("Snapszer card", "ace")),
    "10": (pgettext_lazy("Snapszer card, short", "10"), pgettext_lazy("Snapszer card", "ten")),
    "K": (pgettext_lazy("Snapszer card, short", "K"), pgettext_lazy("Snapszer card", "king")),
    "Q": (pgettext_lazy("Snapszer card, short", "Q"), pgettext_lazy("Snapszer card", "queen")),
    "J": (pgettext_lazy("Snapszer card, short", "J"), pgettext_lazy("Snapszer card", "jack")),
    "9": (pgettext_lazy("Snapszer card, short", "9"), pgettext_lazy("Snapszer card", "nine")),
}
SNAPSZER_SUITS = {
    "C": pgettext_lazy("Snapszer card suit", "clubs"),
    "D": pgettext_lazy("Snapszer card suit", "diamonds"),
    "H": pgettext_lazy("Snapszer card suit", "hearts"),
    "S": pgettext_lazy("Snapszer card suit", "spades"),
}
CARD_NAME = pgettext_lazy("a card's full name: its rank, then its suit", "%(rank)s of %(suit)s")

DECKS = {"snap": (SNAP_RANKS, SNAP_SUITS), "snapszer": (SNAPSZER_RANKS, SNAPSZER_SUITS)}


def card_names(kind: str) -> dict[str, Any]:
    """What a table page's script needs to name ``kind``'s cards in the active language: short
    labels and long names by rank code, suit names by suit code, and the pattern of a full name."""
    ranks, suits = DECKS[kind]
    return {
        "short": {code: str(short) for code, (short, _long) in ranks.items()},
        "long": {code: str(long) for code, (_short, long) in ranks.items()},
        "suits": {code: str(name) for code, name in suits.items()},
        "pattern": str(CARD_NAME),
    }
