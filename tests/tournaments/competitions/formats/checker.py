"""An independent validity checker for generated stages.

It shares no code with the generators: it never imports ``tournaments.competitions.formats`` (a test checks
that), and reads a played stage as plain data (the record ``driver.play`` writes: each round as
published, with the results and withdrawals known when it was generated). Everything it expects it
works out again from the rules (rules/tournaments.md and docs/formats.md), by its own means: its own
seeding, scores, walkover rule, bracket order, exact search for Swiss pairings on small fields.

``check(record)`` raises AssertionError naming the first broken rule; ``quality(record)`` returns
figures (floaters, seat balance, repeat table-mates) that tests compare with bounds.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

type Player = Any  # an int or a str, as the record gives it
type Placings = list[int | None]

DOCS_FORMATS = Path(__file__).resolve().parents[4] / "docs" / "formats.md"
EXACT = 14  # Swiss fields up to this size are searched exhaustively


# -- reading the record ---------------------------------------------------------------------------


def _withdrawals(pairs: Iterable[Sequence[Any]]) -> dict[Player, int]:
    return {player: start for player, start in pairs}


def _out(withdrawals: Mapping[Player, int], player: Player, number: int) -> bool:
    return player in withdrawals and withdrawals[player] <= number


@cache
def documented_draw() -> Callable[[str, list[Player]], list[Player]]:
    """``draw(seed, entrants)`` exactly as docs/formats.md "Checking a random draw" prints it: the
    Python block of that section, run as it stands (an outsider's recomputation, not the app's)."""
    text = DOCS_FORMATS.read_text(encoding="utf-8")
    section = text[text.index("## Checking a random draw") :]
    block = section[
        section.index("```python\n") + len("```python\n") : section.index("```\n", section.index("```python"))
    ]
    scope: dict[str, Any] = {}
    exec(compile(block, str(DOCS_FORMATS), "exec"), scope)
    return scope["draw"]


def seeded(record: Mapping[str, Any], withdrawals: Mapping[Player, int]) -> list[Player]:
    """The entrants in the stage's seeding order, without those withdrawn from round 1."""
    present = [p for p in record["entrants"] if not _out(withdrawals, p, 1)]
    if record["options"].get("seeding", "random") == "random":
        present = documented_draw()(record["seed"], present)
    return present


def _present(series: Mapping[str, Any]) -> list[Player]:
    return [p for p in series["seats"] if p is not None]


def decided(
    series: Mapping[str, Any], number: int, results: Mapping[str, Placings], withdrawals: Mapping[Player, int]
) -> Placings | None:
    """How the series stands decided (walkovers and forfeits by withdrawal included), or None."""
    seats = series["seats"]
    advance = series["advance"]
    players = _present(series)

    def in_order(staying: set[Player]) -> Placings:
        placings: Placings = []
        for p in seats:
            placings.append(len([x for x in placings if x is not None]) + 1 if p in staying else None)
        return placings

    if advance > 0 and len(players) <= advance:
        return in_order(set(players))
    if series["key"] in results:
        return list(results[series["key"]])
    staying = {p for p in players if not _out(withdrawals, p, number)}
    if len(staying) < 2 or (advance and len(staying) <= advance):
        return in_order(staying)
    return None


def order_of(series: Mapping[str, Any], placings: Placings) -> list[Player]:
    """Players who played, best first; level places by seat."""
    ranked = sorted((place, seat) for seat, place in enumerate(placings) if place is not None)
    return [series["seats"][seat] for _place, seat in ranked if series["seats"][seat] is not None]


# -- the checks every format shares ---------------------------------------------------------------


def check(record: Mapping[str, Any]) -> None:
    """Every rule the stage's rounds must keep. Raises AssertionError."""
    rounds = record["rounds"]
    entrants = set(record["entrants"])
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1)), "rounds are numbered 1, 2, …"
    keys = [s["key"] for r in rounds for s in r["series"]]
    assert len(keys) == len(set(keys)), "a series key is used twice"
    for rnd in rounds:
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        seated = [p for s in rnd["series"] for p in s["seats"] if p is not None] + list(rnd["byes"])
        repeated = [p for p, times in Counter(seated).items() if times > 1]
        assert not repeated, f"round {rnd['number']}: {repeated} seated twice (or paired with themselves)"
        assert set(seated) <= entrants, f"round {rnd['number']}: a stranger is seated"
        gone = [p for p in seated if _out(withdrawals, p, rnd["number"])]
        assert not gone, f"round {rnd['number']}: withdrawn {gone} seated"
    if record["error"] is None:
        assert record["finished"], "the stage stopped before its end"
    elif record["error"]["code"] == "not_enough_entrants":
        error = record["error"]["extra"]
        drawn = len(seeded(record, _first_withdrawals(record))) if rounds else None
        assert error["entrants"] < error["minimum"] and drawn in (None, error["entrants"]), record["error"]
        return
    {
        "round_robin": _check_round_robin,
        "swiss": _check_swiss,
        "swiss_tables": _check_swiss_tables,
        "single_elimination": _check_single_elimination,
        "double_elimination": _check_double_elimination,
        "groups_playoff": _check_groups,
        "heats": _check_heats,
    }[record["format"]](record)


