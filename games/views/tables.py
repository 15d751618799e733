"""Online play's tables: the lobby, opening a table (and a practice game against bots), joining by
invitation, a tournament series' "Play", the table page, verifying a deal and the replay
(docs/online.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.analysis import analysis_context
from games.card_names import card_names
from games.engine.protocol import GameKind, engine_for
from games.models import OnlineGame
from games.online.kinds import online_for
from games.online.replay import (
    ALL,
    replay_get,
    seat_names,
)
from games.online.series import play_deadline, series_game_play
from games.online.services import (
    ABSENT_SECONDS_RANGE,
    deal_seed,
    seat_join,
    seats_fill_with_bots,
    table_create,
)
from snapleague.errors import ApplicationError

PLAYABLE_PROFILES = list(online_for(GameKind.SNAPSZER).variants())
# Online Snap's game lengths (the S20 online time cap, ``max_game_seconds``), in seconds.
SNAP_LENGTHS = (720, 300, 120, 30)
ABSENT_DEFAULT = 60  # seconds a player may be away before a bot takes the seat (the lobby's default)


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request)


def _lobby(request: HttpRequest, status: int = 200) -> HttpResponse:
    # Hands entered card by card are records, not games played here: only in "Hands you entered".
    games = (
        OnlineGame.objects.prefetch_related("seats__user")
        .filter(source=OnlineGame.Source.ONLINE)
        .order_by("-created_at")
    )
    entered = (
        OnlineGame.objects.filter(source=OnlineGame.Source.HAND, created_by_id=request.user.pk).order_by(
            "-created_at"
        )[:20]
        if request.user.is_authenticated
        else []
    )
    mine = (
        games.filter(seats__user_id=request.user.pk).distinct()[:20] if request.user.is_authenticated else []
    )
    snap = online_for(GameKind.SNAP)
    return render(
        request,
        "games/lobby.html",
        {
            "profiles": PLAYABLE_PROFILES,
            "levels": online_for(GameKind.SNAPSZER).bot_levels,
            "snap_variants": list(snap.variants()),
            "snap_levels": snap.bot_levels,
            "snap_seats": range(
                engine_for(GameKind.SNAP).seat_range()[0], engine_for(GameKind.SNAP).seat_range()[1] + 1
            ),
            "snap_lengths": SNAP_LENGTHS,
            "snap_extra_rounds": snap.extra_rounds(),
            "practice_seats": PRACTICE_SEATS,
            "absent_default": ABSENT_DEFAULT,
            "absent_range": ABSENT_SECONDS_RANGE,
            "mine": mine,
            "entered": entered,
            # A series' game is started by its players ("Play"), not joined from the lobby.
            "open": games.filter(status=OnlineGame.Status.OPEN, series__isnull=True)[:20],
            "live": games.filter(status=OnlineGame.Status.PLAYING)[:20],
            # Casual games only: a tournament game's replay is linked from its series' page.
            "finished": games.filter(status=OnlineGame.Status.FINISHED, series__isnull=True).order_by(
                "-finished_at"
            )[:20],
        },
        status=status,
    )


def _said(request: HttpRequest, error: ApplicationError) -> None:
    """The refusal's message and its field errors as messages on the next page."""
    messages.error(request, str(error.message))
    for problems in (error.fields or {}).values():
        for problem in problems if isinstance(problems, list) else [problems]:
            if str(problem) != str(error.message):
                messages.error(request, str(problem))


def _open_table(request: HttpRequest, table: Callable[[], dict[str, Any]]) -> HttpResponse:
    """Opens the table ``table()`` describes (``table_create``'s arguments; it may refuse them)
    for the user with their client seed, and goes to it. Refused: the lobby again, with the
    reasons and the error's status."""
    try:
        game = table_create(user=request.user, client_seed=request.POST.get("client_seed", ""), **table())
    except ApplicationError as error:
        _said(request, error)
        return _lobby(request, status=error.status)
    return redirect("games:table", game.pk)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return -1  # the service refuses it with its message


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    """A casual table of either game: its rules (a variant the game's online play offers), its
    seats, bots of a level in every other seat or seats left open for people to join, and the
    creator's client seed. Refused: the lobby again, with the reasons and the error's status."""
    kind = request.POST.get("game", GameKind.SNAPSZER)
    opponent = request.POST.get("opponent", "bot")
    try:
        online = online_for(kind)
    except ValueError:
        messages.error(request, str(_("There is no such game.")))
        return _lobby(request, status=400)
    variants = online.variants()
    variant = request.POST.get("profile") or next(iter(variants))
    level = request.POST.get("level", online.default_level)
    low, _high = engine_for(kind).seat_range()
    seats = _int(request.POST.get("seats"), low) if kind == GameKind.SNAP else low

    def table() -> dict[str, Any]:
        if variant not in variants:
            raise ApplicationError(code="unknown_variant", message=_("There are no such rules."))
        options = dict(variants[variant])
        length = request.POST.get("length")
        if length:
            options["max_game_seconds"] = _int(length, 0)
        return {
            "kind": kind,
            "options": options,
            "seats": seats,
            "bots": [level] * (seats - 1) if opponent == "bot" else [],
            "absent_seconds": (
                _int(request.POST["absent_seconds"], -1) if request.POST.get("absent_seconds") else None
            ),
        }

    return _open_table(request, table)


