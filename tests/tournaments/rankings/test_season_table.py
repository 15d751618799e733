"""The season table's pure function: placings -> points, best N, count-back, head-to-head, and a
tournament's final placings from its stages (tournaments/rankings/seasons/table.py, docs/seasons.md)."""

from __future__ import annotations

import pytest

from tournaments.rankings.seasons.table import (
    DEFAULT_SCALE,
    StageStandings,
    TournamentPlacings,
    final_placings,
    points_for,
    scale_problem,
    season_table,
)


def t(name: str, *order: str, provisional: bool = False) -> TournamentPlacings:
    """A tournament whose players finished in ``order`` (1st first)."""
    return TournamentPlacings(name, {p: i for i, p in enumerate(order, start=1)}, provisional)


def by_player(table: object) -> dict[str, object]:
    return {row.player: row for row in table.rows}  # type: ignore[attr-defined]


# --- points per placing ------------------------------------------------------------------------


@pytest.mark.parametrize(("place", "points"), [(1, 25), (2, 18), (3, 15), (10, 1), (11, 0), (40, 0)])
def test_default_scale_points(place: int, points: int) -> None:
    assert points_for(place, DEFAULT_SCALE) == points


def test_points_add_up_over_tournaments() -> None:
    table = season_table([t("A", "ann", "bob", "cy"), t("B", "bob", "ann")])
    rows = by_player(table)
    assert rows["ann"].points == 25 + 18
    assert rows["bob"].points == 18 + 25
    assert rows["cy"].points == 15
    assert [r.player for r in table.rows][-1] == "cy"


def test_custom_scale_and_places_beyond_it_score_nothing() -> None:
    table = season_table([t("A", "ann", "bob", "cy", "dan")], scale=[3, 1])
    assert [(r.player, r.points) for r in table.rows] == [("ann", 3), ("bob", 1), ("cy", 0), ("dan", 0)]
    # Beyond the scale they still rank by their places (count-back).
    assert table.rows[3].separated_by == "places_3"


def test_shared_placing_scores_that_placings_points() -> None:
    shared = TournamentPlacings("A", {"ann": 1, "bob": 1, "cy": 3})
    rows = by_player(season_table([shared]))
    assert rows["ann"].points == rows["bob"].points == 25
    assert rows["cy"].points == 15


# --- best N -----------------------------------------------------------------------------------


def test_best_n_counts_only_the_best_results() -> None:
    tournaments = [t("A", "ann", "bob"), t("B", "bob", "ann"), t("C", "bob", "ann"), t("D", "ann")]
    table = season_table(tournaments, best_of=2)
    rows = by_player(table)
    assert rows["ann"].points == 25 + 25  # A and D; B and C (18 each) dropped
    assert rows["bob"].points == 25 + 25
    assert [r.counted for r in rows["ann"].results] == [True, False, False, True]
    assert rows["ann"].played == 4 and rows["ann"].counted == 2


def test_best_n_drops_the_later_of_equal_results() -> None:
    rows = by_player(season_table([t("A", "x", "ann"), t("B", "y", "ann"), t("C", "z", "ann")], best_of=2))
    assert [r.counted for r in rows["ann"].results] == [True, True, False]


def test_blank_best_n_counts_everything() -> None:
    tournaments = [t(str(i), "ann", "bob") for i in range(5)]
    assert by_player(season_table(tournaments))["bob"].points == 5 * 18
    assert by_player(season_table(tournaments, best_of=3))["bob"].points == 3 * 18


def test_best_n_larger_than_played_counts_all() -> None:
    assert by_player(season_table([t("A", "ann")], best_of=10))["ann"].points == 25


# --- ties ---------------------------------------------------------------------------------------


def test_countback_more_wins_first() -> None:
    scale = [6, 4, 2]
    tournaments = [t("A", "cy", "x", "dan"), t("B", "x", "dan", "cy"), t("C", "x", "dan", "cy")]
    # cy: 6 + 2 + 2 = 10; dan: 2 + 4 + 4 = 10: level; cy has a win, dan none.
    rows = by_player(season_table(tournaments, scale=scale))
    assert rows["cy"].points == rows["dan"].points == 10
    assert rows["cy"].position < rows["dan"].position
    assert rows["dan"].separated_by == "places_1"
    assert rows["cy"].wins == 1 and rows["dan"].wins == 0


def test_countback_then_more_second_places() -> None:
    tournaments = [
        TournamentPlacings("A", {"ann": 1, "bob": 3}),
        TournamentPlacings("B", {"bob": 1, "ann": 2}),
        TournamentPlacings("C", {"ann": 4, "bob": 3}),
    ]
    # ann 6 + 4 + 2 = 12, bob 3 + 6 + 3 = 12: one win each, ann has a 2nd place, bob none.
    rows = by_player(season_table(tournaments, scale=[6, 4, 3, 2]))
    assert rows["ann"].points == rows["bob"].points == 12
    assert rows["ann"].countback == (1, 1, 0, 1) and rows["bob"].countback == (1, 0, 2, 0)
    assert rows["ann"].position == 1 and rows["bob"].separated_by == "places_2"


def test_a_three_way_cycle_is_a_shared_rank() -> None:
    tournaments = [
        TournamentPlacings("A", {"ann": 1, "x": 2, "bob": 3}),
        TournamentPlacings("B", {"bob": 1, "ann": 2, "x": 3}),
        TournamentPlacings("C", {"x": 1, "bob": 2, "ann": 3}),
    ]
    # Each 6 + 4 + 3 = 13 with one 1st, one 2nd, one 3rd; each beat each other as often as not.
    table = season_table(tournaments, scale=[6, 4, 3])
    assert [(r.player, r.points, r.rank, r.head_to_head) for r in table.rows] == [
        ("ann", 13, 1, 0),
        ("bob", 13, 1, 0),
        ("x", 13, 1, 0),
    ]
    assert [r.separated_by for r in table.rows] == ["", "", ""]