def _first_withdrawals(record: Mapping[str, Any]) -> dict[Player, int]:
    rounds = record["rounds"]
    return _withdrawals(rounds[0]["known"]["withdrawals"] if rounds else record["withdrawals"])


def snake_lines(items: Sequence[Player], count: int) -> list[list[Player]]:
    """Snake seeding: item i goes to line i mod count, counted backwards on odd laps."""
    lines: list[list[Player]] = [[] for _ in range(count)]
    for i, item in enumerate(items):
        lap = i // count
        lines[i % count if lap % 2 == 0 else count - 1 - i % count].append(item)
    return lines


# -- round robin ----------------------------------------------------------------------------------


def _check_round_robin(record: Mapping[str, Any]) -> None:
    if record["error"] is not None:
        assert record["error"]["code"] in {"table_of_one", "too_few_entrants"}, record["error"]
        return
    players = seeded(record, _first_withdrawals(record))
    n = len(players)
    rounds = record["rounds"]
    if record["game"] == "snap":
        (rnd,) = rounds
        size = record["options"].get("table_size", 4)
        count = -(-n // size)
        expected = snake_lines(players, count)
        assert [s["seats"] for s in rnd["series"]] == expected, "Snap round robin tables are snake-seeded"
        return
    double = record["options"].get("double", False)
    cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == cycle * (2 if double else 1)
    met: Counter[tuple[Player, Player]] = Counter()
    byes: Counter[Player] = Counter()
    for rnd in rounds:
        for s in rnd["series"]:
            met[tuple(s["seats"])] += 1
        byes.update(rnd["byes"])
        assert len(rnd["byes"]) == n % 2
    for a, b in combinations(players, 2):
        times = met[(a, b)] + met[(b, a)]
        assert times == (2 if double else 1), f"{a} and {b} meet {times} times"
        if double:
            assert met[(a, b)] == met[(b, a)] == 1, "the second cycle swaps the seats"
    if n % 2:
        assert all(byes[p] == (2 if double else 1) for p in players), "one bye per player per cycle"


# -- Swiss ----------------------------------------------------------------------------------------

BYE_POINTS = {"win": 2, "draw": 1, "nothing": 0}


def swiss_scores(
    rounds: Sequence[Mapping[str, Any]],
    results: Mapping[str, Placings],
    withdrawals: Mapping[Player, int],
    players: Iterable[Player],
    bye: str,
) -> dict[Player, int]:
    """Half points: a series won 2, drawn 1 (both first), a forfeit win 2, a bye by the option."""
    score = dict.fromkeys(players, 0)
    for rnd in rounds:
        for p in rnd["byes"]:
            if p in score:
                score[p] += BYE_POINTS[bye]
        for s in rnd["series"]:
            placings = decided(s, rnd["number"], results, withdrawals)
            if placings is None or s["seats"][0] not in score:
                continue
            firsts = [s["seats"][i] for i, place in enumerate(placings) if place == 1]
            for p in firsts:
                score[p] += 2 if len(firsts) == 1 else 1
    return score


@cache
def _pairable(players: frozenset[Player], met: frozenset[frozenset[Player]]) -> bool:
    """Can ``players`` all be paired with nobody meeting twice? (exhaustive, small fields)"""
    if not players:
        return True
    first = min(players, key=str)
    rest = players - {first}
    return any(
        frozenset((first, other)) not in met and _pairable(rest - {other}, met)
        for other in sorted(rest, key=str)
    )


def seat_rule_breaks(seats: Sequence[int], seat: int) -> int:
    """FIDE's colour rules for the first dealer, read for seat 0: does sitting in ``seat`` next
    leave a player 3 first-dealer series above (or below) their second-seat ones, or in the same
    seat for the third time in a row? (0, 1 or 2 rules broken)"""
    balance = sum(1 if x == 0 else -1 for x in seats) + (1 if seat == 0 else -1)
    return (abs(balance) >= 3) + (len(seats) >= 2 and seats[-1] == seats[-2] == seat)


def pair_breaks(
    seats: Mapping[Player, Sequence[int]], a: Player, b: Player, exempt: frozenset[Player]
) -> int:
    """The fewest seat rules the pair breaks, seated either way: none when one of them is exempt
    (a topscorer in the last round, FIDE's Dutch system C.3)."""
    if a in exempt or b in exempt:
        return 0
    return min(
        seat_rule_breaks(seats[a], 0) + seat_rule_breaks(seats[b], 1),
        seat_rule_breaks(seats[a], 1) + seat_rule_breaks(seats[b], 0),
    )


def best_pairing_cost(
    players: Sequence[Player],
    score: Mapping[Player, int],
    met: frozenset[frozenset[Player]],
    seats: Mapping[Player, Sequence[int]],
    exempt: frozenset[Player] = frozenset(),
) -> tuple[int, int] | None:
    """The least (seat rules broken, sum of squared score differences) of any rematch-free
    pairing of ``players`` (an even number); None when there is none. Exhaustive: small fields."""
    order = list(players)

    def pair_cost(a: Player, b: Player) -> tuple[int, int]:
        return pair_breaks(seats, a, b, exempt), (score[a] - score[b]) ** 2

    @cache
    def best(left: frozenset[int]) -> tuple[int, int] | None:
        if not left:
            return (0, 0)
        first = min(left)
        found: tuple[int, int] | None = None
        for other in left - {first}:
            a, b = order[first], order[other]
            if frozenset((a, b)) in met:
                continue
            rest = best(left - {first, other})
            if rest is not None:
                here = pair_cost(a, b)
                cost = (rest[0] + here[0], rest[1] + here[1])
                found = cost if found is None else min(found, cost)
        return found

    return best(frozenset(range(len(order))))


def swiss_pairing_exists(
    active: Sequence[Player], met: frozenset[frozenset[Player]], had_bye: set[Player]
) -> bool:
    """Does a round without a rematch exist (with a bye to someone who had none, when odd)?"""
    if len(active) % 2 == 0:
        return _pairable(frozenset(active), met)
    return any(_pairable(frozenset(active) - {c}, met) for c in active if c not in had_bye)


def default_rounds(players: int) -> int:
    """A Swiss's rounds when its options name none: ceil(log2 n), at least 1."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def _swiss_group(
    record: Mapping[str, Any],
    players: Sequence[Player],
    rounds: Sequence[Mapping[str, Any]],
    total_rounds: int | None,
    group: str | None = None,
) -> None:
    """Checks one Swiss field (a whole stage, or one group) over ``rounds``."""
    bye = record["options"].get("bye", "win")
    met: set[frozenset[Player]] = set()
    had_bye: set[Player] = set()
    seat_history: dict[Player, list[int]] = {p: [] for p in players}
    mine = set(players)
    last = total_rounds or default_rounds(len(players))
    for index, rnd in enumerate(rounds):
        results = rnd["known"]["results"]
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        series = [s for s in rnd["series"] if set(_present(s)) <= mine and _present(s)]
        byes = [p for p in rnd["byes"] if p in mine]
        active = [p for p in players if not _out(withdrawals, p, rnd["number"])]
        seated = [p for s in series for p in s["seats"]]
        assert all(len(s["seats"]) == 2 and None not in s["seats"] for s in series), "two seats, both filled"
        assert all(s.get("group") == group for s in series), "series of a group carry its label"
        assert sorted(seated + byes, key=str) == sorted(active, key=str), (
            f"round {rnd['number']}: everyone active is paired or has the bye"
        )
        assert len(byes) == len(active) % 2, f"round {rnd['number']}: a bye only for an odd field"
        for s in series:
            pair = frozenset(s["seats"])
            assert pair not in met, f"round {rnd['number']}: rematch {sorted(pair, key=str)}"
        if byes:
            (got,) = byes
            assert got not in had_bye, f"round {rnd['number']}: {got} has a second bye"
            score = swiss_scores(rounds[:index], results, withdrawals, players, bye)
            rank = {p: i for i, p in enumerate(players)}
            ranked = sorted(active, key=lambda p: (-score[p], rank[p]))
            below = [p for p in ranked[ranked.index(got) + 1 :] if p not in had_bye]
            if len(active) <= EXACT:
                for other in below:
                    rest = frozenset(active) - {other}
                    assert not _pairable(rest, frozenset(met)), (
                        f"round {rnd['number']}: the bye should go to {other}, below {got}"
                    )
            else:
                assert not below, f"round {rnd['number']}: the bye should go to {below[-1]}, below {got}"
        if len(seated) <= EXACT:
            # Within a field this small the pairing is one matching: no rematch-free pairing of
            # the same players breaks fewer seat rules, nor, with as few, has closer scores.
            # In the last round the topscorers (over half the points so far) are exempt.
            score = swiss_scores(rounds[:index], results, withdrawals, players, bye)
            exempt = frozenset(p for p in seated if rnd["number"] == last and score[p] > rnd["number"] - 1)
            mine_now = (
                sum(pair_breaks(seat_history, a, b, exempt) for a, b in (s["seats"] for s in series)),
                sum((score[a] - score[b]) ** 2 for a, b in (s["seats"] for s in series)),
            )
            best = best_pairing_cost(seated, score, frozenset(met), seat_history, exempt)
            assert mine_now == best, f"round {rnd['number']}: pairing cost {mine_now}, but {best} is possible"
        for s in series:
            met.add(frozenset(s["seats"]))
            seat_history.setdefault(s["seats"][0], []).append(0)
            seat_history.setdefault(s["seats"][1], []).append(1)
        had_bye.update(byes)
    if group is None:
        _swiss_end(record, players, rounds=rounds, total_rounds=total_rounds, met=met, had_bye=had_bye)


def _swiss_end(
    record: Mapping[str, Any],
    players: Sequence[Player],
    *,
    rounds: Sequence[Mapping[str, Any]],
    total_rounds: int | None,
    met: set[frozenset[Player]],
    had_bye: set[Player],
) -> None:
    error = record["error"]
    n = len(players)
    if error is not None and error["code"] == "too_many_rounds":
        assert not rounds and error["extra"]["rounds"] > (n if n % 2 else n - 1)
        return
    if error is not None:
        assert error["code"] == "no_pairing_without_rematch", error
        number = len(rounds) + 1
        withdrawals = _withdrawals(record["withdrawals"])  # as they stood when it was refused
        active = [p for p in players if not _out(withdrawals, p, number)]
        assert len(active) <= EXACT, f"a field of {len(active)} refused: not checked exhaustively"
        assert not swiss_pairing_exists(active, frozenset(met), had_bye), (
            f"round {number} was refused but can be paired without a rematch"
        )
        return
    expected = total_rounds or default_rounds(n)
    if len(rounds) < expected:
        last = _withdrawals(record["withdrawals"])
        assert sum(not _out(last, p, len(rounds) + 1) for p in players) < 2, "the Swiss ended early"
    else:
        assert len(rounds) == expected, "the Swiss has its number of rounds"


def _check_swiss(record: Mapping[str, Any]) -> None:
    players = seeded(record, _first_withdrawals(record))
    _swiss_group(record, players, record["rounds"], record["options"].get("rounds"))


# -- Swiss tables ---------------------------------------------------------------------------------


def _check_swiss_tables(record: Mapping[str, Any]) -> None:
    players = seeded(record, _first_withdrawals(record))
    size = record["options"].get("table_size", 4)
    rank_of = {p: i for i, p in enumerate(players)}
    history: list[Mapping[str, Any]] = []
    for rnd in record["rounds"]:
        results = rnd["known"]["results"]
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        active = [p for p in players if not _out(withdrawals, p, rnd["number"])]
        tables = [s["seats"] for s in rnd["series"]]
        count = -(-len(active) // size)
        assert len(tables) == count, f"round {rnd['number']}: {count} tables for {len(active)}"
        sizes = [len(t) for t in tables]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size, f"table sizes {sizes}"
        assert sizes == sorted(sizes, reverse=True), "the larger tables come first"
        assert sorted((p for t in tables for p in t), key=str) == sorted(active, key=str)
        points = table_points(history, results, withdrawals)
        ranked = sorted(active, key=lambda p: (-points.get(p, 0), rank_of[p]))
        home: dict[Player, int] = {}
        start = 0
        for index, length in enumerate(sizes):
            home.update(dict.fromkeys(ranked[start : start + length], index))
            start += length
        for index, table in enumerate(tables):
            for p in table:
                assert abs(index - home[p]) <= 1, (
                    f"round {rnd['number']}: {p} sits {index - home[p]} tables off"
                )
        met = table_mates(history)
        home_tables = [[p for p in ranked if home[p] == i] for i in range(len(sizes))]
        assert repeats(tables, met) <= repeats(home_tables, met), (
            "more repeat table-mates than the rank order"
        )
        history.append(rnd)


def table_points(
    rounds: Sequence[Mapping[str, Any]], results: Mapping[str, Placings], withdrawals: Mapping[Player, int]
) -> dict[Player, int]:
    """Placement points: at a table of s, place p scores s - p; a forfeit 0."""
    points: dict[Player, int] = {}
    for rnd in rounds:
        for s in rnd["series"]:
            placings = decided(s, rnd["number"], results, withdrawals)
            for seat, p in enumerate(s["seats"]):
                place = None if placings is None else placings[seat]
                points[p] = points.get(p, 0) + (0 if place is None else len(s["seats"]) - place)
    return points


def table_mates(rounds: Sequence[Mapping[str, Any]]) -> Counter[frozenset[Player]]:
    met: Counter[frozenset[Player]] = Counter()
    for rnd in rounds:
        for s in rnd["series"]:
            for a, b in combinations(_present(s), 2):
                met[frozenset((a, b))] += 1
    return met


def repeats(tables: Iterable[Sequence[Player]], met: Mapping[frozenset[Player], int]) -> int:
    """Pairs of table-mates who shared a table before (counted per earlier meeting)."""
    return sum(met.get(frozenset((a, b)), 0) for t in tables for a, b in combinations(t, 2))


# -- brackets -------------------------------------------------------------------------------------


def _sources(
    rounds: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, int], tuple[Mapping[str, Any], int, int]]:
    """(series key, seat) -> (the series sending a player there, its round, the place sent)."""
    sources: dict[tuple[str, int], tuple[Mapping[str, Any], int, int]] = {}
    for rnd in rounds:
        for s in rnd["series"]:
            for place, slot in enumerate(s["to"], start=1):
                if slot is not None:
                    assert (slot[0], slot[1]) not in sources, f"two series send players to {slot}"
                    sources[(slot[0], slot[1])] = (s, rnd["number"], place)
    return sources


def _settled(
    source: Mapping[str, Any], order: list[Player], earlier: Mapping[str, Mapping[str, Any]]
) -> list[Player | None]:
    """The source's finishing order, except that a player already seated (in a series published
    before) where one of its places goes keeps that place."""
    fixed: dict[int, Player] = {}
    for place, slot in enumerate(source["to"], start=1):
        if slot is not None and slot[0] in earlier:
            seated = earlier[slot[0]]["seats"][slot[1]]
            if seated is not None and seated in _present(source):
                fixed[place] = seated
    rest = [p for p in order if p not in fixed.values()]
    settled: list[Player | None] = []
    for place in range(1, max([len(order), *fixed]) + 1):
        settled.append(fixed[place] if place in fixed else (rest.pop(0) if rest else None))
    return settled


def check_slots(rounds: Sequence[Mapping[str, Any]]) -> list[tuple[str, int]]:
    """Every seat a bracket series sends a player to holds exactly that player (or is empty when
    nobody came through, or the player has withdrawn). Returns the seats with no source."""
    sources = _sources(rounds)
    published: dict[str, Mapping[str, Any]] = {}
    unsourced: list[tuple[str, int]] = []
    for rnd in rounds:
        results = rnd["known"]["results"]
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        for s in rnd["series"]:
            for seat, player in enumerate(s["seats"]):
                if (s["key"], seat) not in sources:
                    unsourced.append((s["key"], seat))
                    continue
                source, number, place = sources[(s["key"], seat)]
                assert number < rnd["number"], f"{s['key']} is fed by {source['key']} of a later round"
                placings = decided(source, number, results, withdrawals)
                assert placings is not None, f"{s['key']} was generated before {source['key']} was decided"
                order = _settled(source, order_of(source, placings), published)
                expected = order[place - 1] if place <= len(order) else None
                if expected is not None and _out(withdrawals, expected, rnd["number"]):
                    expected = None
                assert player == expected, (
                    f"{s['key']} seat {seat} holds {player}, but place {place} of {source['key']} is {expected}"
                )
        for s in rnd["series"]:
            published[s["key"]] = s
    return unsourced


def bracket_order_ok(pairs: Sequence[tuple[int, int | None]], size: int, n: int) -> None:
    """Round-1 seeds of a standard bracket of ``size``: partners add up to size + 1 (a missing
    partner would be a seed past n: a bye to a top seed)."""
    for a, b in pairs:
        if b is None:
            assert size + 1 - a > n, f"seed {a} has a bye though seed {size + 1 - a} exists"
        else:
            assert a + b == size + 1, f"round 1 pairs seeds {a} and {b} in a bracket of {size}"


def chalk_rounds(rounds: Sequence[Mapping[str, Any]], seed_of: Mapping[Player, int], size: int) -> None:
    """Standard seeding, round by round: if the better seed always won, winners' round r would pair
    seeds adding up to size / 2**(r-1) + 1 (1 v 8, 4 v 5 … then 1 v 4, 2 v 3 …)."""
    chalk: dict[tuple[str, int], int | None] = {}
    for rnd in rounds:
        for s in rnd["series"]:
            if s["phase"] != "winners":
                continue
            seeds = [chalk.get((s["key"], seat), seed_of.get(p)) for seat, p in enumerate(s["seats"])]
            if s["phase_round"] == 1:
                seeds = [None if p is None else seed_of[p] for p in s["seats"]]
            present = sorted(x for x in seeds if x is not None)
            total = size // 2 ** (s["phase_round"] - 1) + 1
            if len(present) == 2:
                assert sum(present) == total, f"{s['key']}: chalk seeds {present}, expected a sum of {total}"
            if s["to"] and s["to"][0] is not None:
                chalk[(s["to"][0][0], s["to"][0][1])] = present[0] if present else None


def final_winner(
    rounds: Sequence[Mapping[str, Any]], results: Mapping[str, Placings], withdrawals: Mapping[Player, int]
) -> Player | None:
    """The winner of the stage's last series that decides the title (table 1 of the last round)."""
    last = rounds[-1]
    final = min(last["series"], key=lambda s: s["table"])
    placings = decided(final, last["number"], results, withdrawals)
    assert placings is not None, "the final is not decided"
    order = order_of(final, placings)
    return order[0] if order else None


