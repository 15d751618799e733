"""X1-X6: cards, values, suit names, the deal."""

from __future__ import annotations

import itertools

import pytest

from games.engine.cards import Suit
from games.engine.sixtysix import (
    PROFILES,
    InvalidDeal,
    PlayCard,
    Rank,
    card,
    card_points,
    deck,
    legal_actions,
    new_hand,
    parse_card,
)
from tests.games.engine.sixtysix.helpers import act, hand

# X1 as the rules state it, high to low.
RANK_ORDER = ["A", "10", "K", "Q", "J", "9"]


@pytest.mark.parametrize(("high", "low"), list(itertools.combinations(RANK_ORDER, 2)))
def test_X1_higher_rank_of_suit_led_wins(high: str, low: str) -> None:
    # Hearts are not trumps here (trump card AS). Seat 0 leads, seat 1 follows in the same suit.
    others = "AC 10C KC QC JC 9C AD 10D KD QD"
    cards0 = [f"{low}H", *others.split()[:5]]
    cards1 = [f"{high}H", *others.split()[5:]]
    state = hand("snapszer", " ".join(cards0), " ".join(cards1), "AS")
    after = act(state, f"0:{low}H", f"1:{high}H")
    assert after.tricks[-1].winner == 1
    # and the other way round: the higher card led beats the lower one followed
    state = hand(
        "snapszer",
        " ".join([f"{high}H", *others.split()[:5]]),
        " ".join([f"{low}H", *others.split()[5:]]),
        "AS",
    )
    after = act(state, f"0:{high}H", f"1:{low}H")
    assert after.tricks[-1].winner == 0


def test_X2_card_values_and_pack_totals() -> None:
    expected = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    for c in deck(24):
        assert c.value == expected[c.rank.value]
    assert card_points(deck(24)) == 120
    assert card_points(deck(20)) == 120
    assert len(deck(24)) == 24 and len(deck(20)) == 20
    assert all(c.rank is not Rank.NINE for c in deck(20))


def test_X3_hungarian_suit_names_are_display_only() -> None:
    assert Suit.HEARTS.hungarian == "piros"
    assert Suit.DIAMONDS.hungarian == "tök"
    assert Suit.CLUBS.hungarian == "makk"
    assert Suit.SPADES.hungarian == "zöld"
    assert parse_card("10h") is card(Rank.TEN, Suit.HEARTS)
    assert str(card(Rank.QUEEN, Suit.SPADES)) == "QS"


@pytest.mark.parametrize("dealer", [0, 1])
def test_X4_first_dealer_is_an_input(dealer: int) -> None:
    state = new_hand(PROFILES["snapszer"], deck(24), dealer)
    assert state.dealer == dealer
    assert state.leader == 1 - dealer  # X6: the non-dealer leads


def test_X4_bad_dealer_or_deal_is_refused() -> None:
    with pytest.raises(InvalidDeal, match="dealer"):
        new_hand(PROFILES["snapszer"], deck(24), 2)
    with pytest.raises(InvalidDeal, match="each of the 24 cards once"):
        new_hand(PROFILES["snapszer"], deck(20), 0)
    with pytest.raises(InvalidDeal, match="missing"):
        new_hand(PROFILES["snapszer"], [*deck(24)[:-1], deck(24)[0]], 0)


def test_X5_24_card_deal_3_3_3_3_trump_stock() -> None:
    order = deck(24)
    state = new_hand(PROFILES["snapszer"], order, dealer=1)  # seat 0 is the non-dealer
    assert set(state.hands[0]) == {*order[0:3], *order[6:9]}
    assert set(state.hands[1]) == {*order[3:6], *order[9:12]}
    assert state.trump_card is order[12]
    assert state.stock == order[13:]  # top first
    assert state.talon_size == 12


def test_X5_20_card_deal_3_3_trump_2_2_stock() -> None:
    order = deck(20)
    state = new_hand(PROFILES["schnapsen"], order, dealer=0)  # seat 1 is the non-dealer
    assert set(state.hands[1]) == {*order[0:3], *order[7:9]}
    assert set(state.hands[0]) == {*order[3:6], *order[9:11]}
    assert state.trump_card is order[6]
    assert state.stock == order[11:]
    assert state.talon_size == 10


def test_X6_trump_suit_from_the_face_up_card_and_non_dealer_leads() -> None:
    state = hand("schnapsen", "AH 10H KH QH JH", "AC 10C KC QC JC", "KD")
    assert state.trump_suit is Suit.DIAMONDS
    assert {a.seat for a in legal_actions(state, 0) if isinstance(a, PlayCard)} == {0}
    assert legal_actions(state, 1) == []  # schnapsen: the dealer cannot declare at trick 1
