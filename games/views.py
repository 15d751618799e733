"""Online play's pages: the lobby, a table, joining by invitation, verifying a deal, replays and
their analysis."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.analysis import analysis_context, analysis_request, table_game_analysis_request
from games.card_names import card_names
from games.engine.protocol import GameKind, engine_for
from games.engine.sixtysix.cards import deck
from games.engine.sixtysix.rules import PROFILES as SNAPSZER_PROFILES
from games.hand_entry import (
    ENTRY_PROFILES,
    HandPosition,
    button_words,
    hand_actions_parse,
    hand_deal_from_dict,
    hand_deal_parse,
    hand_entry_save,
    hand_position_get,
    table_game_for_entry,
    table_game_seat_names,
)
from games.models import OnlineGame
from games.online.kinds import online_for
from games.online.replay import (
    ALL,
    card_words,
    finished_game_get,
    replay_get,
    seat_names,
    seat_of,
    suit_words,
    viewer_parse,
)
from games.online.series import play_deadline, series_game_play
from games.online.services import (
    ABSENT_SECONDS_RANGE,
    deal_seed,
    seat_join,
    seats_fill_with_bots,
    table_create,
)
from games.snap_stats.chart import reaction_histogram_svg
from games.snap_stats.measure import summarise
from games.snap_stats.selectors import person_stats_get, snap_game_stats_page_get
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


# --- Snap statistics and practice (docs/snap-stats.md) -----------------------------------------------

PRACTICE_SEATS = (2, 3, 4)
PRACTICE_LENGTH = 120  # seconds: a practice game is short


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


@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """The replay page's analysis panel (docs/analysis.md). GET: the panel (``?seat=`` as the
    replay), polled by htmx while the analysis runs. POST (signed in): ask for the analysis, then
    back to the replay; refused with the reason (a Snap game, cards unknown, not finished)."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        analysis_request(user=request.user, game_id=game_id)
        seat = request.POST.get("seat", "")
        return redirect(
            reverse("games:replay", args=[game_id]) + (f"?seat={seat}" if seat else "") + "#analysis"
        )
    game = finished_game_get(user=request.user, game_id=game_id)
    mine = seat_of(request.user, game)
    viewer = viewer_parse(request.GET.get("seat"), game.seat_count, 0 if mine is None else mine)
    return render(
        request, "games/_analysis.html", analysis_context(user=request.user, game=game, viewer=viewer)
    )


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


@login_required
@require_POST
def table_game_analysis(request: HttpRequest, table_game_id: int) -> HttpResponse:
    """Ask for the analysis of a tournament game: the online game it was played as; a game entered
    by its result only is refused (409: its cards are unknown)."""
    analysis = table_game_analysis_request(user=request.user, game_id=table_game_id)
    return redirect(reverse("games:replay", args=[analysis.game_id]) + "#analysis")


# --- A hand played at a table, entered card by card (games/hand_entry.py; docs/analysis.md) ---------


def _hand_context(request: HttpRequest) -> dict[str, Any]:
    """What every step of the entry carries in its form: the tournament game, the seats' names,
    the author's own seat (entered for themselves)."""
    data = request.POST if request.method == "POST" else request.GET
    table_game = None
    names = [data.get("name_0", "").strip()[:40], data.get("name_1", "").strip()[:40]]
    if data.get("table_game", "").isdigit():
        table_game = table_game_for_entry(user=request.user, table_game_id=int(data["table_game"]))
        names = table_game_seat_names(table_game)
    my_seat = data.get("my_seat", "")
    return {
        "table_game": table_game,
        "names": names,
        "labels": [n or _("Seat %(seat)s") % {"seat": i + 1} for i, n in enumerate(names)],
        "my_seat": int(my_seat) if my_seat in ("0", "1") else None,
    }