def _champion(record: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]]) -> None:
    if record["error"] is not None or not rounds:
        return
    results = record["results"]
    withdrawals = _withdrawals(record["withdrawals"])
    expected = final_winner(rounds, results, withdrawals)
    assert record["champion"] == expected, f"champion {record['champion']}, the final says {expected}"
    if not record["double_forfeits"] and not withdrawals:
        assert expected is not None, "no champion without double forfeits or withdrawals"


def _losses(
    rounds: Sequence[Mapping[str, Any]], results: Mapping[str, Placings], withdrawals: Mapping[Player, int]
) -> None:
    """Two-seat elimination: after a loss (single) or a second loss (double) a player is out; a
    forfeit puts a player out."""
    double = any(s["phase"] == "losers" for r in rounds for s in r["series"]) or any(
        s["phase"] == "grand_final" for r in rounds for s in r["series"]
    )
    lost: Counter[Player] = Counter()
    for rnd in rounds:
        for s in rnd["series"]:
            for p in _present(s) if s["phase"] != "third_place" else ():
                assert lost[p] < (2 if double else 1), f"{p} plays {s['key']} after being knocked out"
        for s in rnd["series"]:
            if s["phase"] == "third_place":
                continue
            placings = decided(s, rnd["number"], results, withdrawals)
            assert placings is not None
            for seat, p in enumerate(s["seats"]):
                if p is None:
                    continue
                if placings[seat] is None:
                    lost[p] += 2
                elif placings[seat] != 1 and s["advance"] == 1:
                    lost[p] += 1


