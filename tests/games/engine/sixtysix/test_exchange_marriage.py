"""X13-X18: exchanging the trump 9 / J, marriages."""

from __future__ import annotations

import pytest

from games.engine.sixtysix import (
    Exchange,
    LeadMarriage,
    Phase,
    PlayCard,
    apply,
    legal_actions,
    observe,
    parse_card,
)
from games.engine.sixtysix.events import Event, MarriagePointsCounted, MarriageShown
from tests.games.engine.sixtysix.helpers import act, advance, hand, names


def test_X13_only_the_leader_may_exchange() -> None:
    state = hand("schnapsen", "AH 10H KH QH JH", "JD AC 10C KC QC", "AD")
    assert Exchange(1) not in legal_actions(state, 1)
    state = act(state, "0:AH")
    assert "exchange" not in names(legal_actions(state, 1))  # not while following either


def test_X13_exchange_needs_a_trick_in_the_seed() -> None:
    state = hand("snapszer", "9D AH 10H KH QH JH", "AC 10C KC QC JC 9C", "AD")
    assert Exchange(0) not in legal_actions(state, 0)  # trick 1: "you must have just won a trick"
    state = act(state, "0:AH", "1:9C")
    assert Exchange(0) in legal_actions(state, 0)


def test_X13_exchange_gives_the_face_up_card_for_the_low_trump() -> None:
    state = hand("schnapsen", "JD AH 10H KH QH", "AC 10C KC QC JC", "AD")
    after = act(state, "0:exchange")
    assert after.trump_card is parse_card("JD")
    assert parse_card("AD") in after.hands[0] and parse_card("JD") not in after.hands[0]
    assert after.phase is Phase.LEAD and after.leader == 0  # still on lead


def test_X13_minimum_talon_of_four_in_snapszer_hu() -> None:
    state = act(hand("snapszer-hu", "JD AH AC AS 10H", "KH KC KS QH QC", "QD"), "0:pass", "1:pass")
    at_four = advance(state, 3, keep="JD")
    assert at_four.talon_size == 4 and at_four.leader == 0
    assert Exchange(0) in legal_actions(at_four, 0)
    at_two = advance(state, 4, keep="JD")
    assert at_two.talon_size == 2 and at_two.leader == 0
    assert Exchange(0) not in legal_actions(at_two, 0)


def test_X14_an_exchange_is_public_both_seats_see_who_took_which_card() -> None:
    state = hand("schnapsen", "JD AH 10H KH QH", "AC 10C KC QC JC", "AD")
    after = act(state, "0:exchange")
    for seat in (0, 1):
        view = observe(after, seat)
        assert [(e.seat, e.given.name, e.taken.name, e.trick) for e in view.exchanges] == [(0, "JD", "AD", 1)]
        assert view.to_dict()["exchanges"] == [{"seat": 0, "given": "JD", "taken": "AD", "trick": 1}]


def test_X14_the_opponents_exchanged_card_is_known_to_be_in_their_hand() -> None:
    from games.engine.sixtysix.bots.knowledge import know

    state = act(hand("schnapsen", "JD AH 10H KH QH", "AC 10C KC QC JC", "AD"), "0:exchange")
    knowledge = know(observe(state, 1), state.rules)
    assert parse_card("AD") in knowledge.opponent_known
    later = act(state, "0:AD", "1:JC")  # once played, it is no longer a hidden card
    assert parse_card("AD") not in know(observe(later, 1), later.rules).opponent_known


def test_X14_open_minimum_allows_exchange_with_one_face_down_card_left() -> None:
    state = hand("schnapsen", "JD AH AC AS 10H", "KH KC KS QH QC", "QD")
    at_two = advance(state, 4, keep="JD")
    assert at_two.talon_size == 2 and at_two.leader == 0
    after = act(at_two, "0:exchange")
    assert after.trump_card is parse_card("JD")


def test_X15_marriage_scores_20_and_40_in_trumps_only_for_the_leader() -> None:
    state = hand("snapszer", "KH QH KD QD AC 10C", "KS QS JC 9C AH 10H", "AD")
    assert "m:KS" not in names(legal_actions(state, 1))  # the follower never shows a marriage
    plain = act(state, "0:m:QH")
    assert plain.points(0) == 20 and plain.lead_card is parse_card("QH")
    trumps = act(state, "0:m:KD")
    assert trumps.points(0) == 40
    # one per lead: while the lead is on the table no second marriage may be shown
    assert not any(isinstance(a, LeadMarriage) for a in legal_actions(trumps, 0))


def test_X15_schnapsen_lite_leads_only_the_king() -> None:
    state = hand("schnapsen-lite", "KH QH AC 10C JC", "KS QS AH 10H JH", "AD")
    acts = names(legal_actions(state, 0))
    assert "m:KH" in acts and "m:QH" not in acts


