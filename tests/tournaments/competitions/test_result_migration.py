"""Rows written before results had a format version (version 1) are rewritten to version 2 by
migration 0004 and read back as the values they were (tournaments/competitions/results/values.py)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine.sixtysix import Reason
from tests.conftest import record_result, snap_win
from tournaments.competitions.results.values import (
    SnapEnding,
    SnapszerHand,
    SnapszerMatchResult,
    SnapTableResult,
    VoidResult,
)
from tournaments.models import Game, GameKind, GameResult, Player, Series, SeriesFormat

migration = importlib.import_module("tournaments.migrations.0004_result_format_v2")


def _old_rows(series: Series, rows: list[dict[str, Any]]) -> list[GameResult]:
    """Store ``rows`` (version-1 JSON) as confirmed games 1, 2, … of ``series``, round the service."""
    stored = []
    for number, data in enumerate(rows, start=1):
        game = Game.objects.create(
            series=series, number=number, seats=list(series.seats.values_list("player_id", flat=True))
        )
        stored.append(
            GameResult.objects.create(game=game, version=1, confirmed=True, data=data, source="referee")
        )
    return stored


def _snap_v1(a: Player, b: Player, c: Player, d: Player) -> list[dict[str, Any]]:
    """Three games as results.py stored them before format 2 (Anna's series: she won games 1 and 3)."""
    return [
        {
            "game": "snap",
            "ending": "last_player_standing",
            "winner": a.pk,
            "eliminated": [[d.pk], [c.pk], [b.pk]],
            "card_counts": None,
            "placings": {str(a.pk): 1, str(b.pk): 2, str(c.pk): 3, str(d.pk): 4},
        },
        {
            "game": "snap",
            "ending": "adjudicated",
            "winner": b.pk,
            "eliminated": [[d.pk]],
            "card_counts": {str(b.pk): 20, str(a.pk): 12, str(c.pk): 12},
            "placings": {str(b.pk): 1, str(a.pk): 2, str(c.pk): 2, str(d.pk): 4},
        },
        {
            "game": "snap",
            "ending": "draw",
            "winner": None,
            "eliminated": [[d.pk], [a.pk, b.pk, c.pk]],
            "card_counts": None,
            "placings": {str(a.pk): 1, str(b.pk): 1, str(c.pk): 1, str(d.pk): 4},
        },
    ]


def test_old_snap_rows_read_back_as_the_results_they_were(
    make_series: Callable[..., Series], players: list[Player]
) -> None:
    a, b, c, d = players[:4]
    series = make_series([a, b, c, d])
    rows = _old_rows(series, _snap_v1(a, b, c, d))
    migration.forwards(django_apps, None)
    values = [GameResult.objects.get(pk=r.pk).value for r in rows]
    seats = (a.pk, b.pk, c.pk, d.pk)
    assert values == [
        SnapTableResult(seats, SnapEnding.LAST_PLAYER_STANDING, ((d.pk,), (c.pk,), (b.pk,))),
        SnapTableResult(seats, SnapEnding.ADJUDICATED, ((d.pk,),), {b.pk: 20, a.pk: 12, c.pk: 12}),
        SnapTableResult(seats, SnapEnding.DRAW, ((d.pk,), (a.pk, b.pk, c.pk))),
    ]
    assert all(v.wrong_calls == dict.fromkeys(seats, 0) for v in values)  # type: ignore[union-attr]
    migration.forwards(django_apps, None)  # twice: version-2 rows are left as they are
    assert [GameResult.objects.get(pk=r.pk).value for r in rows] == values


def _v1_match(
    winner: Player,
    loser: Player,
    score: dict[Player, int],
    *,
    games: list[dict[Player, int]] | None = None,
    hands: list[dict[str, Any]] | None = None,
    pot_carried: int = 0,
) -> dict[str, Any]:
    """A Snapszer match as results.py stored it before format 2 (``games`` null for one game)."""

    def keyed(points: dict[Player, int]) -> dict[str, int]:
        return {str(p.pk): n for p, n in points.items()}

    return {
        "game": "snapszer",
        "winner": winner.pk,
        "score": keyed(score),
        "games": None if games is None else [keyed(g) for g in games],
        "pot_carried": pot_carried,
        "hands": hands,
        "placings": {str(winner.pk): 1, str(loser.pk): 2},
    }


def test_old_snapszer_rows_read_back_score_games_and_hands_as_entered(
    make_series: Callable[..., Series], players: list[Player]
) -> None:
    a, b = players[:2]
    series = make_series([a, b], game=GameKind.SNAPSZER, series_format=SeriesFormat.BEST_OF_5)
    hands = [
        {"winner": a.pk, "points": 3, "reason": "declared"},
        {"winner": None, "points": 0, "reason": "tie_pot"},
        {"winner": a.pk, "points": 3, "reason": "failed_close"},
    ]
    rows = _old_rows(
        series,
        [
            _v1_match(b, a, {b: 7, a: 4}, pot_carried=1),  # the match score only
            _v1_match(a, b, {a: 7, b: 0}, hands=hands),  # hand by hand: 3, a point into the pot, 3 + it
            _v1_match(a, b, {a: 16, b: 13}, games=[{a: 7, b: 5}, {a: 2, b: 7}, {a: 7, b: 1}]),  # snapszer-hu
            {"voided_by_correction_of": 1},
        ],
    )
    migration.forwards(django_apps, None)
    values = [GameResult.objects.get(pk=r.pk).value for r in rows]
    players_ab = (a.pk, b.pk)
    assert values == [
        SnapszerMatchResult(players_ab, ((4, 7),), pot_carried=1),
        SnapszerMatchResult(
            players_ab,
            ((7, 0),),
            hands=(
                SnapszerHand(a.pk, 3, Reason.DECLARED),
                SnapszerHand(None, 0, Reason.TIE_POT),
                SnapszerHand(a.pk, 3, Reason.FAILED_CLOSE),
            ),
        ),
        SnapszerMatchResult(players_ab, ((7, 5), (2, 7), (7, 1))),
        VoidResult(corrected_game=1),
    ]
    assert values[0].winner == b.pk and values[2].score == {a.pk: 16, b.pk: 13}  # type: ignore[union-attr]


def test_migrating_back_gives_the_old_rows_again(
    make_series: Callable[..., Series], players: list[Player]
) -> None:
    a, b, c, d = players[:4]
    series = make_series([a, b, c, d])
    old = _snap_v1(a, b, c, d)
    rows = _old_rows(series, old)
    migration.forwards(django_apps, None)
    migration.backwards(django_apps, None)
    assert [GameResult.objects.get(pk=r.pk).data for r in rows] == old


def test_a_series_stored_in_the_old_shape_goes_on_after_the_migration_S40(
    make_series: Callable[..., Series], players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    series = make_series([a, b, c, d])
    _old_rows(series, _snap_v1(a, b, c, d)[:2])  # Anna won game 1, Bence game 2
    migration.forwards(django_apps, None)
    record_result(user=referee, series_id=series.pk, game_number=3, result=snap_win(a, d, c, b))
    series.refresh_from_db()
    assert series.status == Series.Status.DECIDED and series.placings[str(a.pk)] == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_rewrites_rows_written_before_it(
    make_series: Callable[..., Series], players: list[Player]
) -> None:
    """Through Django's migration executor: back to 0003, old rows written with that state's
    models, forward to 0004."""
    a, b, c, d = players[:4]
    series = make_series([a, b, c, d])
    executor = MigrationExecutor(connection)
    before, after = (
        [("tournaments", "0003_gameresult_engine_game")],
        [("tournaments", "0004_result_format_v2")],
    )
    executor.migrate(before)
    try:
        old_apps = executor.loader.project_state(before).apps
        OldGame = old_apps.get_model("tournaments", "Game")
        OldResult = old_apps.get_model("tournaments", "GameResult")
        for number, data in enumerate(_snap_v1(a, b, c, d), start=1):
            game = OldGame.objects.create(series_id=series.pk, number=number, seats=[a.pk, b.pk, c.pk, d.pk])
            OldResult.objects.create(game=game, version=1, confirmed=True, data=data, source="referee")
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
        # Back to the whole schema (migrations after 0004, of any app, were unapplied on the way
        # back): the tests that run after this one need it.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    values = [r.value for r in GameResult.objects.filter(game__series=series).order_by("game__number")]
    assert [v.ending for v in values] == [
        SnapEnding.LAST_PLAYER_STANDING,
        SnapEnding.ADJUDICATED,
        SnapEnding.DRAW,
    ]  # type: ignore[union-attr]
    assert [v.winner for v in values] == [a.pk, b.pk, None]  # type: ignore[union-attr]