def _check_elimination(
    record: Mapping[str, Any], players: Sequence[Player], rounds: Sequence[Mapping[str, Any]]
) -> None:
    n = len(players)
    seed_of = {p: i + 1 for i, p in enumerate(players)}
    size = 2 ** max(1, math.ceil(math.log2(n)))
    unsourced = check_slots(rounds)
    first = rounds[0]
    assert {key for key, _seat in unsourced} == {s["key"] for s in first["series"]}, (
        "only round 1 is seeded; every later seat is fed by a series"
    )
    winners_1 = [s for s in first["series"] if s["phase"] == "winners"]
    assert len(winners_1) == size // 2
    pairs = []
    for s in winners_1:
        a, b = (seed_of.get(p) for p in s["seats"])
        if a is None and b is None:
            raise AssertionError(f"{s['key']}: an empty round-1 series")
        pairs.append((a, b) if a is not None and (b is None or a < b) else (b, a))
    # round 1 as published has no withdrawn seeds missing (they are out of the draw); a seat is
    # empty only for a bye
    bracket_order_ok(pairs, size, n)  # type: ignore[arg-type]
    chalk_rounds(rounds, seed_of, size)
    if not record["corrections"]:  # a correction may leave a published player on after a loss
        _losses(rounds, record["results"], _withdrawals(record["withdrawals"]))


