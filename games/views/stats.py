"""Snap statistics' pages: a person's, one's own, and one finished game's (docs/snap-stats.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.online.replay import (
    seat_names,
)
from games.snap_stats.chart import reaction_histogram_svg
from games.snap_stats.measure import summarise
from games.snap_stats.selectors import person_stats_get, snap_game_stats_page_get


def _chart(reactions: list[int], summary: Any) -> str:
    return reaction_histogram_svg(
        reactions,
        title=_("Reaction times"),
        axis=_("Reaction time (ms), from the card that made the match to the call"),
        median_ms=summary.median_ms,
        p90_ms=summary.p90_ms,
        median_label=_("median"),
        p90_label=_("90th percentile"),
    )


def _person_page(request: HttpRequest, person_id: int) -> HttpResponse:
    stats = person_stats_get(user=request.user, person_id=person_id)
    return render(
        request,
        "games/snap_stats.html",
        {
            "stats": stats,
            "mine": stats.person.pk == request.user.pk,
            "summary": stats.summary,
            "chart": _chart(list(stats.summary.reactions), stats.summary),
            "lines": list(reversed(stats.lines)),
            "players": stats.person.players.select_related("club"),
        },
    )


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    """My Snap statistics: every finished Snap game I sat in."""
    return _person_page(request, request.user.pk)


@require_GET
def person_stats(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's Snap statistics over the games the visitor may see (casual ones, and tournament
    games of series the visitor may see)."""
    return _person_page(request, user_id)


@require_GET
def game_stats(request: HttpRequest, game_id: int) -> HttpResponse:
    """One finished Snap game's statistics, every seat (for whoever may see its replay)."""
    game, stats = snap_game_stats_page_get(user=request.user, game_id=game_id)
    names = seat_names(game)
    mine = next(
        (
            s.number
            for s in game.seats.all()
            if request.user.is_authenticated and s.user_id == request.user.pk
        ),
        None,
    )
    rows = [(names[s.seat], s, summarise([(stats, s.seat)])) for s in stats.seats]
    focus = stats.seats[mine if mine is not None else 0]
    summary = summarise([(stats, focus.seat)])
    return render(
        request,
        "games/snap_game_stats.html",
        {
            "game": game,
            "rows": rows,
            "mine": mine,
            "focus_name": names[focus.seat],
            "chart": _chart(focus.reactions, summary),
            "length_s": round(stats.length_ms / 1000),
        },
    )
