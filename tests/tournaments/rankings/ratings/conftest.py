"""Fixtures of the ratings tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import record_result


@pytest.fixture(autouse=True)
def _on_commit(django_capture_on_commit_callbacks: Any, monkeypatch: Any) -> None:
    """Every result the history helpers record runs its on-commit work (standings, then ratings),
    as after a real commit: the test's transaction never commits."""

    def record(**kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return record_result(**kwargs)

    monkeypatch.setattr("tests.tournaments.rankings.ratings.test_services.record_result", record)
