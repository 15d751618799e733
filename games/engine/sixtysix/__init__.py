"""The 66 family engine (Snapszer, Schnapsen, Sixty-Six, Santase): rules/snapszer.md X1-X33.

Pure Python: rules + deal + actions in, states, events, per-seat views and results out.
"""

from games.engine.sixtysix.actions import (
    Action,
    Bid,
    Close,
    Declare,
    Draw,
    Exchange,
    LeadMarriage,
    Pass,
    PlayCard,
    action_from_dict,
)
from games.engine.sixtysix.cards import (
    ALL_CARDS,
    Card,
    Rank,
    card,
    card_points,
    deck,
    parse_card,
    parse_cards,
)
from games.engine.sixtysix.engine import (
    InvalidDeal,
    apply,
    follow_cards,
    legal_actions,
    may_declare,
    new_hand,
    replay,
    seats_to_act,
)
from games.engine.sixtysix.events import Event
from games.engine.sixtysix.match import (
    MatchState,
    RecordedHand,
    hand_record_problems,
    largest_award,
    match_apply,
    match_fold,
    match_hands_valid,
    match_score_valid,
    new_match,
)
from games.engine.sixtysix.rules import PROFILES, MatchFormat, SixtySixRules, profile, rules_from_options
from games.engine.sixtysix.state import HandResult, Phase, Reason, Seat, SixtySixState, Trick
from games.engine.sixtysix.view import PlayerView, observe

__all__ = [
    "ALL_CARDS",
    "PROFILES",
    "Action",
    "Bid",
    "Card",
    "Close",
    "Declare",
    "Draw",
    "Event",
    "Exchange",
    "HandResult",
    "InvalidDeal",
    "LeadMarriage",
    "MatchFormat",
    "MatchState",
    "Pass",
    "Phase",
    "PlayCard",
    "PlayerView",
    "Rank",
    "Reason",
    "RecordedHand",
    "Seat",
    "SixtySixRules",
    "SixtySixState",
    "Trick",
    "action_from_dict",
    "apply",
    "card",
    "card_points",
    "deck",
    "follow_cards",
    "hand_record_problems",
    "largest_award",
    "legal_actions",
    "match_apply",
    "match_fold",
    "match_hands_valid",
    "match_score_valid",
    "may_declare",
    "new_hand",
    "new_match",
    "observe",
    "parse_card",
    "parse_cards",
    "profile",
    "replay",
    "rules_from_options",
    "seats_to_act",
]