def _check_single_elimination(record: Mapping[str, Any]) -> None:
    players = seeded(record, _first_withdrawals(record))
    rounds = record["rounds"]
    if record["error"] is not None:
        raise AssertionError(f"single elimination refused: {record['error']}")
    size = record["options"].get("table_size", 2)
    if size > 2:
        _check_tables_bracket(record, players, rounds, size, record["options"].get("advance", 1))
    else:
        _check_elimination(record, players, rounds)
        third = [s for r in rounds for s in r["series"] if s["phase"] == "third_place"]
        assert bool(third) == (record["options"].get("third_place", False) and len(players) >= 3)
    _champion(record, rounds)


def _check_tables_bracket(
    record: Mapping[str, Any],
    players: Sequence[Player],
    rounds: Sequence[Mapping[str, Any]],
    size: int,
    advance: int,
) -> None:
    unsourced = check_slots(rounds)
    first = rounds[0]
    assert {key for key, _seat in unsourced} == {s["key"] for s in first["series"]}
    count = 1 if len(players) <= size else -(-len(players) // size)
    assert [s["seats"] for s in first["series"]] == snake_lines(players, count), "round 1 is snake-seeded"
    for rnd in rounds:
        for s in rnd["series"]:
            final = s["phase"] == "final"
            assert len(s["seats"]) <= size
            expected = 1 if final else min(advance, len(s["seats"]) - 1)
            assert s["advance"] == expected, f"{s['key']}: top {s['advance']} go on, expected {expected}"
            assert len(s["to"]) == (1 if final else expected)
    last = rounds[-1]["series"]
    assert len(last) == 1 and last[0]["phase"] == "final", "the bracket ends in one final table"


def _check_double_elimination(record: Mapping[str, Any]) -> None:
    players = seeded(record, _first_withdrawals(record))
    rounds = record["rounds"]
    if record["error"] is not None:
        raise AssertionError(f"double elimination refused: {record['error']}")
    _check_elimination(record, players, rounds)
    _double_rules(record, rounds)
    _champion(record, rounds)


def _double_rules(record: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]]) -> None:
    """The grand final reset, and a dropped player's first losers' series is no rematch."""
    results = record["results"]
    withdrawals = _withdrawals(record["withdrawals"])
    grand = [(r, s) for r in rounds for s in r["series"] if s["phase"] == "grand_final"]
    reset = [r for r in rounds for s in r["series"] if s["phase"] == "grand_final_reset"]
    if grand and (reset or record["finished"]):
        ((gf_round, gf),) = grand
        seen = reset[0]["known"]["results"] if reset else results  # when the reset was (or was not) due
        placings = decided(gf, gf_round["number"], seen, withdrawals)
        order = [] if placings is None or gf["advance"] >= len(_present(gf)) else order_of(gf, placings)
        losers_side_won = len(order) == 2 and order[0] == gf["seats"][1]
        wanted = record["options"].get("grand_final_reset", True)
        assert bool(reset) == (wanted and losers_side_won), "the reset is played iff the losers' side won"
    last_losers = max(
        (s["phase_round"] for r in rounds for s in r["series"] if s["phase"] == "losers"), default=0
    )
    met: dict[Player, set[Player]] = {}
    entered: set[Player] = set()
    for rnd in rounds:
        for s in rnd["series"]:
            seats = s["seats"]
            if s["phase"] == "losers" and s["phase_round"] < last_losers:
                for seat, p in enumerate(seats):
                    other = seats[1 - seat]
                    fresh = p is not None and p not in entered
                    if fresh and other is not None and (s["phase_round"] == 1 or seat == 1):
                        assert other not in met.get(p, set()), (
                            f"{s['key']}: {p} drops against {other}, whom they met already"
                        )
            if s["phase"] == "losers":
                entered.update(p for p in seats if p is not None)
        for s in rnd["series"]:
            a, b = s["seats"][0], s["seats"][-1]
            if a is not None and b is not None and len(s["seats"]) == 2:
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)


