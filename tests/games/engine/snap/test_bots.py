"""Snap bots: calibration, what they see, and bot games through the timing layer (S32-S38)."""

from __future__ import annotations

import inspect
import random
from statistics import mean, median

import pytest

from games.engine.snap import (
    Flip,
    PairClaim,
    PlayerView,
    SnapRules,
    apply,
    new_game,
    observe,
    replay,
)
from games.engine.snap.bots import (
    FLIP_MEAN_MS,
    LEVELS,
    PER_PILE_MS,
    SIGMA_SHARE,
    TAU_SHARE,
    Bot,
    Link,
    TableReader,
    ex_gaussian,
    flip_delay_ms,
    play_bot_game,
    reaction_ms,
)
from games.engine.snap.playout import random_game, shuffled_deal
from games.engine.snap.timing import replay_timed
from tests.games.engine.snap.helpers import CLASSIC, start


def test_levels_start_from_the_issue_calibration() -> None:
    # issue 6: means about 770, 600, 490, 400, 330 ms; misses 15, 8, 4, 2, 1 %;
    # false calls per flip 2, 1, 0.5, 0.3, 0.1 %.
    assert [(lv.name, lv.mean_ms, lv.miss, lv.false_per_flip) for lv in LEVELS.values()] == [
        ("beginner", 770, 0.15, 0.02),
        ("casual", 600, 0.08, 0.01),
        ("club", 490, 0.04, 0.005),
        ("strong", 400, 0.02, 0.003),
        ("expert", 330, 0.01, 0.001),
    ]
    assert PER_PILE_MS == 40


@pytest.mark.parametrize("name", list(LEVELS))
def test_reaction_times_are_skewed_around_the_level_mean(name: str) -> None:
    level = LEVELS[name]
    rng = random.Random(11)
    two = [reaction_ms(level, 2, rng) for _ in range(20_000)]
    assert mean(two) == pytest.approx(level.mean_ms, rel=0.02)
    assert median(two) < mean(two)  # the slow tail of an ex-Gaussian
    assert min(two) > 0.3 * level.mean_ms  # no impossible reactions in bulk
    six = [reaction_ms(level, 6, rng) for _ in range(20_000)]
    assert mean(six) - mean(two) == pytest.approx(4 * PER_PILE_MS, abs=0.03 * level.mean_ms)


def test_ex_gaussian_draws_only_random() -> None:
    class OnlyRandom:
        """A generator offering nothing but ``random()``, the method stable across versions."""

        def __init__(self) -> None:
            self.inner = random.Random(5)

        def random(self) -> float:
            return self.inner.random()

    rng = OnlyRandom()
    values = [ex_gaussian(rng, 300, 30, 100) for _ in range(4000)]  # type: ignore[arg-type]
    assert mean(values) == pytest.approx(400, rel=0.05)


def _pair_view() -> PlayerView:
    """A 4-seat table where seats 0 and 1 show 7H / 7S (a match) and seat 2 is on turn."""
    state = start(CLASSIC, 4, {0: ["7H"], 1: ["7S"]})
    state, _ = apply(state, Flip(0))
    state, _ = apply(state, Flip(1))
    return observe(state, None)


def test_bots_miss_matches_at_their_level_rate() -> None:
    view = _pair_view()
    rng = random.Random(3)
    level = LEVELS["beginner"]
    trials = 4000
    called = 0
    for _ in range(trials):
        bot = Bot(3, level, CLASSIC, rng)
        presses = bot.on_view(view, 2000, 0)
        called += any(p.call is not None and p.call[1] == PairClaim(0, 1) for p in presses)
    assert 1 - called / trials == pytest.approx(level.miss, abs=0.02)  # 3.5 sigma at p = 0.15


