"""X7-X12: the open and closed phase, tricks, drawing, the leader's order of actions."""

from __future__ import annotations

import pytest

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.sixtysix import (
    Close,
    Declare,
    Exchange,
    Pass,
    Phase,
    PlayCard,
    apply,
    legal_actions,
    observe,
    parse_card,
)
from tests.games.engine.sixtysix.helpers import act, hand, names


def test_X7_open_phase_follower_may_play_any_card() -> None:
    state = hand("snapszer", "AH 10C KC QC JC 9C", "9H JD QD KD 10D AD", "AS")
    state = act(state, "0:AH")
    # Seat 1 holds the 9H and trumps? none; it may still discard any diamond instead of following.
    plays = {a.card.name for a in legal_actions(state, 1) if isinstance(a, PlayCard)}
    assert plays == {"9H", "JD", "QD", "KD", "10D", "AD"}


def test_X8_trump_beats_non_trump_and_off_suit_never_wins() -> None:
    state = hand("snapszer", "AH 10C KC QC JC 9C", "9S JD QD KD 10D AD", "AS")
    trumped = act(state, "0:AH", "1:9S")  # the lowest trump beats the ace of hearts
    assert trumped.tricks[-1].winner == 1
    assert trumped.leader == 1  # the winner leads next
    discarded = act(state, "0:9C", "1:AD")  # an off-suit ace does not beat a led 9
    assert discarded.tricks[-1].winner == 0
    assert discarded.card_points == (11, 0)


def test_X9_winner_draws_first_then_loser_and_last_card_goes_with_trump() -> None:
    state = hand("snapszer", "AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C", "AS")
    # Always lead and follow with the first card held; check every draw against the stock order.
    while state.stock:
        stock, trump = state.stock, state.trump_card
        before = [set(h) for h in state.hands]
        leader = state.leader
        state, _ = apply(state, PlayCard(leader, state.hands[leader][0]))
        state, _ = apply(state, PlayCard(1 - leader, state.hands[1 - leader][0]))
        winner = state.tricks[-1].winner
        new_cards = [set(state.hands[s]) - before[s] for s in (0, 1)]
        assert new_cards[winner] == {stock[0]}
        expected_loser_card = stock[1] if len(stock) > 1 else trump
        assert new_cards[1 - winner] == {expected_loser_card}
    assert state.trump_card is None and state.talon_size == 0
    assert len(state.hands[0]) == len(state.hands[1]) == 6


def test_X9_exchanged_nine_goes_with_the_last_draw() -> None:
    # Stock: 11 cards; after 5 tricks one face-down card and the trump are left.
    state = hand(
        "snapszer",
        "9S AH 10H KH QH JH",
        "AC 10C KC QC JC 9C",
        "AS",
        stock="AD 10D KD QD JD 9D 9H KS QS JS 10S",
    )
    state = act(state, "0:AH", "1:9C", "0:exchange")  # seat 0 won, drew AD, 10D; exchanges 9S for AS
    assert state.trump_card is not None and state.trump_card.name == "9S"
    while state.stock:
        leader = state.leader
        state, _ = apply(state, PlayCard(leader, state.hands[leader][0]))
        state, _ = apply(state, PlayCard(1 - leader, state.hands[1 - leader][0]))
    loser = 1 - state.tricks[-1].winner
    assert "9S" in {c.name for c in state.hands[loser]}


def test_X10_closed_phase_must_follow_and_beat() -> None:
    state = hand("snapszer", "QH 10C KC QC JC 9C", "AH KH 9H JD QD AS", "KS")
    state = act(state, "0:close", "0:QH")
    assert names(legal_actions(state, 1)) == {"AH", "KH", "declare"}  # higher hearts only


def test_X10_closed_phase_follow_lower_when_unable_to_beat() -> None:
    state = hand("snapszer", "AH 10C KC QC JC 9C", "KH 9H JD QD AD AS", "KS")
    state = act(state, "0:close", "0:AH")
    assert names(legal_actions(state, 1)) == {"KH", "9H", "declare"}


def test_X10_closed_phase_no_suit_must_trump_any_trump() -> None:
    state = hand("snapszer", "AH 10C KC QC JC 9C", "9S AS JD QD AD KD", "KS")
    state = act(state, "0:close", "0:AH")
    assert names(legal_actions(state, 1)) == {"9S", "AS", "declare"}


def test_X10_closed_phase_neither_suit_nor_trump_any_card() -> None:
    state = hand("snapszer", "AH 10C KC QC JC 9C", "JD QD AD KD 10D 9D", "KS")
    state = act(state, "0:close", "0:AH")
    assert names(legal_actions(state, 1)) == {"JD", "QD", "AD", "KD", "10D", "9D", "declare"}


