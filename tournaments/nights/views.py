"""Pages of a club night: a session's tonight page (with the organiser's schedule and tables), the
check-in desk, check-in (the desk's tap and a player's own), closing check-in. Its calendar feeds
are in ``tournaments/integrations/views.py``.

Parse -> one selector or service -> render (``tournaments/pages.py``); a refusal the services
raise is rendered by the middleware (403/404 page, or the login page).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError
from snapleague.fragments import fragment_response
from tournaments.competitions.selectors import tournaments as tournament_selectors_module
from tournaments.competitions.views.screen import screen_response
from tournaments.competitions.views.tournaments import tournament_form_failed
from tournaments.nights import checkin, selectors, services
from tournaments.nights.forms import RoundScheduleForm, SessionCreateForm, SessionEditForm, StationsForm
from tournaments.pages import LIVE_POLL_SECONDS, apply_service_error, refusal_told, version_changed


def _tonight(request: HttpRequest, page: Any, *, status: int = 200, **forms: Any) -> HttpResponse:
    if page.roles.organiser:
        forms.setdefault("schedule_form", RoundScheduleForm(rounds=page.unscheduled))
        forms.setdefault("edit_form", SessionEditForm(initial=selectors.session_fields(page.session)))
        forms.setdefault(
            "stations_form",
            StationsForm(
                initial={
                    "stations": "\n".join(
                        f"{s.number} {s.name}".strip()
                        for s in page.stations
                        if s.session_id == page.session.pk
                    )
                }
            ),
        )
    context = {"page": page, "poll": LIVE_POLL_SECONDS, **forms}
    return render(request, "tournaments/session.html", context, status=status)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    """To the page the form was on (``next``, when it is ours), else ``fallback``."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback)


