"""The ladder's pure rules (tournaments/rankings/ladder/rules.py): exhaustive over small ladders."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rankings.ladder.rules import (
    after_join,
    after_leave,
    after_win,
    best_of_problem,
    challenge_problem,
    challengeable,
)


def _expected_after_win(order: tuple[str, ...], winner: str, loser: str) -> tuple[str, ...]:
    """The rule written out place by place (a second, independent way of saying it)."""
    w, lo = order.index(winner), order.index(loser)
    if w < lo:
        return order
    result = []
    for i, player in enumerate(order):
        if i < lo or i > w:
            result.append(player)  # above the loser or below the winner: unchanged
        elif i == lo:
            result.append(winner)
        else:
            result.append(order[i - 1])  # from the loser down: each takes the place below
    return tuple(result)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_after_win_every_pair_of_every_ladder(size: int) -> None:
    players = tuple("abcdef"[:size])
    for order in itertools.permutations(players):
        for winner, loser in itertools.permutations(order, 2):
            new = after_win(order, winner, loser)
            assert sorted(new) == sorted(order)  # still a permutation of the same players
            assert new == _expected_after_win(order, winner, loser)
            w, lo = order.index(winner), order.index(loser)
            if w > lo:
                assert new.index(winner) == lo  # the winner takes the loser's place
                assert new.index(loser) == lo + 1  # the loser is just below
                for p in order[lo:w]:
                    assert new.index(p) == order.index(p) + 1  # everyone between moves down one
                for p in order[:lo] + order[w + 1 :]:
                    assert new.index(p) == order.index(p)
            else:
                assert new == order


def test_after_win_concrete() -> None:
    assert after_win(("a", "b", "c", "d", "e"), "e", "b") == ("a", "e", "b", "c", "d")
    assert after_win(("a", "b"), "b", "a") == ("b", "a")
    assert after_win(("a", "b"), "a", "b") == ("a", "b")
    with pytest.raises(ValueError):
        after_win(("a", "b"), "a", "z")


@given(st.lists(st.integers(0, 50), min_size=2, max_size=30, unique=True), st.data())
def test_after_win_a_permutation(order: list[int], data: st.DataObject) -> None:
    winner, loser = data.draw(st.permutations(order))[:2]
    new = after_win(order, winner, loser)
    assert sorted(new) == sorted(order)
    assert len(new) == len(order)


def test_join_and_leave() -> None:
    assert after_join(("a", "b"), "c") == ("a", "b", "c")
    with pytest.raises(ValueError):
        after_join(("a", "b"), "a")
    assert after_leave(("a", "b", "c", "d"), "b") == ("a", "c", "d")
    with pytest.raises(ValueError):
        after_leave(("a",), "b")


@pytest.mark.parametrize("reach", [1, 2, 3, 5])
def test_challenge_problem_every_pair(reach: int) -> None:
    order = tuple("abcdefg")
    for challenger, challenged in itertools.product(order, repeat=2):
        gap = order.index(challenger) - order.index(challenged)
        problem = challenge_problem(order, challenger, challenged, reach=reach)
        if challenger == challenged:
            assert problem == "self"
        elif gap < 0:
            assert problem == "below"
        elif gap > reach:
            assert problem == "too_far"
        else:
            assert problem is None
        assert (challenged in challengeable(order, challenger, reach=reach)) == (problem is None)
    assert challenge_problem(order, "z", "a", reach=reach) == "challenger_not_in_ladder"
    assert challenge_problem(order, "b", "z", reach=reach) == "challenged_not_in_ladder"
    assert challengeable(order, "z", reach=reach) == []
    assert challengeable(order, "a", reach=reach) == []


@pytest.mark.parametrize(
    ("best_of", "a", "b", "problem"),
    [
        (1, 1, 0, None),
        (1, 0, 1, None),
        (1, 0, 0, "unfinished"),
        (1, 1, 1, "too_many"),
        (3, 2, 0, None),
        (3, 2, 1, None),
        (3, 1, 2, None),
        (3, 1, 1, "unfinished"),
        (3, 2, 2, "too_many"),
        (3, 3, 0, "too_many"),
        (3, -1, 2, "negative"),
        (5, 3, 2, None),
        (5, 2, 2, "unfinished"),
    ],
)
def test_best_of(best_of: int, a: int, b: int, problem: str | None) -> None:
    assert best_of_problem(best_of, a, b) == problem
