"""A club's ladders' pages (docs/ladder.md): the list, a ladder and its history, my challenges,
the organiser's settings and players, challenges and their scores."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from snapleague.errors import ApplicationError
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.pages import apply_service_error, form_saved, refusal_told
from tournaments.rankings.ladder import selectors as ladder_selectors
from tournaments.rankings.ladder import services as ladder_services
from tournaments.rankings.ladder.forms import LadderChallengeRecordForm, LadderForm
from tournaments.rankings.seasons import selectors as season_selectors


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


def _ladder_form_page(request: HttpRequest, club: Any, ladder: Any, save: Any) -> HttpResponse:
    seasons = season_selectors.club_seasons_list(club=club)
    status = 200
    if request.method == "POST":
        form = LadderForm(request.POST, seasons=seasons)
        saved, status = form_saved(form, save)
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
        refusal_told(request, exc)
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
            apply_service_error(form, exc)
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
