"""``manage.py restore FILE --yes``: replace the whole database with a backup (snapleague/backup.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from snapleague.backup import BackupError, restore


class Command(BaseCommand):
    help = "Replace the whole database with a backup made by `manage.py backup` (asks for --yes)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup to restore")
        parser.add_argument("--yes", action="store_true", help="yes, replace everything in the database")

    def handle(self, *args: Any, file: str, yes: bool, **options: Any) -> None:
        if not yes:
            raise CommandError(
                "This replaces everything in the database with the backup. Stop bin/run (or the web "
                "server and the worker) first, then run again with --yes."
            )
        try:
            kept = restore(Path(file))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Restored {file}." + (f" The database before it is kept in {kept}." if kept else "")
        )
