"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2013)."""

import pytest

from tournaments.rankings.ratings.glicko2 import Glicko, Outcome, rate_period


def test_glickmans_worked_example() -> None:
    # The paper: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300, tau 0.5.
    player = Glicko(1500, 200, 0.06)
    outcomes = [Outcome(Glicko(1400, 30), 1), Outcome(Glicko(1550, 100), 0), Outcome(Glicko(1700, 300), 0)]

    after = rate_period(player, outcomes, tau=0.5)

    # The paper rounds its intermediate values and prints 1464.06; exact arithmetic gives 1464.0507.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate_period(Glicko(1600, 100, 0.06), [])

    assert after.rating == 1600
    assert after.rd == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert after.volatility == 0.06


def test_a_win_against_an_equal_raises_and_a_loss_lowers_symmetrically() -> None:
    won = rate_period(Glicko(), [Outcome(Glicko(), 1)])
    lost = rate_period(Glicko(), [Outcome(Glicko(), 0)])
    drawn = rate_period(Glicko(), [Outcome(Glicko(), 0.5)])

    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert drawn.rating == pytest.approx(1500)
    assert won.rd < 350


def test_an_upset_moves_more_than_an_expected_win() -> None:
    upset = rate_period(Glicko(1400, 80), [Outcome(Glicko(1700, 80), 1)])
    expected = rate_period(Glicko(1700, 80), [Outcome(Glicko(1400, 80), 1)])

    assert upset.rating - 1400 > 3 * (expected.rating - 1700) > 0
