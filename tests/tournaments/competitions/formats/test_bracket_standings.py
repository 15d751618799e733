"""Elimination standings follow the bracket (issue 23, item 2; docs/formats.md "Standings of a
bracket"): the champion first, the runner-up second, the third-place series' winner and loser next,
then everyone by the round they went out in; the tiebreaks only order players out in the same round.

Stages are played with the pure formats (``play_out``) and ranked by the format's own ``standings``
from the records the Django side builds (``tournaments.competitions.outcomes``: one per series played, with its
round and phase; walkovers left out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from tests.tournaments.competitions.formats.examples import SNAP, decide, play_out, publish, state
from tournaments.competitions.formats.base import FormatKey, Phase, PlannedSeries, StageState
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.series.values import BEST_OF_3, GameOutcome
from tournaments.competitions.standings.chain import FinishHow, SeriesRecord, Standings, Tiebreak
from tournaments.competitions.standings.stage import stage_standings

K = FormatKey


def records(stage: StageState, lost_games: Mapping[str, int] | None = None) -> list[tuple[int, SeriesRecord]]:
    """The stage's played series as the standings read them. Each series is won 2-0 unless
    ``lost_games`` gives the games its winner dropped (a best of 3: at most 1)."""
    lost_games = lost_games or {}
    built: list[tuple[int, SeriesRecord]] = []
    for rnd in stage.rounds:
        for series in rnd.series:
            if series.walkover or len(series.players) < 2:
                continue
            result = stage.results[series.key].placings
            seats = series.players
            by_player = {
                player: result[seat] for seat, player in enumerate(series.seats) if player is not None
            }
            winner = next(p for p in seats if by_player[p] == 1)
            loser = next(p for p in seats if p != winner)
            games = [GameOutcome(tuple(1 if p == loser else 2 for p in seats))] * lost_games.get(
                series.key, 0
            )
            games += [GameOutcome(tuple(1 if p == winner else 2 for p in seats))] * 2
            record = SeriesRecord(
                seats,
                BEST_OF_3,
                tuple(games),
                result=tuple(by_player[p] for p in seats),
                round=rnd.number,
                phase=str(series.phase),
            )
            built.append((series.table, record))
    return built


def ranked(stage: StageState, key: FormatKey, chain: tuple[str, ...] = (), **kwargs: object) -> Standings:
    fmt = FORMATS[key]
    (_group, table), *_rest = fmt.standings(
        stage.entrants,
        records(stage, **kwargs),  # type: ignore[arg-type]
        game=SNAP,
        options=stage.options,
        stage_seed=stage.seed,
        chain=chain,
    )
    return table


def by_seed(order: list[int]) -> Callable[[PlannedSeries], int]:
    """Seat of the player earliest in ``order`` (who wins the series)."""
    rank = {p: i for i, p in enumerate(order)}
    return lambda s: min(range(len(s.seats)), key=lambda seat: rank.get(s.seats[seat], 999))  # type: ignore[arg-type]


def series_of(stage: StageState, key: str) -> PlannedSeries:
    return next(s for r in stage.rounds for s in r.series if s.key == key)


def out_round(stage: StageState) -> dict[PlayerId, int]:
    """The stage round of each player's last series played (a bye is not played)."""
    last: dict[PlayerId, int] = {}
    for rnd in stage.rounds:
        for s in rnd.series:
            if not s.walkover:
                for p in s.players:
                    last[p] = rnd.number
    return last


