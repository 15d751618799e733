"""Pages of clubs and their people (docs/people.md, docs/web.md): a club's page, creating one,
its organiser invitations, importing its players; a player's page; the claim link an organiser
makes, the page it opens, unlinking, and a person's own page. Refusals come from the services and
are rendered by ``snapleague.middleware.ApplicationErrorMiddleware`` (the error page with what to
do, or the login page for someone not signed in, who comes back here after it).

The club's page carries a tournament's creation form and the player's page what other concerns
show of the player (the next table, the calendar feed, the ratings): page composition, their
services and selectors stay in their concerns."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from snapleague.errors import ApplicationError
from snapleague.fragments import public_page
from snapleague.users import signed_in
from tournaments.access import user_is_organiser
from tournaments.accounts.selectors import user_display
from tournaments.clubs import join_requests, player_import, selectors, services
from tournaments.clubs import person_page as person_page_selectors
from tournaments.clubs.forms import (
    ClubCreateForm,
    JoinApproveForm,
    JoinRefuseForm,
    JoinRequestForm,
    JoinRequestsOpenForm,
)
from tournaments.competitions.forms.tournaments import TournamentCreateForm
from tournaments.competitions.registration import registrations_open_in
from tournaments.competitions.selectors import players as player_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors_module
from tournaments.competitions.selectors.public import club_public_get
from tournaments.competitions.table_sheets import qr_svg
from tournaments.integrations import calendar as session_calendar
from tournaments.nights import selectors as session_selectors
from tournaments.pages import apply_service_error
from tournaments.rankings.ratings.page import player_ratings_sections


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


@require_GET
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The club page. An anonymous visitor's is rendered once per version of what it shows and
    taken from the cache (snapleague/fragments.py); a signed-in reader's has their own join state
    and an organiser's forms."""
    if not signed_in(request.user):
        public = club_public_get(slug=slug)
        return public_page(
            request,
            public=public,
            template="tournaments/club.html",
            main=lambda: _club_main_html(request, slug, public.tournaments_open()),
        )
    page = tournament_selectors_module.club_page_get(user=request.user, slug=slug)
    form = TournamentCreateForm() if page.is_organiser else None
    return render(
        request, "tournaments/club.html", {"page": page, "form": form, **_join_context(request, page)}
    )


def _club_main_html(request: HttpRequest, slug: str, opened: list[Any]) -> str:
    page = tournament_selectors_module.club_page_get(user=request.user, slug=slug)
    context = {"page": page, **_join_context(request, page), "registrations_open": opened}
    return render_to_string("tournaments/_club_main.html", context, request=request)


def _join_context(
    request: HttpRequest, page: Any, join_form: JoinRequestForm | None = None
) -> dict[str, Any]:
    """What the club page shows of join requests: the person's own state and the form to ask, or
    for organisers how many wait."""
    state = join_requests.join_state_get(user=request.user, club=page.club)
    pending = (
        join_requests.join_requests_pending(user=request.user, club=page.club).count()
        if page.is_organiser
        else 0
    )
    return {
        "join": state,
        "join_form": join_form or JoinRequestForm(),
        "join_pending": pending,
        "registrations_open": registrations_open_in(club=page.club),
    }


@login_required
@require_POST
def club_join_request_create(request: HttpRequest, slug: str) -> HttpResponse:
    page = tournament_selectors_module.club_page_get(user=request.user, slug=slug)
    form = JoinRequestForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            join_requests.join_request_create(
                user=request.user, club=page.club, message=form.cleaned_data["message"]
            )
        except ApplicationError as exc:
            if not exc.fields:  # closed, already a member, already asked: the error page says what to do
                raise
            apply_service_error(form, exc)
            status = exc.status
        else:
            messages.success(
                request, _("Your request is sent: an organiser of the club will answer it here.")
            )
            return redirect("tournaments:club", slug=slug)
    context = {"page": page, "form": None, **_join_context(request, page, form)}
    return render(request, "tournaments/club.html", context, status=status)


