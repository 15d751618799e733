"""The engines never use global randomness.

An engine may name ``random.Random`` (as the type of a generator the caller injects) but never
call the module's functions, which share one global, unseeded generator.

That they import neither Django, DRF, the apps nor the clock (time, datetime, secrets, uuid, os) is
the import contract "engines-pure" in pyproject.toml, which ``lint-imports`` checks
(tests/test_import_contracts.py); this file keeps what a contract cannot see: which names of
``random`` are used.
"""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "games" / "engine"
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def _problems(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module == "random"
            and any(a.name != "Random" for a in node.names)
        ):
            found.append(f"line {node.lineno}: imports a function of the global generator")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.append(f"line {node.lineno}: uses random.{node.attr} (inject a random.Random instead)")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "Random"
            and not node.args
        ):
            found.append(f"line {node.lineno}: random.Random() without a seed reads global entropy")
    return found


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_is_pure(path: Path) -> None:
    assert _problems(ast.parse(path.read_text(), filename=str(path))) == []


@pytest.mark.parametrize(
    "source",
    [
        "random.shuffle(x)",
        "from random import choice",
        "rng = random.Random()",
    ],
)
def test_purity_check_catches(source: str) -> None:
    assert _problems(ast.parse(source)) != []