def test_thirteen_player_single_elimination_champion_with_fewer_games_is_first() -> None:
    """The outside run: 13 players; the champion had a bye and won 6 games, the runner-up played
    round 1 and won 7 (lost the final 1-2). By games won the runner-up was first."""
    # Seeds 1-3 have byes. Seed 4 beats seed 1 in the semi-final and loses the final to seed 2.
    order = [2, 4, 1, 3, *range(5, 14)]
    stage = play_out(state(K.SINGLE_ELIMINATION, range(1, 14)), K.SINGLE_ELIMINATION, by_seed(order))
    final = series_of(stage, "W4-1")
    assert set(final.players) == {2, 4}
    champion = FORMATS[K.SINGLE_ELIMINATION].champion(stage)  # type: ignore[attr-defined]
    assert champion == 2
    table = ranked(stage, K.SINGLE_ELIMINATION, lost_games={"W4-1": 1})
    games = {row.player: row.value(Tiebreak.GAMES_WON) for row in table.rows}
    assert (games[2], games[4]) == (6, 7)
    assert [row.player for row in table.rows[:2]] == [2, 4]
    assert [row.rank for row in table.rows[:2]] == [1, 2]
    assert table.separated_by[0] is Tiebreak.FINISH
    assert table.rows[0].finish_how is FinishHow.IN and table.rows[1].finish_how is FinishHow.OUT
    # Then by the round of elimination, later first; the tiebreaks only inside a round.
    rounds = out_round(stage)
    below = [rounds[row.player] for row in table.rows[2:]]
    assert below == sorted(below, reverse=True)
    finish = {row.player: row.value(Tiebreak.FINISH) for row in table.rows}
    assert finish[2] == 1 and finish[4] == 2
    assert {finish[p] for p in (1, 3)} == {3}  # the semi-final losers share 3rd (no third-place series)
    assert {finish[p] for p, r in rounds.items() if r == 2} == {5}
    assert {finish[p] for p, r in rounds.items() if r == 1} == {9}
    # The old chain (depth first, then series and games won) put the runner-up first.
    old = stage_standings(
        stage.entrants,
        [record for _table, record in records(stage, lost_games={"W4-1": 1})],
        game=SNAP,
        stage_seed=stage.seed,
        chain=(
            Tiebreak.DEPTH,
            Tiebreak.SERIES_WON,
            Tiebreak.GAMES_WON,
            Tiebreak.PLACING_SUM,
            Tiebreak.COIN_FLIP,
        ),
    )
    assert [row.player for row in old.rows[:2]] == [4, 2]


def test_the_organisers_tiebreaks_come_after_the_finish() -> None:
    order = [2, 4, 1, 3, *range(5, 14)]
    stage = play_out(state(K.SINGLE_ELIMINATION, range(1, 14)), K.SINGLE_ELIMINATION, by_seed(order))
    table = ranked(stage, K.SINGLE_ELIMINATION, chain=("games_won", "coin_flip"), lost_games={"W4-1": 1})
    assert table.chain == (Tiebreak.FINISH, Tiebreak.GAMES_WON, Tiebreak.COIN_FLIP)
    assert [row.player for row in table.rows[:2]] == [2, 4]
    # Inside a round the organiser's tiebreak decides: the round-1 losers by games won (all 0), coin.
    fmt = FORMATS[K.SINGLE_ELIMINATION]
    assert Tiebreak.FINISH in fmt.tiebreak_choices(SNAP, {})
    assert Tiebreak.FINISH not in FORMATS[K.SWISS].tiebreak_choices(SNAP, {})
    assert Tiebreak.FINISH not in FORMATS[K.HEATS].tiebreak_choices(SNAP, {})


def test_third_place_series_winner_is_third_and_its_loser_fourth() -> None:
    """5 players: seeds 1-3 have byes; seed 4 wins round 1, loses the semi, wins the third-place
    series (2 series won), the runner-up (seed 2) won only its semi-final (1)."""
    stage = state(K.SINGLE_ELIMINATION, range(1, 6), third_place=True)
    stage = play_out(stage, K.SINGLE_ELIMINATION, by_seed([1, 2, 4, 3, 5]))
    assert set(series_of(stage, "3P").players) == {3, 4}
    table = ranked(stage, K.SINGLE_ELIMINATION)
    assert [row.player for row in table.rows] == [1, 2, 4, 3, 5]
    assert [row.rank for row in table.rows] == [1, 2, 3, 4, 5]
    series_won = {row.player: row.value(Tiebreak.SERIES_WON) for row in table.rows}
    assert series_won[4] > series_won[2]
    assert [row.finish_how for row in table.rows[2:4]] == [FinishHow.THIRD_PLACE] * 2


def _double(reset_needed: bool, reset_winner: int | None = None) -> StageState:
    """8 players, double elimination. Seed 1 wins the winners' bracket; seed 2 (winners' final
    loser) wins the losers' bracket; the grand final as asked."""
    stage = state(K.DOUBLE_ELIMINATION, range(1, 9))
    fmt = FORMATS[K.DOUBLE_ELIMINATION]
    better = by_seed(list(range(1, 9)))
    for _ in range(30):
        due = fmt.next_rounds(stage)
        if not due:
            break
        stage = replace(stage, rounds=stage.rounds + due)
        outcomes: dict[str, tuple[int | None, ...]] = {}
        for rnd in due:
            for s in rnd.series:
                if s.walkover:
                    continue
                if s.phase is Phase.GRAND_FINAL:
                    first = s.seats.index(2) if reset_needed else s.seats.index(1)
                elif s.phase is Phase.GRAND_FINAL_RESET:
                    first = s.seats.index(reset_winner)
                else:
                    first = better(s)
                outcomes[s.key] = tuple(1 if seat == first else 2 for seat in range(len(s.seats)))
        stage = decide(stage, outcomes)
    assert fmt.finished(stage)
    return stage


