"""The pure tournament modules take nothing from outside their arguments: no Django, no clock, no
randomness (their only chance, the coin flips, are hashes of recorded seeds).

The rest of ``tournaments/`` (models, services, tasks) is Django code and is not checked here.
"""

import ast
from pathlib import Path

import pytest

TOURNAMENTS = Path(__file__).resolve().parents[2] / "tournaments"
PURE = [
    TOURNAMENTS / "series.py",
    TOURNAMENTS / "standings.py",
    TOURNAMENTS / "problems.py",
    TOURNAMENTS / "bracket_svg.py",
    TOURNAMENTS / "sessions" / "planning.py",
    TOURNAMENTS / "ratings" / "glicko2.py",
    TOURNAMENTS / "ratings" / "history.py",
    TOURNAMENTS / "ratings" / "plot.py",
    TOURNAMENTS / "seasons" / "table.py",
    TOURNAMENTS / "ladder" / "rules.py",
    *sorted((TOURNAMENTS / "formats").rglob("*.py")),
]
FORBIDDEN = {"django", "rest_framework", "celery", "time", "datetime", "random", "secrets", "uuid", "os"}


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(TOURNAMENTS)))
def test_pure_tournament_module(path: Path) -> None:
    assert imported_roots(path.read_text()) & FORBIDDEN == set()


def test_the_check_catches_a_clock() -> None:
    assert imported_roots("from datetime import datetime\nimport django.db") & FORBIDDEN == {
        "datetime",
        "django",
    }
