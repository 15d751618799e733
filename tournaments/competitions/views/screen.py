"""The big screen (docs/web.md, "The big screen"): a tournament's, and the answer a session's
screen shares with it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from snapleague.fragments import fragment_response
from tournaments.competitions import screen
from tournaments.pages import LIVE_POLL_SECONDS


def screen_response(request: HttpRequest, page: Any, *, fragment: bool = False) -> HttpResponse:
    """A big screen (a tournament's or a session's): the whole page, cycling every ``?seconds=``,
    or only its body for the poll that refreshes it."""
    if fragment:
        return render(request, "tournaments/_screen_body.html", {"page": page, "poll": LIVE_POLL_SECONDS})
    context = {
        "page": page,
        "poll": LIVE_POLL_SECONDS,
        "seconds": screen.screen_seconds(request.GET.get("seconds")),
    }
    return render(request, "tournaments/screen.html", context)


@require_GET
def tournament_screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The room's big screen: cycles the current round's tables, the standings and the bracket
    every ``?seconds=`` (docs/web.md, "The big screen")."""
    page = screen.tournament_screen_get(user=request.user, tournament_id=tournament_id)
    return screen_response(request, page)


@require_GET
def tournament_screen_fragment(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The screen's panels, rendered once per version of the tournament's stages for everyone but
    its officials (whose screen also counts the disputes waiting, which the clock makes overdue:
    theirs is rendered each time; snapleague/fragments.py)."""
    topic, version = screen.tournament_screen_version(user=request.user, tournament_id=tournament_id)
    if version is None:
        page = screen.tournament_screen_get(user=request.user, tournament_id=tournament_id)
        return screen_response(request, page, fragment=True)

    def rendered() -> str:
        page = screen.tournament_screen_get(user=request.user, tournament_id=tournament_id)
        context = {"page": page, "poll": LIVE_POLL_SECONDS}
        return render_to_string("tournaments/_screen_body.html", context, request=request)

    return fragment_response(request, topic=topic, version=version, render=rendered)