# -- groups → playoff ----------------------------------------------------------------------------


def _label(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _check_groups(record: Mapping[str, Any]) -> None:
    if record["error"] is not None:
        refusals = {
            "groups_uneven",
            "advance_not_below_group_size",
            "no_pairing_without_rematch",
            "too_many_rounds",
        }
        error = record["error"]
        assert error["code"] in refusals or (
            error["code"] == "not_enough_entrants" and error["extra"]["entrants"] < 3
        ), error
        return
    options = record["options"]
    players = seeded(record, _first_withdrawals(record))
    size = options.get("group_size", 4)
    count = -(-len(players) // size)
    groups = {_label(i): members for i, members in enumerate(snake_lines(players, count))}
    assert all(len(m) >= size - 1 for m in groups.values()), "groups have group_size or one fewer"
    rounds = record["rounds"]
    group_rounds = [
        r
        for r in rounds
        if any(s["phase"] == "group" for s in r["series"])
        or (r["byes"] and not any(s["phase"] != "group" for s in r["series"]))
    ]
    playoff = rounds[len(group_rounds) :]
    for rnd in group_rounds:
        for s in rnd["series"]:
            label = s["group"]
            assert set(_present(s)) <= set(groups[label]), f"{s['key']}: players of another group"
    if options.get("group_format", "round_robin") == "round_robin":
        for label, members in groups.items():
            met = Counter(
                frozenset(s["seats"]) for r in group_rounds for s in r["series"] if s["group"] == label
            )
            assert all(met[frozenset(pair)] == 1 for pair in combinations(members, 2)), (
                f"group {label} is a round robin"
            )
            assert sum(met.values()) == len(members) * (len(members) - 1) // 2
    else:
        total = options.get("group_rounds") or max(
            1, math.ceil(math.log2(min(len(m) for m in groups.values())))
        )
        assert len(group_rounds) == total
        for label, members in groups.items():
            mine = [dict(r, byes=[p for p in r["byes"] if p in members]) for r in group_rounds]
            _swiss_group(record, members, mine, total, group=label)
    if not playoff:
        return
    known = playoff[0]["known"]
    withdrawals = _withdrawals(known["withdrawals"])
    first_playoff = playoff[0]["number"]
    advance = options.get("advance", 2)
    qualifiers = []
    for label in groups:
        ranking = known["standings"][label]
        qualifiers.append([p for p in ranking if not _out(withdrawals, p, first_playoff)][:advance])
    seeds = _playoff_seeds(qualifiers, playoff[0])
    if len(seeds) < 2:
        return
    _check_elimination(record, seeds, playoff)
    if options.get("playoff") == "double_elimination":
        _double_rules(record, playoff)
    _champion(record, playoff)


def standard_order(size: int) -> list[int]:
    """Seeds 1..size by bracket position: each half of the order for 2n is the order for n with
    every seed s followed by its round-1 partner 2n + 1 - s."""
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    return order


def spread_ok(positions: Sequence[int], size: int) -> bool:
    """A group's qualifiers (bracket positions, best first) as far apart as the bracket allows: for
    every q, the best q in every part of the bracket of size / 2**m have at most ceil(q / 2**m) of
    them (so the best 2 are in different halves, the best 4 in different quarters …)."""
    m = 1
    while 2**m <= size:
        parts = 2**m
        for q in range(1, len(positions) + 1):
            crowd = Counter(p * parts // size for p in positions[:q])
            if max(crowd.values()) > -(-q // parts):
                return False
        m += 1
    return True


def _playoff_seeds(qualifiers: Sequence[Sequence[Player]], first: Mapping[str, Any]) -> list[Player]:
    """The playoff's seeding order read back from its round 1, checked against docs/formats.md:
    tier by tier (winners first: the byes go to the best-placed), the winners in group order, and
    each group's qualifiers spread (:func:`spread_ok`)."""
    total = sum(len(q) for q in qualifiers)
    if total < 2:
        return [q[0] for q in qualifiers if q]
    size = 2 ** max(1, math.ceil(math.log2(total)))
    order = standard_order(size)
    winners_1 = sorted((s for s in first["series"] if s["phase"] == "winners"), key=lambda s: s["table"])
    positions = [p for s in winners_1 for p in s["seats"]]
    assert len(positions) == size, "round 1 of the playoff seats the whole bracket"
    seeds: list[Player] = [None] * total
    where: dict[Player, int] = {}
    for position, player in enumerate(positions):
        if order[position] <= total:
            seeds[order[position] - 1] = player
            where[player] = position
        else:
            assert player is None, f"{player} sits where the bracket has a bye"
    start = 0
    for tier in range(max(len(q) for q in qualifiers)):
        members = [q[tier] for q in qualifiers if tier < len(q)]
        block = seeds[start : start + len(members)]
        assert set(block) == set(members), (
            f"playoff seeds {start + 1}-{start + len(members)} are tier {tier + 1}"
        )
        if tier == 0:
            assert block == members, "group winners are seeded in group order"
        start += len(members)
    for q in qualifiers:
        assert spread_ok([where[p] for p in q], size), f"a group's qualifiers are too close: {q}"
    return seeds


# -- heats ----------------------------------------------------------------------------------------


def _check_heats(record: Mapping[str, Any]) -> None:
    players = seeded(record, _first_withdrawals(record))
    options = record["options"]
    size, advance = options.get("table_size", 4), options.get("advance", 2)
    seed_of = {p: i for i, p in enumerate(players)}
    rounds = record["rounds"]

    def seated_as(ordered: Sequence[Player], rnd: Mapping[str, Any], phase: str) -> None:
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        staying = [p for p in ordered if not _out(withdrawals, p, rnd["number"])]
        tables = [s["seats"] for s in rnd["series"]]
        if phase == "heat" and len(staying) <= size:
            assert [s["phase"] for s in rnd["series"]] == ["final"] and tables == [staying]
            return
        assert all(s["phase"] == phase for s in rnd["series"])
        assert tables == snake_lines(staying, max(1, -(-len(staying) // size))), (
            f"round {rnd['number']} seating"
        )
        for s in rnd["series"]:
            assert s["advance"] == min(advance, max(len(s["seats"]) - 1, 1))

    def finishers(
        rnd: Mapping[str, Any], results: Mapping[str, Placings], withdrawals: Mapping[Player, int]
    ) -> tuple[list[Player], list[Player], dict[Player, int]]:
        ahead, behind, place = [], [], {}
        for s in rnd["series"]:
            placings = decided(s, rnd["number"], results, withdrawals)
            assert placings is not None
            for i, p in enumerate(order_of(s, placings), start=1):
                place[p] = i
                (ahead if i <= s["advance"] else behind).append(p)
        key = lambda p: (place[p], seed_of[p])  # noqa: E731
        return sorted(ahead, key=key), sorted(behind, key=key), place

    seated_as(players, rounds[0], "heat")
    for prev, rnd in pairwise(rounds):
        results = rnd["known"]["results"]
        withdrawals = _withdrawals(rnd["known"]["withdrawals"])
        going, out, _place = finishers(prev, results, withdrawals)
        phase = rnd["series"][0]["phase"] if rnd["series"] else "final"
        if phase == "repechage":
            assert prev is rounds[0] and options.get("repechage"), "a repechage only after round 1"
            seated_as([p for p in out if not _out(withdrawals, p, rnd["number"])], rnd, "repechage")
            continue
        if prev["series"][0]["phase"] == "repechage":
            first_going, first_out, place = finishers(rounds[0], results, withdrawals)
            in_rep = {p for s in prev["series"] for p in s["seats"]}
            from_first = sorted(
                (p for p in first_going + first_out if p not in in_rep), key=lambda p: (place[p], seed_of[p])
            )
            going = from_first + going
        elif prev is rounds[0] and options.get("repechage") and prev["series"][0]["phase"] != "final":
            assert sum(not _out(withdrawals, p, rnd["number"]) for p in out) < 2, "the repechage was skipped"
        seated_as(going, rnd, "heat")
    assert rounds[-1]["series"][0]["phase"] == "final" if rounds[-1]["series"] else True
    _champion(record, rounds)


# -- quality figures ------------------------------------------------------------------------------


def quality(record: Mapping[str, Any]) -> dict[str, float]:
    """Figures tests bound: Swiss (two seats) floaters (pairs with unequal scores) and the worst
    seat-0 imbalance; Swiss tables repeat table-mates and the most first seats of one player."""
    figures: dict[str, float] = {}
    rounds = record["rounds"]
    if record["format"] == "swiss":
        players = seeded(record, _first_withdrawals(record))
        bye = record["options"].get("bye", "win")
        floaters = 0
        balance: Counter[Player] = Counter()
        worst = 0
        for index, rnd in enumerate(rounds):
            withdrawals = _withdrawals(rnd["known"]["withdrawals"])
            score = swiss_scores(rounds[:index], rnd["known"]["results"], withdrawals, players, bye)
            for s in rnd["series"]:
                a, b = s["seats"]
                floaters += score[a] != score[b]
                balance[a] += 1
                balance[b] -= 1
            worst = max([worst, *(abs(v) for v in balance.values())])
        figures.update(floaters=floaters, worst_seat_balance=worst)
    if record["format"] == "swiss_tables":
        firsts: Counter[Player] = Counter()
        total = by_rank = 0
        players = seeded(record, _first_withdrawals(record))
        rank_of = {p: i for i, p in enumerate(players)}
        for index, rnd in enumerate(rounds):
            met = table_mates(rounds[:index])
            total += repeats((s["seats"] for s in rnd["series"]), met)
            withdrawals = _withdrawals(rnd["known"]["withdrawals"])
            points = table_points(rounds[:index], rnd["known"]["results"], withdrawals)
            seated = sorted(
                (p for s in rnd["series"] for p in s["seats"]), key=lambda p: (-points.get(p, 0), rank_of[p])
            )
            start, home = 0, []
            for s in rnd["series"]:
                home.append(seated[start : start + len(s["seats"])])
                start += len(s["seats"])
            by_rank += repeats(home, met)
            firsts.update(s["seats"][0] for s in rnd["series"])
        figures.update(
            repeats=total, rank_order_repeats=by_rank, most_first_seats=max(firsts.values(), default=0)
        )
    return figures
