"""Standings by the round-robin tiebreak chain (rules/tournaments.md "Standings and tiebreaks").

Expected orders are worked out by hand in the comments; coin-flip orders come from
sha256("<stage seed>|<player>") computed separately (hex prefixes noted where used).
"""

import hashlib
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId, round_robin_schedule
from tournaments.competitions.series.values import BEST_OF_3, GameOutcome, SeriesLength
from tournaments.competitions.standings.chain import (
    ByeScore,
    SeriesRecord,
    Standings,
    StandingsError,
    StandingsErrorCode,
    Tiebreak,
    default_chain,
)
from tournaments.competitions.standings.stage import round_robin_standings
from tournaments.competitions.standings.tables import table_standings

SW, GW, H2H, PS, GPD, COIN = (
    Tiebreak.SERIES_WON,
    Tiebreak.GAMES_WON,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.PLACING_SUM,
    Tiebreak.GAME_POINT_DIFFERENCE,
    Tiebreak.COIN_FLIP,
)


def series(first: str, second: str, score: str, length: SeriesLength = BEST_OF_3) -> SeriesRecord:
    """A two-seat Snap series; ``score`` is the games in order from ``first``'s side: "WLW"."""
    games = tuple(GameOutcome((1, 2) if c == "W" else (2, 1) if c == "L" else (1, 1)) for c in score)
    return SeriesRecord((first, second), length, games)


def order(standings: Standings) -> list[object]:
    return [row.player for row in standings.rows]


def snap(
    entrants: list[str],
    records: list[SeriesRecord],
    seed: str = "stage-1",
    *,
    chain: Sequence[Tiebreak | str] | None = None,
    byes: Sequence[str] = (),
    bye_score: ByeScore = ByeScore.WIN,
) -> Standings:
    return round_robin_standings(
        entrants, records, game=GameKind.SNAP, stage_seed=seed, chain=chain, byes=byes, bye_score=bye_score
    )


def test_default_chains_follow_the_rules_file() -> None:
    assert default_chain(GameKind.SNAP) == (SW, GW, H2H, PS, COIN)
    assert default_chain(GameKind.SNAPSZER) == (SW, GW, H2H, GPD, COIN)
    assert default_chain(GameKind.SNAP, tables=True)[0] is Tiebreak.SERIES_PLACING


def test_series_won_then_games_won_then_head_to_head() -> None:
    records = [
        series("A", "B", "WW"),
        series("C", "D", "WLW"),
        series("A", "C", "WLW"),
        series("B", "D", "WW"),
        series("D", "A", "WW"),
        series("B", "C", "WW"),
    ]
    # series won: A 2, B 2, C 1, D 1; games won: A 2+2+0=4, B 0+2+2=4, C 2+1+0=3, D 1+0+2=3
    standings = snap(["D", "C", "B", "A"], records)
    assert order(standings) == ["A", "B", "C", "D"]
    assert standings.separated_by == (H2H, SW, H2H)  # A beat B; C beat D
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]
    a = standings.rows[0]
    assert (a.value(SW), a.value(GW), a.value(H2H), a.value(PS)) == (2.0, 4, 1, 2 + 4 + 4)
    assert a.series_played == 3 and a.series_in_progress == 0
    assert standings.rows[1].value(H2H) == 0
    assert a.value(COIN) == hashlib.sha256(b"stage-1|A").hexdigest()


def test_head_to_head_is_among_all_players_still_tied() -> None:
    # A beats B 2-1, B beats C, C beats A, everyone beats D 2-0: series won 2 each for A, B, C.
    # games won: A 2+0+2=4, B 1+2+2=5, C 0+2+2=4 -> B first; A and C still tied: C beat A.
    records = [
        series("A", "B", "WLW"),
        series("B", "C", "WW"),
        series("C", "A", "WW"),
        series("A", "D", "WW"),
        series("B", "D", "WW"),
        series("C", "D", "WW"),
    ]
    standings = snap(["A", "B", "C", "D"], records)
    assert order(standings) == ["B", "C", "A", "D"]
    assert standings.separated_by == (GW, H2H, SW)
    assert standings.rows[0].value(H2H) is None  # B was never tied at head-to-head: not applied


