"""Pages render the refusals services raise; the API has its own handler (``api_errors``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from snapleague.errors import ApplicationError


class ApplicationErrorMiddleware:
    """An ApplicationError escaping a page view becomes its status with the message (a 403 for
    someone not logged in becomes the login page, then back)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ApplicationError) or request.path.startswith("/api/"):
            return None
        if exception.status == 403 and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return render(request, "error.html", {"error": exception}, status=exception.status)
