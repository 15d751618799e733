"""Pages: parse the request -> one selector or service -> render.

Permissions are decided in the selectors and services (``tournaments/access.py``); a refusal they
raise is rendered by ``snapleague.middleware.ApplicationErrorMiddleware`` (403/404 page, or the
login page for someone not logged in).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from snapleague.api_errors import error_body
from snapleague.errors import ApplicationError
from tournaments.access import user_is_organiser
from tournaments.clubs import player_import
from tournaments.clubs import selectors as people_selectors
from tournaments.clubs import services as club_services
from tournaments.competitions import record_offline, screen, table_sheets
from tournaments.competitions import services as competition_services
from tournaments.competitions.results import services as result_services
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.selectors import players as player_selectors
from tournaments.competitions.selectors import series as series_selectors
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.competitions.selectors import standings as standings_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.competitions.stages import state as stages_state
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.forms import (
    ClubCreateForm,
    ForfeitForm,
    LadderChallengeRecordForm,
    LadderForm,
    PlayersAddForm,
    RefereeAddForm,
    ResultForm,
    SeasonForm,
    SessionCreateForm,
    StageCreateForm,
    TournamentCreateForm,
    WithdrawForm,
)
from tournaments.integrations import calendar as session_calendar
from tournaments.integrations import exports
from tournaments.nights import selectors as session_selectors
from tournaments.rankings.ladder import selectors as ladder_selectors
from tournaments.rankings.ladder import services as ladder_services
from tournaments.rankings.ratings.page import player_ratings_sections
from tournaments.rankings.ratings.selectors import club_ratings_get
from tournaments.rankings.seasons import selectors as season_selectors
from tournaments.rankings.seasons import services as season_services
from tournaments.templatetags.league import result_summary

LIVE_POLL_SECONDS = 2


def _changed(request: HttpRequest, version: str, event: str) -> JsonResponse:
    """The version endpoint: tells htmx to reload the fragment when the version moved on."""
    response = JsonResponse({"version": version})
    seen = request.GET.get("seen")
    if seen is not None and seen != version:
        response["HX-Trigger"] = event
    response["Cache-Control"] = "no-store"
    return response


def _refusal_told(request: HttpRequest, exc: ApplicationError) -> None:
    """A button's refusal is told on the page it came from (a message); permission and not-found
    refusals are not the page's business (the middleware answers them)."""
    if exc.status in (403, 404):
        raise exc
    messages.error(request, str(exc.message))


def _apply_service_error(form: Any, exc: ApplicationError) -> None:
    """Show a refusal next to the form's fields; permission and not-found refusals are not the
    form's business (the middleware answers them)."""
    if exc.status in (403, 404):
        raise exc
    for name, messages_ in exc.fields.items():
        for message in messages_:
            form.add_error(name if name in form.fields else None, str(message))
    if not exc.fields:
        form.add_error(None, str(exc.message))


# --- Reading ------------------------------------------------------------------------------------


