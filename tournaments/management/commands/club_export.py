"""``manage.py club_export <slug> [-o FILE] [--without-passwords]``: one club as JSON (tournaments/clubs/transfer.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from snapleague.errors import ApplicationError
from tournaments.clubs.transfer import club_export


class Command(BaseCommand):
    help = "Write one club's data (players, tournaments, results, standings, accounts) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's slug (as in its address, /clubs/<slug>/)")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument(
            "--without-passwords",
            action="store_true",
            help="leave the accounts' password hashes out (imported accounts then need a password reset)",
        )

    def handle(
        self, *args: Any, slug: str, output: str | None, without_passwords: bool, **options: Any
    ) -> None:
        try:
            data = club_export(slug=slug, passwords=not without_passwords)
        except ApplicationError as exc:
            raise CommandError(str(exc.message)) from None
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(
                f"Club {slug}: {len(data['objects'])} rows, {len(data['users'])} accounts -> {output}"
            )
        else:
            sys.stdout.write(text + "\n")
