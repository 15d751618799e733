"""The API's OpenAPI schema is the committed docs/api/openapi.yaml, byte for byte (issue 24 item 4).

The proof that a layout move changes no API: the schema is regenerated the way the committed copy
was made (tests/api_schema_snapshot.py) and compared whole. When an API change is intended,
regenerate the copy and commit it with the change (the diff is the API change a reviewer reads).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from tests.api_schema_snapshot import COMMITTED, REFRESH, generate


def test_openapi_schema_is_the_committed_copy(tmp_path: Path) -> None:
    new, old = generate(tmp_path / "openapi.yaml"), COMMITTED.read_bytes()
    if new != old:
        diff = difflib.unified_diff(
            old.decode().splitlines(), new.decode().splitlines(), "committed", "generated", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        raise AssertionError(
            f"The API's OpenAPI schema differs from docs/api/openapi.yaml.\n"
            f"If the API change is intended, refresh the copy and commit it with the change:\n    {REFRESH}\n"
            f"If not, the change altered the API.\n{shown}"
        )
