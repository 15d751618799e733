"""``manage.py backup [FILE]``: the whole database, while snapleague runs (snapleague/backup.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from snapleague.backup import BackupError, backup


class Command(BaseCommand):
    help = "Back up the whole database (SQLite: online backup, checked; PostgreSQL: pg_dump -Fc)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", help="where to write it (default: var/backups/snapleague-<time>)"
        )

    def handle(self, *args: Any, file: str | None, **options: Any) -> None:
        try:
            made = backup(Path(file) if file else None)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Backed up to {made.path} ({made.size / 1e6:.1f} MB in {made.seconds:.1f} s).")
