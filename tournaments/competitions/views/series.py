"""A series' pages: the series with its games (and their live version), an organiser's no-show."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError
from snapleague.fragments import fragment_response, public_page
from snapleague.users import signed_in
from tournaments.competitions.forms.stages import ForfeitForm
from tournaments.competitions.selectors import series as series_selectors
from tournaments.competitions.selectors.public import series_public_get
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.pages import LIVE_POLL_SECONDS, refusal_told, version_changed


@require_GET
def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series page. An anonymous visitor's is rendered once per version of what it shows and
    taken from the cache (snapleague/fragments.py); a signed-in reader's has their own buttons (record,
    report, confirm, play) and is rendered for them."""
    if not signed_in(request.user):
        public = series_public_get(series_id=series_id)
        return public_page(
            request,
            public=public,
            template="tournaments/series.html",
            main=lambda: _series_main_html(request, series_id),
        )
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    return render(request, "tournaments/series.html", {"page": page, "poll": LIVE_POLL_SECONDS})


def _series_main_html(request: HttpRequest, series_id: int) -> str:
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    context = {"page": page, "poll": LIVE_POLL_SECONDS}
    return render_to_string("tournaments/_series_main.html", context, request=request)


@require_GET
def series_fragment(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series' live part (games, reports, status), what its watchers fetch when told "changed":
    an anonymous visitor's is rendered once per version (snapleague/fragments.py), a signed-in
    reader's (their buttons) for them."""
    if not signed_in(request.user):
        public = series_public_get(series_id=series_id)

        def rendered() -> str:
            page = series_selectors.series_page_get(user=request.user, series_id=series_id)
            context = {"page": page, "poll": LIVE_POLL_SECONDS}
            return render_to_string("tournaments/_series_games.html", context, request=request)

        return fragment_response(
            request, topic=f"{public.topic}:games", version=public.version, render=rendered
        )
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    response = render(request, "tournaments/_series_games.html", {"page": page, "poll": LIVE_POLL_SECONDS})
    response["Cache-Control"] = "private, no-cache"  # their own buttons: never in a shared cache
    return response


@require_GET
def series_version(request: HttpRequest, series_id: int) -> JsonResponse:
    version = series_selectors.series_version_get(user=request.user, series_id=series_id)
    return version_changed(request, str(version), "series-changed")


@login_required
@require_POST
def series_forfeit(request: HttpRequest, series_id: int) -> HttpResponse:
    page = series_selectors.series_manage_page_get(user=request.user, series_id=series_id)
    players = [seat.player for seat in page.series.seats.select_related("player")]
    form = ForfeitForm(request.POST, players=players)
    if form.is_valid():
        try:
            stages_withdrawals.series_forfeit(
                user=request.user,
                series_id=series_id,
                player_ids=form.cleaned_data["players"],
                reason=form.cleaned_data["reason"],
            )
        except ApplicationError as exc:
            refusal_told(request, exc)
        else:
            messages.success(request, _("The no-show is recorded and the series decided."))
    else:
        messages.error(request, _("Tick the players who did not come."))
    return redirect("tournaments:series", series_id=series_id)
