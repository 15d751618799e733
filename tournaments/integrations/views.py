"""The downloads other programs read: spreadsheets (CSV, docs/exports.md) of standings, results,
season tables and ladders, and the iCal feeds of sessions (a tournament's, a club's, a player's
private one, and replacing its address). The API tokens' and webhooks' pages are in their own
packages (``tokens/views.py``, ``webhooks/views.py``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError
from tournaments.integrations import calendar, exports


def _csv_response(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "export"}.csv"'
    return response


@require_GET
def stage_standings_csv(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The stage's standings as a spreadsheet (docs/exports.md)."""
    page, text = exports.standings_csv(user=request.user, stage_id=stage_id)
    return _csv_response(text, f"{page.tournament.name} {page.stage.name} standings")


@require_GET
def tournament_results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every game's confirmed result as a spreadsheet (docs/exports.md)."""
    tournament, text = exports.results_csv(user=request.user, tournament_id=tournament_id)
    return _csv_response(text, f"{tournament.name} results")


@require_GET
def season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season table as a spreadsheet (docs/exports.md)."""
    page, text = exports.season_csv(user=request.user, season_id=season_id)
    return _csv_response(text, f"{page.season.club.name} {page.season.name}")


@require_GET
def ladder_csv(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder, text = exports.ladder_csv(ladder_id=ladder_id)
    return _csv_response(text, f"{ladder.club.name} {ladder.name}")


# --- Calendars (iCal) ------------------------------------------------------------------------------


def _ics(request: HttpRequest, body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{slugify(name) or "calendar"}.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def _url_of(request: HttpRequest) -> calendar.UrlOf:
    return lambda name, pk: request.build_absolute_uri(reverse(f"tournaments:{name}", args=[pk]))


def _not_found_text(exc: ApplicationError) -> HttpResponse:
    """A calendar app shows the body of a refusal, if anything: plain text, not a page."""
    return HttpResponse(str(exc.message), status=exc.status, content_type="text/plain; charset=utf-8")


@require_GET
def tournament_calendar(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        sessions, tournament = calendar.tournament_feed(tournament_id=tournament_id)
    except ApplicationError as exc:
        return _not_found_text(exc)
    body = calendar.calendar_of_sessions(
        tournament.name, sessions, host=request.get_host(), url_of=_url_of(request)
    )
    return _ics(request, body, tournament.name)


@require_GET
def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        sessions, club = calendar.club_feed(slug=slug)
    except ApplicationError as exc:
        return _not_found_text(exc)
    body = calendar.calendar_of_sessions(
        club.name, sessions, host=request.get_host(), url_of=_url_of(request)
    )
    return _ics(request, body, club.name)


@login_required
@require_POST
def player_calendar_replace(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player replaces their private feed's address (their own page's button): the old one
    stops working at once."""
    token = calendar.calendar_token_replace(user=request.user, player_id=player_id)
    messages.success(
        request,
        _(
            "Your calendar has a new address: add it to your calendar app again. The old address no longer works."
        ),
    )
    return redirect("tournaments:player", player_id=token.player_id)


@require_GET
def player_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """A player's private feed: the address is the key (a calendar app cannot sign in)."""
    try:
        player = calendar.player_by_calendar_token(token=token)
    except ApplicationError as exc:
        return _not_found_text(exc)
    body = calendar.calendar_of_player(player, host=request.get_host(), url_of=_url_of(request))
    return _ics(request, body, player.name)
