"""The Snap engine's public door: ``new_game``, ``apply``, ``legal_actions``, ``replay`` (S1-S31).

The rules live one area per module: ``flips.py`` (turns, recycles, feed_pool, speed ticks),
``calls.py`` (calls, ties, claims), ``ending.py`` (dead state, cycles, the cap, results) and
``work.py`` (the working copy they change). This module deals the game and sends each input to
its rule area. Deviations and readings of unclear rules are listed in docs/snap-engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.snap.actions import (
    Action,
    Call,
    CallKind,
    CapReached,
    CentralClaim,
    Flip,
    PairClaim,
    PoolClaim,
    SlapClaim,
    Tick,
    Tie,
)
from games.engine.snap.calls import apply_call, apply_tie, correct_claims
from games.engine.snap.decks import DECKS, Deck
from games.engine.snap.ending import apply_cap_reached, fresh_history, is_dead, result_of
from games.engine.snap.events import EndReason, Event, SnapResult
from games.engine.snap.flips import apply_flip, apply_tick, recycle_due
from games.engine.snap.rules import MatchKey, PoolCall, SnapRules, check
from games.engine.snap.state import Deal, SnapState

__all__ = [
    "apply",
    "correct_claims",
    "legal_actions",
    "match_keys",
    "new_game",
    "next_dealer",
    "recycle_due",
    "replay",
]


def match_keys(deck: Deck, match_key: MatchKey) -> tuple[int, ...]:
    """S2: per card index, an integer that two cards share exactly when they match."""
    labels = deck.match_labels(match_key)
    numbering: dict[str, int] = {}
    return tuple(numbering.setdefault(label, len(numbering)) for label in labels)


def new_game(rules: SnapRules, deal: Deal, dealer: int, *, seed: bytes | None = None) -> SnapState:
    """Deal (S4) and return the first state (seq 0).

    ``deal.order`` must be a permutation of the rules' deck. ``seed`` is only recorded: the seed
    ``deal`` was drawn from, from which the engine contract also draws shuffled recycles (S22).
    The game may already be over when a dead state is dealt (S29: the dead-state check also runs
    at the deal).
    Raises InvalidRules (``validate`` errors) and InvalidAction ("no_such_seat", "bad_deal").
    """
    check(rules, deal.players)
    deck = DECKS[rules.deck]
    n = deal.players
    if not 0 <= dealer < n:
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"dealer {dealer}")
    index = deck.index()
    try:
        order = [index[name] for name in deal.order]
    except KeyError as exc:
        raise InvalidAction(
            ActionCode.BAD_DEAL, f"unknown card {exc.args[0]!r} for deck {deck.name}"
        ) from exc
    if sorted(order) != list(range(deck.size)):
        raise InvalidAction(ActionCode.BAD_DEAL, "the deal must be the whole deck, each card once (S4)")
    dealt: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(order):
        dealt[(dealer + 1 + i) % n].append(card)  # S4: clockwise from the dealer's left
    state = SnapState.__new__(SnapState)
    state.rules = rules
    state.deck = deck
    state.keys = match_keys(deck, rules.match_key)
    state.n = n
    state.dealer = dealer
    state.deal = deal
    state.seed = seed
    state.seq = 0
    # The last card dealt to a seat is on top: it is flipped first.
    state.cs = tuple(tuple(reversed(cards)) for cards in dealt)
    state.ks = (0,) * n
    state.flip_no = (0,) * n
    state.pools = ()
    state.next_pool_id = 1
    state.central = ()
    state.central_hidden = 0
    state.active = (True,) * n
    state.last_flipper = None
    state.turn = None if rules.speed else (dealer + 1) % n  # S7
    state.flips = 0
    state.eliminations = ()
    state.wrong_calls = (0,) * n
    state.cap_seat = None
    state.cap_round = 0
    state.cap_pos = 0
    state.result = None
    state._window = state._window_before = None
    state._anchor = None
    state._recycled = ()
    if not rules.single_pile and is_dead(state):
        state.result = result_of(state, EndReason.DEAD_STATE)
        state.turn = None
    else:
        fresh_history(state)
    return state


def next_dealer(result: SnapResult, dealer: int) -> int:
    """S3: the winner deals the next game; after a drawn game the same dealer deals again."""
    return dealer if result.winner is None else result.winner


def apply(state: SnapState, action: Action) -> tuple[SnapState, list[Event]]:
    """Return the state after ``action`` and what happened; never mutates ``state``.

    An ignored call (late, ineligible) returns ``state`` itself and an ``IgnoredCall`` event.
    Raises IllegalAction ("game_over", "not_your_turn", "not_turn_based", "not_speed",
    "order_required", "order_not_due", "stale": a call on a state older than the call window) and
    InvalidAction ("malformed", "no_such_seat", "no_such_state", "bad_order").
    """
    if type(action) is Flip:
        return apply_flip(state, action)
    if state.result is not None:
        raise IllegalAction(ActionCode.GAME_OVER, "the game is over")
    if isinstance(action, Call):
        return apply_call(state, action)
    if isinstance(action, Tie):
        return apply_tie(state, action)
    if isinstance(action, Tick):
        return apply_tick(state, action)
    if isinstance(action, CapReached):
        return apply_cap_reached(state)
    raise InvalidAction(ActionCode.MALFORMED, f"unknown input {action!r}")


def replay(
    rules: SnapRules, deal: Deal, dealer: int, inputs: Iterable[Action]
) -> tuple[SnapState, list[Event]]:
    """Fold ``inputs`` over the dealt game (E3); return the final state and every event."""
    state = new_game(rules, deal, dealer)
    events: list[Event] = []
    for action in inputs:
        state, new_events = apply(state, action)
        events.extend(new_events)
    return state, events


def legal_actions(state: SnapState, seat: int) -> list[Action]:
    """Every input ``seat`` may send now, calls included (right or wrong), judged on this state.

    Under ``recycle_shuffle`` a due recycle's ``Flip`` is listed without its ``order``: the order
    is a chance input the server adds (S22). Speed ticks and ``CapReached`` are server inputs and
    are never listed. Calls that would be ignored (S16) are not listed, nor bare slaps (S31).
    """
    if state.result is not None or not 0 <= seat < state.n or not state.active[seat]:
        return []
    rules = state.rules
    actions: list[Action] = []
    if state.turn == seat:
        actions.append(Flip(seat))
    if not rules.flipper_may_call and state.last_flipper == seat:
        return actions
    seq = state.seq
    if rules.single_pile:
        actions.append(Call(seat, CallKind.SNAP, None, seq))
        actions.append(Call(seat, CallKind.SNAP, CentralClaim(), seq))
        return actions
    n = state.n
    actions.append(Call(seat, CallKind.SNAP, None, seq))
    actions.extend(Call(seat, CallKind.SNAP, PairClaim(a, b), seq) for a in range(n) for b in range(a + 1, n))
    if state.pools:
        actions.append(Call(seat, CallKind.SNAP_POOL, None, seq))
        pool_seats = [seat] if rules.pool_call is PoolCall.FLIPPER_TAKES_POOL else range(n)
        actions.extend(
            Call(seat, CallKind.SNAP_POOL, PoolClaim(p.id, s), seq) for p in state.pools for s in pool_seats
        )
    if rules.slapjack:  # S31: a slap always names the pile it slaps
        actions.extend(Call(seat, CallKind.SLAP, SlapClaim(s), seq) for s in range(n) if s != seat)
    if rules.animal:
        actions.extend(
            Call(seat, CallKind.SNAP, None, seq, sound=other) for other in range(n) if other != seat
        )
    return actions
