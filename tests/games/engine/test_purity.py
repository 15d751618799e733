"""The engines never import Django, read the clock or use global randomness."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "games" / "engine"
FORBIDDEN_MODULES = {"django", "rest_framework", "time", "datetime", "random", "secrets", "uuid"}
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path}:{node.lineno} imports {name}"
