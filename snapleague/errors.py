"""Errors that services raise for people to act on (rendered by ``snapleague.api_errors``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy


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


# --- The service is briefly unavailable ---------------------------------------------------------

# Seconds a client is asked to wait (Retry-After) when the database or the broker does not answer:
# a PostgreSQL restart takes a second or two, a Redis restart less.
RETRY_AFTER_SECONDS = 5

UNAVAILABLE_MESSAGE = gettext_lazy(
    "snapleague cannot reach its database or its task queue just now. Nothing was lost: try again in a few seconds "
    "(a result sent again with the same Idempotency-Key is recorded once)."
)


def is_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database or the broker is not answering (a restart, a network cut,
    SQLite busy past its timeout), rather than that the request or the code is wrong: such a request
    gets 503 with Retry-After, not 500. Integrity and programming errors are not among them."""
    from django.db import InterfaceError, OperationalError
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError

    return isinstance(exc, OperationalError | InterfaceError | BrokerError | RedisConnectionError)
