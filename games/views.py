"""Online play's pages: the lobby, a table, joining by invitation, verifying a deal."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.engine.protocol import GameKind
from games.engine.sixtysix.bots import BOT_NAMES
from games.engine.sixtysix.game import deal_for, game_rules
from games.engine.sixtysix.rules import PROFILES
from games.models import OnlineGame
from games.online.series import series_game_play
from games.online.services import deal_seed, seat_join, table_create
from snapleague.errors import ApplicationError

PLAYABLE_PROFILES = [name for name, rules in PROFILES.items() if rules.match is not None]


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    games = OnlineGame.objects.prefetch_related("seats__user").order_by("-created_at")
    mine = (
        games.filter(seats__user_id=request.user.pk).distinct()[:20] if request.user.is_authenticated else []
    )
    return render(
        request,
        "games/lobby.html",
        {
            "profiles": PLAYABLE_PROFILES,
            "levels": BOT_NAMES,
            "mine": mine,
            "open": games.filter(status=OnlineGame.Status.OPEN)[:20],
            "live": games.filter(status=OnlineGame.Status.PLAYING)[:20],
        },
    )


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    profile = request.POST.get("profile", "snapszer")
    opponent = request.POST.get("opponent", "bot")
    level = request.POST.get("level", "casual")
    try:
        game = table_create(
            user=request.user,
            kind=GameKind.SNAPSZER,
            options={"profile": profile},
            seats=2,
            bots=[level] if opponent == "bot" else [],
        )
    except ApplicationError as error:
        messages.error(request, str(error.message))
        return redirect("games:lobby")
    return redirect("games:table", game.pk)


@login_required
@require_GET  # the invitation is a link
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        seat = seat_join(user=request.user, token=token)
    except ApplicationError as error:
        messages.error(request, str(error.message))
        return redirect("games:lobby")
    return redirect("games:table", seat.game_id)


@login_required
@require_POST
def series_play(request: HttpRequest, series_id: int) -> HttpResponse:
    """A seated player's "Play": the series' next game online (started, or the one in play)."""
    try:
        game = series_game_play(user=request.user, series_id=series_id)
    except ApplicationError as error:
        messages.error(request, str(error.message))
        return redirect("tournaments:series", series_id)
    return redirect("games:table", game.pk)


def _names(game: OnlineGame) -> list[str]:
    return [
        s.user.username if s.user else (f"bot ({s.bot_level})" if s.bot_level else "—")
        for s in game.seats.all()
    ]


@require_GET
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(OnlineGame.objects.prefetch_related("seats__user"), pk=game_id)
    seat = next(
        (
            s.number
            for s in game.seats.all()
            if request.user.is_authenticated and s.user_id == request.user.pk
        ),
        None,
    )
    invite = (
        request.build_absolute_uri(reverse("games:join", args=[game.invite_token]))
        if seat is not None
        else ""
    )
    return render(
        request,
        "games/table.html",
        {"game": game, "seat": seat, "names": _names(game), "invite": invite},
    )


@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """Recompute the deal from the revealed seeds (docs/online.md, "Fair dealing")."""
    game = get_object_or_404(OnlineGame, pk=game_id)
    if game.kind != GameKind.SNAPSZER:
        raise Http404
    context: dict[str, Any] = {"game": game, "seats": list(game.seats.all())}
    if game.server_seed:
        server = bytes.fromhex(game.server_seed)
        seed = deal_seed(server, [bytes.fromhex(s.client_seed) for s in context["seats"]])
        _profile, rules = game_rules(game.options)
        hands = len((game.result or {}).get("hands", [])) or 1
        context.update(
            commitment_ok=hashlib.sha256(server).hexdigest() == game.server_seed_hash,
            deal_seed=seed.hex(),
            seed_ok=(game.setup or {}).get("seed") == seed.hex(),
            deals=[(n, [c.name for c in deal_for(rules, seed, n)]) for n in range(1, hands + 1)],
        )
    return render(request, "games/verify.html", context)
