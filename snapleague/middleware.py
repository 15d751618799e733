"""Pages render the refusals services raise; the API has its own handler (``api_errors``). A database
or broker that does not answer is a 503 with Retry-After for both, never a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from snapleague.api_errors import error_body
from snapleague.errors import RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE, ApplicationError, is_unavailable

logger = logging.getLogger(__name__)


def unavailable_page(request: HttpRequest) -> HttpResponse:
    """503 + Retry-After. The page stands alone (no base template): the base asks the session and
    the user, which are in the very database that is not answering."""
    if request.path.startswith("/api/"):
        body = error_body(
            "unavailable", str(UNAVAILABLE_MESSAGE), extra={"retry_after_s": RETRY_AFTER_SECONDS}
        )
        response: HttpResponse = JsonResponse(body, status=503)
    else:
        html = render_to_string(
            "unavailable.html", {"message": UNAVAILABLE_MESSAGE, "retry": RETRY_AFTER_SECONDS}
        )
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class ApplicationErrorMiddleware:
    """An ApplicationError escaping a page view becomes its status with the message (a 403 for
    someone not logged in becomes the login page, then back); a database or broker that does not
    answer becomes 503 with Retry-After (pages, and anything of the API that DRF's handler missed)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and getattr(request, "resolver_match", None) is None
        ):
            # An /api/ address that names no route (``/api/stages/-1/``: ids are positive numbers)
            # never reached DRF; it answers the API's one error shape too, not the HTML 404 page
            # (found by tests/test_api_schema_fuzz.py).
            return JsonResponse(error_body("not_found", _("Not found.")), status=404)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            logger.warning("answering 503: %s: %s", type(exception).__name__, exception)
            return unavailable_page(request)
        if not isinstance(exception, ApplicationError) or request.path.startswith("/api/"):
            return None
        if exception.status == 403 and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return render(request, "error.html", {"error": exception}, status=exception.status)