def _deal_page(
    request: HttpRequest,
    context: dict[str, Any],
    *,
    values: dict[str, Any],
    actions: str = "[]",
    errors: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    profile = values.get("profile") if values.get("profile") in ENTRY_PROFILES else ENTRY_PROFILES[0]
    rules = SNAPSZER_PROFILES[profile]
    pack = [(c.name, card_words(c.name, GameKind.SNAPSZER)) for c in deck(rules.deck_size)]
    stock = rules.deck_size - 2 * rules.hand_size - 1
    talon = list(values.get("talon") or [])
    return render(
        request,
        "games/hand_entry_deal.html",
        {
            **context,
            "profiles": ENTRY_PROFILES,
            "profile": profile,
            "hand_size": rules.hand_size,
            "pack": pack,
            "values": values,
            "hands": [
                (seat, f"hand_{seat}", context["labels"][seat], set(values.get(f"hand_{seat}") or []))
                for seat in (0, 1)
            ],
            "talon": [(n, talon[n] if n < len(talon) else "") for n in range(stock)],
            "actions": actions,
            "errors": errors or {},
        },
        status=status,
    )


def _play_page(
    request: HttpRequest,
    context: dict[str, Any],
    position: HandPosition,
    *,
    error: ApplicationError | None = None,
    status: int = 200,
) -> HttpResponse:
    state = position.state
    labels = context["labels"]
    seats = [
        {
            "seat": seat,
            "name": labels[seat],
            "cards": [card_words(c.name, GameKind.SNAPSZER) for c in state.hands[seat]],
            "points": state.card_points[seat] + state.marriage_points[seat],
            "tricks": state.trick_counts[seat],
            "choices": [c for c in position.choices if c.seat == seat],
        }
        for seat in (0, 1)
    ]
    steps = [
        _("%(who)s: %(move)s") % {"who": labels[a["seat"]], "move": button_words(a)} for a in position.actions
    ]
    return render(
        request,
        "games/hand_entry_play.html",
        {
            **context,
            "position": position,
            "seats": seats,
            "steps": steps,
            "trump_card": card_words(state.trump_card.name, GameKind.SNAPSZER) if state.trump_card else "",
            "trump_suit": suit_words(state.trump_suit.value, GameKind.SNAPSZER),
            "lead_card": card_words(state.lead_card.name, GameKind.SNAPSZER) if state.lead_card else "",
            "deal_json": json.dumps(position.deal.to_dict()),
            "actions_json": json.dumps(position.actions),
            "error": error,
        },
        status=status,
    )


def _deal_values(request: HttpRequest) -> dict[str, Any]:
    post = request.POST
    return {
        "profile": post.get("profile", ""),
        "dealer": post.get("dealer", ""),
        "hand_0": post.getlist("hand_0"),
        "hand_1": post.getlist("hand_1"),
        "trump": post.get("trump", ""),
        "talon": [c for c in post.getlist("talon") if c],
    }


def _json_field(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def hand_entry(request: HttpRequest) -> HttpResponse:
    """Enter a Snapszer hand played at a table (docs/analysis.md, "Hands entered card by card").

    GET: the deal form (``?table_game=`` a tournament game the user may enter hands of; ``?profile=``).
    POST ``op``: ``rules`` the deal form for other rules; ``deal`` check the deal and show the
    position (the steps already entered are kept while they still replay); ``act`` one more action
    (``action``: the engine's form); ``undo`` the last one off; ``edit`` the deal form again;
    ``save`` store the finished hand and go to its replay. The deal and the steps travel in the
    form (hidden fields) and are replayed through the engine at every step; a refusal shows the
    form again with its errors (400)."""
    context = _hand_context(request)
    if request.method == "GET":
        return _deal_page(request, context, values={"profile": request.GET.get("profile", ""), "dealer": "0"})
    op = request.POST.get("op", "deal")
    if op in ("rules", "deal"):
        values = _deal_values(request)
        if op == "rules":
            return _deal_page(request, context, values=values, actions=request.POST.get("actions", "[]"))
        try:
            deal = hand_deal_parse(**values)
        except ApplicationError as error:
            return _deal_page(request, context, values=values, errors=error.fields, status=error.status)
        kept = _json_field(request.POST.get("actions", "[]"))
        actions = kept if isinstance(kept, list) else []
        while True:  # the steps entered before the deal was changed, as far as they still replay
            try:
                position = hand_position_get(deal=deal, actions=actions, names=context["labels"])
                break
            except ApplicationError as error:
                dropped = len(actions) - int(error.extra.get("step", 1)) + 1
                actions = actions[: int(error.extra.get("step", 1)) - 1]
                messages.warning(
                    request,
                    ngettext(
                        "%(count)s step no longer fits the deal and was taken off.",
                        "%(count)s steps no longer fit the deal and were taken off.",
                        dropped,
                    )
                    % {"count": dropped},
                )
        return _play_page(request, context, position)
    try:
        sent = _json_field(request.POST.get("deal", ""))
        deal = hand_deal_from_dict(sent if isinstance(sent, dict) else {})
        actions = hand_actions_parse(request.POST.get("actions", "[]"))
    except ApplicationError as error:
        messages.error(request, str(error.message))
        return _deal_page(request, context, values={}, errors=error.fields, status=error.status)
    if op == "edit":
        return _deal_page(request, context, values=deal.to_dict(), actions=json.dumps(actions))
    before = hand_position_get(deal=deal, actions=actions, names=context["labels"])
    try:
        if op == "undo":
            return _play_page(
                request, context, hand_position_get(deal=deal, actions=actions[:-1], names=context["labels"])
            )
        if op == "save":
            game = hand_entry_save(
                user=request.user,
                deal=deal,
                actions=actions,
                table_game_id=context["table_game"].pk if context["table_game"] else None,
                names=context["names"],
                my_seat=context["my_seat"],
            )
            messages.success(request, _("The hand is saved. Ask for the analysis below."))
            return redirect("games:replay", game.pk)
        action = _json_field(request.POST.get("action", ""))
        position = hand_position_get(deal=deal, actions=[*actions, action], names=context["labels"])
    except ApplicationError as error:
        return _play_page(request, context, before, error=error, status=error.status)
    return _play_page(request, context, position)
