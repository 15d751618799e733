"""Many submissions at once: the database keeps exactly one confirmed version per game.

Real threads, each with its own database connection, committing for real (transaction=True).
On SQLite the IMMEDIATE transactions serialise writers; on PostgreSQL the stage row lock does.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from snapleague.errors import ApplicationError
from tests.conftest import record_result, snap_win
from tournaments.models import GameResult, Series, Stage

THREADS = 20

pytestmark = pytest.mark.skipif(
    connection.vendor == "sqlite" and not connection.settings_dict.get("TEST", {}).get("NAME"),
    reason="threads need a database file or server: SQLite's in-memory test database locks whole tables "
    "(set SQLITE_TEST_NAME=var/test.sqlite3, or DATABASE_URL for PostgreSQL)",
)


def _hammer(submit: Callable[[int], Any]) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def run(index: int) -> None:
        try:
            barrier.wait()
            _record, created = submit(index)
            outcome = "created" if created else "replayed"
        except ApplicationError as exc:
            outcome = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_20_referees_record_one_game_at_once_exactly_one_is_confirmed(
    make_series: Callable[..., Series], referee: Any, players: list
) -> None:
    series = make_series(players[:4])
    table = players[:4]
    orders = [table[i % 4 :] + table[: i % 4] for i in range(THREADS)]
    outcomes = _hammer(
        lambda i: record_result(
            user=referee,
            series_id=series.pk,
            game_number=1,
            result=snap_win(*orders[i]),
            client_key=f"device-{i}",
        )
    )
    assert outcomes == {"created": 1, "result_conflict": THREADS - 1}
    assert GameResult.objects.filter(game__series=series, confirmed=True).count() == 1
    assert GameResult.objects.filter(game__series=series).count() == 1
    assert Stage.objects.get(pk=series.stage_id).results_version == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_20_times_at_once_records_one_row(
    make_series: Callable[..., Series], referee: Any, players: list
) -> None:
    series = make_series(players[:4])
    outcomes = _hammer(
        lambda i: record_result(
            user=referee,
            series_id=series.pk,
            game_number=1,
            result=snap_win(*players[:4]),
            client_key="one-double-tap",
        )
    )
    assert outcomes == {"created": 1, "replayed": THREADS - 1}
    assert GameResult.objects.filter(game__series=series).count() == 1
    assert Stage.objects.get(pk=series.stage_id).results_version == 1


@pytest.mark.django_db(transaction=True)
def test_20_corrections_that_void_a_later_game_at_once_void_it_once(
    make_series: Callable[..., Series], referee: Any, organiser: Any, players: list
) -> None:
    a, b, c, d = players[:4]
    series = make_series(players[:4])
    for number, order in enumerate([(a, b, c, d), (b, a, c, d), (a, b, c, d)], start=1):
        record_result(user=referee, series_id=series.pk, game_number=number, result=snap_win(*order))
    outcomes = _hammer(  # Anna won game 2 too: the series was over before game 3
        lambda i: record_result(
            user=organiser,
            series_id=series.pk,
            game_number=2,
            result=snap_win(a, b, c, d),
            expected_version=1,
            reason=f"misread {i}",
            client_key=f"organiser-{i}",
            void_later_games=True,
        )
    )
    assert outcomes == {"created": 1, "result_conflict": THREADS - 1}
    game_3 = GameResult.objects.filter(game__series=series, game__number=3)
    assert list(game_3.order_by("version").values_list("version", "confirmed", "void")) == [
        (1, False, False),
        (2, True, True),
    ]
    assert Stage.objects.get(pk=series.stage_id).results_version == 4


@pytest.mark.django_db(transaction=True)
def test_20_stage_tasks_at_once_publish_the_next_round_once(
    make_tournament: Any, organiser: Any, referee: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.conftest import snapszer_win
    from tournaments.competitions.services import tournament_players_enter
    from tournaments.competitions.stages.advance import stage_advance
    from tournaments.competitions.stages.create import stage_create
    from tournaments.competitions.stages.publish import stage_round_publish
    from tournaments.models import GameKind, Round

    tournament = make_tournament(game=GameKind.SNAPSZER)
    tournament_players_enter(user=organiser, tournament=tournament, new_names=[f"P{n}" for n in range(8)])
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    # The results' own stage tasks are lost (they would run inline on commit): 20 run at once instead.
    monkeypatch.setattr(
        "tournaments.competitions.results.services._enqueue_standings", lambda *_args, **_kwargs: None
    )
    for series in Series.objects.filter(stage=stage):
        a, b = (s.player for s in series.seats.order_by("seat"))
        for number in (1, 2):
            record_result(user=referee, series_id=series.pk, game_number=number, result=snapszer_win(a, b))
    published: list[tuple[int, ...]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def run() -> None:
        try:
            barrier.wait()
            outcome = stage_advance(stage_id=stage.pk)
            with lock:
                published.append(outcome.published)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(published, key=len) == [()] * (THREADS - 1) + [(2,)]
    assert Round.objects.filter(stage=stage).count() == 2
    assert Series.objects.filter(stage=stage, round__number=2).count() == 4
