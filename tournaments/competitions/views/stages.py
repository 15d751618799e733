"""A stage's pages: the stage (with its drawing), its rounds and table sheets, standings, the live
version, and the organiser's buttons (create, preview, publish, online play, withdraw); "verify
this draw"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from snapleague.errors import ApplicationError, NotFound
from snapleague.fragments import fragment_html, fragment_response, public_page
from snapleague.users import signed_in
from tournaments.competitions import table_sheets
from tournaments.competitions.forms.stages import StageCreateForm, WithdrawForm
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.competitions.selectors import standings as standings_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.selectors.public import stage_public_get
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.competitions.stages import state as stages_state
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.competitions.views.tournaments import tournament_form_failed
from tournaments.pages import LIVE_POLL_SECONDS, apply_service_error, refusal_told, version_changed


def _stage_page(request: HttpRequest, page: Any, *, status: int = 200, **forms: Any) -> HttpResponse:
    from tournaments.competitions.bracket_page import stage_drawing

    context = {
        "page": page,
        "drawing": stage_drawing(page),
        "poll": LIVE_POLL_SECONDS,
        "withdraw_form": WithdrawForm(players=page.players) if page.roles.organiser else None,
        **forms,
    }
    return render(request, "tournaments/stage.html", context, status=status)


@require_GET
def stage_detail(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The stage page. Its rounds and bracket are the live fragment, the same for every reader and
    taken from the cache (rendered once per version); only its organisers' forms need the whole
    stage read again."""
    if not signed_in(request.user):
        return _anonymous_stage_page(request, "stage", stage_id)
    header = stage_selectors.stage_header_get(user=request.user, stage_id=stage_id)
    if header.roles.organiser:
        return _stage_page(request, stage_selectors.stage_page_get(user=request.user, stage_id=stage_id))
    context = {"page": header, "body": _live_fragment_in_page(request, "stage", header.stage)}
    return render(request, "tournaments/stage.html", context)


