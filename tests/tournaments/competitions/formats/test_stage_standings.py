"""Standings of the formats beyond round robin (standings.stage_standings): the tiebreaks of
rules/tournaments.md "Standings and tiebreaks" worked out by hand, the "why above" explanation, and
round robin's standings unchanged by the shared computation (against the computation as it was)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import FormatKey
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.formats.round_robin import PlayerId, round_robin_schedule
from tournaments.competitions.series.fold import series_status
from tournaments.competitions.series.values import BEST_OF_3, GameOutcome
from tournaments.competitions.standings.chain import (
    ByeScore,
    SeriesRecord,
    Standings,
    StandingsError,
    StandingsErrorCode,
    Tiebreak,
    TiebreakValue,
    coin_flip_value,
    default_chain,
)
from tournaments.competitions.standings.chain import ranked_standings as _rank
from tournaments.competitions.standings.stage import round_robin_standings, stage_standings

T = Tiebreak
SNAP, SNAPSZER = GameKind.SNAP, GameKind.SNAPSZER


def decided(seats: Sequence[str], result: Sequence[int | None], round_number: int = 0) -> SeriesRecord:
    return SeriesRecord(tuple(seats), BEST_OF_3, (), result=tuple(result), round=round_number)


def standings(
    entrants: Sequence[str], records: Sequence[SeriesRecord], chain: Sequence[Tiebreak], **kwargs: object
) -> Standings:
    return stage_standings(entrants, records, game=SNAP, stage_seed="s", chain=chain, **kwargs)  # type: ignore[arg-type]


def values(table: Standings, tiebreak: Tiebreak) -> dict[object, TiebreakValue]:
    return {row.player: row.value(tiebreak) for row in table.rows}


SWISS = [  # three rounds of four players; the seat-0 player wins unless noted
    decided("AB", (1, 2), 1),
    decided("CD", (1, 2), 1),
    decided("AC", (1, 2), 2),
    decided("DB", (1, 2), 2),
    decided("AD", (1, 2), 3),
    decided("BC", (1, 1), 3),  # a draw: half a series each
]


def test_buchholz_median_buchholz_and_sonneborn_berger_by_hand() -> None:
    # series won: A 3, B 0 + ½ = ½, C 1 + ½ = 1½, D 1
    table = standings(
        "ABCD", SWISS, [T.SERIES_WON, T.BUCHHOLZ, T.MEDIAN_BUCHHOLZ, T.SONNEBORN_BERGER, T.COIN_FLIP]
    )
    assert values(table, T.SERIES_WON) == {"A": 3.0, "C": 1.5, "D": 1.0, "B": 0.5}
    # Buchholz: A: B ½ + C 1½ + D 1 = 3; B: A 3 + D 1 + C 1½ = 5½; C: D 1 + A 3 + B ½ = 4½;
    # D: C 1½ + B ½ + A 3 = 5
    assert values(table, T.BUCHHOLZ) == {"A": 3.0, "C": 4.5, "D": 5.0, "B": 5.5}
    # median: the best and the worst opponent dropped: A: C… only 1 (D); B: 1½ (C); C: 1 (D); D: 1½ (C)
    assert values(table, T.MEDIAN_BUCHHOLZ) == {"A": 1.0, "C": 1.0, "D": 1.5, "B": 1.5}
    # Sonneborn-Berger: beaten opponents' scores, half for a draw: A: ½ + 1½ + 1 = 3; C: D 1 + half
    # of B ½ = 1¼; D: B ½; B: half of C 1½ = ¾
    assert values(table, T.SONNEBORN_BERGER) == {"A": 3.0, "C": 1.25, "D": 0.5, "B": 0.75}
    assert [row.player for row in table.rows] == ["A", "C", "D", "B"]
    assert table.separated_by == (T.SERIES_WON, T.SERIES_WON, T.SERIES_WON)


def test_the_first_tiebreak_that_separates_is_named() -> None:
    # B and D both on 1 series won: D's opponents scored more (Buchholz)
    records = [decided("AB", (1, 2)), decided("CD", (1, 2)), decided("BC", (1, 2)), decided("DA", (1, 2))]
    table = standings("ABCD", records, [T.SERIES_WON, T.BUCHHOLZ, T.COIN_FLIP])
    # series won 1 each; Buchholz: A: B 1 + D 1 = 2; B: A + C = 2; C: D + B = 2; D: C + A = 2
    assert {row.value(T.SERIES_WON) for row in table.rows} == {1.0}
    assert set(table.separated_by) == {T.COIN_FLIP}  # nothing but the coin separates them
    order = sorted("ABCD", key=lambda p: coin_flip_value("s", p))
    assert [row.player for row in table.rows] == order


TABLES = [  # Swiss tables of 3: placement points 2, 1, 0
    decided("abc", (1, 2, 3), 1),
    decided("def", (1, 2, 3), 1),
    decided("adb", (2, 1, 3), 2),
    decided("cef", (1, 3, 2), 2),
]


def test_placement_points_firsts_average_placing_and_table_mates_points_by_hand() -> None:
    chain = [T.PLACEMENT_POINTS, T.TABLE_MATES_POINTS, T.FIRSTS, T.AVERAGE_PLACING, T.COIN_FLIP]
    table = standings("abcdef", TABLES, chain)
    assert values(table, T.PLACEMENT_POINTS) == {"d": 4, "a": 3, "c": 2, "b": 1, "e": 1, "f": 1}
    assert values(table, T.FIRSTS) == {"d": 2, "a": 1, "c": 1, "b": 0, "e": 0, "f": 0}
    assert values(table, T.AVERAGE_PLACING) == {"d": 1.0, "a": 1.5, "c": 2.0, "b": 2.5, "e": 2.5, "f": 2.5}
    # table-mates' points: b: a 3 + c 2, then a 3 + d 4 = 12; e: d 4 + f 1, then c 2 + f 1 = 8;
    # f: d 4 + e 1, then c 2 + e 1 = 8
    assert values(table, T.TABLE_MATES_POINTS) == {"d": 6, "a": 8, "c": 6, "b": 12, "e": 8, "f": 8}
    assert [row.player for row in table.rows][:4] == ["d", "a", "c", "b"]
    assert table.separated_by[:4] == (
        T.PLACEMENT_POINTS,
        T.PLACEMENT_POINTS,
        T.PLACEMENT_POINTS,
        T.TABLE_MATES_POINTS,
    )
    assert table.separated_by[4] is T.COIN_FLIP  # e and f: equal on everything else


def test_a_placement_scale_and_a_forfeit() -> None:
    records = [decided("abcd", (1, 2, None, 3))]  # c did not come: last, no points
    table = standings("abcd", records, [T.PLACEMENT_POINTS, T.AVERAGE_PLACING], placement_scale=[10, 6, 3])
    assert values(table, T.PLACEMENT_POINTS) == {"a": 10, "b": 6, "d": 3, "c": 0}
    assert values(table, T.AVERAGE_PLACING)["c"] == 4.0


def test_head_to_head_at_tables_is_the_finishing_order_in_shared_games() -> None:
    game_1 = GameOutcome((1, 2, 3))
    game_2 = GameOutcome((3, 1, 2))
    record = SeriesRecord(("a", "b", "c"), BEST_OF_3, (game_1, game_2), result=(1, 2, 3))
    other = decided("bcd", (1, 2, 3))
    table = standings("abcd", [record, other], [T.FIRSTS, T.HEAD_TO_HEAD, T.COIN_FLIP])
    # firsts: a 1, b 1 -> tied; in the games a and b shared, a was ahead once, b once -> coin
    assert table.rows[0].value(T.HEAD_TO_HEAD) == 1 and table.rows[1].value(T.HEAD_TO_HEAD) == 1


def test_depth_of_elimination() -> None:
    records = [decided("14", (1, 2), 1), decided("23", (1, 2), 1), decided("12", (2, 1), 2)]
    table = standings("1234", records, [T.DEPTH, T.SERIES_WON, T.COIN_FLIP])
    assert values(table, T.DEPTH) == {"2": 2, "1": 2, "3": 1, "4": 1}
    assert [row.player for row in table.rows][:2] == ["2", "1"]  # the final's winner won 2 series
    assert table.separated_by[:2] == (T.SERIES_WON, T.DEPTH)


def test_a_double_forfeit_counts_as_played_and_lost_by_both() -> None:
    table = standings("ab", [decided("ab", (None, None))], [T.SERIES_WON, T.PLACEMENT_POINTS])
    assert [(row.series_played, row.value(T.SERIES_WON)) for row in table.rows] == [(1, 0.0), (1, 0.0)]


def test_series_still_in_progress_are_left_out() -> None:
    open_series = SeriesRecord(("a", "b"), BEST_OF_3, (GameOutcome((1, 2)),))
    table = standings("ab", [open_series], [T.SERIES_WON])
    assert [(row.series_played, row.series_in_progress) for row in table.rows] == [(0, 1), (0, 1)]


@pytest.mark.parametrize(
    ("records", "code"),
    [
        ([decided("aZ", (1, 2))], StandingsErrorCode.SERIES_PLAYERS),
        ([decided("aa", (1, 2))], StandingsErrorCode.SERIES_PLAYERS),
        ([decided("ab", (1, 3))], StandingsErrorCode.INVALID_SERIES_RESULT),
        ([decided("ab", (1,))], StandingsErrorCode.INVALID_SERIES_RESULT),
    ],
)
def test_bad_series_are_refused(records: list[SeriesRecord], code: StandingsErrorCode) -> None:
    with pytest.raises(StandingsError) as exc:
        standings("ab", records, [T.SERIES_WON])
    assert exc.value.code is code


def test_every_formats_default_list_is_a_valid_chain() -> None:
    for key, fmt in FORMATS.items():
        for game in (SNAP, SNAPSZER):
            options: dict[str, object] = {"table_size": 4} if key is FormatKey.SINGLE_ELIMINATION else {}
            chain = fmt.default_tiebreaks(game, options)
            if key is FormatKey.ROUND_ROBIN:
                continue  # round robin keeps its own functions (and series placing at Snap tables)
            assert stage_standings(["a", "b"], [], game=game, stage_seed="s", chain=chain).chain == chain
    with pytest.raises(StandingsError):
        stage_standings(["a"], [], game=SNAP, stage_seed="s", chain=[T.SERIES_PLACING])


def test_round_robin_standings_keep_their_tiebreak_list() -> None:
    with pytest.raises(StandingsError) as exc:
        round_robin_standings(["a", "b"], [], game=SNAP, stage_seed="s", chain=[T.MEDIAN_BUCHHOLZ])
    assert "median_buchholz" not in exc.value.extra["allowed"]  # type: ignore[operator]


# -- round robin standings did not change --------------------------------------------------------


def reference_round_robin(
    players: Sequence[PlayerId],
    records: Sequence[SeriesRecord],
    *,
    game: GameKind,
    seed: str,
    chain: Sequence[Tiebreak],
    byes: Sequence[PlayerId],
    bye_score: ByeScore,
) -> Standings:
    """round_robin_standings' values as computed before stage_standings existed (the ranking,
    standings._rank, is the same function as then)."""
    bye_counts = Counter(byes)
    decided_records = []
    in_progress: Counter[PlayerId] = Counter()
    for record in records:
        status = series_status(record.length, 2, record.games, game=game, seed=record.seed)
        if status.decided:
            decided_records.append((record, status))
        else:
            in_progress.update(record.seats)
    won = {p: bye_counts[p] * bye_score.points for p in players}
    games: Counter[PlayerId] = Counter()
    sums: Counter[PlayerId] = Counter()
    difference: Counter[PlayerId] = Counter()
    played: Counter[PlayerId] = Counter()
    for record, status in decided_records:
        for seat, p in enumerate(record.seats):
            played[p] += 1
            won[p] += 1.0 if status.winner == seat else 0.0
            games[p] += status.games_won[seat]
            sums[p] += status.placing_sums[seat]
            difference[p] += status.game_points[seat] - status.game_points[1 - seat]
    buchholz = dict.fromkeys(players, 0.0)
    sonneborn = dict.fromkeys(players, 0.0)
    for record, status in decided_records:
        for seat, p in enumerate(record.seats):
            buchholz[p] += won[record.seats[1 - seat]]
            if status.winner == seat:
                sonneborn[p] += won[record.seats[1 - seat]]
    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]] = {
        T.SERIES_WON: lambda p: won[p],
        T.GAMES_WON: lambda p: games[p],
        T.PLACING_SUM: lambda p: sums[p],
        T.GAME_POINT_DIFFERENCE: lambda p: difference[p],
        T.BUCHHOLZ: lambda p: buchholz[p],
        T.SONNEBORN_BERGER: lambda p: sonneborn[p],
        T.COIN_FLIP: lambda p: coin_flip_value(seed, p),
    }

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, TiebreakValue] | None:
        meetings: Counter[frozenset[PlayerId]] = Counter()
        wins: Counter[PlayerId] = Counter()
        for record, status in decided_records:
            if set(record.seats) <= set(group):
                meetings[frozenset(record.seats)] += 1
                assert status.winner is not None
                wins[record.seats[status.winner]] += 1
        counts = {meetings[frozenset(pair)] for pair in combinations(group, 2)}
        if len(counts) != 1 or 0 in counts:
            return None
        return {p: wins[p] for p in group}

    return _rank(
        tuple(players),
        tuple(chain),
        own,
        head_to_head,
        extra=lambda p: (played[p], in_progress[p], bye_counts[p]),
    )


@settings(derandomize=True, database=None, deadline=None, max_examples=150)
@given(
    n=st.integers(2, 7),
    seed=st.integers(0, 10**6),
    game=st.sampled_from([SNAP, SNAPSZER]),
    bye_score=st.sampled_from(list(ByeScore)),
    double=st.booleans(),
)
def test_round_robin_standings_are_what_they_were(
    n: int, seed: int, game: GameKind, bye_score: ByeScore, double: bool
) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    records: list[SeriesRecord] = []
    byes: list[PlayerId] = []
    for rnd in round_robin_schedule(players, double=double):
        byes += [] if rnd.bye is None else [rnd.bye]
        for pairing in rnd.pairings:
            games = []
            wins = [0, 0]
            for _ in range(rng.randrange(4)):  # some series stay undecided
                if max(wins) == 2:
                    break
                winner = rng.randrange(2)
                wins[winner] += 1
                points = (rng.randrange(8), rng.randrange(8)) if game is SNAPSZER else None
                games.append(GameOutcome((1, 2) if winner == 0 else (2, 1), game_points=points))
            records.append(SeriesRecord(pairing.seats, BEST_OF_3, tuple(games)))
    chain = list(default_chain(game))
    extra = [T.BUCHHOLZ, T.SONNEBORN_BERGER]
    rng.shuffle(extra)
    chain = [*chain[:1], *extra[: rng.randrange(3)], *chain[1:]]
    got = round_robin_standings(
        players, records, game=game, stage_seed="s", chain=chain, byes=byes, bye_score=bye_score
    )
    expected = reference_round_robin(
        players, records, game=game, seed="s", chain=chain, byes=byes, bye_score=bye_score
    )
    assert got == expected