@pytest.mark.parametrize("name", ["beginner", "club"])
def test_bots_make_false_calls_at_their_level_rate(name: str) -> None:
    state = start(CLASSIC, 4, {0: ["7H"], 1: ["9S"]})
    state, _ = apply(state, Flip(0))
    state, _ = apply(state, Flip(1))
    base = observe(state, None)._replace(turn=0)  # no match showing, the bot (seat 3) not on turn
    level = LEVELS[name]
    bot = Bot(3, level, CLASSIC, random.Random(9))
    flips = 60_000
    wrong = []
    for k in range(1, flips + 1):
        for press in bot.on_view(base._replace(flips=k, seq=k), 1000 * k, 0):
            assert press.call is not None
            wrong.append(press.call[1])
    assert len(wrong) / flips == pytest.approx(level.false_per_flip, rel=0.15)
    assert set(wrong) == {PairClaim(0, 1)}  # the only pair of face-up piles, and it does not match


def test_a_bot_acts_on_what_observe_shows_and_nothing_else() -> None:
    source = inspect.getsource(Bot) + inspect.getsource(TableReader)
    assert "SnapState" not in source and "state." not in source
    # One view serves every bot: observe() differs between seats only in the seat field.
    for seed in range(10):
        game = random_game(CLASSIC, 4, random.Random(seed))
        state = new_game(CLASSIC, game.deal, game.dealer)
        for action in (None, *game.inputs):  # every state of the game (a state keeps no past)
            if action is not None:
                state, _ = apply(state, action)
            spectator = observe(state, None)
            for seat in range(4):
                assert observe(state, seat) == spectator._replace(seat=seat)


@pytest.mark.parametrize(("players", "name"), [(2, "expert"), (4, "club"), (6, "beginner")])
def test_S38_bot_games_end_and_replay_identically(players: int, name: str) -> None:
    rng = random.Random(players)
    deal = shuffled_deal(CLASSIC, players, rng)
    played = play_bot_game(CLASSIC, [LEVELS[name]] * players, deal, 0, rng)
    game = played.game
    assert game.state.result is not None
    again = replay_timed(CLASSIC, deal, 0, game.log)
    assert [(at, e.to_dict()) for at, e in again.events] == [(at, e.to_dict()) for at, e in game.events]
    engine_state, _ = replay(CLASSIC, deal, 0, [action for _at, action in game.engine_log])
    assert engine_state.result == game.state.result
    assert engine_state.cs == game.state.cs


def test_same_seed_same_bot_game() -> None:
    def run() -> list[object]:
        rng = random.Random(42)
        deal = shuffled_deal(CLASSIC, 3, rng)
        return play_bot_game(CLASSIC, [LEVELS["casual"]] * 3, deal, 1, rng).game.log  # type: ignore[return-value]

    assert run() == run()


def _heads_up(games: int, links: list[Link]) -> int:
    """Games won by an expert (seat 0) against a beginner (seat 1)."""
    rng = random.Random(2024)
    wins = 0
    for _ in range(games):
        deal = shuffled_deal(CLASSIC, 2, rng)
        game = play_bot_game(
            CLASSIC, [LEVELS["expert"], LEVELS["beginner"]], deal, rng.randrange(2), rng, links=links
        )
        wins += game.game.state.result.winner == 0  # type: ignore[union-attr]
    return wins


def test_S33_an_expert_on_a_slow_link_still_beats_a_beginner_on_a_fast_one() -> None:
    assert _heads_up(30, [Link(rtt_ms=250), Link(rtt_ms=20)]) >= 21


def test_bot_games_run_on_every_table_size_and_rules_variant() -> None:
    rng = random.Random(8)
    for rules in (SnapRules(slapjack=True), SnapRules(single_pile=True), SnapRules(speed=True)):
        players = 3
        deal = shuffled_deal(rules, players, rng)
        game = play_bot_game(rules, [LEVELS["strong"]] * players, deal, 0, rng).game
        assert game.state.result is not None


def test_flip_delay_is_the_ex_gaussian_of_the_flip_pace() -> None:
    # flip_delay_ms writes ex_gaussian out for speed; both must draw the same numbers.
    tau = TAU_SHARE * FLIP_MEAN_MS
    a, b = random.Random(4), random.Random(4)
    for _ in range(2000):
        expected = max(1, round(ex_gaussian(a, FLIP_MEAN_MS - tau, SIGMA_SHARE * FLIP_MEAN_MS, tau)))
        assert flip_delay_ms(b) == expected
