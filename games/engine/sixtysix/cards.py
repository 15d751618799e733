"""Cards of the 66 family (rules/snapszer.md X1-X3).

A card is one of 24 shared singletons: compare with ``==`` or ``is``, hash by identity, serialise
with ``str(card)`` (``"KH"``, ``"10S"``, ``"9C"``) and read back with :func:`parse_card`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Final

from games.engine.cards import Suit


class Rank(StrEnum):
    """X1: ranks high to low in every suit. Values are the codes used in card names."""

    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"  # Ober / felső
    JACK = "J"  # Unter / alsó
    NINE = "9"


# X2: A 11, 10 10, K 4, Q 3, J 2, 9 0.
RANK_VALUES: Final[dict[Rank, int]] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
}
# X1: higher strength beats lower in the same suit.
RANK_STRENGTH: Final[dict[Rank, int]] = {
    Rank.ACE: 6,
    Rank.TEN: 5,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 1,
}
SUITS: Final[tuple[Suit, ...]] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


class Card:
    """One card. Never construct one: use :data:`ALL_CARDS`, :func:`card` or :func:`parse_card`."""

    __slots__ = ("index", "name", "partner", "rank", "strength", "suit", "value")

    rank: Rank
    suit: Suit
    value: int
    strength: int
    name: str
    index: int  # position in ALL_CARDS (0-23), for table lookups
    partner: Card | None  # the other card of a marriage (K <-> Q of the suit), else None

    def __init__(self, rank: Rank, suit: Suit) -> None:
        self.rank = rank
        self.suit = suit
        self.value = RANK_VALUES[rank]
        self.strength = RANK_STRENGTH[rank]
        self.name = f"{rank.value}{suit.value}"
        self.index = -1
        self.partner = None

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.name,))


_BY_KEY: Final[dict[tuple[Rank, Suit], Card]] = {(r, s): Card(r, s) for s in SUITS for r in Rank}
_BY_NAME: Final[dict[str, Card]] = {c.name: c for c in _BY_KEY.values()}
ALL_CARDS: Final[tuple[Card, ...]] = tuple(_BY_KEY.values())
for _i, _c in enumerate(ALL_CARDS):
    _c.index = _i
    if _c.rank is Rank.KING:
        _c.partner = _BY_KEY[(Rank.QUEEN, _c.suit)]
    elif _c.rank is Rank.QUEEN:
        _c.partner = _BY_KEY[(Rank.KING, _c.suit)]


_PACK_20: Final[tuple[Card, ...]] = tuple(c for c in ALL_CARDS if c.rank is not Rank.NINE)
_PACK_SETS: Final[dict[int, frozenset[Card]]] = {24: frozenset(ALL_CARDS), 20: frozenset(_PACK_20)}


def is_pack(cards: Sequence[Card], size: int) -> bool:
    """Whether ``cards`` holds each card of the ``size``-card pack exactly once."""
    return len(cards) == size and _PACK_SETS[size].issuperset(cards) and len(set(cards)) == size


def card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` and ``suit``."""
    return _BY_KEY[(rank, suit)]


def parse_card(name: str) -> Card:
    """The card named ``name`` (``"KH"``, ``"10S"``; case-insensitive). Raises ValueError if unknown."""
    found = _BY_NAME.get(name.strip().upper())
    if found is None:
        raise ValueError(f"unknown card {name!r}: expected rank A 10 K Q J 9 then suit C D H S, e.g. 'KH'")
    return found


def parse_cards(names: Iterable[str] | str) -> tuple[Card, ...]:
    """Cards from names, or from one space-separated string (``"AH 10H KS"``)."""
    if isinstance(names, str):
        names = names.split()
    return tuple(parse_card(n) for n in names)


def deck(size: int) -> tuple[Card, ...]:
    """The 24-card pack (A 10 K Q J 9) or the 20-card pack without 9s, in a fixed order.

    Raises ValueError for any other size.
    """
    if size == 24:
        return ALL_CARDS
    if size == 20:
        return _PACK_20
    raise ValueError(f"a 66 pack has 20 or 24 cards, not {size}")


def card_points(cards: Sequence[Card]) -> int:
    """X2: the sum of the cards' values."""
    return sum(c.value for c in cards)
