"""Oversized request bodies get 413 with a message, not Django's logged "suspicious operation" 400.

Django refuses a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only when a view (or the CSRF check)
reads ``request.POST`` / ``request.body``, by raising ``RequestDataTooBig``, which it logs as a
security error and answers with a bare 400; DRF's parsers read the stream themselves and do not
check the size at all. ``RequestSizeLimitMiddleware`` looks at ``Content-Length`` before anything
reads the body; ``bad_request`` (``handler400``) answers 413 as well for a body that was found too
big while being read (one sent without a length).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.defaults import bad_request as django_bad_request

from snapleague.api_errors import error_body
from snapleague.errors import ApplicationError


def body_limit() -> int | None:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large_response(request: HttpRequest) -> HttpResponse:
    limit = body_limit() or 0
    message = _("The request is too large: at most %(size)s kB can be sent at once.") % {
        "size": limit // 1024
    }
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("too_large", message, extra={"max_bytes": limit}), status=413)
    error = ApplicationError(code="too_large", message=message, status=413)
    return render(request, "error.html", {"error": error}, status=413)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit()
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            return too_large_response(request)
        return self.get_response(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return too_large_response(request)
    return django_bad_request(request, exception)
