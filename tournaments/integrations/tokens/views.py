"""The "API tokens" page (from "My page"): the account's tokens, a new one (shown once, with a
copy button), and revoking one (after a confirmation). docs/api-tokens.md."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from snapleague.errors import ApplicationError
from snapleague.login_throttle import client_ip
from tournaments.integrations.tokens import selectors, services
from tournaments.integrations.tokens.forms import ApiTokenForm
from tournaments.pages import apply_service_error


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The list and the form; POST makes a token and shows it, this once."""
    form = ApiTokenForm(request.POST if request.method == "POST" else None)
    created = None
    raw = ""
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                created, raw = services.api_token_create(
                    user=request.user, ip=client_ip(request), **form.service_arguments()
                )
            except ApplicationError as exc:
                apply_service_error(form, exc)
                status = exc.status
            else:
                status = 200
                form = ApiTokenForm()
    context = {
        "tokens": selectors.api_tokens_list(user=request.user),
        "activity": selectors.api_token_activity(user=request.user),
        "form": form,
        "created": created,
        "raw": raw,
    }
    response = render(request, "tournaments/api_tokens.html", context, status=status)
    if raw:
        response["Cache-Control"] = "no-store"  # the token is in this page: keep it out of caches
    return response


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = services.api_token_revoke(user=request.user, token_id=token_id, ip=client_ip(request))
    messages.success(
        request,
        _("Token “%(name)s” revoked: requests that send it are refused from now on.") % {"name": token.name},
    )
    return redirect("tournaments:api-tokens")
