"""Recording a game's result (the referee's form, in HTML or JSON for the offline queue), an
organiser's correction, and the record form's service worker (docs/results.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from snapleague.api_errors import error_body
from snapleague.errors import ApplicationError
from tournaments.competitions import record_offline
from tournaments.competitions.forms.results import ResultForm
from tournaments.competitions.results import services as result_services
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.selectors import series as series_selectors
from tournaments.templatetags.league import result_summary


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
