"""Whole-database backups (``manage.py backup`` / ``manage.py restore``; docs/reliability.md).

- **SQLite** (the embedded default): SQLite's online backup API copies the live database while the
  web server and the worker go on writing. It copies in one step: in WAL mode a reader blocks no
  writer, the copy is consistent as of one moment, and a copy made in steps would start over after
  every write of another connection (it might never end on a busy evening). The copy must pass
  ``PRAGMA integrity_check`` before it is called a backup. A restore copies a checked backup back
  over the live database through the same API (other connections see the restored data on their
  next transaction) after keeping the current database next to the backup it replaces.
- **PostgreSQL**: ``pg_dump --format=custom`` and ``pg_restore --clean --if-exists``, with the
  connection taken from ``DATABASE_URL``; they must be installed (Debian: ``postgresql-client`` of
  the server's major version or newer).

One club rather than the whole database: ``club_export`` / ``club_import``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

STEP_PAGES = -1  # one step: under WAL a reader blocks no writer, and a copy in steps restarts on every write


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    seconds: float


def default_path(vendor: str) -> Path:
    suffix = "sqlite3" if vendor == "sqlite" else "pgdump"
    return (
        Path(settings.VAR_DIR)
        / "backups"
        / f"snapleague-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.{suffix}"
    )


def integrity_problems(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` of the SQLite file ``path``: [] when it is sound."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
            db.execute("SELECT 1 FROM django_migrations LIMIT 1")
    except sqlite3.DatabaseError as exc:
        return [f"not a snapleague SQLite database: {exc}"]
    return [] if rows == ["ok"] else rows


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target`` (created or overwritten), in steps."""
    with (
        contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=20)) as src,
        contextlib.closing(sqlite3.connect(target, timeout=20)) as dst,
    ):
        src.backup(dst, pages=STEP_PAGES)


def sqlite_backup(source: Path, target: Path) -> None:
    """Copy the live SQLite database ``source`` to the new file ``target`` and check the copy.
    Raises BackupError (and keeps no copy) when it fails its integrity check."""
    _sqlite_copy(source, target)
    problems = integrity_problems(target)
    if problems:
        target.unlink()
        raise BackupError(f"the copy failed its integrity check ({'; '.join(problems[:3])}); nothing kept.")


def sqlite_restore(source: Path, live: Path) -> Path:
    """Copy the backup ``source`` over the live SQLite database ``live``, having kept ``live`` next
    to itself first (the returned path). Raises BackupError, having changed nothing, for a backup
    that is not a sound snapleague database."""
    problems = integrity_problems(source)
    if problems:
        raise BackupError(f"{source} is not a sound backup ({'; '.join(problems[:3])}); nothing changed.")
    kept = live.with_name(
        f"{live.stem}-before-restore-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.sqlite3"
    )
    _sqlite_copy(live, kept)
    _sqlite_copy(source, live)
    problems = integrity_problems(live)
    if problems:
        raise BackupError(
            f"the restored database fails its integrity check; the one before is kept in {kept}."
        )
    return kept


def backup(target: Path | None = None) -> Backup:
    """Back up the whole database to ``target`` (default: var/backups/<time>). Raises BackupError."""
    vendor = connection.vendor
    target = target or default_path(vendor)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise BackupError(f"{target} exists already: name a new file.")
    started = time.monotonic()
    if vendor == "sqlite":
        sqlite_backup(Path(connection.settings_dict["NAME"]), target)
    elif vendor == "postgresql":
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={target}")
    else:
        raise BackupError(f"backups of a {vendor} database are not supported.")
    return Backup(target, target.stat().st_size, time.monotonic() - started)


def restore(source: Path) -> Path | None:
    """Replace the whole database with the backup ``source``. On SQLite the current database is
    kept first, next to it (the returned path). Raises BackupError, having changed nothing, when the
    backup is missing or unsound."""
    if not source.is_file():
        raise BackupError(f"{source}: no such file.")
    vendor = connection.vendor
    if vendor == "sqlite":
        connection.close()
        return sqlite_restore(source, Path(connection.settings_dict["NAME"]))
    if vendor == "postgresql":
        _pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", str(source))
        return None
    raise BackupError(f"restoring a {vendor} database is not supported.")


def _pg(program: str, *args: str) -> None:
    """Run ``pg_dump`` or ``pg_restore`` against the configured database."""
    if shutil.which(program) is None:
        raise BackupError(f"{program} is not installed (Debian: apt-get install postgresql-client).")
    db: dict[str, Any] = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": str(db.get("PASSWORD") or os.environ.get("PGPASSWORD", ""))}
    command = [
        program,
        f"--host={db.get('HOST') or '127.0.0.1'}",
        f"--port={db.get('PORT') or 5432}",
        f"--username={db.get('USER') or ''}",
        f"--dbname={db['NAME']}",
        *args,
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{program} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
