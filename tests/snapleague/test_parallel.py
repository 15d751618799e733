"""The suite runs in parallel (``bin/test``: pytest-xdist workers), each worker isolated: its own test
database, Redis databases for the broker and the channel layer, var dir and Chromium
(``parallel_test_worker_environ`` in snapleague/settings.py, ``_chromium`` in tests/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management.color import no_style
from django.db import connection

from snapleague.settings import BASE_DIR, parallel_test_worker_environ

ROOT = Path(__file__).resolve().parents[2]
# Set by test_bin_test_runs_the_tests_in_isolated_workers for the bin/test it runs: the probes below
# write what their process sees there.
PROBE_DIR = os.environ.get("SNAPLEAGUE_PARALLEL_PROBE")
probe = pytest.mark.skipif(not PROBE_DIR, reason="a probe of the bin/test run that test_bin_test_… starts")

BROKER, LAYER = "redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/14"


def test_the_first_worker_keeps_the_configured_redis_databases_and_gets_a_var_dir_of_its_own() -> None:
    environ = {"PYTEST_XDIST_WORKER": "gw0", "CELERY_BROKER_URL": BROKER, "CHANNEL_LAYER_URL": LAYER}
    parallel_test_worker_environ(environ)
    assert environ["CELERY_BROKER_URL"] == BROKER and environ["CHANNEL_LAYER_URL"] == LAYER
    assert environ["SNAPLEAGUE_VAR_DIR"] == str(BASE_DIR / "var" / "test-gw0")


def test_the_next_workers_take_the_redis_databases_below_and_var_dirs_of_their_own() -> None:
    seen = []
    for worker in ("gw1", "gw2"):
        environ = {
            "PYTEST_XDIST_WORKER": worker,
            "CELERY_BROKER_URL": BROKER,
            "CHANNEL_LAYER_URL": LAYER,
            "SNAPLEAGUE_VAR_DIR": "/srv/var",
        }
        parallel_test_worker_environ(environ)
        seen.append(
            (environ["CELERY_BROKER_URL"], environ["CHANNEL_LAYER_URL"], environ["SNAPLEAGUE_VAR_DIR"])
        )
    assert seen == [
        ("redis://127.0.0.1:6379/13", "redis://127.0.0.1:6379/12", "/srv/var/test-gw1"),
        ("redis://127.0.0.1:6379/11", "redis://127.0.0.1:6379/10", "/srv/var/test-gw2"),
    ]


def test_a_process_a_test_starts_keeps_its_workers_databases() -> None:
    """A Celery worker or uvicorn started by a test inherits the worker's environment (already
    moved): its settings must not move it again."""
    environ = {"PYTEST_XDIST_WORKER": "gw1", "CELERY_BROKER_URL": BROKER, "CHANNEL_LAYER_URL": LAYER}
    parallel_test_worker_environ(environ)
    inherited = dict(environ)
    parallel_test_worker_environ(inherited)
    assert inherited == environ and inherited["CELERY_BROKER_URL"].endswith("/13")


def test_outside_a_test_worker_nothing_changes() -> None:
    environ = {"CELERY_BROKER_URL": BROKER, "CHANNEL_LAYER_URL": LAYER}
    parallel_test_worker_environ(environ)
    assert environ == {"CELERY_BROKER_URL": BROKER, "CHANNEL_LAYER_URL": LAYER}


def test_other_brokers_are_left_to_the_var_dir() -> None:
    """The file broker lives in the worker's var dir; an AMQP broker's URL is left as it is."""
    environ = {"PYTEST_XDIST_WORKER": "gw1", "CELERY_BROKER_URL": "amqp://guest@127.0.0.1//"}
    parallel_test_worker_environ(environ)
    assert environ["CELERY_BROKER_URL"] == "amqp://guest@127.0.0.1//"
    assert environ["SNAPLEAGUE_VAR_DIR"].endswith("test-gw1")


def test_a_worker_with_no_redis_database_left_is_refused_with_what_to_do() -> None:
    environ = {"PYTEST_XDIST_WORKER": "gw2", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"}
    with pytest.raises(RuntimeError, match="needs Redis database -1; configure higher database numbers"):
        parallel_test_worker_environ(environ)


def test_this_worker_runs_on_its_own_databases(worker_id: str) -> None:
    """In this very run: a worker's settings are the moved ones (gw0 keeps the configured)."""
    if worker_id == "master":
        pytest.skip("runs in a pytest-xdist worker (bin/test)")
    number = int(worker_id.removeprefix("gw"))
    assert Path(settings.VAR_DIR).name == f"test-{worker_id}"
    assert os.environ["SNAPLEAGUE_TEST_WORKER"] == worker_id
    for url in (settings.CELERY_BROKER_URL, settings.CHANNEL_LAYER_URL):
        if url.startswith("redis://") and number:
            assert int(url.rsplit("/", 1)[1]) <= 15 - 2 * number