def _join_requests_context(
    request: HttpRequest, club: Any, errors: dict[int, Any] | None = None
) -> dict[str, Any]:
    players = [(p.pk, p.name) for p in join_requests.players_unclaimed(club=club)]
    pending = list(join_requests.join_requests_pending(user=request.user, club=club))
    errors = errors or {}
    return {
        "club": club,
        "rows": [
            (
                r,
                user_display(r.user),
                errors.get(r.pk, (None, None))[0] or JoinApproveForm(players=players, prefix=f"a{r.pk}"),
                errors.get(r.pk, (None, None))[1] or JoinRefuseForm(prefix=f"r{r.pk}"),
            )
            for r in pending
        ],
        "open_form": JoinRequestsOpenForm(initial={"open": club.join_requests_open}),
    }


@login_required
@require_http_methods(["GET", "POST"])
def club_join_requests(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' list of pending join requests, each with Approve and Refuse; and the switch
    that opens or closes join requests (POST)."""
    club = selectors.club_get(slug=slug)
    if request.method == "POST":
        form = JoinRequestsOpenForm(request.POST)
        form.is_valid()
        open_ = bool(form.cleaned_data.get("open"))
        join_requests.club_join_requests_set(user=request.user, club=club, open_=open_)
        messages.success(
            request, _("People can now ask to join.") if open_ else _("Join requests are closed.")
        )
        return redirect("tournaments:club-join-requests", slug=slug)
    return render(request, "tournaments/club_join_requests.html", _join_requests_context(request, club))


@login_required
@require_POST
def join_request_decide(request: HttpRequest, request_id: int, decision: str) -> HttpResponse:
    """Approve (``decision`` "approve": link or create the player) or refuse a join request."""
    club = join_requests.join_request_club(user=request.user, request_id=request_id)
    players = [(p.pk, p.name) for p in join_requests.players_unclaimed(club=club)]
    approve = JoinApproveForm(request.POST, players=players, prefix=f"a{request_id}")
    refuse = JoinRefuseForm(request.POST, prefix=f"r{request_id}")
    form: Any = approve if decision == "approve" else refuse
    if form.is_valid():
        try:
            if decision == "approve":
                player = join_requests.join_request_approve(
                    user=request.user,
                    request_id=request_id,
                    player_id=form.cleaned_data["player"],
                    name=form.cleaned_data["name"],
                )
                messages.success(request, _("Approved: %(player)s is theirs now.") % {"player": player.name})
            else:
                join_requests.join_request_refuse(
                    user=request.user, request_id=request_id, reason=form.cleaned_data["reason"]
                )
                messages.success(request, _("Refused: they see it on the club page."))
            return redirect("tournaments:club-join-requests", slug=club.slug)
        except ApplicationError as exc:
            apply_service_error(form, exc)
    errors = {
        request_id: (approve if decision == "approve" else None, refuse if decision != "approve" else None)
    }
    context = _join_requests_context(request, club, errors)
    return render(request, "tournaments/club_join_requests.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubCreateForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                club = services.club_create(user=request.user, name=form.cleaned_data["name"])
            except ApplicationError as exc:
                apply_service_error(form, exc)
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
    page = tournament_selectors_module.club_page_get(user=request.user, slug=slug)
    invitation, token = services.organiser_invitation_create(user=request.user, club=page.club)
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
    page = tournament_selectors_module.club_manage_page_get(user=request.user, slug=slug)
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
        club = services.organiser_invitation_accept(user=request.user, token=token)
        messages.success(request, _("You now organise %(club)s.") % {"club": club.name})
        return redirect("tournaments:club", slug=club.slug)
    invitation = services.organiser_invitation_get(token=token)
    context = {"invitation": invitation, "already": user_is_organiser(request.user, invitation.club)}
    return render(request, "tournaments/invitation.html", context)


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
        "link": selectors.player_link_get(user=request.user, player=page.player),
    }
