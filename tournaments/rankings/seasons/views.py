"""A club's seasons' pages (docs/seasons.md): the list, a season's table, creating and editing one,
which tournaments count."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from snapleague.errors import ApplicationError
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.pages import form_saved, refusal_told
from tournaments.rankings.seasons import selectors as season_selectors
from tournaments.rankings.seasons import services as season_services
from tournaments.rankings.seasons.forms import SeasonForm


@require_GET
def club_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    page = season_selectors.club_seasons_page_get(user=request.user, slug=slug)
    return render(request, "tournaments/seasons.html", {"page": page})


@require_GET
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    page = season_selectors.season_page_get(user=request.user, season_id=season_id)
    return render(request, "tournaments/season.html", {"page": page})


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_manage_page_get(user=request.user, slug=slug)
    status = 200
    if request.method == "POST":
        form = SeasonForm(request.POST)
        season, status = form_saved(
            form,
            lambda **fields: season_services.season_create(user=request.user, club=page.club, **fields),
        )
        if season is not None:
            messages.success(request, _("Season created."))
            return redirect("tournaments:season", season_id=season.pk)
    else:
        form = SeasonForm(initial={"points_scale": season_services.DEFAULT_SCALE})
    context = {"club": page.club, "form": form, "season": None}
    return render(request, "tournaments/season_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, season_id: int) -> HttpResponse:
    season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
    status = 200
    if request.method == "POST":
        form = SeasonForm(request.POST)
        saved, status = form_saved(
            form,
            lambda **fields: season_services.season_update(user=request.user, season_id=season.pk, **fields),
        )
        if saved is not None:
            messages.success(request, _("Season saved."))
            return redirect("tournaments:season", season_id=season.pk)
    else:
        form = SeasonForm(initial=season_selectors.season_fields(season))
    context = {
        "club": season.club,
        "form": form,
        "season": season,
        "candidates": season_selectors.season_candidates(season=season),
    }
    return render(request, "tournaments/season_form.html", context, status=status)


@login_required
@require_POST
def season_tournament(request: HttpRequest, season_id: int) -> HttpResponse:
    """In, out, or by date: one tournament of the season's club (the edit page's buttons)."""
    season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
    raw = request.POST.get("tournament", "")
    try:
        season_services.season_tournament_set(
            user=request.user,
            season_id=season.pk,
            tournament_id=int(raw) if raw.isdigit() and len(raw) < 19 else 0,
            choice=request.POST.get("choice", ""),
        )
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(request, _("Season tournaments saved."))
    return redirect(f"{reverse('tournaments:season-edit', args=[season.pk])}#tournaments")