@require_GET
def stage_fragment(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The rounds and bracket, rendered once per stage version (snapleague/fragments.py)."""
    return _live_fragment_response(request, "stage", stage_id)


@require_GET
def stage_round(request: HttpRequest, stage_id: int, number: int) -> HttpResponse:
    page, line = stage_selectors.stage_round_page_get(user=request.user, stage_id=stage_id, number=number)
    return render(request, "tournaments/round.html", {"page": page, "line": line})


@require_GET
def stage_round_sheets(request: HttpRequest, stage_id: int, number: int) -> HttpResponse:
    """The round's table sheets to print (A4 or Letter: ``?paper=letter``), each with a QR code of
    its series' result form."""
    page, line = stage_selectors.stage_round_page_get(user=request.user, stage_id=stage_id, number=number)
    paper = request.GET.get("paper", "a4")
    if paper not in table_sheets.PAPERS:
        paper = "a4"
    urls = {s.pk: request.build_absolute_uri(reverse("tournaments:record", args=[s.pk])) for s in line.series}
    context = {
        "page": page,
        "line": line,
        "paper": paper,
        "sheets": table_sheets.table_sheets(line.series, urls),
    }
    return render(request, "tournaments/round_sheets.html", context)


@require_GET
def stage_standings(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The standings page: its table is the live fragment, from the cache (rendered once per version)."""
    if not signed_in(request.user):
        return _anonymous_stage_page(request, "standings", stage_id)
    header = stage_selectors.stage_header_get(user=request.user, stage_id=stage_id)
    context = {"page": header, "body": _live_fragment_in_page(request, "standings", header.stage)}
    return render(request, "tournaments/standings.html", context)


@require_GET
def stage_standings_fragment(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The standings table, rendered once per stage version (snapleague/fragments.py): what every
    watcher fetches when told "changed"."""
    return _live_fragment_response(request, "standings", stage_id)


def _stage_body_html(request: HttpRequest, stage_id: int) -> str:
    from tournaments.competitions.bracket_page import stage_drawing

    page = stage_selectors.stage_page_get(user=request.user, stage_id=stage_id)
    context = {"page": page, "drawing": stage_drawing(page), "poll": LIVE_POLL_SECONDS}
    return render_to_string("tournaments/_stage_body.html", context, request=request)


def _standings_table_html(request: HttpRequest, stage_id: int) -> str:
    page = standings_selectors.stage_standings_page_get(user=request.user, stage_id=stage_id)
    context = {"page": page, "poll": LIVE_POLL_SECONDS}
    return render_to_string("tournaments/_standings_table.html", context, request=request)


# The stage's fragments that follow its version, by the name a page's section gives in
# ``data-live-fragment``: the same for every reader who may see the stage.
LIVE_FRAGMENTS: dict[str, Callable[[HttpRequest, int], str]] = {
    "stage": _stage_body_html,
    "standings": _standings_table_html,
}


def _live_fragment_response(request: HttpRequest, name: str, stage_id: int) -> HttpResponse:
    stage = _live_stage(request.user, name, stage_id)
    return fragment_response(
        request,
        topic=_topic(name, stage),
        version=_version(stage),
        render=lambda: LIVE_FRAGMENTS[name](request, stage_id),
    )


def _live_fragment_in_page(request: HttpRequest, name: str, stage: Any) -> SafeString:
    """The fragment ``name`` of a stage its reader may see, for its page: from the same cache as
    its fetch (our own rendering, hence safe)."""
    html = fragment_html(
        topic=_topic(name, stage),
        version=_version(stage),
        render=lambda: LIVE_FRAGMENTS[name](request, stage.pk),
    )
    return mark_safe(html)  # rendered by our templates, which escaped what they put in


def _anonymous_stage_page(request: HttpRequest, name: str, stage_id: int) -> HttpResponse:
    """An anonymous visitor's stage or standings page (``name``): whole from the cache, once per
    version of its live fragment and header (snapleague/fragments.py ``public_page``)."""
    public = stage_public_get(stage_id=stage_id, page=name)
    return public_page(
        request,
        public=public,
        template=f"tournaments/{name}.html",
        main=lambda: _live_fragment_in_page(request, name, public.live),
    )


def live_fragment_html(name: str, stage_id: int) -> str | None:
    """For the live socket (tournaments/live/fragments.py): the fragment ``name`` of the stage as
    its fetch answers anyone, in the active language, from the same cache; None when the stage is
    not public (a draft: its watchers fetch it, as before) or gone."""
    request = HttpRequest()
    request.method = "GET"
    request.user = AnonymousUser()
    try:
        stage = _live_stage(request.user, name, stage_id)
    except NotFound:
        return None
    return _live_fragment_in_page(request, name, stage)


def _live_stage(user: Any, name: str, stage_id: int) -> Any:
    """What keys the stage's live fragment, if ``user`` may see the stage (NotFound if not): for an
    anonymous reader (the crowd) from the compiled read of its public page, else the stage."""
    if signed_in(user):
        return tournament_selectors.stage_get(user=user, stage_id=stage_id)
    return stage_public_get(stage_id=stage_id, page=name).live


def _topic(kind: str, stage: Any) -> str:
    # The stage's public seed commitment: a stage made anew with a reused id is another topic.
    return f"{kind}:{stage.pk}:{stage.seed_commitment}"


def _version(stage: Any) -> str:
    return f"{stage.results_version}.{stage.standings_version}"


@require_GET
def stage_version(request: HttpRequest, stage_id: int) -> JsonResponse:
    version = standings_selectors.stage_version_get(user=request.user, stage_id=stage_id)
    return version_changed(request, version, "standings-changed")


@login_required
@require_POST
def stage_create(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_selectors.tournament_manage_get(user=request.user, tournament_id=tournament_id)
    form = StageCreateForm(request.POST, game=tournament.game, tournament=tournament)
    if form.is_valid():
        try:
            stages_create.stage_create(
                user=request.user, tournament=tournament, **form.service_kwargs(tournament)
            )
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Stage created: generate its rounds when everyone is in."))
            return redirect("tournaments:tournament", tournament_id=tournament_id)
    return tournament_form_failed(request, tournament_id, stage_form=form)


@login_required
@require_POST
def stage_rounds_generate(request: HttpRequest, stage_id: int) -> HttpResponse:
    """Publish the round(s) due (the first round after its preview; in review mode, the next)."""
    stage = tournament_selectors.stage_get(user=request.user, stage_id=stage_id)
    try:
        rounds = stages_publish.stage_round_publish(user=request.user, stage_id=stage.pk)
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(
            request,
            _("Round %(n)s published.") % {"n": rounds[0].number}
            if len(rounds) == 1
            else _("%(n)s rounds published.") % {"n": len(rounds)},
        )
    return redirect("tournaments:stage", stage_id=stage.pk)


@login_required
@require_GET
def stage_preview(request: HttpRequest, stage_id: int) -> HttpResponse:
    # A draft's stage is not found by someone who may not see the draft (the service only checks
    # who may manage it, which would tell them it exists).
    stage = stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)
    preview = stages_publish.stage_preview(user=request.user, stage_id=stage.pk)
    return render(
        request,
        "tournaments/stage_preview.html",
        {"preview": preview, "rows": stages_publish.preview_rows(preview), "stage": preview.stage},
    )


@require_GET
def stage_draw(request: HttpRequest, stage_id: int) -> HttpResponse:
    """ "Verify this draw": the commitment, the seed once round 1 is published, the draw's input and
    the order recomputed from them (docs/formats.md "Checking a random draw")."""
    stage = tournament_selectors.stage_get(user=request.user, stage_id=stage_id)
    return render(request, "tournaments/stage_draw.html", {"check": stages_state.stage_draw_check(stage)})


@login_required
@require_POST
def stage_online(request: HttpRequest, stage_id: int) -> HttpResponse:
    stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)  # 404 for a draft not seen
    online = request.POST.get("online") == "1"
    try:
        stages_create.stage_online_set(user=request.user, stage_id=stage_id, online=online)
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(
            request,
            _("Its series are played online now: the players see “Play”.")
            if online
            else _("Its series are played at the tables now."),
        )
    return redirect("tournaments:stage", stage_id=stage_id)


@login_required
@require_POST
def stage_withdraw(request: HttpRequest, stage_id: int) -> HttpResponse:
    page = stage_selectors.stage_manage_page_get(user=request.user, stage_id=stage_id)
    form = WithdrawForm(request.POST, players=page.players)
    if form.is_valid():
        try:
            stages_withdrawals.stage_withdraw(
                user=request.user,
                stage_id=stage_id,
                player_id=form.cleaned_data["player"],
                from_round=form.cleaned_data["from_round"],
                reason=form.cleaned_data["reason"],
            )
        except ApplicationError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request, _("Withdrawn: their open series are walkovers; later rounds leave them out.")
            )
            return redirect("tournaments:stage", stage_id=stage_id)
    return _stage_page(request, page, withdraw_form=form, status=400)
