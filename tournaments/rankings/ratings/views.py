"""A club's ratings page (docs/ratings.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.clubs import selectors as club_selectors
from tournaments.rankings.ratings.selectors import club_ratings_get


@require_GET
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_selectors.club_get(slug=slug)
    return render(request, "tournaments/club_ratings.html", {"page": club_ratings_get(club=club)})