@login_required
@require_POST
def session_create(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_selectors_module.tournament_manage_get(
        user=request.user, tournament_id=tournament_id
    )
    form = SessionCreateForm(request.POST)
    if form.is_valid():
        try:
            session = services.session_create(user=request.user, tournament=tournament, **form.cleaned_data)
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Session created: schedule its rounds and set up its tables."))
            return redirect("tournaments:session", session_id=session.pk)
    return tournament_form_failed(request, tournament_id, session_form=form)


@require_GET
def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    return _tonight(request, selectors.session_tonight_get(user=request.user, session_id=session_id))


@require_GET
def session_body(request: HttpRequest, session_id: int) -> HttpResponse:
    """The tonight part (what every phone in the room follows), rendered once per version for
    every reader (snapleague/fragments.py)."""
    topic, version = selectors.session_tonight_version(user=request.user, session_id=session_id)

    def rendered() -> str:
        page = selectors.session_tonight_get(user=request.user, session_id=session_id)
        context = {"page": page, "poll": LIVE_POLL_SECONDS}
        return render_to_string("tournaments/_session_tonight.html", context, request=request)

    return fragment_response(request, topic=topic, version=version, render=rendered)


@require_GET
def session_version(request: HttpRequest, session_id: int) -> JsonResponse:
    version = selectors.session_version_get(user=request.user, session_id=session_id)
    return version_changed(request, version, "tonight-changed")


@require_GET
def session_screen(request: HttpRequest, session_id: int) -> HttpResponse:
    """The session's big screen: the tournament's screen (tournaments/competitions/screen.py) with the tables
    of this session's current round, at its stations (docs/web.md, "The big screen")."""
    page = selectors.session_screen_get(user=request.user, session_id=session_id)
    return screen_response(request, page)


@require_GET
def session_screen_fragment(request: HttpRequest, session_id: int) -> HttpResponse:
    page = selectors.session_screen_get(user=request.user, session_id=session_id)
    return screen_response(request, page, fragment=True)


@login_required
@require_GET
def session_desk(request: HttpRequest, session_id: int) -> HttpResponse:
    """The check-in desk: one tap per name; the search narrows the list as one types (htmx asks
    for the rows only) or on "Search" without JavaScript."""
    page = selectors.session_desk_get(
        user=request.user, session_id=session_id, query=request.GET.get("q", "")
    )
    template = (
        "tournaments/_desk_rows.html"
        if request.headers.get("HX-Request")
        else "tournaments/session_desk.html"
    )
    return render(request, template, {"page": page})


def _player_id(request: HttpRequest) -> int | None:
    try:
        value = int(request.POST.get("player", ""))
    except ValueError:
        return None
    return value if 0 < value < 2**63 else None


@login_required
@require_POST
def session_check_in(request: HttpRequest, session_id: int) -> HttpResponse:
    """Check a player in (``undo=1``: take it back, at the desk). From the desk with htmx, the
    answer is the player's row and the desk's counter (swapped out of band); otherwise back to the page the form was on, with a message."""
    session = selectors.session_check_in_get(user=request.user, session_id=session_id)  # before the body
    player_id = _player_id(request)
    undo = request.POST.get("undo") == "1"
    status = 200
    try:
        if player_id is None:
            raise ApplicationError(
                code="invalid",
                message=_("Choose a player of this tournament."),
                fields={"player": [_("Choose a player of this tournament.")]},
            )
        if undo:
            checkin.session_check_in_undo(user=request.user, session_id=session.pk, player_id=player_id)
            note = _("Check-in taken back.")
        else:
            check_in, created = checkin.session_check_in(
                user=request.user, session_id=session.pk, player_id=player_id
            )
            when = date_format(localtime(check_in.created_at), "TIME_FORMAT")
            note = (
                _("%(name)s is checked in.") % {"name": check_in.player.name}
                if created
                else _("%(name)s was already checked in (at %(time)s).")
                % {"name": check_in.player.name, "time": when}
            )
    except ApplicationError as exc:
        if exc.status in (403, 404):
            raise
        note, status = str(exc.message), exc.status
        if not request.headers.get("HX-Request"):
            messages.error(request, note)
            return _back(request, reverse("tournaments:session", args=[session.pk]))
    else:
        if not request.headers.get("HX-Request"):
            messages.success(request, note)
            return _back(request, reverse("tournaments:session", args=[session.pk]))
    page = selectors.session_desk_get(user=request.user, session_id=session.pk)
    row = next((r for r in page.rows if r.player.pk == player_id), None)
    return render(
        request,
        "tournaments/_desk_tap.html",  # the row, and the counter out of band
        {"page": page, "row": row, "note": note, "failed": status != 200},
        status=status,
    )


@login_required
@require_POST
def session_close(request: HttpRequest, session_id: int) -> HttpResponse:
    session = selectors.session_manage_get(user=request.user, session_id=session_id)
    try:
        report = checkin.session_check_in_close(user=request.user, session_id=session.pk)
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(
            request,
            ngettext(
                "Check-in closed: %(n)s series decided by a no-show.",
                "Check-in closed: %(n)s series decided by no-shows.",
                len(report.forfeited),
            )
            % {"n": len(report.forfeited)},
        )
        if report.left:
            messages.warning(
                request,
                _(
                    "Tables with players missing but enough here to play: %(keys)s. Withdraw the missing players from the stage, or wait for them."
                )
                % {"keys": ", ".join(s.key for s in report.left)},
            )
    return redirect("tournaments:session", session_id=session.pk)


@login_required
@require_POST
def session_edit(request: HttpRequest, session_id: int) -> HttpResponse:
    selectors.session_manage_get(user=request.user, session_id=session_id)
    form = SessionEditForm(request.POST)
    if form.is_valid():
        try:
            services.session_update(user=request.user, session_id=session_id, **form.cleaned_data)
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Session changed."))
            return redirect("tournaments:session", session_id=session_id)
    page = selectors.session_tonight_get(user=request.user, session_id=session_id)
    return _tonight(request, page, status=400, edit_form=form)


@login_required
@require_POST
def session_reopen(request: HttpRequest, session_id: int) -> HttpResponse:
    """Reopen check-in (organisers, after the page's confirmation): the close's no-shows are
    taken back where the tournament has not moved on from them; the page says which stay."""
    session = selectors.session_manage_get(user=request.user, session_id=session_id)
    try:
        report = checkin.session_check_in_reopen(user=request.user, session_id=session.pk)
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(
            request,
            ngettext(
                "Check-in reopened: %(n)s no-show taken back, its series is to be played.",
                "Check-in reopened: %(n)s no-shows taken back, their series are to be played.",
                len(report.withdrawn),
            )
            % {"n": len(report.withdrawn)},
        )
        if report.kept:
            messages.warning(
                request,
                _("These no-shows stay recorded, since the tournament has moved on from them: %(keys)s.")
                % {"keys": ", ".join(s.key for s in report.kept)},
            )
    return redirect("tournaments:session", session_id=session.pk)


@login_required
@require_POST
def session_schedule(request: HttpRequest, session_id: int) -> HttpResponse:
    selectors.session_manage_get(user=request.user, session_id=session_id)
    page = selectors.session_tonight_get(user=request.user, session_id=session_id)
    form = RoundScheduleForm(request.POST, rounds=page.unscheduled)
    if form.is_valid():
        try:
            scheduled = services.session_round_schedule(
                user=request.user,
                session_id=session_id,
                round_id=form.cleaned_data["round"],
                starts_at=form.cleaned_data["starts_at"],
            )
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("%(round)s is scheduled in this session.")
                % {"round": f"{scheduled.stage.name} · {scheduled}"},
            )
            return redirect("tournaments:session", session_id=session_id)
    return _tonight(request, page, status=400, schedule_form=form)


@login_required
@require_POST
def session_stations(request: HttpRequest, session_id: int) -> HttpResponse:
    selectors.session_manage_get(user=request.user, session_id=session_id)
    form = StationsForm(request.POST)
    if form.is_valid():
        try:
            made = services.session_stations_set(
                user=request.user,
                session_id=session_id,
                stations=services.parse_stations(form.cleaned_data["stations"]),
            )
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                ngettext("%(n)s table set up.", "%(n)s tables set up.", len(made)) % {"n": len(made)}
                if made
                else _("This session uses the club’s tables."),
            )
            return redirect("tournaments:session", session_id=session_id)
    page = selectors.session_tonight_get(user=request.user, session_id=session_id)
    return _tonight(request, page, status=400, stations_form=form)


@login_required
@require_POST
def series_station(request: HttpRequest, series_id: int) -> HttpResponse:
    series = tournament_selectors_module.series_manage_get(user=request.user, series_id=series_id)
    raw = request.POST.get("station", "")
    try:
        station_id = int(raw) if raw else None
        if station_id is not None and not 0 < station_id < 2**63:
            raise ValueError
    except ValueError:
        messages.error(request, _("Choose a table of this session."))
    else:
        try:
            services.series_station_set(user=request.user, series_id=series.pk, station_id=station_id)
        except ApplicationError as exc:
            refusal_told(request, exc)
        else:
            messages.success(request, _("Table changed."))
    if series.round.session_id:
        return redirect("tournaments:session", session_id=series.round.session_id)
    return redirect("tournaments:series", series_id=series.pk)
