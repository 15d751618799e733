"""Whole-database backups: SQLite's online backup while another connection keeps writing gives a
sound, consistent copy; a restore puts it back and keeps what it replaced; a file that is not a
sound backup changes nothing. ``manage.py backup`` / ``restore`` end to end on a SQLite install,
and on PostgreSQL when the tests run there (pg_dump / pg_restore)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection

from snapleague.backup import BackupError, integrity_problems, sqlite_backup, sqlite_restore

ROOT = Path(__file__).resolve().parents[2]


def _database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT, name TEXT)")
        db.execute("CREATE TABLE result (id INTEGER PRIMARY KEY, pair INTEGER, data TEXT)")
    db.close()


def _pairs(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        rows = [row[0] for row in db.execute("SELECT count(*) FROM result GROUP BY pair")]
    db.close()
    return rows


def test_an_online_backup_during_writes_is_sound_and_consistent(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    _database(live)
    stop = threading.Event()

    def write() -> None:  # every transaction writes two rows: a consistent copy holds pairs only
        db = sqlite3.connect(live, timeout=20, isolation_level=None)
        pair = 0
        while not stop.is_set() or pair < 200:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT INTO result (pair, data) VALUES (?, ?)", [(pair, "x" * 500)] * 2)
            db.execute("COMMIT")
            pair += 1
        db.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        copies = []
        for n in range(3):
            target = tmp_path / f"backup-{n}.sqlite3"
            sqlite_backup(live, target)
            copies.append(target)
    finally:
        stop.set()
        writer.join()

    for copy in copies:
        assert integrity_problems(copy) == []
        assert set(_pairs(copy)) <= {2}, "a transaction was copied half"
    assert len(_pairs(copies[-1])) < len(_pairs(live))  # the writer went on after the copies


def test_a_restore_puts_the_backup_back_and_keeps_what_it_replaced(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    _database(live)
    with sqlite3.connect(live) as db:
        db.execute("INSERT INTO result (pair, data) VALUES (1, 'kept')")
    db.close()
    backup = tmp_path / "backup.sqlite3"
    sqlite_backup(live, backup)
    with sqlite3.connect(live) as db:
        db.execute("INSERT INTO result (pair, data) VALUES (2, 'after the backup')")
    db.close()

    kept = sqlite_restore(backup, live)

    assert _pairs(live) == [1] and integrity_problems(live) == []
    assert _pairs(kept) == [1, 1]


def test_a_file_that_is_not_a_sound_backup_changes_nothing(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    _database(live)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()

    for bad in (garbage, other):
        with pytest.raises(BackupError, match="nothing changed"):
            sqlite_restore(bad, live)

    assert integrity_problems(live) == [] and list(tmp_path.glob("*before-restore*")) == []


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_manage_backup_and_restore_on_a_sqlite_install(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env["SNAPLEAGUE_VAR_DIR"] = str(tmp_path)
    _database(tmp_path / "snapleague.sqlite3")  # the install's database (migrating it takes 20 s)
    backup = tmp_path / "evening.sqlite3"

    made = _manage("backup", str(backup), env=env)

    assert made.returncode == 0, made.stderr
    assert f"Backed up to {backup}" in made.stdout and integrity_problems(backup) == []
    refused = _manage("restore", str(backup), env=env)
    assert refused.returncode != 0 and "--yes" in refused.stderr
    restored = _manage("restore", str(backup), "--yes", env=env)
    assert restored.returncode == 0, restored.stderr
    assert "kept in" in restored.stdout


@pytest.mark.django_db(transaction=True)
def test_manage_backup_and_restore_on_postgresql(tmp_path: Path, django_user_model: type) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("runs when the tests run on PostgreSQL (DATABASE_URL)")
    from django.core.management import call_command

    django_user_model.objects.create_user(username="before-backup")
    dump = tmp_path / "db.pgdump"
    call_command("backup", str(dump))
    django_user_model.objects.create_user(username="after-backup")
    connection.close()

    call_command("restore", str(dump), yes=True)

    assert sorted(django_user_model.objects.values_list("username", flat=True)) == ["before-backup"]
