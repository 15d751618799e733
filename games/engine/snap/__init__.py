"""Snap: the pure engine (rules/snap.md S1-S31 and the variants; the online timing is a layer above).

A game is ``rules + deal + inputs``: ``new_game(rules, deal, dealer)``, then
``apply(state, action) -> (state, events)`` for each input; ``observe(state, seat)`` is all a seat
may see. See docs/snap-engine.md.
"""

from games.engine.snap.actions import (
    Action,
    Call,
    CallKind,
    CapReached,
    CentralClaim,
    Claim,
    Flip,
    PairClaim,
    PoolClaim,
    SlapClaim,
    Tick,
    Tie,
    action_from_dict,
    action_to_dict,
)
from games.engine.snap.decks import DECKS, Deck
from games.engine.snap.events import EndReason, Event, SnapResult
from games.engine.snap.game import (
    apply,
    correct_claims,
    legal_actions,
    match_keys,
    new_game,
    next_dealer,
    recycle_due,
    replay,
)
from games.engine.snap.rules import (
    PROFILES,
    EmptyFacedown,
    MatchKey,
    PoolCall,
    PoolMode,
    SnapRules,
    validate,
)
from games.engine.snap.state import Deal, SnapState
from games.engine.snap.view import PlayerView, observe

__all__ = [
    "DECKS",
    "PROFILES",
    "Action",
    "Call",
    "CallKind",
    "CapReached",
    "CentralClaim",
    "Claim",
    "Deal",
    "Deck",
    "EmptyFacedown",
    "EndReason",
    "Event",
    "Flip",
    "MatchKey",
    "PairClaim",
    "PlayerView",
    "PoolCall",
    "PoolClaim",
    "PoolMode",
    "SlapClaim",
    "SnapResult",
    "SnapRules",
    "SnapState",
    "Tick",
    "Tie",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "correct_claims",
    "legal_actions",
    "match_keys",
    "new_game",
    "next_dealer",
    "observe",
    "recycle_due",
    "replay",
    "validate",
]
