"""A person's own account pages (docs/accounts.md): settings (display name, mail language, links to
allauth's pages for the address, the password and the second factors), one's data as JSON, and
deleting the account. Refusals come from the services (ApplicationErrorMiddleware renders them)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.accounts import selectors, services
from tournaments.accounts.forms import AccountDeleteForm, ProfileForm


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    profile = selectors.profile_of(request.user)
    initial = {
        "display_name": profile.display_name if profile else "",
        "language": profile.language if profile else "",
    }
    form = ProfileForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.profile_update(
            user=request.user,
            display_name=form.cleaned_data["display_name"],
            language=form.cleaned_data["language"],
        )
        messages.success(request, _("Your settings are saved."))
        return redirect("accounts:settings")
    return render(
        request,
        "tournaments/account_settings.html",
        {
            "form": form,
            "errors": [error for errors in form.errors.values() for error in errors],
            "has_mfa": selectors.has_mfa(request.user),
            "mfa_urged": selectors.mfa_urged(request.user),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def account_data(request: HttpRequest) -> HttpResponse:
    """One's own data, as a JSON file to download."""
    data = selectors.account_data(request.user)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2, default=str), content_type="application/json"
    )
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="snapleague-{request.user.pk}-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        services.account_delete(user=request.user)
        logout(request)
        messages.success(
            request, _("Your account is deleted. Your clubs keep your results under your player's name.")
        )
        return redirect("home")
    return render(
        request,
        "tournaments/account_delete.html",
        {
            "form": form,
            "errors": [error for errors in form.errors.values() for error in errors],
            "sole_clubs": selectors.clubs_only_organised_by(request.user),
        },
        status=400 if form.errors else 200,
    )
