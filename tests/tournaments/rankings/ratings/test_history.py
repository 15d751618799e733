"""The pure recomputation: OpenSkill's documented values, Glicko-2 periods, order independence."""

import random

import pytest
from openskill.models import PlackettLuce

from tournaments.rankings.ratings.glicko2 import Glicko, Outcome, rate_period
from tournaments.rankings.ratings.history import Encounter, order_by_rating, snap_history, snapszer_history


def test_openskill_documented_example() -> None:
    # openskill's README (Plackett–Luce, before its tau default): a team of a1 = 25/8.333 and
    # a2 = 32.444/5.123 beats b1 = 43.381/2.421 and b2 = 25.188/6.211.
    model = PlackettLuce(tau=0.0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)

    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])

    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197))
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765))
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256))
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135))
    assert model.rating(mu=43.07, sigma=2.42).ordinal() == pytest.approx(35.81)  # the README's ordinal


def _game(n: int, placings: dict[int, int], period: str = "2026-11-14", series: int = 0) -> Encounter:
    return Encounter(
        order=("2026-11-14T19:00", n), period=period, series_id=series or n, game_number=1, placings=placings
    )


def test_snap_history_is_openskill_game_after_game() -> None:
    games = [_game(1, {1: 1, 2: 2, 3: 3}), _game(2, {2: 1, 3: 2, 1: 2})]
    model = PlackettLuce()
    [[a], [b], [c]] = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[2, 1, 2])

    history = snap_history(games)

    assert history.current[1].mu == pytest.approx(a.mu)
    assert history.current[2].sigma == pytest.approx(b.sigma)
    assert history.current[3].value == pytest.approx(c.mu - 3 * c.sigma)
    assert [p.seq for p in history.points if p.player_id == 2] == [1, 2]
    second = [p for p in history.points if p.player_id == 1][1]
    assert second.moves[0].opponents == (2, 3) and second.moves[0].placing == 2
    assert second.delta == pytest.approx(
        history.current[1].value - next(p for p in history.points if p.player_id == 1).rating.value
    )


def test_snapszer_day_is_one_glicko_period() -> None:
    # Day 1: 1 beats 2, 1 beats 3 (one period: both against the starting ratings). Day 2: 3 beats 1.
    day1 = [_game(1, {1: 1, 2: 2}, "2026-11-14"), _game(2, {3: 2, 1: 1}, "2026-11-14")]
    day2 = [Encounter(("2026-11-21T19:00", 1), "2026-11-21", 9, None, {1: 2, 3: 1})]

    history = snapszer_history(day1 + day2)

    p1 = rate_period(Glicko(), [Outcome(Glicko(), 1), Outcome(Glicko(), 1)])
    p2 = rate_period(Glicko(), [Outcome(Glicko(), 0)])
    p3 = rate_period(Glicko(), [Outcome(Glicko(), 0)])
    p1_day2 = rate_period(p1, [Outcome(p3, 0)])
    assert history.current[1].mu == pytest.approx(p1_day2.rating)
    # 2 sat out day 2: only the deviation widened.
    assert history.current[2].mu == pytest.approx(p2.rating)
    assert history.current[2].sigma == pytest.approx(rate_period(p2, []).rd)
    assert history.current[1].played == 3
    first = next(p for p in history.points if p.player_id == 1)
    assert [m.series_id for m in first.moves] == [1, 2] and first.period == "2026-11-14"


def test_snapszer_skips_series_without_two_placed_players() -> None:
    history = snapszer_history([_game(1, {1: 1}), _game(2, {1: 1, 2: 2})])
    assert history.current[1].played == 1


@pytest.mark.parametrize("seed", range(5))
def test_the_order_encounters_arrive_in_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    snap = [
        Encounter(
            ("d", i),
            f"2026-11-{10 + i // 7}",
            i,
            1,
            dict(zip(rng.sample(range(8), 4), (1, 2, 2, 4), strict=True)),
        )
        for i in range(40)
    ]
    snapszer = [
        Encounter(
            ("d", i),
            f"2026-11-{10 + i // 7}",
            i,
            None,
            dict(zip(rng.sample(range(8), 2), (1, 2), strict=True)),
        )
        for i in range(40)
    ]
    shuffled_snap, shuffled_snapszer = snap[:], snapszer[:]
    rng.shuffle(shuffled_snap)
    rng.shuffle(shuffled_snapszer)

    assert snap_history(shuffled_snap) == snap_history(snap)
    assert snapszer_history(shuffled_snapszer) == snapszer_history(snapszer)


def test_order_by_rating_puts_unrated_players_last_in_entry_order() -> None:
    assert order_by_rating([5, 6, 7, 8, 9], {7: 1600.0, 9: 1700.0, 6: 1600.0}) == [9, 6, 7, 5, 8]