@require_GET
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_page_get(user=request.user, slug=slug)
    form = TournamentCreateForm() if page.is_organiser else None
    return render(request, "tournaments/club.html", {"page": page, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubCreateForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                club = club_services.club_create(user=request.user, name=form.cleaned_data["name"])
            except ApplicationError as exc:
                _apply_service_error(form, exc)
                status = exc.status
            else:
                messages.success(
                    request, _("Club created: you organise it. Create its first tournament below.")
                )
                return redirect("tournaments:club", slug=club.slug)
    return render(request, "tournaments/club_new.html", {"form": form}, status=status)


@login_required
@require_POST
def club_invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_page_get(user=request.user, slug=slug)
    invitation, token = club_services.organiser_invitation_create(user=request.user, club=page.club)
    context = {
        "page": page,
        "form": TournamentCreateForm(),
        "invitation_url": request.build_absolute_uri(reverse("tournaments:invitation", args=[token])),
        "invitation": invitation,
    }
    return render(request, "tournaments/club.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import players from CSV: upload (or paste), preview each row's verdict, then import the
    rows that are fine (docs/web.md, "Importing players")."""
    page = tournament_selectors.club_manage_page_get(user=request.user, slug=slug)
    context: dict[str, Any] = {"page": page, "error": "", "text": ""}
    if request.method == "GET":
        return render(request, "tournaments/players_import.html", context)
    try:
        if upload := request.FILES.get("file"):
            text = player_import.text_of(upload.read(player_import.MAX_BYTES + 1))
        else:
            text = player_import.text_pasted(request.POST.get("text", ""))
        context["text"] = text
        if request.POST.get("action") == "import":
            created = player_import.players_import(user=request.user, club=page.club, text=text)
            messages.success(
                request,
                ngettext("%(n)s player imported.", "%(n)s players imported.", len(created))
                % {"n": len(created)},
            )
            return redirect("tournaments:club", slug=page.club.slug)
        context["plan"] = player_import.players_import_plan(user=request.user, club=page.club, text=text)
    except ApplicationError as exc:
        if exc.status == 403:
            raise
        context["error"] = str(exc.message)
        status = exc.status
        if exc.code == "conflict":
            context["plan"] = player_import.players_import_plan(
                user=request.user, club=page.club, text=context["text"]
            )
        return render(request, "tournaments/players_import.html", context, status=status)
    return render(request, "tournaments/players_import.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: who invites to what, and a button to accept (a GET
    changes nothing). Bad, expired and used links get the error page with what to do."""
    if request.method == "POST":
        club = club_services.organiser_invitation_accept(user=request.user, token=token)
        messages.success(request, _("You now organise %(club)s.") % {"club": club.name})
        return redirect("tournaments:club", slug=club.slug)
    invitation = club_services.organiser_invitation_get(token=token)
    context = {"invitation": invitation, "already": user_is_organiser(request.user, invitation.club)}
    return render(request, "tournaments/invitation.html", context)


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    page = tournament_selectors.tournament_page_get(user=request.user, tournament_id=tournament_id)
    forms = {}
    if page.roles.organiser:
        forms = {
            "players_form": PlayersAddForm(addable=page.addable_players),
            "stage_form": StageCreateForm(game=page.tournament.game, tournament=page.tournament),
            "referee_form": RefereeAddForm(),
            "session_form": SessionCreateForm(),
        }
    sessions = session_selectors.tournament_sessions_list(tournament=page.tournament)
    return render(request, "tournaments/tournament.html", {"page": page, "sessions": sessions, **forms})


@require_GET
def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    return render(request, "tournaments/series.html", {"page": page, "poll": LIVE_POLL_SECONDS})


@require_GET
def series_fragment(request: HttpRequest, series_id: int) -> HttpResponse:
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    return render(request, "tournaments/_series_games.html", {"page": page, "poll": LIVE_POLL_SECONDS})


@require_GET
def series_version(request: HttpRequest, series_id: int) -> JsonResponse:
    version = series_selectors.series_version_get(user=request.user, series_id=series_id)
    return _changed(request, str(version), "series-changed")


def _stage_page(request: HttpRequest, page: Any, *, status: int = 200, **forms: Any) -> HttpResponse:
    from tournaments.competitions.bracket_page import stage_drawing

    context = {
        "page": page,
        "drawing": stage_drawing(page),
        "poll": LIVE_POLL_SECONDS,
        "withdraw_form": WithdrawForm(players=page.players) if page.roles.organiser else None,
        **forms,
    }
    return render(request, "tournaments/stage.html", context, status=status)


@require_GET
def stage_detail(request: HttpRequest, stage_id: int) -> HttpResponse:
    return _stage_page(request, stage_selectors.stage_page_get(user=request.user, stage_id=stage_id))


@require_GET
def stage_fragment(request: HttpRequest, stage_id: int) -> HttpResponse:
    from tournaments.competitions.bracket_page import stage_drawing

    page = stage_selectors.stage_page_get(user=request.user, stage_id=stage_id)
    return render(
        request,
        "tournaments/_stage_body.html",
        {"page": page, "drawing": stage_drawing(page), "poll": LIVE_POLL_SECONDS},
    )


@require_GET
def stage_round(request: HttpRequest, stage_id: int, number: int) -> HttpResponse:
    page, line = stage_selectors.stage_round_page_get(user=request.user, stage_id=stage_id, number=number)
    return render(request, "tournaments/round.html", {"page": page, "line": line})


@require_GET
def stage_round_sheets(request: HttpRequest, stage_id: int, number: int) -> HttpResponse:
    """The round's table sheets to print (A4 or Letter: ``?paper=letter``), each with a QR code of
    its series' result form."""
    page, line = stage_selectors.stage_round_page_get(user=request.user, stage_id=stage_id, number=number)
    paper = request.GET.get("paper", "a4")
    if paper not in table_sheets.PAPERS:
        paper = "a4"
    urls = {s.pk: request.build_absolute_uri(reverse("tournaments:record", args=[s.pk])) for s in line.series}
    context = {
        "page": page,
        "line": line,
        "paper": paper,
        "sheets": table_sheets.table_sheets(line.series, urls),
    }
    return render(request, "tournaments/round_sheets.html", context)


@require_GET
def stage_standings(request: HttpRequest, stage_id: int) -> HttpResponse:
    page = standings_selectors.stage_standings_page_get(user=request.user, stage_id=stage_id)
    return render(request, "tournaments/standings.html", {"page": page, "poll": LIVE_POLL_SECONDS})


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
def stage_standings_fragment(request: HttpRequest, stage_id: int) -> HttpResponse:
    page = standings_selectors.stage_standings_page_get(user=request.user, stage_id=stage_id)
    return render(request, "tournaments/_standings_table.html", {"page": page, "poll": LIVE_POLL_SECONDS})


@require_GET
def stage_version(request: HttpRequest, stage_id: int) -> JsonResponse:
    version = standings_selectors.stage_version_get(user=request.user, stage_id=stage_id)
    return _changed(request, version, "standings-changed")


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
    page = screen.tournament_screen_get(user=request.user, tournament_id=tournament_id)
    return screen_response(request, page, fragment=True)


@login_required
@require_GET
def tournament_audit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    page = tournament_selectors.tournament_audit_get(user=request.user, tournament_id=tournament_id)
    return render(request, "tournaments/audit.html", {"page": page})


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    return render(request, "tournaments/player.html", player_context(request, player_id))


def player_context(request: HttpRequest, player_id: int) -> dict[str, Any]:
    """The player page's context (also behind its organiser forms: the claim link is shown on it)."""
    page = player_selectors.player_page_get(user=request.user, player_id=player_id)
    return {
        "page": page,
        "next_table": session_selectors.next_table_get(user=request.user, players=[page.player]),
        "mine": request.user.is_authenticated and page.player.user_id == request.user.pk,
        # The private feed's address, for the player alone (made on their first visit).
        "calendar_token": session_calendar.calendar_token_get_or_create(
            user=request.user, player=page.player
        ),
        "ratings": player_ratings_sections(player=page.player),
        "link": people_selectors.player_link_get(user=request.user, player=page.player),
    }


@require_GET
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = people_selectors.club_get(slug=slug)
    return render(request, "tournaments/club_ratings.html", {"page": club_ratings_get(club=club)})


# --- Organisers ---------------------------------------------------------------------------------


@login_required
@require_POST
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_manage_page_get(user=request.user, slug=slug)
    form = TournamentCreateForm(request.POST)
    if form.is_valid():
        try:
            tournament = competition_services.tournament_create(
                user=request.user, club=page.club, **form.service_kwargs()
            )
        except ApplicationError as exc:
            _apply_service_error(form, exc)
        else:
            messages.success(request, _("Tournament created: now add players and a stage."))
            return redirect("tournaments:tournament", tournament_id=tournament.pk)
    return render(request, "tournaments/club.html", {"page": page, "form": form}, status=400)


def _tournament_form_failed(request: HttpRequest, tournament_id: int, **forms: Any) -> HttpResponse:
    page = tournament_selectors.tournament_page_get(user=request.user, tournament_id=tournament_id)
    context = {
        "page": page,
        "players_form": PlayersAddForm(addable=page.addable_players),
        "stage_form": StageCreateForm(game=page.tournament.game, tournament=page.tournament),
        "referee_form": RefereeAddForm(),
        "session_form": SessionCreateForm(),
        "sessions": session_selectors.tournament_sessions_list(tournament=page.tournament),
        **forms,
    }
    return render(request, "tournaments/tournament.html", context, status=400)


@login_required
@require_POST
def tournament_players_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament_selectors.tournament_manage_get(user=request.user, tournament_id=tournament_id)
    page = tournament_selectors.tournament_page_get(user=request.user, tournament_id=tournament_id)
    form = PlayersAddForm(request.POST, addable=page.addable_players)
    if form.is_valid():
        try:
            entries = competition_services.tournament_players_enter(
                user=request.user, tournament=page.tournament, **form.service_kwargs()
            )
        except ApplicationError as exc:
            if exc.status in (403, 404):
                raise
            form.add_error("new_names" if "name" in exc.fields else None, str(exc.message))
        else:
            messages.success(request, _("%(n)s players entered.") % {"n": len(entries)})
            return redirect("tournaments:tournament", tournament_id=tournament_id)
    return _tournament_form_failed(request, tournament_id, players_form=form)


@login_required
@require_POST
def tournament_referee_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_selectors.tournament_manage_get(user=request.user, tournament_id=tournament_id)
    form = RefereeAddForm(request.POST)
    if form.is_valid():
        try:
            referee = competition_services.tournament_referee_add(
                user=request.user, tournament=tournament, username=form.cleaned_data["username"]
            )
        except ApplicationError as exc:
            _apply_service_error(form, exc)
        else:
            messages.success(request, _("%(name)s referees this tournament.") % {"name": referee.username})
            return redirect("tournaments:tournament", tournament_id=tournament_id)
    return _tournament_form_failed(request, tournament_id, referee_form=form)


@login_required
@require_POST
def stage_create(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_selectors.tournament_manage_get(user=request.user, tournament_id=tournament_id)
    form = StageCreateForm(request.POST, game=tournament.game, tournament=tournament)
    if form.is_valid():
        try:
            stages_create.stage_create(
                user=request.user, tournament=tournament, **form.service_kwargs(tournament)
            )
        except ApplicationError as exc:
            _apply_service_error(form, exc)
        else:
            messages.success(request, _("Stage created: generate its rounds when everyone is in."))
            return redirect("tournaments:tournament", tournament_id=tournament_id)
    return _tournament_form_failed(request, tournament_id, stage_form=form)


@login_required
@require_POST
def stage_rounds_generate(request: HttpRequest, stage_id: int) -> HttpResponse:
    """Publish the round(s) due (the first round after its preview; in review mode, the next)."""
    stage = tournament_selectors.stage_get(user=request.user, stage_id=stage_id)
    try:
        rounds = stages_publish.stage_round_publish(user=request.user, stage_id=stage.pk)
    except ApplicationError as exc:
        _refusal_told(request, exc)
    else:
        messages.success(
            request,
            _("Round %(n)s published.") % {"n": rounds[0].number}
            if len(rounds) == 1
            else _("%(n)s rounds published.") % {"n": len(rounds)},
        )
    return redirect("tournaments:stage", stage_id=stage.pk)


@login_required
@require_GET
def stage_preview(request: HttpRequest, stage_id: int) -> HttpResponse:
    # A draft's stage is not found by someone who may not see the draft (the service only checks
    # who may manage it, which would tell them it exists).
    stage = stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)
    preview = stages_publish.stage_preview(user=request.user, stage_id=stage.pk)
    return render(
        request,
        "tournaments/stage_preview.html",
        {"preview": preview, "rows": stages_publish.preview_rows(preview), "stage": preview.stage},
    )


@require_GET
def stage_draw(request: HttpRequest, stage_id: int) -> HttpResponse:
    """ "Verify this draw": the commitment, the seed once round 1 is published, the draw's input and
    the order recomputed from them (docs/formats.md "Checking a random draw")."""
    stage = tournament_selectors.stage_get(user=request.user, stage_id=stage_id)
    return render(request, "tournaments/stage_draw.html", {"check": stages_state.stage_draw_check(stage)})


@login_required
@require_POST
def stage_online(request: HttpRequest, stage_id: int) -> HttpResponse:
    stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)  # 404 for a draft not seen
    online = request.POST.get("online") == "1"
    try:
        stages_create.stage_online_set(user=request.user, stage_id=stage_id, online=online)
    except ApplicationError as exc:
        _refusal_told(request, exc)
    else:
        messages.success(
            request,
            _("Its series are played online now: the players see “Play”.")
            if online
            else _("Its series are played at the tables now."),
        )
    return redirect("tournaments:stage", stage_id=stage_id)


@login_required
@require_POST
def stage_withdraw(request: HttpRequest, stage_id: int) -> HttpResponse:
    page = stage_selectors.stage_manage_page_get(user=request.user, stage_id=stage_id)
    form = WithdrawForm(request.POST, players=page.players)
    if form.is_valid():
        try:
            stages_withdrawals.stage_withdraw(
                user=request.user,
                stage_id=stage_id,
                player_id=form.cleaned_data["player"],
                from_round=form.cleaned_data["from_round"],
                reason=form.cleaned_data["reason"],
            )
        except ApplicationError as exc:
            _apply_service_error(form, exc)
        else:
            messages.success(
                request, _("Withdrawn: their open series are walkovers; later rounds leave them out.")
            )
            return redirect("tournaments:stage", stage_id=stage_id)
    return _stage_page(request, page, withdraw_form=form, status=400)


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
            _refusal_told(request, exc)
        else:
            messages.success(request, _("The no-show is recorded and the series decided."))
    else:
        messages.error(request, _("Tick the players who did not come."))
    return redirect("tournaments:series", series_id=series_id)


# --- Results ------------------------------------------------------------------------------------


def _result_page(
    request: HttpRequest, page: Any, form: ResultForm, status: int = 200, line: Any = None
) -> HttpResponse:
    later_games = (
        [g.game.number for g in page.games if g.game.number > line.game.number and g.counted]
        if line is not None
        else []
    )
    return render(
        request,
        "tournaments/record.html",
        {
            "page": page,
            "form": form,
            "line": line,
            "correcting": line is not None,
            "later_games": later_games,
            "offline_text": record_offline.page_texts() if line is None else None,
        },
        status=status,
    )


def _wants_json(request: HttpRequest) -> bool:
    """The record form's offline queue (``static/js/record_offline.js``) sends what it kept with
    ``Accept: application/json``: it is answered in JSON, a browser's own submission in HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _held_summary(request: HttpRequest, series_id: int, game_number: int) -> tuple[str, str]:
    """What the server holds for game ``game_number`` now, and who recorded it ("", "" if nothing)."""
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    line = next((g for g in page.games if g.game.number == game_number), None)
    if line is None or line.current is None:
        return "", ""
    current = line.current
    held = str(_("Voided")) if current.void else result_summary(current.value, page.names)
    who = current.recorded_by.username if current.recorded_by is not None else str(_("online game"))
    return held, who


def _record_json(
    request: HttpRequest, page: Any, form: ResultForm, error: ApplicationError | None = None
) -> JsonResponse:
    """The offline queue's answer: what happened to one kept submission, worded for the referee.

    A refusal carries, besides the API's ``code``/``message``/``fields``/``extra``, which game it
    was for, what the server holds for that game now (``held``, ``held_by``) and what the referee
    entered (``entered``), so that the page can show the conflict side by side."""
    game = form.cleaned_data.get("game") if hasattr(form, "cleaned_data") else None
    value = form.cleaned_data.get("result") if hasattr(form, "cleaned_data") else None
    body: dict[str, Any] = {
        "series": page.series.pk,
        "series_label": str(page.series),
        "game": game,
        "entered": result_summary(value, page.names) if value is not None else "",
    }
    if error is None:
        fields = {name: [str(m) for m in errors] for name, errors in form.errors.items()}
        message = " ".join(m for errors in fields.values() for m in errors)
        body |= error_body("invalid", message or str(_("The result could not be read.")), fields)
        return JsonResponse(body, status=400)
    fields = {name: [str(m) for m in messages_] for name, messages_ in error.fields.items()}
    body |= error_body(error.code, str(error.message), fields, error.extra)
    body["held"], body["held_by"] = _held_summary(request, page.series.pk, game) if game else ("", "")
    return JsonResponse(body, status=error.status)


def _record(request: HttpRequest, page: Any, form: ResultForm, line: Any = None) -> HttpResponse:
    """The form's value -> ``result_record`` -> back to the series, or the form with its errors
    (in JSON for the offline queue, see ``_record_json``)."""
    as_json = line is None and _wants_json(request)
    if not form.is_valid():
        if as_json:
            return _record_json(request, page, form)
        return _result_page(request, page, form, status=400, line=line)
    data = form.cleaned_data
    try:
        recorded, created = result_services.result_record(
            source=result_services.UserSource(request.user),
            series_id=page.series.pk,
            game_number=data["game"],
            result=data["result"],
            expected_version=data["expected_version"],
            client_key=data["client_key"],
            reason=data.get("reason") or "",
            void_later_games=bool(data.get("void_later_games")),
        )
    except ApplicationError as exc:
        if exc.status in (403, 404):
            raise
        if as_json:
            return _record_json(request, page, form, exc)
        form.add_service_error(exc)
        return _result_page(request, page, form, status=exc.status, line=line)
    if as_json:
        # A replay (the same client key again) answers the result recorded the first time.
        return JsonResponse(
            {
                "status": "recorded" if created else "replayed",
                "series": page.series.pk,
                "series_label": str(page.series),
                "game": recorded.game.number,
                "version": recorded.version,
                "result": result_summary(recorded.value, page.names),
            },
            status=201 if created else 200,
        )
    if line is not None:
        messages.success(request, _("Game %(n)s corrected.") % {"n": data["game"]})
    elif created:
        messages.success(request, _("Game %(n)s recorded.") % {"n": data["game"]})
    else:
        messages.info(request, _("Game %(n)s was already recorded (sent twice).") % {"n": data["game"]})
    return redirect(reverse("tournaments:series", args=[page.series.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def result_record(request: HttpRequest, series_id: int) -> HttpResponse:
    page = series_selectors.series_record_page_get(user=request.user, series_id=series_id)
    target = result_target_get(user=request.user, series_id=series_id, game_number=page.next_game)
    form = ResultForm(
        request.POST if request.method == "POST" else None,
        # A new game, even when it is a void one: a referee sending it is told an organiser records it again.
        initial={"game": page.next_game, "expected_version": 0},
        target=target,
    )
    if request.method == "GET":
        return _result_page(request, page, form)
    return _record(request, page, form)


@require_GET
def record_service_worker(request: HttpRequest) -> HttpResponse:
    """The record form's service worker (``tournaments/competitions/record_offline.py``). Served from the site's
    root so that its scope covers the form pages (and the log-in and log-out forms it watches);
    never cached by the browser's HTTP cache, so that a new version is found at once."""
    response = HttpResponse(
        record_offline.service_worker_source(), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def result_correct(request: HttpRequest, series_id: int, game_number: int) -> HttpResponse:
    page, line = series_selectors.game_correction_get(
        user=request.user, series_id=series_id, game_number=game_number
    )
    # Who plays the game, what the form starts from and which version it corrects (for a void game:
    # the players due now, its result before it was voided, the void version) are the target's.
    target = result_target_get(user=request.user, series_id=series_id, game_number=game_number)
    form = ResultForm(
        request.POST if request.method == "POST" else None,
        initial=ResultForm.initial_from(target),
        target=target,
        correcting=True,
    )
    if request.method == "GET":
        return _result_page(request, page, form, line=line)
    return _record(request, page, form, line=line)


# --- Seasons (docs/seasons.md) -------------------------------------------------------------------


@require_GET
def club_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    page = season_selectors.club_seasons_page_get(user=request.user, slug=slug)
    return render(request, "tournaments/seasons.html", {"page": page})


@require_GET
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    page = season_selectors.season_page_get(user=request.user, season_id=season_id)
    return render(request, "tournaments/season.html", {"page": page})


@require_GET
def season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season table as a spreadsheet (docs/exports.md)."""
    page, text = exports.season_csv(user=request.user, season_id=season_id)
    return _csv_response(text, f"{page.season.club.name} {page.season.name}")


def _season_form_post(request: HttpRequest, form: SeasonForm, save: Any) -> tuple[Any, int]:
    """Validate ``form`` and call ``save(**fields)``; returns (the saved season or None, status)."""
    if not form.is_valid():
        return None, 400
    try:
        return save(**form.service_kwargs()), 200
    except ApplicationError as exc:
        _apply_service_error(form, exc)
        return None, exc.status


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_manage_page_get(user=request.user, slug=slug)
    status = 200
    if request.method == "POST":
        form = SeasonForm(request.POST)
        season, status = _season_form_post(
            request,
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
        saved, status = _season_form_post(
            request,
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
        _refusal_told(request, exc)
    else:
        messages.success(request, _("Season tournaments saved."))
    return redirect(f"{reverse('tournaments:season-edit', args=[season.pk])}#tournaments")


# --- Ladders (docs/ladder.md) --------------------------------------------------------------------


def _int_field(request: HttpRequest, name: str) -> int:
    raw = request.POST.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 19 else 0


@require_GET
def club_ladders(request: HttpRequest, slug: str) -> HttpResponse:
    page = ladder_selectors.club_ladders_page_get(user=request.user, slug=slug)
    return render(request, "tournaments/ladders.html", {"page": page})


def _ladder_page(request: HttpRequest, page: Any, record_form: Any = None, status: int = 200) -> HttpResponse:
    """The ladder page; its organisers also get the form to record a challenge for two players."""
    if record_form is None and page.is_organiser and len(page.lines) > 1:
        record_form = LadderChallengeRecordForm(rungs=[line.rung for line in page.lines])
    context = {"page": page, "record_form": record_form}
    return render(request, "tournaments/ladder.html", context, status=status)


@require_GET
def ladder_detail(request: HttpRequest, ladder_id: int) -> HttpResponse:
    return _ladder_page(request, ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder_id))


@require_GET
def ladder_history(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = ladder_selectors.ladder_by_id(ladder_id=ladder_id)
    challenges = ladder_selectors.challenges_list(ladder=ladder)
    return render(request, "tournaments/ladder_history.html", {"ladder": ladder, "challenges": challenges})


@login_required
@require_GET
def ladder_mine(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """My challenges on this ladder: answer, withdraw, report the score."""
    ladder = ladder_selectors.ladder_by_id(ladder_id=ladder_id)
    me = ladder_selectors.user_player(user=request.user, club=ladder.club)
    challenges = ladder_selectors.challenges_list(ladder=ladder, player=me) if me is not None else []
    context = {"ladder": ladder, "me": me, "challenges": challenges, "best_of": ladder.best_of}
    return render(request, "tournaments/ladder_mine.html", context)


@require_GET
def ladder_csv(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder, text = exports.ladder_csv(ladder_id=ladder_id)
    return _csv_response(text, f"{ladder.club.name} {ladder.name}")


def _ladder_form_page(request: HttpRequest, club: Any, ladder: Any, save: Any) -> HttpResponse:
    seasons = season_selectors.club_seasons_list(club=club)
    status = 200
    if request.method == "POST":
        form = LadderForm(request.POST, seasons=seasons)
        saved, status = _season_form_post(request, form, save)
        if saved is not None:
            messages.success(request, _("Ladder saved."))
            return redirect("tournaments:ladder", ladder_id=saved.pk)
    elif ladder is not None:
        form = LadderForm(
            seasons=seasons,
            initial=ladder_selectors.ladder_fields(ladder),
        )
    else:
        form = LadderForm(seasons=seasons)
    context = {"club": club, "form": form, "ladder": ladder}
    return render(request, "tournaments/ladder_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def ladder_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors.club_manage_page_get(user=request.user, slug=slug)
    return _ladder_form_page(
        request,
        page.club,
        None,
        lambda **fields: ladder_services.ladder_create(user=request.user, club=page.club, **fields),
    )


@login_required
@require_http_methods(["GET", "POST"])
def ladder_edit(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
    return _ladder_form_page(
        request,
        ladder.club,
        ladder,
        lambda **fields: ladder_services.ladder_update(user=request.user, ladder_id=ladder.pk, **fields),
    )


def _back(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """Back to the page the button was on (``next``, this site only), else the ladder."""
    target = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("tournaments:ladder", args=[ladder_id])
    return redirect(target)


def _ladder_action(request: HttpRequest, ladder_id: int, act: Any, done: str) -> HttpResponse:
    """Run one ladder write from a button; a refusal is told on the page it came from."""
    try:
        act()
    except ApplicationError as exc:
        _refusal_told(request, exc)
    else:
        messages.success(request, done)
    return _back(request, ladder_id)


@login_required
@require_POST
def ladder_players(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """Add a club player at the bottom, or remove one (organisers)."""
    ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
    player_id = _int_field(request, "player")
    if request.POST.get("action") == "remove":
        return _ladder_action(
            request,
            ladder.pk,
            lambda: ladder_services.ladder_player_remove(
                user=request.user, ladder_id=ladder.pk, player_id=player_id
            ),
            _("The player left the ladder."),
        )
    return _ladder_action(
        request,
        ladder.pk,
        lambda: ladder_services.ladder_player_add(
            user=request.user, ladder_id=ladder.pk, player_id=player_id
        ),
        _("The player joined the ladder at the bottom."),
    )


@login_required
@require_POST
def ladder_challenge(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = ladder_selectors.ladder_by_id(ladder_id=ladder_id)
    challenged_id = _int_field(request, "challenged")
    return _ladder_action(
        request,
        ladder.pk,
        lambda: ladder_services.challenge_create(
            user=request.user, ladder_id=ladder.pk, challenged_id=challenged_id
        ),
        _("Challenge sent."),
    )


@login_required
@require_POST
def ladder_challenge_record(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """An organiser records a challenge between two players of the ladder; a refusal (the
    ladder's rules, one open challenge each, a rematch too soon) is shown next to the field it
    names, on the ladder page, and nothing is saved."""
    ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
    page = ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder.pk)
    form = LadderChallengeRecordForm(request.POST, rungs=[line.rung for line in page.lines])
    status = 400
    if form.is_valid():
        try:
            challenge = ladder_services.challenge_create(
                user=request.user, ladder_id=ladder.pk, **form.service_kwargs()
            )
        except ApplicationError as exc:
            _apply_service_error(form, exc)
            status = exc.status
        else:
            messages.success(
                request,
                _("Challenge recorded: %(challenger)s challenges %(challenged)s.")
                % {"challenger": challenge.challenger.name, "challenged": challenge.challenged.name},
            )
            return redirect(f"{reverse('tournaments:ladder', args=[ladder.pk])}#open-challenges")
    return _ladder_page(request, page, form, status)


@login_required
@require_POST
def ladder_challenge_answer(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept, decline (a forfeit) or withdraw a challenge."""
    challenge = ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
    action = request.POST.get("action", "")
    acts = {
        "accept": (ladder_services.challenge_accept, _("Challenge accepted: play it by its day.")),
        "decline": (
            ladder_services.challenge_decline,
            _("Challenge declined: the challenger takes your place."),
        ),
        "withdraw": (ladder_services.challenge_withdraw, _("Challenge withdrawn.")),
    }
    if action not in acts:
        messages.error(request, _("Accept, decline or withdraw."))
        return _back(request, challenge.ladder_id)
    service, done = acts[action]
    return _ladder_action(
        request, challenge.ladder_id, lambda: service(user=request.user, challenge_id=challenge.pk), str(done)
    )


@login_required
@require_POST
def ladder_challenge_result(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The match's score: an organiser records it; a player reports it (recorded when both agree)."""
    challenge = ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
    raw = (request.POST.get("challenger_wins", ""), request.POST.get("challenged_wins", ""))
    if not all(value.isdigit() and len(value) < 3 for value in raw):
        messages.error(request, _("Give the games each player won."))
        return _back(request, challenge.ladder_id)
    return _ladder_action(
        request,
        challenge.ladder_id,
        lambda: ladder_services.challenge_result(
            user=request.user,
            challenge_id=challenge.pk,
            challenger_wins=int(raw[0]),
            challenged_wins=int(raw[1]),
        ),
        _("Score saved."),
    )
