"""What the pages of every concern share: the live poll's interval, the version endpoint's answer,
and how a refusal is shown (next to a form's fields, or as a message on the page it came from).

Each concern's pages (``tournaments/<concern>/views.py``) parse the request -> one selector or
service -> render. Permissions are decided in the selectors and services
(``tournaments/access.py``); a refusal they raise is rendered by
``snapleague.middleware.ApplicationErrorMiddleware`` (403/404 page, or the login page for someone
not logged in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, JsonResponse

from snapleague.errors import ApplicationError

LIVE_POLL_SECONDS = 2


def version_changed(request: HttpRequest, version: str, event: str) -> JsonResponse:
    """The version endpoint: tells htmx to reload the fragment when the version moved on."""
    response = JsonResponse({"version": version})
    seen = request.GET.get("seen")
    if seen is not None and seen != version:
        response["HX-Trigger"] = event
    response["Cache-Control"] = "no-store"
    return response


def refusal_told(request: HttpRequest, exc: ApplicationError) -> None:
    """A button's refusal is told on the page it came from (a message); permission and not-found
    refusals are not the page's business (the middleware answers them)."""
    if exc.status in (403, 404):
        raise exc
    messages.error(request, str(exc.message))


def apply_service_error(form: Any, exc: ApplicationError) -> None:
    """Show a refusal next to the form's fields; permission and not-found refusals are not the
    form's business (the middleware answers them)."""
    if exc.status in (403, 404):
        raise exc
    for name, messages_ in exc.fields.items():
        for message in messages_:
            form.add_error(name if name in form.fields else None, str(message))
    if not exc.fields:
        form.add_error(None, str(exc.message))


def form_saved(form: Any, save: Callable[..., Any]) -> tuple[Any, int]:
    """Validate ``form`` and call ``save(**form.service_kwargs())``; returns (what was saved or
    None, the status to render the form with). A refusal is shown next to the form's fields."""
    if not form.is_valid():
        return None, 400
    try:
        return save(**form.service_kwargs()), 200
    except ApplicationError as exc:
        apply_service_error(form, exc)
        return None, exc.status
