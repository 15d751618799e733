"""A tournament's registration page (docs/tournaments.md, "Registration"): places left and the
person's own state with Register / Withdraw; for organisers the window's form and every sign-up,
with Approve / Refuse for those waiting for approval."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError
from tournaments.access import require_organiser
from tournaments.competitions import registration
from tournaments.competitions.forms.registration import RegisterForm, RegistrationWindowForm
from tournaments.pages import apply_service_error


def _context(request: HttpRequest, tournament_id: int, **forms: Any) -> dict[str, Any]:
    tournament = registration.registration_tournament_get(user=request.user, tournament_id=tournament_id)
    page = registration.registration_page_get(user=request.user, tournament=tournament)
    window = page.window
    initial = (
        {
            "opens_at": timezone.localtime(window.opens_at),
            "closes_at": timezone.localtime(window.closes_at),
            "cap": window.cap,
            "waiting_list": window.waiting_list,
            "approval": window.approval,
            "question": window.question,
        }
        if window is not None
        else {"opens_at": timezone.localtime(), "waiting_list": True}
    )
    return {
        "page": page,
        "register_form": forms.get("register_form")
        or RegisterForm(question=window.question if window else ""),
        "window_form": forms.get("window_form")
        or (RegistrationWindowForm(initial=initial) if page.is_organiser else None),
    }


@require_GET
def registration_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "tournaments/registration.html", _context(request, tournament_id))


@login_required
@require_POST
def registration_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _context(request, tournament_id)
    page = context["page"]
    form = RegisterForm(request.POST, question=page.window.question if page.window else "")
    if form.is_valid():
        try:
            done = registration.registration_create(
                user=request.user, tournament=page.tournament, answer=form.cleaned_data["answer"]
            )
        except ApplicationError as exc:
            if not exc.fields:
                raise
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Done: %(state)s.") % {"state": done.get_status_display()})
            return redirect("tournaments:registration", tournament_id=tournament_id)
    context["register_form"] = form
    return render(request, "tournaments/registration.html", context, status=400)


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    page = _context(request, tournament_id)["page"]
    registration.registration_withdraw(user=request.user, tournament=page.tournament)
    messages.success(request, _("You have withdrawn."))
    return redirect("tournaments:registration", tournament_id=tournament_id)


@login_required
@require_POST
def registration_window(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _context(request, tournament_id)
    require_organiser(request.user, context["page"].tournament.club)  # before the body is read
    form = RegistrationWindowForm(request.POST)
    if form.is_valid():
        try:
            registration.registration_window_set(
                user=request.user, tournament=context["page"].tournament, **form.service_kwargs()
            )
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Registration saved."))
            return redirect("tournaments:registration", tournament_id=tournament_id)
    context["window_form"] = form
    return render(request, "tournaments/registration.html", context, status=400)


@login_required
@require_POST
def registration_decide(request: HttpRequest, registration_id: int, decision: str) -> HttpResponse:
    decided = registration.registration_decide(
        user=request.user, registration_id=registration_id, approve=decision == "approve"
    )
    messages.success(
        request,
        _("%(person)s: %(state)s.")
        % {"person": decided.user.get_username(), "state": decided.get_status_display()},
    )
    return redirect("tournaments:registration", tournament_id=decided.tournament_id)
