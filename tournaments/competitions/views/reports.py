"""Players' reports (issue 26, docs/results.md "Who records results"): a seated player reports a
game with the referee's phone form, the opponent confirms with one tap or gives their own version,
a player asks for a correction of a confirmed result, and the officials decide disputes from their
queue. Refusals come from the reporting service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from snapleague.errors import ApplicationError
from tournaments.access import require_organiser
from tournaments.competitions.forms.results import ResultForm
from tournaments.competitions.results import disputes as dispute_reads
from tournaments.competitions.results import reporting
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.selectors import series as series_selectors
from tournaments.pages import refusal_told


def _game(request: HttpRequest, default: int) -> int:
    raw = request.POST.get("game") or request.GET.get("game") or ""
    return int(raw) if raw.isdigit() and 0 < int(raw) < 100 else default


def _form_page(
    request: HttpRequest, page: Any, form: ResultForm, mode: str, status: int = 200, **extra: Any
) -> HttpResponse:
    return render(
        request,
        "tournaments/record.html",
        {
            "page": page,
            "form": form,
            "line": None,
            "correcting": False,
            "mode": mode,  # "report", "ask" (a correction request) or "decide"
            "later_games": [],
            "offline_text": None,
            **extra,
        },
        status=status,
    )


def _submitted(
    request: HttpRequest, page: Any, form: ResultForm, mode: str, save: Any, **extra: Any
) -> HttpResponse | None:
    """Validate and save; the form again with its errors (4xx), or None when saved."""
    if not form.is_valid():
        return _form_page(request, page, form, mode, status=400, **extra)
    try:
        save(form.cleaned_data)
    except ApplicationError as exc:
        if exc.status in (403, 404):
            raise
        form.add_service_error(exc)
        return _form_page(request, page, form, mode, status=exc.status, **extra)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def series_report(request: HttpRequest, series_id: int) -> HttpResponse:
    """The referee's form, for a seated player: reporting (or giving one's own version of a report
    waiting for confirmation)."""
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    if not page.may_report:
        reporting.seated_check(user=request.user, series=page.series)  # says why (403)
    number = _game(request, page.next_game)
    target = result_target_get(user=request.user, series_id=series_id, game_number=number)
    form = ResultForm(
        request.POST if request.method == "POST" else None,
        initial={"game": number, "expected_version": 0},
        target=target,
    )
    if request.method == "GET":
        return _form_page(request, page, form, "report")
    outcome: dict[str, str] = {}

    def save(data: dict[str, Any]) -> None:
        outcome["is"] = reporting.report_submit(
            user=request.user,
            series_id=series_id,
            game_number=data["game"],
            result=data["result"],
            expected_version=data["expected_version"],
        ).outcome

    refused = _submitted(request, page, form, "report", save)
    if refused is not None:
        return refused
    texts = {
        "pending": _("Game %(n)s reported: it counts once your opponent confirms it."),
        "confirmed": _("Game %(n)s confirmed: both of you gave the same result."),
        "disputed": _("Game %(n)s is disputed: a referee or an organiser decides."),
    }
    messages.success(request, texts[outcome["is"]] % {"n": number})
    return redirect("tournaments:series", series_id=series_id)


@login_required
@require_POST
def report_confirm(request: HttpRequest, report_id: int) -> HttpResponse:
    try:
        report = reporting.report_confirm(user=request.user, report_id=report_id)
    except ApplicationError as exc:
        refusal_told(request, exc)
        series_id = reporting.report_series_id(report_id=report_id)
    else:
        messages.success(request, _("Game %(n)s confirmed.") % {"n": report.game_number})
        series_id = report.series_id
    return redirect("tournaments:series", series_id=series_id)


@login_required
@require_http_methods(["GET", "POST"])
def correction_ask(request: HttpRequest, series_id: int, game_number: int) -> HttpResponse:
    """A player cannot change a confirmed result: they ask for a correction with their version."""
    page = series_selectors.series_page_get(user=request.user, series_id=series_id)
    if not page.my_players or not page.players_report:
        reporting.seated_check(user=request.user, series=page.series)
    target = result_target_get(user=request.user, series_id=series_id, game_number=game_number)
    form = ResultForm(
        request.POST if request.method == "POST" else None,
        initial=ResultForm.initial_from(target),
        target=target,
    )
    if request.method == "GET":
        return _form_page(request, page, form, "ask")

    def save(data: dict[str, Any]) -> None:
        reporting.correction_request(
            user=request.user, series_id=series_id, game_number=game_number, result=data["result"]
        )

    refused = _submitted(request, page, form, "ask", save)
    if refused is not None:
        return refused
    messages.success(
        request, _("Your correction request for game %(n)s is with the organisers.") % {"n": game_number}
    )
    return redirect("tournaments:series", series_id=series_id)


@login_required
@require_GET
def disputes(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, open_rows, decided = dispute_reads.disputes_get(
        user=request.user, tournament_id=tournament_id
    )
    return render(
        request,
        "tournaments/disputes.html",
        {"tournament": tournament, "open_rows": open_rows, "decided": decided},
    )


@login_required
@require_POST
def dispute_decide(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """Decide with one of the versions (``report``), with an optional note."""
    raw = request.POST.get("report", "")
    try:
        dispute = reporting.dispute_decide(
            user=request.user,
            dispute_id=dispute_id,
            report_id=int(raw) if raw.isdigit() else None,
            note=request.POST.get("note", ""),
        )
    except ApplicationError as exc:
        refusal_told(request, exc)
        return redirect(
            "tournaments:disputes", tournament_id=reporting.dispute_tournament_id(dispute_id=dispute_id)
        )
    messages.success(request, _("Game %(n)s decided.") % {"n": dispute.game_number})
    return redirect("tournaments:disputes", tournament_id=dispute.series.stage.tournament_id)


@login_required
@require_http_methods(["GET", "POST"])
def dispute_decide_other(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """Decide with a third version, entered with the referee's form."""
    dispute = reporting.dispute_for_official(user=request.user, dispute_id=dispute_id)
    page = series_selectors.series_page_get(user=request.user, series_id=dispute.series_id)
    target = result_target_get(
        user=request.user, series_id=dispute.series_id, game_number=dispute.game_number
    )
    form = ResultForm(
        request.POST if request.method == "POST" else None,
        initial={"game": dispute.game_number, "expected_version": 0},
        target=target,
    )
    if request.method == "GET":
        return _form_page(request, page, form, "decide", dispute=dispute)

    def save(data: dict[str, Any]) -> None:
        reporting.dispute_decide(
            user=request.user, dispute_id=dispute_id, result=data["result"], note=data.get("reason") or ""
        )

    refused = _submitted(request, page, form, "decide", save, dispute=dispute)
    if refused is not None:
        return refused
    messages.success(request, _("Game %(n)s decided.") % {"n": dispute.game_number})
    return redirect("tournaments:disputes", tournament_id=page.tournament.pk)


@login_required
@require_POST
def result_mode_set(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from tournaments.competitions.forms.tournaments import ResultModeForm
    from tournaments.competitions.selectors.tournaments import tournament_get

    tournament = tournament_get(user=request.user, tournament_id=tournament_id)
    require_organiser(request.user, tournament.club)  # decided before the body is read
    form = ResultModeForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(m) for ms in form.errors.values() for m in ms))
        return redirect("tournaments:tournament", tournament_id=tournament_id)
    try:
        reporting.tournament_result_mode_set(
            user=request.user, tournament=tournament, **form.service_kwargs()
        )
    except ApplicationError as exc:
        refusal_told(request, exc)
        for problems in exc.fields.values():
            for problem in problems:
                messages.error(request, str(problem))
    else:
        messages.success(request, _("Saved: %(mode)s.") % {"mode": tournament.get_result_mode_display()})
    return redirect("tournaments:tournament", tournament_id=tournament_id)