def test_a_head_to_head_cycle_does_not_separate_and_falls_through_to_the_coin() -> None:
    # A>B, B>C, C>A all 2-0, everyone beats D: equal series, games, mini-table (1 each), placing sums.
    records = [series("A", "B", "WW"), series("B", "C", "WW"), series("C", "A", "WW")]
    records += [series(p, "D", "WW") for p in "ABC"]
    standings = snap(["A", "B", "C", "D"], records, seed="stage-1")
    # sha256("stage-1|A") = 18530b..., "|C" = f6dbe7..., "|B" = fb4fdb...: A, C, B
    assert order(standings) == ["A", "C", "B", "D"]
    assert standings.separated_by == (COIN, COIN, SW)
    assert [row.value(H2H) for row in standings.rows[:3]] == [1, 1, 1]
    assert [row.value(PS) for row in standings.rows[:3]] == [8, 8, 8]
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]  # nobody truly tied with the coin last


def test_head_to_head_needs_every_tied_pair_to_have_met() -> None:
    # A and C are level (one 2-0 win each) but have not met: head-to-head is not applied.
    records = [series("A", "B", "WW"), series("C", "D", "WW")]
    standings = snap(["A", "B", "C", "D"], records, seed="stage-2")
    top = standings.rows[:2]
    assert [row.value(H2H) for row in top] == [None, None]
    assert order(standings)[:2] == ["A", "C"]  # sha256("stage-2|A") = 9b2a6b... < "|C" b19fc1...
    assert standings.separated_by[0] is COIN


def test_truly_tied_players_share_a_rank_without_the_coin() -> None:
    records = [series("A", "B", "WW"), series("C", "D", "WW")]
    standings = snap(["A", "B", "C", "D"], records, chain=[SW, GW, H2H, PS])
    assert [row.rank for row in standings.rows] == [1, 1, 3, 3]
    assert standings.separated_by == (None, SW, None)
    assert order(standings) == ["A", "C", "B", "D"]  # ties keep the entrants' order


@pytest.mark.parametrize(
    ("score", "value"), [(ByeScore.WIN, 1.0), (ByeScore.DRAW, 0.5), (ByeScore.NOTHING, 0.0)]
)
def test_a_bye_scores_as_configured(score: ByeScore, value: float) -> None:
    standings = snap(["A", "B", "C"], [series("B", "C", "WW")], byes=["A"], bye_score=score)
    a = next(row for row in standings.rows if row.player == "A")
    assert a.value(SW) == value and a.value(GW) == 0 and a.byes == 1


def test_a_bye_as_a_win_ranks_with_a_series_won() -> None:
    # B won its series 2-0 (2 games); A has a bye (a series won, no games): B above A on games won.
    standings = snap(["A", "B", "C"], [series("B", "C", "WW")], byes=["A"])
    assert order(standings) == ["B", "A", "C"] and standings.separated_by == (GW, SW)


def test_series_in_progress_are_left_out() -> None:
    standings = snap(["A", "B"], [series("A", "B", "W")])
    assert all(row.value(SW) == 0.0 and row.value(GW) == 0 for row in standings.rows)
    assert [row.series_in_progress for row in standings.rows] == [1, 1]


def test_snapszer_game_point_difference() -> None:
    def match(first: str, second: str, points: tuple[tuple[int, int], ...]) -> SeriesRecord:
        games = tuple(GameOutcome((1, 2) if a > b else (2, 1), game_points=(a, b)) for a, b in points)
        return SeriesRecord((first, second), BEST_OF_3, games)

    # A and B each win one series 2-0 against C/D and lose none between them yet:
    # A: (7-0, 7-1) -> +13; B: (7-5, 8-6) -> +4. Equal on series, games, no head-to-head.
    records = [match("A", "C", ((7, 0), (7, 1))), match("D", "B", ((5, 7), (6, 8)))]
    standings = round_robin_standings(["B", "A", "C", "D"], records, game=GameKind.SNAPSZER, stage_seed="s")
    assert order(standings)[:2] == ["A", "B"] and standings.separated_by[0] is GPD
    assert [standings.rows[0].value(GPD), standings.rows[1].value(GPD)] == [13, 4]


