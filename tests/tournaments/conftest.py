"""Fixtures of the tournament tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests.tournaments import hu_catalogue as catalogue


@pytest.fixture
def hu_catalogue(settings: Any, tmp_path: Path) -> Iterator[None]:
    """The "hu" test catalogue (tests/tournaments/hu_catalogue.py) for this test."""
    catalogue.install(settings, tmp_path)
    yield
    translation.activate(settings.LANGUAGE_CODE)
