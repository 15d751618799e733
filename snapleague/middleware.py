"""Pages render the refusals services raise; the API has its own handler (``api_errors``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from snapleague.api_errors import error_body
from snapleague.errors import ApplicationError


class ApplicationErrorMiddleware:
    """An ApplicationError escaping a page view becomes its status with the message (a 403 for
    someone not logged in becomes the login page, then back)."""

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
        if not isinstance(exception, ApplicationError) or request.path.startswith("/api/"):
            return None
        if exception.status == 403 and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return render(request, "error.html", {"error": exception}, status=exception.status)
