"""Card vocabulary shared by the engines (suits and their display names)."""

from __future__ import annotations

from enum import StrEnum


class Suit(StrEnum):
    """The four suits. Values are one-letter codes used in serialised card names (``"KH"``)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def hungarian(self) -> str:
        """Hungarian-pattern name (X3 of rules/snapszer.md: piros = ♥, tök = ♦, makk = ♣, zöld = ♠)."""
        return _HUNGARIAN[self]


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_HUNGARIAN = {Suit.CLUBS: "makk", Suit.DIAMONDS: "tök", Suit.HEARTS: "piros", Suit.SPADES: "zöld"}
