"""One error shape for the whole API: ``{"code", "message", "fields": {name: [messages]}, "extra"}``."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from snapleague.errors import RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE, ApplicationError, is_unavailable

logger = logging.getLogger(__name__)

# DRF words a body it cannot parse with the parser's English ("JSON parse error - Expecting value:
# line 1 column 1 (char 0)"): the client gets this instead, the parser's words go to the log.
UNREADABLE_BODY = gettext_lazy(
    "The request body could not be read: send a JSON object with the header Content-Type: application/json."
)


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested ``ValidationError.detail`` as ``{"field.sub": [messages]}``."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            for k, v in _flatten(value, name).items():
                out.setdefault(k, []).extend(v)
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {prefix or "non_field_errors": [str(item) for item in detail]}
        out = {}
        for index, item in enumerate(detail):
            for k, v in _flatten(item, f"{prefix}.{index}" if prefix else str(index)).items():
                out.setdefault(k, []).extend(v)
        return out
    return {prefix or "non_field_errors": [str(detail)]}


def error_body(
    code: str, message: str, fields: dict[str, list[str]] | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"code": code, "message": message, "fields": fields or {}, "extra": extra or {}}


def unavailable_response() -> Response:
    """503 with Retry-After: the database or the broker is not answering (docs/reliability.md)."""
    response = Response(
        error_body("unavailable", str(UNAVAILABLE_MESSAGE), extra={"retry_after_s": RETRY_AFTER_SECONDS}),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if is_unavailable(exc):
        logger.warning("answering 503: %s: %s", type(exc).__name__, exc)
        return unavailable_response()
    if isinstance(exc, ApplicationError):
        fields = {name: [str(m) for m in messages] for name, messages in exc.fields.items()}
        response = Response(error_body(exc.code, str(exc.message), fields, exc.extra), status=exc.status)
        if exc.status == status.HTTP_429_TOO_MANY_REQUESTS and "retry_after_s" in exc.extra:
            response["Retry-After"] = str(exc.extra["retry_after_s"])
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # a bug: DRF re-raises, Django logs it and answers 500
    if isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", _("Some fields need correcting."), _flatten(exc.detail))
    elif isinstance(exc, exceptions.ParseError):
        logger.info("unreadable request body: %s", exc.detail)
        body = error_body("parse_error", str(UNREADABLE_BODY))
    else:
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        body = error_body(str(code), str(detail))
    response.data = body
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS and getattr(exc, "wait", None):
        response.data["extra"] = {"retry_after_s": exc.wait}  # type: ignore[attr-defined]
    return response
