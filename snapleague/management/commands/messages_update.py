"""`manage.py messages_update`: bring every catalogue in locale/ up to date with the code's messages
(makemessages for each language but English, always with the same options, so that a diff shows
only what changed). New messages arrive empty and changed ones fuzzy: translate them, and the
catalogue test (tests/snapleague/test_catalogues.py) passes again. Needs GNU gettext (xgettext).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

IGNORE = [".venv", ".oracle-venv", "var", "tests", "benchmarks", "scripts", "node_modules", "deploy"]


def translated_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def makemessages_options() -> dict[str, Any]:
    return {
        "locale": translated_languages(),
        "domain": "django",
        "ignore_patterns": IGNORE,
        "add_location": "file",
        "no_obsolete": True,
        "verbosity": 0,
    }


class Command(BaseCommand):
    help = "Update locale/*/LC_MESSAGES/django.po from the code (makemessages with the project's options)."

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("makemessages", **makemessages_options())
        self.stdout.write(f"updated: {', '.join(translated_languages())}")
