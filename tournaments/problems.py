"""The error the pure tournament modules raise for inputs they cannot work with."""

from __future__ import annotations

from enum import StrEnum


class TournamentInputError(ValueError):
    """A stable ``code`` (the Django layer translates by it), a plain-English ``message`` a person can
    act on, and ``extra`` values naming what was wrong."""

    def __init__(self, code: StrEnum, message: str, extra: dict[str, object] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra or {}
