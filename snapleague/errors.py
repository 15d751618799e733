"""Errors that services raise for people to act on (rendered by ``snapleague.api_errors``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise


class ApplicationError(Exception):
    """A refusal a user can act on: a stable ``code``, a translated ``message``, optional field errors.

    ``status`` is the HTTP status an API answers with. Bugs are never ApplicationErrors: they stay
    ordinary exceptions and are logged.
    """

    status = 400

    def __init__(
        self,
        *,
        code: str,
        message: str | Promise,
        fields: Mapping[str, Sequence[str | Promise]] | None = None,
        extra: Mapping[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.fields = dict(fields or {})
        self.extra = dict(extra or {})
        if status is not None:
            self.status = status


class PermissionDenied(ApplicationError):
    status = 403


class NotFound(ApplicationError):
    status = 404


class Conflict(ApplicationError):
    status = 409
