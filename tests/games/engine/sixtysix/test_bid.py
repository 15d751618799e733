"""X31: the Hungarian Snapszer bid (profile snapszer-hu)."""

from __future__ import annotations

from games.engine.sixtysix import PROFILES, Declare, Phase, Reason, legal_actions
from tests.games.engine.sixtysix.helpers import act, find_hand, hand, names

NONDEALER = "AD 10D KD QD AH"
DEALER = "KH QH AC 10C KC"


def test_X31_non_dealer_then_dealer_bid_or_pass() -> None:
    state = hand("snapszer-hu", NONDEALER, DEALER, "JD")
    assert state.phase is Phase.BIDDING
    assert names(legal_actions(state, 0)) == {"bid", "pass"} and legal_actions(state, 1) == []
    passed = act(state, "0:pass")
    assert legal_actions(passed, 0) == [] and names(legal_actions(passed, 1)) == {"bid", "pass"}
    both = act(passed, "1:pass")
    assert both.phase is Phase.LEAD and both.leader == 0 and both.bidder is None


def test_X31_at_most_one_bid_and_the_non_dealer_still_leads() -> None:
    state = act(hand("snapszer-hu", NONDEALER, DEALER, "JD"), "0:pass", "1:bid")
    assert state.bidder == 1 and state.phase is Phase.LEAD and state.leader == 0
    first = act(hand("snapszer-hu", NONDEALER, DEALER, "JD"), "0:bid")
    assert first.phase is Phase.LEAD and legal_actions(first, 1) == []  # no second bid


def test_X31_nobody_may_declare_in_a_bid_hand() -> None:
    state = act(hand("snapszer-hu", NONDEALER, DEALER, "JD"), "0:bid", "0:AD", "1:KH")
    assert state.tricks[-1].winner == 0
    assert Declare(0) not in legal_actions(state, 0) and Declare(1) not in legal_actions(state, 1)


def test_X31_bid_lost_when_the_opponent_takes_a_trick() -> None:
    over = act(hand("snapszer-hu", "AD 10D KD QD JH", DEALER, "JD"), "0:bid", "0:JH", "1:KH")
    assert over.result is not None
    assert (over.result.winner, over.result.game_points, over.result.reason) == (1, 6, Reason.BID_LOST)


def test_X31_bid_won_by_taking_every_trick() -> None:
    def won(s: object) -> bool:
        return getattr(s, "result", None) is not None and s.result.reason is Reason.BID_WON  # type: ignore[attr-defined]

    _, _, state = find_hand(PROFILES["snapszer-hu"], won)
    assert state.result is not None and state.bidder is not None
    assert state.result.winner == state.bidder and state.result.game_points == 6
    assert all(t.winner == state.bidder for t in state.tricks) and len(state.tricks) == 10
