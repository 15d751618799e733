"""Bots see only views, always act legally, declare 66 when they hold it; levels are ordered."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Declare,
    PlayerView,
    SixtySixState,
    apply,
    legal_actions,
    may_declare,
    new_hand,
    observe,
    seats_to_act,
)
from games.engine.sixtysix.bots import LEVELS, Budget, ExpertBot, RandomBot, make_bot
from games.engine.sixtysix.bots.base import Bot, next_action
from games.engine.sixtysix.bots.knowledge import know, sample_hidden, world
from tests.games.engine.sixtysix.bots.views import same_view
from tests.games.engine.sixtysix.helpers import quiet_choice, random_deal

TINY = Budget(samples=2, nodes=25, depth=2)


def tiny_expert(profile: str, seed: int) -> ExpertBot:
    return ExpertBot(PROFILES[profile], random.Random(seed), budget=TINY)


class Spy:
    """Wraps a bot and records the type of everything it is handed."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seen: set[type] = set()

    def act(self, view: PlayerView) -> object:
        self.seen.add(type(view))
        return self.bot.act(view)


def play(state: SixtySixState, bots: list[Bot]) -> SixtySixState:
    """Play to the end the way the arena does; every action must be legal (apply raises)."""
    while state.result is None:
        action = next_action(state, bots)
        assert action in legal_actions(state, action.seat)
        state, _ = apply(state, action)
    return state


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("name", ["random", "heuristic", "beginner", "casual"])
def test_cheap_bots_always_act_legally(profile: str, name: str) -> None:
    rules = PROFILES[profile]
    for seed in range(60):
        rng = random.Random(seed)
        bots = [make_bot(name, rules, random.Random(seed)), make_bot("random", rules, random.Random(-seed))]
        if seed % 2:
            bots.reverse()
        play(new_hand(rules, random_deal(rules, rng), seed % 2), bots)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_searching_bots_always_act_legally(profile: str) -> None:
    rules = PROFILES[profile]
    for seed in range(8):
        rng = random.Random(seed)
        other = make_bot("heuristic" if seed % 2 else "random", rules, random.Random(seed))
        bots = [tiny_expert(profile, seed), other]
        if seed % 4 >= 2:
            bots.reverse()
        play(new_hand(rules, random_deal(rules, rng), seed % 2), bots)


def test_bots_are_handed_only_player_views() -> None:
    rules = PROFILES["snapszer"]
    spies = [Spy(tiny_expert("snapszer", 1)), Spy(make_bot("heuristic", rules, random.Random(2)))]
    for seed in range(3):
        play(new_hand(rules, random_deal(rules, random.Random(seed)), seed % 2), list(spies))
    assert spies[0].seen == spies[1].seen == {PlayerView}


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "schnapsen-lite"])
def test_decisions_depend_on_the_view_alone(profile: str) -> None:
    """Two states that differ only in cards the seat cannot see give the same view and, with the
    same random generator, the same decision."""
    rules = PROFILES[profile]
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), seed % 2)
        for _ in range(rng.randrange(1, 14)):
            if state.result is not None:
                break
            state, _ = apply(state, quiet_choice(state, rng, avoid=(Declare,)))
        if state.result is not None:
            continue
        seat = seats_to_act(state)[0]
        view = observe(state, seat)
        opp, stock = sample_hidden(know(view, rules), random.Random(seed + 1000))
        other = world(view, rules, opp, stock)
        assert same_view(observe(other, seat), view)
        makers = (
            lambda: make_bot("heuristic", rules, random.Random(7)),
            lambda: ExpertBot(rules, random.Random(7), budget=TINY, forget=0.2),
        )
        for make in makers:
            assert make().act(view) == make().act(observe(other, seat))
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_X24_expert_never_misses_a_correct_declaration(profile: str) -> None:
    """Whenever the expert's seat may declare holding 66 (on move or not, X25), it declares."""
    rules = PROFILES[profile]
    chances = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), seed % 2)
        bot = tiny_expert(profile, seed)
        while state.result is None:
            for seat in (0, 1):
                if may_declare(state, seat) and state.points(seat) >= 66:
                    chances += 1
                    assert bot.act(observe(state, seat)) == Declare(seat)
            state, _ = apply(state, quiet_choice(state, rng))
    if profile not in ("schnapsen-lite",):  # lite ends by itself at 66 (X24 exception)
        assert chances > 0


def test_X24_every_bot_declares_when_holding_66_off_move() -> None:
    """`snapszer`: a seat that is not on move but holds 66 declares when asked (X25)."""
    rules = PROFILES["snapszer"]
    found = 0
    for seed in range(200):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), 0)
        while state.result is None and not found:
            seats = seats_to_act(state)
            off = [s for s in seats[1:] if state.points(s) >= 66]
            if off:
                for name in ("random", "heuristic", "beginner", "expert"):
                    assert make_bot(name, rules, random.Random(1)).act(observe(state, off[0])) == Declare(
                        off[0]
                    )
                found += 1
            state, _ = apply(state, quiet_choice(state, rng))
        if found:
            break
    assert found


def test_bots_wait_off_move_without_66() -> None:
    rules = PROFILES["snapszer"]
    state = new_hand(rules, random_deal(rules, random.Random(3)), 0)
    off = 1 - state.leader
    assert [type(a) for a in legal_actions(state, off)] == [Declare]
    for name in ("random", "heuristic", "club", "expert"):
        assert make_bot(name, rules, random.Random(1)).act(observe(state, off)) is None


def test_levels_are_ordered_by_budget() -> None:
    levels = list(LEVELS.values())
    assert [lv.name for lv in levels] == ["beginner", "casual", "club", "strong", "expert"]
    works = [lv.work for lv in levels]
    assert works == sorted(works) and works[-1] > works[2] > 0
    assert all(a.noise >= b.noise for a, b in pairwise(levels))
    assert all(a.forget >= b.forget for a, b in pairwise(levels))
    for a, b in pairwise(levels[2:]):
        assert a.budget is not None and b.budget is not None
        assert a.budget.samples <= b.budget.samples and a.budget.nodes <= b.budget.nodes


def test_a_clock_stops_the_expert_after_one_world() -> None:
    rules = PROFILES["snapszer"]
    ticks = iter(range(1000))
    bot = ExpertBot(
        rules,
        random.Random(1),
        budget=Budget(samples=50, nodes=50, depth=2, seconds=0.5),
        clock=lambda: float(next(ticks)),
    )
    state = new_hand(rules, random_deal(rules, random.Random(4)), 0)
    assert bot.act(observe(state, state.leader)) in legal_actions(state, state.leader)
    assert bot.last_worlds == 1


def test_random_bot_never_declares_short_of_66() -> None:
    rules = PROFILES["snapszer"]
    for seed in range(30):
        rng = random.Random(seed)
        state = new_hand(rules, random_deal(rules, rng), 0)
        bots: list[Bot] = [RandomBot(random.Random(seed)), RandomBot(random.Random(seed + 1))]
        end = play(state, bots)
        assert end.result is not None and end.result.reason.value != "wrong_declaration"
