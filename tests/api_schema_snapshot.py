"""The API's OpenAPI schema as committed in docs/api/openapi.yaml: how it is made.

``manage.py spectacular --lang en``, in a fresh process, with one adjustment: the bounds of integer
fields come from the database backend (Django's ``integer_field_range``; SQLite says 64 bits for a
PositiveSmallIntegerField, PostgreSQL 32,767), so the schema is made with the bounds every backend
but SQLite uses, PostgreSQL's (what CI and a club server run). The same bytes on either database.

tests/test_api_schema_snapshot.py compares it with the committed copy. When an API change is
intended, refresh the copy and commit it with the change:

    .venv/bin/python -m tests.api_schema_snapshot --write
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "docs" / "api" / "openapi.yaml"
REFRESH = ".venv/bin/python -m tests.api_schema_snapshot --write"

# Run in a new process: a field's validators (and so its bounds) are cached on first use.
_GENERATE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
import django
django.setup()
from django.db import connection
from django.db.backends.base.operations import BaseDatabaseOperations
type(connection.ops).integer_field_range = BaseDatabaseOperations.integer_field_range
from django.core.management import call_command
call_command("spectacular", "--lang", "en", "--file", sys.argv[1])
"""


def generate(target: Path) -> bytes:
    subprocess.run([sys.executable, "-c", _GENERATE, str(target)], cwd=ROOT, check=True, timeout=300)
    return target.read_bytes()


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(f"usage: {REFRESH}")
    generate(COMMITTED)
    print(f"wrote {COMMITTED.relative_to(ROOT)}")