def test_X10_trump_led_must_play_higher_trump() -> None:
    state = hand("snapszer", "QS 10C KC QC JC 9C", "9S AS JD QD AD KD", "KS")
    state = act(state, "0:close", "0:QS")
    assert names(legal_actions(state, 1)) == {"AS", "declare"}


def test_X10_exhausted_talon_applies_the_same_rules() -> None:
    state = hand("snapszer", "AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C", "AS")
    while state.talon_size:
        leader = state.leader
        state, _ = apply(state, PlayCard(leader, state.hands[leader][0]))
        state, _ = apply(state, PlayCard(1 - leader, state.hands[1 - leader][0]))
    leader = state.leader
    led = state.hands[leader][0]
    state, _ = apply(state, PlayCard(leader, led))
    plays = [a.card for a in legal_actions(state, 1 - leader) if isinstance(a, PlayCard)]
    held = state.hands[1 - leader]
    same = [c for c in held if c.suit is led.suit]
    higher = [c for c in same if c.strength > led.strength]
    trumps = [c for c in held if c.suit is state.trump_suit]
    assert set(plays) == set(higher or same or trumps or held)


def test_X11_exchange_then_close_then_lead() -> None:
    state = hand("snapszer", "9S AH 10H KH QH JH", "AC 10C KC QC JC 9C", "AS")
    state = act(state, "0:AH", "1:9C")  # seat 0 has won a trick (exchange_needs_trick)
    acts = legal_actions(state, 0)
    assert Exchange(0) in acts and Close(0) in acts
    after_exchange = act(state, "0:exchange")
    assert Close(0) in legal_actions(after_exchange, 0)  # closing may follow an exchange
    after_close = act(state, "0:close")
    assert Exchange(0) not in legal_actions(after_close, 0)  # but no exchange after closing
    assert after_close.phase is Phase.LEAD


def test_X11_close_before_draw_instead_of_drawing() -> None:
    state = hand("sixty-six", "AH 10H KH QH JH 9H", "AC 10C KC QC JC 9C", "AS")
    state = act(state, "0:AH", "1:9C")
    assert state.phase is Phase.DRAW
    assert names(legal_actions(state, 0)) == {"draw", "close", "declare"}
    closed = act(state, "0:close")
    assert len(closed.hands[0]) == len(closed.hands[1]) == 5  # nobody drew
    assert closed.talon_size == 12 and closed.closing is not None
    drawn = act(state, "0:draw")
    assert len(drawn.hands[0]) == 6 and Close(0) in legal_actions(drawn, 0)  # may still close after drawing
    # Both seats can tell the two apart: the view says how many tricks were played at the close.
    closed_after_draw = act(drawn, "0:close")
    assert closed.talon_size != closed_after_draw.talon_size
    for seat in (0, 1):
        assert (
            observe(closed, seat).closed_after_tricks
            == observe(closed_after_draw, seat).closed_after_tricks
            == 1
        )


def test_X12_king_or_queen_may_be_led_without_marriage() -> None:
    state = hand("snapszer", "KH QH AC 10C JC 9C", "AD 10D KD QD JD 9D", "AS")
    assert {"KH", "QH", "m:KH", "m:QH"} <= names(legal_actions(state, 0))
    plain = act(state, "0:KH")
    assert plain.marriages == () and plain.points(0) == 0


def test_illegal_actions_are_refused_with_codes() -> None:
    state = hand("schnapsen", "AH 10H KH QH JH", "AC 10C KC QC JC", "AD")
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlayCard(1, parse_card("AC")))
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlayCard(0, parse_card("AC")))  # not in seat 0's hand
    assert exc.value.code == "not_legal"
    with pytest.raises(IllegalAction) as exc:
        apply(state, Declare(0))  # schnapsen: no trick won yet
    assert exc.value.code == "not_legal"
    with pytest.raises(InvalidAction) as bad:
        apply(state, Pass(2))
    assert bad.value.code is ActionCode.NO_SUCH_SEAT
    over = act(act(state, "0:m:KH"), "0:declare")
    with pytest.raises(IllegalAction) as exc:
        apply(over, PlayCard(1, parse_card("AC")))
    assert exc.value.code is ActionCode.GAME_OVER
    assert apply(state, PlayCard(0, parse_card("AH")))[0].hands[0] != state.hands[0]
    assert len(state.hands[0]) == 5  # apply never mutates its input
