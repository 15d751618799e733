"""Every name an engine package exports exists (``from games.engine.snap import *`` works)."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("package", ["games.engine.snap", "games.engine.sixtysix"])
def test_every_exported_name_exists(package: str) -> None:
    module = importlib.import_module(package)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
