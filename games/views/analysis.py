"""The Snapszer analysis (the replay page's panel, a tournament game's request) and a hand played at a
table entered card by card (docs/analysis.md)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.analysis import analysis_context, analysis_request, table_game_analysis_request
from games.engine.protocol import GameKind
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
from games.online.replay import (
    card_words,
    finished_game_get,
    seat_of,
    suit_words,
    viewer_parse,
)
from snapleague.errors import ApplicationError


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
