"""Glicko-2 (pure): one rating period for one player, as in Glickman, "Example of the Glicko-2
system" (2013, http://www.glicko.net/glicko/glicko2.pdf), steps 1–8.

Ratings are kept on the Glicko scale (r, RD: 1500 / 350 for a new player) and converted to the
Glicko-2 scale (mu, phi) inside :func:`rate_period` only. The paper's worked example is a test
(tests/tournaments/rankings/ratings/test_glicko2.py): 1500/200/0.06 against 1400/30 (won), 1550/100 and
1700/300 (lost) gives 1464.06 / 151.52 / 0.05999.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178  # Glickman's q: Glicko-2 scale = (r - 1500) / 173.7178
DEFAULT_RATING: Final = 1500.0
DEFAULT_RD: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
# The system constant: how much the volatility may change. Glickman: "reasonable choices are between
# 0.3 and 1.2"; smaller keeps upsets from moving a club player's volatility much.
TAU: Final = 0.5
EPSILON: Final = 0.000001  # convergence of the volatility iteration (the paper's value)


@dataclass(frozen=True, slots=True)
class Glicko:
    """A player's Glicko-2 rating on the Glicko scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of the period against ``opponent`` (their rating before the period): ``score`` 1 for
    a win, 0.5 for a draw, 0 for a loss."""

    opponent: Glicko
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_period(player: Glicko, outcomes: Sequence[Outcome], *, tau: float = TAU) -> Glicko:
    """``player``'s rating after a rating period with ``outcomes`` (opponents as they stood before
    the period). A period without games only widens the deviation (step 6 alone)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not outcomes:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for outcome in outcomes:
        mu_j = (outcome.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = outcome.opponent.rd / SCALE
        g = _g(phi_j)
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * expected * (1.0 - expected)
        improvement += g * (outcome.score - expected)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)
