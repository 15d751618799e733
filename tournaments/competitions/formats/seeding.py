"""Where seeds sit: the standard bracket order, snake seeding into tables or groups, and the order
in which a double elimination drops its losers (pure, deterministic).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def bracket_order(size: int) -> list[int]:
    """The standard bracket order of seeds 1..size (size a power of 2): round-1 pairs are
    consecutive entries, so 16 gives 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11.

    Built by doubling: each seed s of the order for size/2 is followed by its partner size+1-s, so
    seeds 1 and 2 can only meet in the final, 1-4 not before the semi-finals, and so on.
    """
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [seed for s in order for seed in (s, doubled + 1 - s)]
    return order


def snake[T](items: Sequence[T], count: int) -> list[list[T]]:
    """Deal ``items`` (best first) into ``count`` lines by snake seeding: 1..count, then count..1,
    and so on. Line sizes differ by at most 1, and the first lines get the extra ones."""
    lines: list[list[T]] = [[] for _ in range(count)]
    for index, item in enumerate(items):
        lap, position = divmod(index, count)
        lines[position if lap % 2 == 0 else count - 1 - position].append(item)
    return lines


def sizes_within_one(total: int, count: int) -> list[int]:
    """``count`` sizes adding up to ``total`` that differ by at most 1, larger first."""
    base, extra = divmod(total, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


# -- double elimination: the order losers drop in -----------------------------------------------
# The five permutations brackets-manager uses ("natural", "reverse", "half_shift",
# "reverse_half_shift", "pair_flip"). A list of losers (in winners' bracket match order) is permuted
# before it fills the losers' bracket round it drops into.


def _natural[T](items: list[T]) -> list[T]:
    return list(items)


def _reverse[T](items: list[T]) -> list[T]:
    return items[::-1]


def _half_shift[T](items: list[T]) -> list[T]:
    half = len(items) // 2
    return items[half:] + items[:half]


def _reverse_half_shift[T](items: list[T]) -> list[T]:
    half = len(items) // 2
    return items[:half][::-1] + items[half:][::-1]


def _pair_flip[T](items: list[T]) -> list[T]:
    flipped: list[T] = []
    for i in range(0, len(items) - 1, 2):
        flipped += [items[i + 1], items[i]]
    if len(items) % 2:
        flipped.append(items[-1])
    return flipped


ORDERINGS: dict[str, Callable[[list[object]], list[object]]] = {
    "natural": _natural,
    "reverse": _reverse,
    "half_shift": _half_shift,
    "reverse_half_shift": _reverse_half_shift,
    "pair_flip": _pair_flip,
}


def drop_orderings(rounds: int) -> tuple[str, ...]:
    """The ordering applied to the losers of each winners' round 1..``rounds`` (a bracket of
    2**rounds): entry r-1 is for the losers of winners' round r.

    brackets-manager ships a fixed table per size; its entries for 32-128 can send a dropped player
    against a losers'-bracket player they may already have beaten. This family ("natural", then
    "pair_flip" for the middle rounds, then "reverse_half_shift", "reverse", "natural") has the
    property that a player dropping from the winners' bracket can never meet, in their first
    losers' bracket series, anyone they could have met before, except the winners' final loser in
    the losers' final (checked for every size up to 2**11 in tests/tournaments/formats).
    """
    if rounds <= 1:
        return ("natural",)[:rounds]
    if rounds == 2:
        return ("natural", "reverse")
    if rounds == 3:
        return ("natural", "reverse", "natural")
    return ("natural", *(["pair_flip"] * (rounds - 4)), "reverse_half_shift", "reverse", "natural")


# -- assignment ---------------------------------------------------------------------------------


def cheapest_assignment(costs: Sequence[Sequence[int]]) -> list[int]:
    """The Hungarian method (Kuhn-Munkres, O(n³)) on a square matrix of integer costs: ``result[i]``
    is the column given to row i, with the least total cost. Deterministic: among equal totals, the
    one this construction finds first (rows and columns taken in order)."""
    n = len(costs)
    if n == 0:
        return []
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    owner = [0] * (n + 1)  # owner[j]: the row (1-based) holding column j; 0 = free
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        column = 0
        least: list[int | None] = [None] * (n + 1)
        used = [False] * (n + 1)
        while owner[column] != 0:
            used[column] = True
            current, delta, next_column = owner[column], None, 0
            for j in range(1, n + 1):
                if used[j]:
                    continue
                reduced = costs[current - 1][j - 1] - u[current] - v[j]
                best = least[j]
                if best is None or reduced < best:
                    least[j], way[j] = reduced, column
                    best = reduced
                if delta is None or best < delta:
                    delta, next_column = best, j
            assert delta is not None
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack = least[j]
                    least[j] = None if slack is None else slack - delta
            column = next_column
        while column:
            previous = way[column]
            owner[column] = owner[previous]
            column = previous
    result = [0] * n
    for j in range(1, n + 1):
        result[owner[j] - 1] = j - 1
    return result


def meeting_round(a: int, b: int) -> int:
    """The bracket round in which the players at positions ``a`` and ``b`` (0-based, in
    :func:`bracket_order`) can first meet: 1 for a round-1 pair … log2(size) for the final."""
    return (a ^ b).bit_length()