def test_buchholz_and_sonneborn_berger() -> None:
    # A beat B, B beat C; C beat D. Series won: A 1, B 1, C 1, D 0.
    records = [series("A", "B", "WW"), series("B", "C", "WW"), series("C", "D", "WW")]
    chain = [SW, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER]
    standings = snap(["A", "B", "C", "D"], records, chain=chain)
    values = {
        row.player: (row.value(Tiebreak.BUCHHOLZ), row.value(Tiebreak.SONNEBORN_BERGER))
        for row in standings.rows
    }
    # Buchholz: A: B's 1; B: A's 1 + C's 1 = 2; C: B's 1 + D's 0 = 1. SB: A 1 (beat B), B 1 (beat C), C 0.
    assert values == {"A": (1.0, 1.0), "B": (2.0, 1.0), "C": (1.0, 0.0), "D": (1.0, 0.0)}
    assert order(standings) == ["B", "A", "C", "D"]
    assert standings.separated_by == (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, SW)


@pytest.mark.parametrize(
    "chain",
    [[Tiebreak.SERIES_PLACING], [SW, SW], [GPD], ["no_such_tiebreak"]],
)
def test_a_chain_that_does_not_apply_is_refused(chain: list[str]) -> None:
    with pytest.raises(StandingsError) as exc:
        snap(["A", "B"], [], chain=chain)
    assert exc.value.code == StandingsErrorCode.INVALID_CHAIN


def test_a_chain_may_name_tiebreaks_by_their_stored_strings() -> None:
    standings = snap(["A", "B"], [series("A", "B", "WW")], chain=["series_won", "coin_flip"])
    assert standings.chain == (SW, COIN) and order(standings) == ["A", "B"]


def test_unknown_players_and_broken_series_are_refused() -> None:
    with pytest.raises(StandingsError) as exc:
        snap(["A", "B"], [series("A", "Z", "WW")])
    assert exc.value.code == StandingsErrorCode.SERIES_SEATS
    assert exc.value.extra == {"series": 0, "players": ["A", "Z"]}
    with pytest.raises(StandingsError) as exc:
        snap(["A", "B"], [], byes=["Z"])
    assert exc.value.code == StandingsErrorCode.UNKNOWN_PLAYER
    with pytest.raises(StandingsError) as exc:
        snap(["A", "A"], [])
    assert exc.value.code == StandingsErrorCode.DUPLICATE_ENTRANT
    with pytest.raises(StandingsError) as exc:
        snap(["A", "B"], [series("A", "B", "WWL")])  # a game after the series was decided
    assert exc.value.code == StandingsErrorCode.INVALID_SERIES
    assert exc.value.extra == {
        "series": 0,
        "series_code": "series_decided",
        "game_index": 2,
        "players": ["A", "B"],
    }


# -- Snap tables ---------------------------------------------------------------------------------


def test_table_standings_follow_the_series_placings() -> None:
    games = (
        GameOutcome((1, 2, 3, 4)),
        GameOutcome((2, 1, 4, 3)),
        GameOutcome((3, 4, 1, 2)),
        GameOutcome((2, 1, 2, None), sudden_death=True),
    )
    standings = table_standings(SeriesRecord(("p0", "p1", "p2", "p3"), BEST_OF_3, games), stage_seed="t")
    # S43 placings (2, 1, 3, 4), as checked in test_series
    assert order(standings) == ["p1", "p0", "p2", "p3"]
    assert standings.separated_by == (Tiebreak.SERIES_PLACING,) * 3
    assert [row.value(Tiebreak.SERIES_PLACING) for row in standings.rows] == [1, 2, 3, 4]
    assert standings.rows[0].value(GW) == 2  # one normal game and the sudden-death game


def test_table_head_to_head_is_the_finishing_order_in_shared_games() -> None:
    # best of 3, seat 0 wins twice; seats 1 and 2 share placing 2 (sums 5 and 5), 1-1 between them
    games = (GameOutcome((1, 2, 3)), GameOutcome((1, 3, 2)))
    standings = table_standings(SeriesRecord((0, 1, 2), BEST_OF_3, games), stage_seed="t")
    assert [row.value(H2H) for row in standings.rows[1:]] == [1, 1]
    # sha256("t|2") = 2a3b4e... < sha256("t|1") = a63d7b...
    assert order(standings) == [0, 2, 1] and standings.separated_by == (Tiebreak.SERIES_PLACING, COIN)


