"""The analysis of finished hands (games/engine/sixtysix/analysis.py, docs/analysis.md).

Rule ids: AN1 the values equal an exhaustive search where every card is known; AN2 an exact
expectation over every consistent deal where few are hidden; AN3 determinism under a fixed rng;
AN4 invariants (the best has loss 0, losses >= 0, the chosen action is valued); AN5 a match cut
into hands; AN6 what is not analysed (bids, forced moves, the seat off move).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Action,
    Bid,
    Declare,
    Phase,
    SixtySixState,
    apply,
    legal_actions,
    may_declare,
    new_hand,
    observe,
    seats_to_act,
)
from games.engine.sixtysix.analysis import (
    AnalysisBudget,
    HandAnalysis,
    Method,
    analyse_decision,
    analyse_hand,
    consistent_worlds,
    game_hands,
)
from games.engine.sixtysix.bots import make_bot
from games.engine.sixtysix.bots.base import next_action
from games.engine.sixtysix.bots.knowledge import know
from games.engine.sixtysix.bots.search import outcome, settle
from games.engine.sixtysix.game import game_apply, game_from_setup, game_legal_actions
from tests.games.engine.sixtysix.bots.views import same_view
from tests.games.engine.sixtysix.helpers import quiet_choice, random_deal

SMALL = AnalysisBudget(worlds=4, nodes=300)


def brute_force(state: SixtySixState, me: int) -> float:
    """Minimax through the engine over every legal action of the seat on move, declarations (right
    or wrong) included; a seat off move that holds 66 declares (waiting could not do better)."""
    if state.result is not None:
        return outcome(state, me)
    seats = seats_to_act(state)
    for seat in seats[1:]:
        if state.points(seat) >= 66 and may_declare(state, seat):
            return brute_force(apply(state, Declare(seat))[0], me)
    seat = seats[0]
    values = [brute_force(apply(state, a)[0], me) for a in legal_actions(state, seat)]
    return max(values) if seat == me else min(values)


def positions(
    profile: str, count: int, max_cards: int, seed: int, *, exhausted: bool
) -> Iterator[SixtySixState]:
    """Closed-phase states with at most ``max_cards`` in a hand and a real choice on move, from
    random play; ``exhausted``: the talon ran out (every card is known to the seat on move),
    else it was closed with cards left in it."""
    rules = PROFILES[profile]
    rng = random.Random(seed)
    found = 0
    tries = 0
    while found < count and tries < 5000:
        tries += 1
        state = new_hand(rules, random_deal(rules, rng), rng.randrange(2))
        while state.result is None:
            state = settle(state)
            if state.result is not None:
                break
            ran_out = state.trump_card is None and not state.stock and state.closing is None
            closed = state.closing is not None and bool(state.stock)
            if (
                (ran_out if exhausted else closed)
                and state.phase in (Phase.LEAD, Phase.FOLLOW)
                and max(len(h) for h in state.hands) <= max_cards
                and len(
                    [a for a in legal_actions(state, seats_to_act(state)[0]) if not isinstance(a, Declare)]
                )
                > 1
            ):
                found += 1
                yield state
                break
            state, _ = apply(state, quiet_choice(state, rng, avoid=(Declare,) if exhausted else ()))


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_AN1_values_equal_an_exhaustive_search_when_every_card_is_known(profile: str) -> None:
    states = list(positions(profile, 12, 4, seed=sum(map(ord, profile)), exhausted=True))
    assert len(states) >= 6, "enough positions to test"
    for state in states:
        seat = seats_to_act(state)[0]
        moves = [a for a in legal_actions(state, seat) if not isinstance(a, Declare)]
        decision = analyse_decision(state, moves[-1], random.Random(0), SMALL)
        assert decision is not None
        assert decision.method is Method.EXACT and decision.worlds == 1
        for av in decision.values:
            assert av.value == brute_force(apply(state, av.action)[0], seat), (profile, state.hands, av)


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "sixty-six"])
def test_AN2_a_closed_talon_is_the_exact_mean_over_every_consistent_deal(profile: str) -> None:
    states = list(positions(profile, 4, 3, seed=7 + len(profile), exhausted=False))
    assert states
    assert max(len(consistent_worlds(s, seats_to_act(s)[0])) for s in states) > 1, "some cards are hidden"
    for state in states:
        seat = seats_to_act(state)[0]
        view = observe(state, seat)
        worlds = consistent_worlds(state, seat)
        # Each world is what the seat sees, holds every card once, and the true deal is one of them.
        assert all(same_view(observe(w, seat), view) for w in worlds)
        assert any(set(w.hands[1 - seat]) == set(state.hands[1 - seat]) for w in worlds)
        hidden = {frozenset(w.hands[1 - seat]) for w in worlds}
        assert len(hidden) == len(worlds), "each opponent hand once (a closed stock is never drawn)"
        k = know(view, state.rules)
        assert all(k.opponent_known <= h and not (k.opponent_excluded & h) for h in hidden)
        moves = [a for a in legal_actions(state, seat) if not isinstance(a, Declare)]
        budget = AnalysisBudget(worlds=2, nodes=300, enumerate_up_to=10_000)
        decision = analyse_decision(state, moves[0], random.Random(0), budget)
        assert decision is not None and decision.method is Method.EXACT
        for av in decision.values:
            mean = sum(brute_force(apply(w, av.action)[0], seat) for w in worlds) / len(worlds)
            assert av.value == pytest.approx(mean), (profile, av)


def bot_hand(profile: str, seed: int) -> tuple[SixtySixState, list[Action]]:
    rules = PROFILES[profile]
    rng = random.Random(seed)
    start = new_hand(rules, random_deal(rules, rng), seed % 2)
    bots = [
        make_bot("casual", rules, random.Random(seed)),
        make_bot("heuristic", rules, random.Random(seed + 1)),
    ]
    state, actions = start, []
    while state.result is None:
        action = next_action(state, bots)
        actions.append(action)
        state, _ = apply(state, action)
    return start, actions


def test_AN3_the_same_rng_gives_the_same_analysis() -> None:
    start, actions = bot_hand("snapszer", 3)
    first = analyse_hand(start, actions, random.Random(11), SMALL).to_dict()
    again = analyse_hand(start, actions, random.Random(11), SMALL).to_dict()
    assert first == again
    assert first["decisions"], "a bot hand has decisions"


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "sixty-six", "santase", "snapszer-hu"])
def test_AN4_invariants(profile: str) -> None:
    for seed in range(3):
        start, actions = bot_hand(profile, seed)
        analysis: HandAnalysis = analyse_hand(start, actions, random.Random(seed), SMALL)
        assert analysis.result is not None and analysis.actions == len(actions)
        for d in analysis.decisions:
            assert actions[d.index] == d.chosen
            assert d.chosen in [v.action for v in d.values] and len(d.values) >= 2
            values = [v.value for v in d.values]
            assert values == sorted(values, reverse=True)
            assert d.loss >= 0 and d.loss == pytest.approx(d.best.value - d.chosen_value)
            assert all(-3 <= v <= 3 for v in values)
            best = analysis.summary(d.seat)
            assert best.total_loss >= d.loss
        for seat in (0, 1):
            summary = analysis.summary(seat)
            if summary.worst is not None:
                assert summary.worst.loss == max(d.loss for d in analysis.decisions if d.seat == seat)
        # On the same worlds (the same rng), the best action played instead has loss 0.
        for d in analysis.decisions[:3]:
            state = start
            for a in actions[: d.index]:
                state, _ = apply(state, a)
            first = analyse_decision(state, d.chosen, random.Random(seed), SMALL)
            assert first is not None
            again = analyse_decision(state, first.best.action, random.Random(seed), SMALL)
            assert again is not None
            assert again.loss == 0 and again.values == first.values


def test_AN4_one_seat_only() -> None:
    start, actions = bot_hand("snapszer", 5)
    analysis = analyse_hand(start, actions, random.Random(1), SMALL, seats=(1,))
    assert analysis.decisions and {d.seat for d in analysis.decisions} == {1}
    assert [s["seat"] for s in analysis.to_dict()["summaries"]] == [1]


def test_AN5_a_match_is_cut_into_its_hands() -> None:
    setup = {"options": {"profile": "snapszer"}, "seats": 2, "dealer": 0, "seed": "ab" * 16, "deals": None}
    game = game_from_setup(setup)
    rng = random.Random(2)
    actions: list[Action] = []
    while not game.is_terminal:
        seat = seats_to_act(game.hand)[0]
        action = rng.choice(
            [a for a in game_legal_actions(game, seat) if not isinstance(a, Declare)] or [Declare(seat)]
        )
        if game.hand.points(seat) >= 66 and Declare(seat) in game_legal_actions(game, seat):
            action = Declare(seat)
        actions.append(action)
        game, _ = game_apply(game, action)
    hands = game_hands(setup, actions)
    assert len(hands) == len(game.hands) >= 2
    assert [h.number for h in hands] == list(range(1, len(hands) + 1))
    assert [i for h in hands for i in h.offsets] == list(range(len(actions)))
    for h in hands:
        state = h.start
        assert state.tricks_played == 0
        for a in h.actions:
            state, _ = apply(state, a)
        assert state.result is not None


def test_AN6_bids_forced_moves_and_the_seat_off_move_are_not_analysed() -> None:
    rules = PROFILES["snapszer-hu"]
    state = new_hand(rules, random_deal(rules, random.Random(1)), 1)
    assert state.phase is Phase.BIDDING
    seat = seats_to_act(state)[0]
    bid = next(a for a in legal_actions(state, seat) if isinstance(a, Bid))
    assert analyse_decision(state, bid, random.Random(0), SMALL) is None
    # A forced move: one card to follow with.
    for start, actions in (bot_hand("schnapsen", s) for s in range(3)):
        analysis = analyse_hand(start, actions, random.Random(0), SMALL)
        state = start
        analysed = {d.index for d in analysis.decisions}
        for i, a in enumerate(actions):
            options = [x for x in legal_actions(state, a.seat) if not isinstance(x, Declare)]
            if len(options) == 1 and not isinstance(a, Declare) and state.points(a.seat) < 66:
                assert i not in analysed
            if seats_to_act(state)[0] != a.seat:
                assert i not in analysed
            state, _ = apply(state, a)


def test_AN1_budget_refuses_nothing_to_search() -> None:
    with pytest.raises(ValueError):
        AnalysisBudget(worlds=0)
