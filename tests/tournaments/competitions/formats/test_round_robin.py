"""Round robin (rules/tournaments.md "Formats"): circle method, rotating bye, Snap tables."""

from collections import Counter
from itertools import combinations, groupby

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.dealing import shuffled
from tournaments.competitions.formats.round_robin import (
    Pairing,
    PairingError,
    PairingErrorCode,
    Round,
    Table,
    round_robin_schedule,
    seeded_order,
    snap_tables,
)


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[int | str]]:
    return Counter(frozenset(p.seats) for rnd in rounds for p in rnd.pairings)


def test_four_entrants_by_hand() -> None:
    # slot 3 ("d") fixed; round r: d v r, (r+1) v (r-1) mod 3; checked by hand against the docstring
    assert round_robin_schedule(["a", "b", "c", "d"]) == (
        Round(1, 1, (Pairing("d", "a"), Pairing("b", "c")), None),
        Round(2, 1, (Pairing("b", "d"), Pairing("c", "a")), None),
        Round(3, 1, (Pairing("d", "c"), Pairing("a", "b")), None),
    )


def test_three_entrants_each_have_one_bye() -> None:
    rounds = round_robin_schedule([1, 2, 3])
    assert [r.bye for r in rounds] == [1, 2, 3]
    assert [r.pairings for r in rounds] == [(Pairing(2, 3),), (Pairing(3, 1),), (Pairing(1, 2),)]


def test_two_entrants_play_one_round() -> None:
    assert round_robin_schedule([7, 9]) == (Round(1, 1, (Pairing(9, 7),), None),)


def test_double_round_robin_swaps_who_sits_first() -> None:
    single = round_robin_schedule(range(6))
    double = round_robin_schedule(list(range(6)), double=True)
    assert len(double) == 10 and [r.number for r in double] == list(range(1, 11))
    assert [r.cycle for r in double] == [1] * 5 + [2] * 5
    for first, second in zip(single, double[5:], strict=True):
        assert second.pairings == tuple(Pairing(p.second, p.first) for p in first.pairings)
        assert second.bye == first.bye


def test_the_schedule_is_deterministic_and_follows_the_given_order() -> None:
    assert round_robin_schedule([1, 2, 3, 4, 5]) == round_robin_schedule([1, 2, 3, 4, 5])
    assert round_robin_schedule([1, 2, 3, 4, 5]) != round_robin_schedule([5, 4, 3, 2, 1])


@pytest.mark.parametrize(
    ("entrants", "code"),
    [([], "too_few_entrants"), ([1], "too_few_entrants"), ([1, 2, 1], "duplicate_entrant")],
)
def test_impossible_round_robins_are_refused(entrants: list[int], code: str) -> None:
    with pytest.raises(PairingError) as exc:
        round_robin_schedule(entrants)
    assert exc.value.code == code and exc.value.message


@given(st.integers(2, 24), st.booleans())
def test_property_everyone_meets_everyone_once_per_cycle_and_byes_rotate(n: int, double: bool) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_schedule(players, double=double)
    cycles = 2 if double else 1
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == cycles * per_cycle
    for cycle in range(1, cycles + 1):
        part = tuple(r for r in rounds if r.cycle == cycle)
        assert meetings(part) == Counter(frozenset(pair) for pair in combinations(players, 2))
        byes = [r.bye for r in part]
        if n % 2 == 0:
            assert byes == [None] * per_cycle
        else:
            assert sorted(byes, key=str) == sorted(players)  # each entrant exactly one bye
        for rnd in part:  # nobody plays twice in a round, and the bye does not play
            seated = [s for p in rnd.pairings for s in p.seats]
            assert len(seated) == len(set(seated)) == n - (n % 2)
            assert rnd.bye not in seated


@given(st.integers(2, 24))
def test_property_seat_order_is_balanced(n: int) -> None:
    rounds = round_robin_schedule(list(range(n)))
    for player in range(n):
        seats = [0 if p.first == player else 1 for r in rounds for p in r.pairings if player in p.seats]
        assert abs(seats.count(0) - seats.count(1)) <= 1
        assert max(len(list(run)) for _, run in groupby(seats)) <= 2
    double = round_robin_schedule(list(range(n)), double=True)
    for player in range(n):
        firsts = sum(1 for r in double for p in r.pairings if p.first == player)
        assert firsts * 2 == sum(1 for r in double for p in r.pairings if player in p.seats)


# -- Snap tables -------------------------------------------------------------------------------


def test_snake_seeding_by_hand() -> None:
    # 11 entrants, tables of 4 -> 3 tables; seeds 1-3 to tables 1-3, 4-6 to 3-1, 7-9 to 1-3, 10-11 to 3-2
    assert snap_tables(list(range(1, 12)), table_size=4) == (
        Table(1, (1, 6, 7)),
        Table(2, (2, 5, 8, 11)),
        Table(3, (3, 4, 9, 10)),
    )


def test_one_table_when_everyone_fits() -> None:
    assert snap_tables(["a", "b", "c"], table_size=6) == (Table(1, ("a", "b", "c")),)


@pytest.mark.parametrize(
    ("entrants", "size", "code"),
    [
        ([1], 3, PairingErrorCode.TOO_FEW_ENTRANTS),
        ([1, 2, 3], 1, PairingErrorCode.INVALID_TABLE_SIZE),
        ([1, 2, 3], 7, PairingErrorCode.INVALID_TABLE_SIZE),
        ([1, 2, 2], 3, PairingErrorCode.DUPLICATE_ENTRANT),
        ([1, 2, 3, 4, 5], 2, PairingErrorCode.TABLE_OF_ONE),
    ],
)
def test_impossible_tables_are_refused(entrants: list[int], size: int, code: PairingErrorCode) -> None:
    with pytest.raises(PairingError) as exc:
        snap_tables(entrants, table_size=size)
    assert exc.value.code == code


@given(st.integers(2, 60), st.integers(2, 6))
def test_property_tables_differ_by_at_most_one(n: int, size: int) -> None:
    if size == 2 and n % 2:
        return  # refused above
    tables = snap_tables(list(range(n)), table_size=size)
    sizes = [len(t.seats) for t in tables]
    assert len(tables) == -(-n // size)
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 and max(sizes) <= size
    assert sorted(p for t in tables for p in t.seats) == list(range(n))
    # snake: the top seeds head the tables in order
    assert [t.seats[0] for t in tables] == list(range(len(tables)))


def test_seeded_order_is_a_checkable_permutation() -> None:
    order = seeded_order([1, 2, 3, 4, 5], "stage-3")
    assert sorted(order) == [1, 2, 3, 4, 5]
    assert order == seeded_order([1, 2, 3, 4, 5], "stage-3")  # a function of the seed and the input
    # The online deals' shuffle with the draw's own context: another context deals another order.
    assert order == shuffled([1, 2, 3, 4, 5], b"stage-3", b"draw")
    assert len({seeded_order(list(range(6)), f"s{i}") for i in range(20)}) > 1
    with pytest.raises(PairingError):
        seeded_order([1, 1], "s")