def test_X16_immediate_marriage_counts_at_once() -> None:
    events = _show("snapszer")
    shown = next(e for e in events if isinstance(e, MarriageShown))
    assert shown.counted and shown.points == 20


def test_X16_after_a_trick_waits_for_the_first_trick_and_is_lost_without_one() -> None:
    state = hand("schnapsen", "KH QH AC 10C JC", "AH 10H KS QS JS", "AD")
    shown = act(state, "0:m:QH")
    assert shown.points(0) == 0 and shown.pending_marriage == (20, 0)
    lost = act(shown, "1:AH")  # seat 1 wins the trick: seat 0 still has no trick
    assert lost.points(0) == 0 and lost.pending_marriage == (20, 0)
    won = act(shown, "1:JS")  # seat 0 wins: the marriage counts with the trick
    assert won.points(0) == 3 + 2 + 20 and won.pending_marriage == (0, 0)
    # once the declarer holds a trick, a later marriage counts immediately
    state = act(hand("schnapsen", "AC KH QH 10C JC", "QD JS QS KS AS", "AD"), "0:AC", "1:JS")
    assert act(state, "0:m:KH").points(0) == 11 + 2 + 20


def test_X16_next_trick_waits_even_with_tricks_won() -> None:
    state = act(hand("schnapsen-lite", "AC KH QH 10C JC", "QD JS QS KS AS", "AD"), "0:AC", "1:JS")
    shown = act(state, "0:m:KH")
    assert shown.points(0) == 13 and shown.pending_marriage == (20, 0)
    counted = act(shown, "1:QS")
    assert counted.points(0) == 13 + 4 + 3 + 20


def _show(profile: str) -> list[Event]:
    state = hand(profile, "KH QH AC 10C JC 9C", "AS 10S KS QS JS 9S", "AD")
    return apply(state, LeadMarriage(0, parse_card("KH")))[1]


def test_X16_marriage_points_counted_event_when_waiting_points_count() -> None:
    state = act(hand("schnapsen", "KH QH AC 10C JC", "AH 10H KS QS JS", "AD"), "0:m:KH")
    _, events = apply(state, PlayCard(1, parse_card("JS")))
    assert MarriagePointsCounted(0, 20) in events


def test_X17_declaring_after_a_marriage_short_of_66_is_wrong() -> None:
    state = hand("schnapsen", "AH 10H AC KD QD", "JH QH QC JC QS", "AS")
    # Spades are trumps; seat 0 takes three tricks: 11+2, 10+3, 11+3 = 40 card points.
    state = act(state, "0:AH", "1:JH", "0:10H", "1:QH", "0:AC", "1:QC")
    assert state.points(0) == 40
    # KD QD is no trump marriage here: 20 -> 60, not enough.
    shown = act(state, "0:m:KD")
    assert shown.points(0) == 60
    assert names(legal_actions(shown, 0)) == {"declare"}  # the window after a marriage lead (X26)
    over = act(shown, "0:declare")
    assert over.result is not None and over.result.winner == 1  # 60 < 66: a wrong declaration


def test_X17_marriage_in_trumps_reaching_66_ends_the_hand_before_the_reply() -> None:
    state = hand("schnapsen", "AH 10H AC KS QS", "JH QH QC JC JD", "AS")
    state = act(state, "0:AH", "1:JH", "0:10H", "1:QH", "0:AC", "1:QC")
    shown = act(state, "0:m:QS")  # trumps: 40 -> 80
    over = act(shown, "0:declare")
    assert over.result is not None and over.result.winner == 0 and over.result.game_points == 3
    assert over.lead_card is parse_card("QS")  # still on the table, in nobody's tricks
    assert over.result.card_points == (40, 0)


@pytest.mark.parametrize(("profile", "allowed"), [("snapszer", True), ("santase", False)])
def test_X18_marriage_at_trick_1_per_profile(profile: str, allowed: bool) -> None:
    state = hand(profile, "KH QH AC 10C JC 9C", "AS 10S KS QS JS 9S", "AD")
    assert ("m:KH" in names(legal_actions(state, 0))) is allowed


@pytest.mark.parametrize(("profile", "allowed"), [("snapszer", True), ("sixty-six", False)])
def test_X18_marriage_after_close_per_profile(profile: str, allowed: bool) -> None:
    state = act(hand(profile, "AC KH QH 10C JC 9C", "AS 10S KS QS JS 9S", "AD"), "0:AC", "1:9S")
    if profile == "sixty-six":
        state = act(state, "0:draw")
    state = act(state, "0:close")
    assert ("m:KH" in names(legal_actions(state, 0))) is allowed
