"""``manage.py club_import FILE``: a club written by ``club_export`` into this install (all or nothing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from snapleague.errors import ApplicationError
from tournaments.clubs.transfer import club_import


class Command(BaseCommand):
    help = "Import a club exported with club_export (into a fresh install: ids are kept)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file club_export wrote")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(f"{file}: cannot read it as JSON ({exc})") from None
        try:
            report = club_import(data=data)
        except ApplicationError as exc:
            raise CommandError(str(exc.message)) from None
        self.stdout.write(
            f"Imported club {report.club.slug} ({report.club.name}): {report.rows} rows; "
            f"accounts created: {', '.join(report.users_created) or 'none'}; "
            f"already here (kept as they are): {', '.join(report.users_existing) or 'none'}."
        )
