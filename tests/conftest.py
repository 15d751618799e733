"""Shared fixtures: people in each role, a club, and tournaments with series ready for results."""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations
from django.utils import translation

from snapleague.celery import app as celery_app
from snapleague.chromium import launch
from snapleague.users import Account, AnyUser
from tests import hu_catalogue as catalogue
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.results.services import UserSource, result_record
from tournaments.competitions.series.fold import seed_commitment
from tournaments.models import (
    Club,
    Entry,
    GameKind,
    GameResult,
    Player,
    Round,
    Series,
    SeriesFormat,
    SeriesSeat,
    Stage,
    StageFormat,
    Tournament,
)

# The browser tests' devices, marks and fixtures (``browser``, ``server``): tests/browser.py.
pytest_plugins = ["tests.browser"]


def _flush_by_delete(
    self: PostgresOperations,
    style: Any,
    tables: Any,
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """A transactional test's flush on PostgreSQL, as ``DELETE FROM`` each table instead of one
    ``TRUNCATE`` of all of them: the same empty tables, in 15-20 ms instead of 0.5-1 s (TRUNCATE
    makes new files for each of the ~70 tables and their indexes), for each of the ~290 tests that
    use ``transactional_db`` (the browser and socket tests). Django's foreign keys are
    ``DEFERRABLE INITIALLY DEFERRED`` and the statements run in one transaction, so the order does
    not matter. A flush that resets sequences or cascades to other tables is left to Django."""
    if reset_sequences or allow_cascade or not tables:
        return _truncate_flush(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    return [
        f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables
    ]


_truncate_flush = PostgresOperations.sql_flush
PostgresOperations.sql_flush = _flush_by_delete  # type: ignore[method-assign]

# The longest tests' modules, longest first (a whole suite's durations, 2026-12-05: their longest
# test took 70 s down to 10 s on the 2 cores; docs/benchmarks.md). pytest-xdist hands the tests out
# in collection order, one at a time as a worker frees up: a 50-s test collected near the end kept
# one worker busy for its whole length after the other had run out of work. Taken first, the long
# ones run while thousands of short tests still fill the other worker. Only the order changes (a
# module's own tests keep theirs; an entry is the start of a test's id); every test runs as before.
# bin/run's two tests start from one migrated directory, made by the first to need it
# (tests/snapleague/test_bin_run.py): the second is taken a few minutes after the first, so that it
# does not wait for it.
LONGEST_FIRST = [
    "tests/snapleague/test_bin_run.py::test_bin_run_restarts",
    "tests/games/online/test_browser.py",
    "tests/games/online/test_crash.py",
    "tests/deploy/test_two_hosts.py",
    "tests/games/online/test_snap_hidden_information.py",
    "tests/games/online/test_snap_stats_browser.py",
    "tests/snapleague/test_bin_run.py",
    "tests/tournaments/competitions/test_api_formats.py",
    "tests/tournaments/competitions/test_result_migration.py",
    "tests/tournaments/competitions/formats/test_checker.py",
    "tests/tournaments/notifications/test_newcomer_browser.py",
    "tests/snapleague/test_backup.py",
    "tests/snapleague/test_parallel.py",
    "tests/snapleague/test_csp_browser.py",
    "tests/tournaments/competitions/test_browser.py",
    "tests/tournaments/nights/test_browser_sessions.py",
    "tests/tournaments/competitions/test_screen_browser.py",
    "tests/snapleague/test_deploy_settings.py",
    "tests/tournaments/test_worker.py",
    "tests/games/engine/test_contract.py",
    "tests/tournaments/test_queues.py",
    "tests/tournaments/competitions/test_reporting_browser.py",
    "tests/tournaments/test_live_worker.py",
    "tests/test_api_schema_snapshot.py",
    "tests/tournaments/rankings/ratings/test_browser_ratings.py",
    "tests/games/online/test_socket.py",
    "tests/tournaments/accounts/test_mail.py",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (n for n, start in enumerate(LONGEST_FIRST) if item.nodeid.startswith(start)), len(LONGEST_FIRST)
        )

    items.sort(key=rank)


@pytest.fixture
def hu_catalogue(settings: Any, tmp_path: Path) -> Iterator[None]:
    """The "hu" test catalogue (tests/hu_catalogue.py) for this test."""
    catalogue.install(settings, tmp_path)
    yield
    translation.activate(settings.LANGUAGE_CODE)


_counter = itertools.count(1)


@pytest.fixture(autouse=True)
def _celery_eager() -> Iterator[None]:
    """Unit tests run tasks inline; tests marked ``worker`` go through a real broker and worker."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def _language_reset() -> Iterator[None]:
    """A request in another language (the test client runs it in this thread) leaves that language
    active: every test starts and ends in the default one."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db: Any) -> Callable[..., Account]:
    def make(username: str | None = None, **extra: Any) -> Account:
        return get_user_model().objects.create_user(
            username=username or f"user{next(_counter)}", password="pw-for-tests-only", **extra
        )

    return make


@pytest.fixture
def organiser(make_user: Callable[..., Account]) -> Account:
    return make_user("organiser")


@pytest.fixture
def referee(make_user: Callable[..., Account]) -> Account:
    return make_user("referee")


@pytest.fixture
def other_referee(make_user: Callable[..., Account]) -> Account:
    return make_user("other_referee")


@pytest.fixture
def player_user(make_user: Callable[..., Account]) -> Account:
    return make_user("player")


@pytest.fixture
def club(organiser: Account) -> Club:
    club = Club.objects.create(name="Hatvan Card Club", slug="hatvan")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def players(club: Club, player_user: Account) -> list[Player]:
    names = ["Anna", "Bence", "Csilla", "Dániel", "Eszter", "Ferenc", "Gabi", "Hanna"]
    made = [Player.objects.create(club=club, name=name) for name in names]
    made[0].user = player_user
    made[0].save()
    return made


@pytest.fixture
def make_tournament(club: Club, referee: Account, other_referee: Account) -> Callable[..., Tournament]:
    def make(
        game: str = GameKind.SNAP, series_format: str = SeriesFormat.BEST_OF_3, **extra: Any
    ) -> Tournament:
        tournament = Tournament.objects.create(
            club=club,
            name=f"{game} league {next(_counter)}",
            game=game,
            rules_profile="classic" if game == GameKind.SNAP else "snapszer",
            series_format=series_format,
            **extra,
        )
        tournament.referees.add(referee)
        # other_referee referees a different tournament of the same club.
        other = Tournament.objects.create(
            club=club, name=f"other {next(_counter)}", game=game, rules_profile=tournament.rules_profile
        )
        other.referees.add(other_referee)
        return tournament

    return make


@pytest.fixture
def make_series(make_tournament: Callable[..., Tournament]) -> Callable[..., Series]:
    """A series seated by hand (not through pairing), in a stage of its own tournament."""

    def make(
        seated: list[Player],
        *,
        game: str = GameKind.SNAP,
        series_format: str = SeriesFormat.BEST_OF_3,
        tournament: Tournament | None = None,
    ) -> Series:
        tournament = tournament or make_tournament(game=game, series_format=series_format)
        for player in seated:
            Entry.objects.get_or_create(tournament=tournament, player=player)
        stage, _ = Stage.objects.get_or_create(
            tournament=tournament,
            order=1,
            defaults={"name": "League", "format": StageFormat.ROUND_ROBIN, "seed": secrets.token_hex(8)},
        )
        round_, _ = Round.objects.get_or_create(stage=stage, number=1)
        table = Series.objects.filter(round=round_).count() + 1
        return series_seated(round_, table, seated, series_format=tournament.series_format)

    return make


def series_seated(round_: Round, table: int, seated: list[Player], *, series_format: str) -> Series:
    """A series at ``table`` of ``round_`` with its seed committed, ``seated`` in its seats in
    order (by hand, not through pairing)."""
    seed = secrets.token_hex(8)
    series = Series.objects.create(
        stage_id=round_.stage_id,
        round=round_,
        table=table,
        key=f"R{round_.number}-{table}",
        seat_count=len(seated),
        format=series_format,
        seed=seed,
        seed_hash=seed_commitment(seed),
    )
    for index, player in enumerate(seated):
        SeriesSeat.objects.create(series=series, player=player, seat=index)
    return series


def snap_win(winner: Player, *out_first_to_last: Player) -> dict[str, Any]:
    """A Snap result: the others went out in the order given, ``winner`` was left."""
    return {"ending": "last_player_standing", "eliminated": [p.pk for p in out_first_to_last]}


def snapszer_win(winner: Player, loser: Player, loser_points: int = 3) -> dict[str, Any]:
    """A Snapszer match result by its score: ``winner`` to 7, ``loser`` to ``loser_points``."""
    return {"score": {str(winner.pk): 7, str(loser.pk): loser_points}}


def record_result(
    *, user: AnyUser, series_id: int, game_number: int, result: dict[str, Any], **kwargs: Any
) -> tuple[GameResult, bool]:
    """Record a submitted result as the API and the pages do: read it at the edge against the
    game's table (``ResultInvalid`` for a result that does not fit), then ``result_record`` with
    ``user`` as the source."""
    target = result_target_get(user=user, series_id=series_id, game_number=game_number)
    return result_record(
        source=UserSource(user),
        series_id=series_id,
        game_number=game_number,
        result=target.parse(result),
        **kwargs,
    )


@pytest.fixture(scope="session")
def _end_live_server_sessions(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """On PostgreSQL with psycopg's pool, a connection of the live server's request threads outlives
    them (seen: one idle session after the browser and the threads are gone), and the test
    database could not be dropped at the end. At the end of the run (before the test database is
    dropped: this fixture is set up after it), end the other sessions of the test database (all of
    them this run's: the name is the test database's own), then close the pool. Once per run, not
    per module: ending them between modules also ended the live-update watcher's connection, which
    lives in this process across modules, and the next module's live pages stopped updating."""
    yield
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        connections.close_all()
        if hasattr(connection, "close_pool"):
            connection.close_pool()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """One Playwright and one Chromium per test process (so one per pytest-xdist worker), started by
    the first browser test: starting them took 4 to 7 s a test on a loaded machine. Yields the
    browser and Playwright's event loop. Playwright's sync API runs that loop in a greenlet of this
    thread and leaves it marked as this thread's running loop between its calls; here it is marked
    only during a browser test (``browser``), so the other tests (``asyncio.run``, the ORM's
    async-safety check) see no running loop."""
    from playwright.sync_api import sync_playwright

    manager = sync_playwright()
    playwright = manager.start()
    loop = manager._loop
    chromium = launch(playwright)
    asyncio._set_running_loop(None)
    try:
        yield chromium, loop
    finally:
        asyncio._set_running_loop(loop)
        try:
            if chromium.is_connected():
                chromium.close()
        finally:
            manager.__exit__()


@pytest.fixture
def one_connection_for_all_threads(transactional_db: None) -> Iterator[None]:
    """On SQLite's in-memory test database, every thread (a server's request threads, the live
    version watcher's thread) uses the test thread's connection, as Django's live server does for
    its request threads: separate connections to a shared-cache in-memory database lock each
    other's tables ("database table is locked") instead of waiting. The price: another thread may
    read what an open transaction has written so far. On a server database or an SQLite file every
    thread has its own connection, as in production."""
    with connection_shared_by_all_threads():
        yield


@contextmanager
def connection_shared_by_all_threads() -> Iterator[None]:
    """``one_connection_for_all_threads`` for any scope (a module's shared world)."""
    shared = connections[DEFAULT_DB_ALIAS]
    if shared.vendor != "sqlite" or not shared.is_in_memory_db():
        yield
        return
    shared.ensure_connection()
    own = connections._connections
    connections._connections = SimpleNamespace(**{DEFAULT_DB_ALIAS: shared})
    shared.inc_thread_sharing()
    try:
        yield
    finally:
        connections._connections = own
        shared.dec_thread_sharing()


def play_open_series(
    stage_id: int, user: Account, winner: Callable[[Series, list[Player]], Player] | None = None
) -> int:
    """Play every open two-seat series of the stage to its end (services, tasks run eagerly):
    ``winner`` (default: the player whose name sorts first) wins the games still to play. Returns
    how many series were played."""
    played = 0
    for series in Series.objects.filter(stage_id=stage_id, walkover=False).exclude(
        status=Series.Status.DECIDED
    ):
        seated = sorted((s.player for s in series.seats.select_related("player")), key=lambda p: p.name)
        best = winner(series, seated) if winner else seated[0]
        other = next(p for p in seated if p != best)
        number = series.games.count()
        while series.status != Series.Status.DECIDED:
            number += 1
            record_result(
                user=user, series_id=series.pk, game_number=number, result=snapszer_win(best, other)
            )
            series.refresh_from_db()
        played += 1
    return played
