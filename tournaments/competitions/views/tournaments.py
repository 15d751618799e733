"""A tournament's pages: creating it (from its club's page), its page with the organiser's forms
(players, referees, stages, sessions), its audit log."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError
from snapleague.fragments import public_page
from snapleague.users import signed_in
from tournaments.competitions import services as competition_services
from tournaments.competitions.forms.stages import StageCreateForm
from tournaments.competitions.forms.tournaments import (
    PlayersAddForm,
    RefereeAddForm,
    ResultModeForm,
    TournamentCreateForm,
)
from tournaments.competitions.results import disputes as dispute_reads
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.selectors.public import tournament_public_get
from tournaments.nights import selectors as session_selectors
from tournaments.nights.forms import SessionCreateForm
from tournaments.pages import apply_service_error


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament page. An anonymous visitor's (the crowd's) is rendered once per version of
    what it shows and taken from the cache (snapleague/fragments.py); a signed-in reader's has their
    own buttons and forms and is rendered for them."""
    if not signed_in(request.user):
        public = tournament_public_get(tournament_id=tournament_id)
        return public_page(
            request,
            public=public,
            template="tournaments/tournament.html",
            main=lambda: _tournament_main_html(request, tournament_id),
        )
    return _tournament_page(request, tournament_id)


def _tournament_main_html(request: HttpRequest, tournament_id: int) -> str:
    page = tournament_selectors.tournament_page_get(user=request.user, tournament_id=tournament_id)
    sessions = session_selectors.tournament_sessions_list(tournament=page.tournament)
    context = {"page": page, "sessions": sessions}
    return render_to_string("tournaments/_tournament_main.html", context, request=request)


def _tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    page = tournament_selectors.tournament_page_get(user=request.user, tournament_id=tournament_id)
    forms = {}
    if page.roles.organiser:
        forms = {
            "players_form": PlayersAddForm(addable=page.addable_players),
            "stage_form": StageCreateForm(game=page.tournament.game, tournament=page.tournament),
            "referee_form": RefereeAddForm(),
            "session_form": SessionCreateForm(),
        }
        forms["result_form"] = ResultModeForm(
            initial={
                "result_mode": page.tournament.result_mode,
                "auto_confirm_minutes": page.tournament.auto_confirm_minutes,
                "report_deadline_minutes": page.tournament.report_deadline_minutes,
                "no_show_at_deadline": page.tournament.no_show_at_deadline,
            }
        )
    disputes = {}
    if page.roles.organiser or page.roles.referee:
        disputes = {
            "disputes_open": dispute_reads.open_disputes_count(tournament=page.tournament),
            "disputes_overdue": dispute_reads.disputes_overdue_count(tournament=page.tournament),
        }
    sessions = session_selectors.tournament_sessions_list(tournament=page.tournament)
    return render(
        request, "tournaments/tournament.html", {"page": page, "sessions": sessions, **forms, **disputes}
    )


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
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Tournament created: now add players and a stage."))
            return redirect("tournaments:tournament", tournament_id=tournament.pk)
    return render(request, "tournaments/club.html", {"page": page, "form": form}, status=400)


def tournament_form_failed(request: HttpRequest, tournament_id: int, **forms: Any) -> HttpResponse:
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
    return tournament_form_failed(request, tournament_id, players_form=form)


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
            apply_service_error(form, exc)
        else:
            messages.success(request, _("%(name)s referees this tournament.") % {"name": referee.username})
            return redirect("tournaments:tournament", tournament_id=tournament_id)
    return tournament_form_failed(request, tournament_id, referee_form=form)


@login_required
@require_GET
def tournament_audit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    page = tournament_selectors.tournament_audit_get(user=request.user, tournament_id=tournament_id)
    return render(request, "tournaments/audit.html", {"page": page})