def _eliminated_in_order(stage: StageState, table: Standings) -> None:
    rounds = out_round(stage)
    below = [rounds[row.player] for row in table.rows[1:]]
    assert below == sorted(below, reverse=True), "later elimination ranks higher"
    ranks = {row.player: row.rank for row in table.rows}
    for a in rounds:
        for b in rounds:
            if rounds[a] > rounds[b] and a != table.rows[0].player and b != table.rows[0].player:
                assert ranks[a] < ranks[b]


def test_double_elimination_without_a_reset() -> None:
    stage = _double(reset_needed=False)
    assert not any(s.phase is Phase.GRAND_FINAL_RESET for r in stage.rounds for s in r.series)
    table = ranked(stage, K.DOUBLE_ELIMINATION)
    assert [row.player for row in table.rows[:3]] == [1, 2, 3]  # 3: lost the losers' final to 2
    assert [row.rank for row in table.rows[:3]] == [1, 2, 3]
    _eliminated_in_order(stage, table)


def test_double_elimination_with_a_reset_the_last_deciding_series_names_the_champion() -> None:
    for reset_winner, runner_up in ((2, 1), (1, 2)):
        stage = _double(reset_needed=True, reset_winner=reset_winner)
        assert any(s.phase is Phase.GRAND_FINAL_RESET for r in stage.rounds for s in r.series)
        assert FORMATS[K.DOUBLE_ELIMINATION].champion(stage) == reset_winner  # type: ignore[attr-defined]
        table = ranked(stage, K.DOUBLE_ELIMINATION)
        assert [row.player for row in table.rows[:3]] == [reset_winner, runner_up, 3]
        assert [row.rank for row in table.rows[:3]] == [1, 2, 3]
        _eliminated_in_order(stage, table)


def test_groups_then_playoff_placings_follow_the_playoff() -> None:
    """12 players, 3 groups of 4, top 2: the playoff's six by their bracket, the six others after."""
    stage = state(K.GROUPS_PLAYOFF, range(1, 13), group_size=4, advance=2, third_place=True)
    stage = publish(stage, K.GROUPS_PLAYOFF)
    stage = decide(stage, {s.key: (1, 2) for r in stage.rounds for s in r.series})
    stage = replace(stage, standings={"A": (1, 6, 7, 12), "B": (2, 5, 8, 11), "C": (3, 4, 9, 10)})
    # Round 1: A1 v bye, C2 v B2, B1 v bye, C1 v A2. The lower seed wins every playoff series.
    stage = play_out(stage, K.GROUPS_PLAYOFF, by_seed([6, 5, 4, 3, 2, 1]))
    champion = FORMATS[K.GROUPS_PLAYOFF].champion(stage)  # type: ignore[attr-defined]
    table = ranked(stage, K.GROUPS_PLAYOFF)
    qualifiers = {1, 6, 2, 5, 3, 4}
    assert {row.player for row in table.rows[:6]} == qualifiers
    assert table.rows[0].player == champion
    final = series_of(stage, "P-W3-1")
    third = series_of(stage, "P-3P")
    final_order = sorted(final.players, key=lambda p: stage.results["P-W3-1"].placings[final.seats.index(p)])
    third_order = sorted(third.players, key=lambda p: stage.results["P-3P"].placings[third.seats.index(p)])
    assert [row.player for row in table.rows[:4]] == [*final_order, *third_order]
    assert [row.value(Tiebreak.FINISH) for row in table.rows[:6]] == [1, 2, 3, 4, 5, 5]
    assert [row.rank for row in table.rows[:4]] == [1, 2, 3, 4]  # round-1 losers: by the tiebreaks
    # The groups' players share the finish after the playoff's and are ordered by the chain.
    assert {row.value(Tiebreak.FINISH) for row in table.rows[6:]} == {7}
    assert all(row.finish_how is None for row in table.rows[6:])
