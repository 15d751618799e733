"""random.Random play for tests, simulations and the benchmark (pure: the caller injects the generator).

``random_input`` picks one input the way a noisy table would: mostly flips, a correct call now and
then (bare or with its claim), some ties, wrong calls and late calls (an older ``seq``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.snap.actions import Action, Call, CallKind, Claim, Flip, PairClaim, PoolClaim, Tick, Tie

__all__ = ["Playout", "Temperament", "correct_claims", "random_game", "random_input", "shuffled_deal"]
from games.engine.snap.decks import DECKS
from games.engine.snap.events import Event
from games.engine.snap.game import apply, correct_claims, legal_actions, new_game, recycle_due
from games.engine.snap.rules import EmptyFacedown, SnapRules
from games.engine.snap.state import Deal, SnapState


def shuffled_deal(rules: SnapRules, players: int, rng: random.Random) -> Deal:
    """S22: a shuffled deck order drawn from ``rng`` (record the result, not the seed)."""
    order = list(DECKS[rules.deck].cards)
    rng.shuffle(order)
    return Deal(players, tuple(order))


@dataclass(frozen=True, slots=True)
class Temperament:
    """How often the random table calls (probabilities per input)."""

    call: float = 0.35  # a correct call when one is on
    tie: float = 0.15  # of those, a tie
    bare: float = 0.5  # of single calls, without naming the claim
    wrong: float = 0.01  # a random (probably wrong) call
    late: float = 0.02  # a call on an older state


def _flip_input(state: SnapState, rng: random.Random) -> Action:
    rules = state.rules
    shuffle = rules.empty_facedown is EmptyFacedown.RECYCLE_SHUFFLE and not rules.single_pile
    orders: list[tuple[int, tuple[str, ...]]] = []
    if shuffle:
        for seat in recycle_due(state):
            cards = [state.deck.cards[c] for c in state.cs[seat]]
            rng.shuffle(cards)
            orders.append((seat, tuple(cards)))
    if rules.speed:
        return Tick(tuple(orders))
    assert state.turn is not None
    return Flip(state.turn, orders[0][1] if orders else None)


def random_input(state: SnapState, rng: random.Random, temper: Temperament = Temperament()) -> Action:
    """One input for a non-terminal ``state``."""
    rules = state.rules
    active = [s for s in range(state.n) if state.active[s]]
    kinds = [CallKind.SNAP]
    if not rules.single_pile:
        kinds.append(CallKind.SNAP_POOL)
    if rules.slapjack:
        kinds.append(CallKind.SLAP)
    r = rng.random()
    if r < temper.wrong:
        calls = [a for a in legal_actions(state, rng.choice(active)) if isinstance(a, Call)]
        if calls:
            return rng.choice(calls)
    elif r < temper.wrong + temper.late and state.seq > 0:
        old = state.at_seq(max(0, state.seq - rng.randint(1, 3)))
        assert old is not None
        caller = rng.choice(active)
        kind = rng.choice(kinds)
        claims = correct_claims(old, caller, kind) if old.active[caller] else []
        if claims:
            return Call(caller, kind, rng.choice(claims), old.seq)
    elif rng.random() < temper.call:
        offers = [
            (caller, kind, claim)
            for caller in active
            for kind in kinds
            for claim in correct_claims(state, caller, kind)
        ]
        if offers:
            caller, kind, claim = rng.choice(offers)
            if rng.random() < temper.tie:
                others = [(c, cl) for c, _k, cl in offers if c != caller and _overlaps(cl, claim)]
                if others:
                    other = rng.choice(others)
                    return Tie(state.seq, ((caller, claim), other))
            bare = rng.random() < temper.bare and kind is not CallKind.SLAP  # S31: a slap names its pile
            return Call(caller, kind, None if bare else claim, state.seq)
    return _flip_input(state, rng)


def _overlaps(x: Claim, y: Claim) -> bool:
    def parts(c: Claim) -> set[tuple[str, int]]:
        if isinstance(c, PairClaim):
            return {("s", c.a), ("s", c.b)}
        if isinstance(c, PoolClaim):
            return {("s", c.seat), ("p", c.pool)}
        seat = getattr(c, "seat", None)
        return {("s", seat)} if seat is not None else {("c", 0)}

    return bool(parts(x) & parts(y))


@dataclass(frozen=True, slots=True)
class Playout:
    """A recorded random game: replay it with ``replay(rules, deal, dealer, inputs)``."""

    rules: SnapRules
    deal: Deal
    dealer: int
    inputs: tuple[Action, ...]
    final: SnapState
    events: tuple[Event, ...]


def random_game(
    rules: SnapRules,
    players: int,
    rng: random.Random,
    temper: Temperament = Temperament(),
    max_inputs: int = 1_000_000,
) -> Playout:
    """Play one random game to its end (S20 guarantees one; ``max_inputs`` is a safety net)."""
    deal = shuffled_deal(rules, players, rng)
    dealer = rng.randrange(players)
    state = new_game(rules, deal, dealer)
    inputs: list[Action] = []
    events: list[Event] = []
    while state.result is None:
        if len(inputs) >= max_inputs:
            raise RuntimeError("random game did not end")
        action = random_input(state, rng, temper)
        state, new_events = apply(state, action)
        inputs.append(action)
        events.extend(new_events)
    return Playout(rules, deal, dealer, tuple(inputs), state, tuple(events))