@login_required
@require_POST
def fill_with_bots(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table's creator fills its empty seats with bots of a level, which starts the game."""
    game = get_object_or_404(OnlineGame, pk=game_id)
    if game.created_by_id != request.user.pk:
        messages.error(request, str(_("Only the player who opened this table can fill it with bots.")))
        return redirect("games:table", game.pk)
    try:
        seats_fill_with_bots(
            game_id=game.pk, level=request.POST.get("level", online_for(game.kind).default_level)
        )
    except ApplicationError as error:
        messages.error(request, str(error.message))
    return redirect("games:table", game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation: GET shows the table (its rules, who sits where, the server seed's
    commitment) and a "Take the seat" form with a client seed; only the POST takes the seat."""
    game = get_object_or_404(OnlineGame.objects.prefetch_related("seats__user"), invite_token=token)
    status = 200
    if request.method == "POST":
        try:
            seat = seat_join(user=request.user, token=token, client_seed=request.POST.get("client_seed", ""))
        except ApplicationError as error:
            _said(request, error)
            status = error.status
        else:
            return redirect("games:table", seat.game_id)
    seats = list(game.seats.all())
    return render(
        request,
        "games/join.html",
        {
            "game": game,
            "seats": list(zip(seats, seat_names(game), strict=True)),
            "seated": any(s.user_id == request.user.pk for s in seats),
        },
        status=status,
    )


@login_required
@require_POST
def series_play(request: HttpRequest, series_id: int) -> HttpResponse:
    """A seated player's "Play", with their client seed: their seat at the series' next game
    online (dealt once every player has pressed it). A refused seed: 400, the form again."""
    try:
        game = series_game_play(
            user=request.user, series_id=series_id, client_seed=request.POST.get("client_seed", "")
        )
    except ApplicationError as error:
        _said(request, error)
        if error.code == "client_seed":
            return render(request, "games/series_play.html", {"series_id": series_id}, status=error.status)
        return redirect("tournaments:series", series_id)
    return redirect("games:table", game.pk)


@require_GET
def fairness(request: HttpRequest) -> HttpResponse:
    """How a deal is computed from the seeds (the algorithm the verify page recomputes)."""
    return render(request, "games/fairness.html")


@require_GET
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(OnlineGame.objects.prefetch_related("seats__user"), pk=game_id)
    if game.source == OnlineGame.Source.HAND:  # a record has no table: its replay is the page
        return redirect("games:replay", game.pk)
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
        if seat is not None and game.series_id is None  # a series' players start it with "Play"
        else ""
    )
    return render(
        request,
        f"games/table_{game.kind}.html",
        {
            "game": game,
            "seat": seat,
            "names": seat_names(game),
            "invite": invite,
            "levels": online_for(game.kind).bot_levels,
            "empty_seats": sum(1 for s in game.seats.all() if s.is_empty),
            "may_fill": game.status == OnlineGame.Status.OPEN
            and game.series_id is None
            and game.created_by_id == request.user.pk,
            "card_names": card_names(game.kind),
            "play_deadline": play_deadline(game)
            if game.series_id is not None and game.status == OnlineGame.Status.OPEN
            else None,
            **online_for(game.kind).page_context(game, seat),
        },
    )


@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """Recompute the deal from the revealed seeds (docs/online.md, "Fair dealing")."""
    game = get_object_or_404(OnlineGame, pk=game_id)
    context: dict[str, Any] = {
        "game": game,
        "seats": list(game.seats.all()),
        "entered": game.source == OnlineGame.Source.HAND,  # dealt at a table: no seeds to verify
    }
    if game.server_seed:
        server = bytes.fromhex(game.server_seed)
        seed = deal_seed(server, [bytes.fromhex(s.client_seed) for s in context["seats"]])
        context.update(
            commitment_ok=hashlib.sha256(server).hexdigest() == game.server_seed_hash,
            deal_seed=seed.hex(),
            seed_ok=(game.setup or {}).get("seed") == seed.hex(),
            deals=online_for(game.kind).deck_orders(game, seed),
        )
    return render(request, "games/verify.html", context)


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game (docs/online.md, "Replays"): ``?seat=`` a seat or ``all``,
    ``?step=`` the step shown first (the page keeps both in the address)."""
    game, steps = replay_get(user=request.user, game_id=game_id, viewer=request.GET.get("seat"))
    names = seat_names(game)
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "names": names,
            "viewer": steps.viewer,
            "viewers": [(str(n), name) for n, name in enumerate(names)] + [(ALL, _("All cards"))],
            "steps": [step.to_dict(index) for index, step in enumerate(steps.steps)],
            **analysis_context(user=request.user, game=game, viewer=steps.viewer),
        },
    )


PRACTICE_SEATS = (2, 3, 4)
PRACTICE_LENGTH = 120  # seconds: a practice game is short


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """ "Practice against bots": one press starts a short classic Snap game against bots of the
    chosen level; it counts in the player's statistics like any game, and its end screen links to
    the reaction times of that game."""
    snap = online_for(GameKind.SNAP)
    level = request.POST.get("level", "")
    seats = _int(request.POST.get("seats"), PRACTICE_SEATS[0])

    def table() -> dict[str, Any]:
        if level not in snap.bot_levels:
            raise ApplicationError(
                code="unknown_level",
                message=_("There is no such bot level."),
                fields={"level": [_("Choose one of the levels offered.")]},
            )
        if seats not in PRACTICE_SEATS:
            raise ApplicationError(
                code="seats",
                message=_("A practice game has 2, 3 or 4 players."),
                fields={"seats": [_("Choose 2, 3 or 4.")]},
            )
        return {
            "kind": GameKind.SNAP,
            "options": {**snap.variants()["classic"], "max_game_seconds": PRACTICE_LENGTH},
            "seats": seats,
            "bots": [level] * (seats - 1),
        }

    return _open_table(request, table)
