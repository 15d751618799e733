"""The arena pairs deals with seats swapped, and its intervals are right."""

from __future__ import annotations

import io

import pytest

from games.cli.sixtysix_arena import run, wilson
from games.engine.sixtysix import PROFILES


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(50, 100)  # p = 0.5, n = 100: 0.404 .. 0.596
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson(0, 10)  # no successes: 0 .. 0.278
    assert low == pytest.approx(0.0, abs=1e-9) and high == pytest.approx(0.2775, abs=1e-3)


@pytest.mark.parametrize("profile", ["snapszer", "schnapsen", "schnapsen-lite"])
def test_paired_deals_make_a_bot_against_itself_exactly_even(profile: str) -> None:
    """The heuristic bot is deterministic: if each deal is really played twice with the seats
    swapped, each side wins exactly what the other wins."""
    summary = run(("heuristic", "heuristic"), PROFILES[profile], 6, 3, progress=io.StringIO())
    a, b = summary["bots"]
    assert summary["matches"] == 6
    assert a["hands_won"] == b["hands_won"] > 0
    assert a["matches_won"] == b["matches_won"] == 3
    assert a["game_points_per_hand"] == b["game_points_per_hand"]


def test_a_stronger_bot_shows_in_the_summary() -> None:
    summary = run(("heuristic", "random"), PROFILES["schnapsen"], 10, 1, progress=io.StringIO())
    heuristic, random_bot = summary["bots"]
    assert heuristic["matches_won"] + random_bot["matches_won"] == 10
    assert heuristic["game_point_share"] > 0.7
    assert heuristic["hands_won_ci"][0] > 0.5