def test_table_standings_before_the_series_ends_are_provisional() -> None:
    games = (GameOutcome((2, 1, 3)),)
    standings = table_standings(SeriesRecord(("a", "b", "c"), BEST_OF_3, games), stage_seed="t")
    assert [row.value(Tiebreak.SERIES_PLACING) for row in standings.rows] == [None, None, None]
    assert order(standings)[0] == "b" and standings.separated_by[0] is GW
    assert all(row.series_in_progress == 1 for row in standings.rows)


def test_table_chain_refuses_two_seat_tiebreaks() -> None:
    table = SeriesRecord(("a", "b", "c"), BEST_OF_3, ())
    with pytest.raises(StandingsError):
        table_standings(table, stage_seed="t", chain=[SW])


# -- properties ----------------------------------------------------------------------------------


def _random_stage(
    rng: random.Random, n: int, game: GameKind
) -> tuple[list[str], list[SeriesRecord], list[PlayerId]]:
    players = [f"p{i}" for i in range(n)]
    records: list[SeriesRecord] = []
    byes: list[PlayerId] = []
    for rnd in round_robin_schedule(players):
        if rnd.bye is not None:
            byes.append(rnd.bye)
        for pairing in rnd.pairings:
            games: list[GameOutcome] = []
            for _ in range(rng.randint(0, 3)):  # 0-3 games: some series stay in progress
                first_wins = rng.random() < 0.5
                points = (rng.randint(0, 8), rng.randint(0, 8)) if game is GameKind.SNAPSZER else None
                games.append(GameOutcome((1, 2) if first_wins else (2, 1), game_points=points))
                wins = [sum(1 for g in games if g.winner == s) for s in (0, 1)]
                if max(wins) == 2:
                    break
            records.append(SeriesRecord(pairing.seats, BEST_OF_3, tuple(games)))
    return players, records, byes


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.sampled_from(GameKind), st.integers(0, 10**6), st.booleans())
def test_property_rows_are_ordered_by_the_chain_they_record(
    n: int, game: GameKind, seed: int, coin: bool
) -> None:
    rng = random.Random(seed)
    players, records, byes = _random_stage(rng, n, game)
    chain = list(default_chain(game)) if coin else list(default_chain(game))[:-1]
    standings = round_robin_standings(
        players, records, game=game, stage_seed=str(seed), chain=chain, byes=byes
    )
    assert sorted(str(row.player) for row in standings.rows) == sorted(players)
    for index, (upper, lower) in enumerate(zip(standings.rows, standings.rows[1:], strict=False)):
        reason = standings.separated_by[index]
        if reason is None:
            assert upper.rank == lower.rank and upper.values == lower.values
            continue
        assert lower.rank == index + 2 and upper.rank <= lower.rank
        position = standings.chain.index(reason)
        assert upper.values[:position] == lower.values[:position]
        a, b = upper.value(reason), lower.value(reason)
        assert a is not None and b is not None
        assert (a > b) if reason.higher_is_better else (a < b)  # type: ignore[operator]
    if coin:
        assert None not in standings.separated_by
        assert [row.rank for row in standings.rows] == list(range(1, n + 1))
    # the same results listed in another order give the same standings
    shuffled = list(records)
    rng.shuffle(shuffled)
    again = round_robin_standings(
        list(reversed(players)), shuffled, game=game, stage_seed=str(seed), chain=chain, byes=byes
    )
    if coin:
        assert again == standings
    else:
        assert [row.values for row in again.rows] == [row.values for row in standings.rows]


def test_row_values_are_ready_to_store() -> None:
    row = snap(["A", "B"], [series("A", "B", "WW")]).rows[0]
    assert list(row.values_dict()) == ["series_won", "games_won", "head_to_head", "placing_sum", "coin_flip"]
    assert row.values_dict()["games_won"] == 2