def test_head_to_head_breaks_a_countback_tie() -> None:
    scale = [5, 3, 1]
    tournaments = [
        TournamentPlacings("A", {"ann": 1, "bob": 2}),
        TournamentPlacings("B", {"bob": 1, "x": 2}),
        TournamentPlacings("C", {"x": 1, "ann": 2}),
        TournamentPlacings("D", {"ann": 2, "bob": 3, "x": 1}),
        TournamentPlacings("E", {"bob": 2, "x": 1}),
        TournamentPlacings("F", {"ann": 3, "x": 1}),
    ]
    rows = by_player(season_table(tournaments, scale=scale))
    # ann: 5 + 3 + 3 + 1 = 12 (one 1st, two 2nds, one 3rd); bob: 3 + 5 + 1 + 3 = 12 (same).
    assert rows["ann"].points == rows["bob"].points == 12
    assert rows["ann"].countback == rows["bob"].countback
    # They met in A (ann ahead) and D (ann ahead): ann +2, bob −2.
    assert rows["ann"].head_to_head == 2 and rows["bob"].head_to_head == -2
    assert rows["ann"].position < rows["bob"].position
    assert rows["bob"].separated_by == "head_to_head"
    assert rows["x"].head_to_head is None  # tied with nobody


def test_truly_level_players_share_the_rank_in_name_order() -> None:
    tournaments = [TournamentPlacings("A", {"zoe": 1, "x": 3}), TournamentPlacings("B", {"abe": 1})]
    table = season_table(tournaments)
    assert [(r.player, r.rank, r.position) for r in table.rows] == [("abe", 1, 1), ("zoe", 1, 2), ("x", 3, 3)]
    assert table.rows[1].separated_by == ""
    # Another name order puts the other first, with the same ranks.
    named = season_table(tournaments, name=lambda p: {"zoe": "a", "abe": "b", "x": "c"}[str(p)])
    assert [r.player for r in named.rows][:2] == ["zoe", "abe"]


def test_countback_uses_counted_results_only() -> None:
    # bob's dropped win (best 1) does not count in the count-back either.
    tournaments = [
        TournamentPlacings("A", {"ann": 1, "bob": 2}),
        TournamentPlacings("B", {"bob": 1, "ann": 2}),
    ]
    rows = by_player(season_table(tournaments, best_of=1))
    assert rows["ann"].countback == (1, 0) and rows["bob"].countback == (1, 0)


# --- provisional ----------------------------------------------------------------------------------


def test_provisional_results_count_and_are_marked() -> None:
    table = season_table([t("A", "ann", "bob"), t("B", "bob", "ann", provisional=True)], best_of=1)
    rows = by_player(table)
    assert rows["bob"].points == 25
    assert rows["bob"].provisional  # bob's counted result is his win in B, which runs
    assert not rows["ann"].provisional  # ann's counted result is A's win
    assert table.provisional


# --- scale checks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "problem"),
    [
        ([], "empty"),
        ([3, 5], "increasing"),
        ([0, 0], "no_points"),
        ([5, -1], "not_whole"),
        ([5, 2.5], "not_whole"),
        ([True], "not_whole"),
        ([5, "3"], "not_whole"),
        ([1001], "not_whole"),
        (list(range(65, 0, -1)), "too_long"),
        ([25, 18, 15, 12, 10, 8, 6, 4, 2, 1], None),
        ([3, 3, 0], None),
    ],
)
def test_scale_problem(scale: list[object], problem: str | None) -> None:
    assert scale_problem(scale) == problem


def test_a_bad_scale_or_best_of_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        season_table([], scale=[1, 2])
    with pytest.raises(ValueError):
        season_table([], best_of=0)


# --- a tournament's final placings ---------------------------------------------------------------


def test_final_placings_last_stage_first_then_earlier_stages() -> None:
    groups = StageStandings(rows=[("a", 0, 1), ("b", 0, 2), ("c", 0, 3), ("d", 0, 4), ("e", 0, 5)])
    playoff = StageStandings(rows=[("c", 0, 1), ("a", 0, 2), ("b", 0, 3)], champion="a")
    assert final_placings([groups, playoff]) == {"a": 1, "c": 2, "b": 3, "d": 4, "e": 5}


def test_final_placings_parallel_tables_share_places() -> None:
    tables = StageStandings(rows=[("a", 1, 1), ("b", 1, 2), ("c", 2, 1), ("d", 2, 2), ("e", 2, 3)])
    assert final_placings([tables]) == {"a": 1, "c": 1, "b": 3, "d": 3, "e": 5}


def test_final_placings_shared_rank_and_empty_stages() -> None:
    shared = StageStandings(rows=[("a", 0, 1), ("b", 0, 1), ("c", 0, 3)])
    assert final_placings([shared, StageStandings(rows=[])]) == {"a": 1, "b": 1, "c": 3}
    assert final_placings([]) == {}


def test_final_placings_champion_is_first_whatever_the_standings_say() -> None:
    # A double elimination: the losers' champion won more series, the champion won the reset.
    stage = StageStandings(rows=[("loser", 0, 1), ("champ", 0, 2), ("third", 0, 3)], champion="champ")
    assert final_placings([stage]) == {"champ": 1, "loser": 2, "third": 3}