@probe
@pytest.mark.parametrize("n", [1, 2])
def test_probe_what_a_worker_sees(n: int, django_db_modify_db_settings: None) -> None:
    """Writes what this process's settings say (the test database's name as pytest-django set it for
    this worker, without creating it)."""
    assert PROBE_DIR
    worker = os.environ.get("PYTEST_XDIST_WORKER", "master")
    seen = {
        "worker": worker,
        "database": connection.settings_dict["TEST"]["NAME"],
        "broker": settings.CELERY_BROKER_URL,
        "layer": settings.CHANNEL_LAYER_URL,
        "var": str(settings.VAR_DIR),
    }
    (Path(PROBE_DIR) / f"{worker}-{n}.json").write_text(json.dumps(seen))


def _bin_test(tmp_path: Path, *args: str, workers: str) -> list[dict[str, Any]]:
    """bin/test (as the README runs it) on this module's probes, on the embedded default's SQLite
    file (no database is created: the probes use none) and CI's Redis numbers (no connection is
    made); returns what each probe saw."""
    probes = tmp_path / "probes"
    probes.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "SNAPLEAGUE_", "DATABASE_", "CELERY_", "CHANNEL_LAYER"))
    }
    env |= {
        "SNAPLEAGUE_PARALLEL_PROBE": str(probes),
        "SNAPLEAGUE_TEST_WORKERS": workers,
        "SNAPLEAGUE_VAR_DIR": str(tmp_path / "var"),
        "SQLITE_TEST_NAME": str(tmp_path / "test.sqlite3"),
        "CELERY_BROKER_URL": BROKER,
        "CHANNEL_LAYER_URL": LAYER,
    }
    done = subprocess.run(
        [
            str(ROOT / "bin" / "test"),
            "tests/snapleague/test_parallel.py",
            "-k",
            "probe",
            "-q",
            "-p",
            "no:cacheprovider",
            *args,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return sorted((json.loads(p.read_text()) for p in probes.iterdir()), key=lambda seen: seen["worker"])


def test_bin_test_runs_the_tests_in_isolated_workers(tmp_path: Path) -> None:
    seen = _bin_test(tmp_path, workers="2")
    assert [s["worker"] for s in seen] == ["gw0", "gw1"]
    assert [s["database"] for s in seen] == [f"{tmp_path}/test.sqlite3_gw0", f"{tmp_path}/test.sqlite3_gw1"]
    assert [(s["broker"], s["layer"]) for s in seen] == [
        (BROKER, LAYER),
        (BROKER[:-2] + "13", LAYER[:-2] + "12"),
    ]
    assert [s["var"] for s in seen] == [f"{tmp_path}/var/test-gw0", f"{tmp_path}/var/test-gw1"]


@pytest.mark.parametrize(("workers", "args"), [("0", ()), ("2", ("-s",))], ids=["no-workers", "print"])
def test_bin_test_runs_in_one_process_when_asked_or_when_printing(
    tmp_path: Path, workers: str, args: tuple[str, ...]
) -> None:
    seen = _bin_test(tmp_path, *args, workers=workers)
    assert {s["worker"] for s in seen} == {"master"} and len(seen) == 2
    assert {(s["broker"], s["layer"], s["var"]) for s in seen} == {(BROKER, LAYER, f"{tmp_path}/var")}


@pytest.mark.django_db(transaction=True)
def test_a_transactional_tests_flush_empties_every_table_linked_or_not(make_user: Any) -> None:
    """The flush after a transactional test (``DELETE FROM`` each table on PostgreSQL, tests/conftest.py)
    leaves every table empty, rows that refer to each other included, and the content types and
    permissions are made again, as after Django's own flush."""
    from django.contrib.auth.models import Permission
    from django.core.management import call_command

    from tournaments.models import Club, Player

    club = Club.objects.create(name="Flush Club", slug="flush")
    club.organisers.add(make_user("flusher"))
    Player.objects.create(club=club, name="Anna", user=make_user("anna-flush"))
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    call_command("flush", verbosity=0, interactive=False)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    assert {t for t, n in counts.items() if n} == {"django_content_type", "auth_permission"}
    assert Permission.objects.filter(codename="add_club").exists()
    if connection.vendor == "postgresql":
        assert connection.ops.sql_flush(no_style(), ["tournaments_club"]) == [
            'DELETE FROM "tournaments_club";'
        ]
