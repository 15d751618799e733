"""Decks for Snap (S1, S2): standard52, double104 and picture decks shipped as data.

Cards are identified by name strings (``"7H"``, ``"7H.2"``, ``"cat.1"``) in deals, events and
views; inside the engine a card is its index in ``Deck.cards`` so that matching is an integer
comparison. A picture deck's definition (``deck_data/<name>.json``) lists its cards and, for each,
the picture it matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from games.engine.cards import Suit

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
JACK = "J"


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: card names, and for each card its rank, its identity across packs and its picture.

    ``rank`` is the match key under ``match_key = rank``; ``face`` (the card without its pack
    suffix) under ``exact_card``; ``picture`` under ``picture_id`` (picture decks only).
    """

    name: str
    cards: tuple[str, ...]
    rank: tuple[str, ...]
    face: tuple[str, ...]
    picture: tuple[str, ...]
    is_picture: bool

    @property
    def size(self) -> int:
        return len(self.cards)

    def match_labels(self, match_key: str) -> tuple[str, ...]:
        """Per card, what it matches on under ``match_key`` (a MatchKey value): "7", "7H", "cat"."""
        return {"rank": self.rank, "exact_card": self.face, "picture_id": self.picture}[match_key]

    def index(self) -> dict[str, int]:
        """Card name -> engine index."""
        return {name: i for i, name in enumerate(self.cards)}


def _standard(packs: int) -> Deck:
    faces = [f"{rank}{suit.value}" for suit in Suit for rank in RANKS]
    if packs == 1:
        names = faces
        face_of = faces
    else:
        names = [f"{face}.{pack}" for pack in range(1, packs + 1) for face in faces]
        face_of = [face for _pack in range(packs) for face in faces]
    return Deck(
        name="standard52" if packs == 1 else "double104",
        cards=tuple(names),
        rank=tuple(face[:-1] for face in face_of),
        face=tuple(face_of),
        picture=tuple("" for _ in names),
        is_picture=False,
    )


def _picture(name: str) -> Deck:
    data = json.loads(resources.files(__package__).joinpath(f"deck_data/{name}.json").read_text())
    cards = tuple(str(card["id"]) for card in data["cards"])
    pictures = tuple(str(card["matches"]) for card in data["cards"])
    if len(set(cards)) != len(cards):
        raise ValueError(f"picture deck {name}: duplicate card ids")
    return Deck(name=name, cards=cards, rank=pictures, face=cards, picture=pictures, is_picture=True)


DECKS: dict[str, Deck] = {
    "standard52": _standard(1),
    "double104": _standard(2),
    "animals": _picture("animals"),
    "shapes": _picture("shapes"),
}
