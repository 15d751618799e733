"""Pages of people and their players (docs/people.md): the claim link an organiser makes, the page
it opens, unlinking, and a person's own page. Refusals come from the services and are rendered by
``snapleague.middleware.ApplicationErrorMiddleware`` (the error page with what to do, or the login
page for someone not signed in, who comes back here after it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.clubs import person_page as person_page_selectors
from tournaments.clubs import services
from tournaments.competitions.table_sheets import qr_svg
from tournaments.views import player_context


@login_required
@require_GET
def person_page(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/person.html", {"page": person_page_selectors.person_page_get(user=request.user)}
    )


@login_required
@require_POST
def player_claim_create(request: HttpRequest, player_id: int) -> HttpResponse:
    """Make the link (shown this once, with a QR code to scan from the organiser's phone)."""
    claim, token = services.player_claim_create(user=request.user, player_id=player_id)
    url = request.build_absolute_uri(reverse("tournaments:claim", args=[token]))
    context = player_context(request, player_id)
    context.update(
        claim=claim,
        claim_url=url,
        claim_qr=qr_svg(url, title=_("Link to claim %(player)s") % {"player": claim.player.name}),
    )
    return render(request, "tournaments/player.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def player_claim_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The page a claim link opens: which club's player, and a button to make it yours (a GET
    changes nothing). A refusal known before the button (someone else's player, another player of
    yours in the club) is shown instead of it."""
    if request.method == "POST":
        player = services.player_claim_accept(user=request.user, token=token)
        messages.success(
            request,
            _("%(player)s of %(club)s is now yours.") % {"player": player.name, "club": player.club.name},
        )
        return redirect("tournaments:me")
    claim = services.player_claim_get(token=token)
    refusal = services.player_claim_refusal(user=request.user, claim=claim)
    return render(
        request,
        "tournaments/claim.html",
        {"claim": claim, "refusal": refusal},
        status=refusal.status if refusal is not None else 200,
    )


@login_required
@require_POST
def player_unlink(request: HttpRequest, player_id: int) -> HttpResponse:
    player = services.player_unlink(user=request.user, player_id=player_id)
    messages.success(request, _("%(player)s is no longer linked to an account.") % {"player": player.name})
    return redirect("tournaments:player", player_id=player.pk)
