"""The pages work under the Content-Security-Policy: headless Chromium visits every kind of page
(home, club, tournament, stage with its bracket, standings, series, the record form, the play
lobby, a Snapszer table, the login and error pages, the API docs, a new club, an invitation, the admin) and
hears no ``securitypolicyviolation`` event and no CSP error on the console. The other browser
tests (tournaments, online play, clubs) run under the same policy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from snapleague.chromium import CHROMIUM
from tests.browser import PHONE
from tests.conftest import record_result
from tournaments.clubs.services import organiser_invitation_create
from tournaments.competitions.services import (
    stage_rounds_generate,
    tournament_create,
    tournament_players_add,
    tournament_referee_add,
)
from tournaments.competitions.stages.create import stage_create
from tournaments.models import GameKind, Player, Series, SeriesFormat, Stage, StageFormat

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

# Runs before the page's own scripts (and is not subject to the policy): keeps every violation.
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


def _context(chromium: Any, base: str, username: str | None, device: dict[str, Any]) -> tuple[Any, list[str]]:
    context = chromium.new_context(**device)
    context.set_default_timeout(15_000)
    context.add_init_script(LISTEN)
    console: list[str] = []
    context.on(
        "console",
        lambda message: (
            message.type == "error"
            and "Content Security Policy" in message.text
            and console.append(message.text)
        ),
    )
    if username:
        page = context.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "pw-for-tests-only")
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))
        page.close()
    return context, console


def _visit(context: Any, url: str, ready: str | None = None) -> Any:
    page = context.new_page()
    response = page.goto(url)
    assert response is not None and response.status < 500, url
    assert "script-src 'self'" in response.headers["content-security-policy"], url
    page.wait_for_load_state("load")
    if ready:
        page.wait_for_function(ready)
    page.wait_for_timeout(300)  # htmx and the live script start; the socket opens
    return page


@pytest.fixture
def knockout(club: Any, organiser: Any, referee: Any, players: list[Player]) -> tuple[Stage, Series]:
    """A Snapszer knockout of four, its bracket drawn, one game of a semi-final recorded."""
    tournament = tournament_create(
        user=organiser, club=club, name="Cup", game=GameKind.SNAPSZER, series_format=SeriesFormat.BEST_OF_3
    )
    tournament_players_add(user=organiser, tournament=tournament, players=players[:4])
    tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
    stage = stage_create(
        user=organiser,
        tournament=tournament,
        name="Knockout",
        format=StageFormat.SINGLE_ELIMINATION,
        options={"seeding": "manual"},
    )
    stage_rounds_generate(user=organiser, stage_id=stage.pk)
    series = Series.objects.filter(stage=stage).order_by("table").first()
    assert series is not None
    first, second = [seat.player for seat in series.seats.order_by("seat")]
    record_result(
        user=referee,
        series_id=series.pk,
        game_number=1,
        result={"score": {str(first.pk): 7, str(second.pk): 3}},
    )
    return stage, series


@pytest.mark.django_db(transaction=True)
def test_no_page_breaks_the_content_security_policy(
    browser: Any, server: str, organiser: Any, referee: Any, knockout: tuple[Stage, Series]
) -> None:
    stage, series = knockout
    tournament, club = stage.tournament, stage.tournament.club
    _, invitation_token = organiser_invitation_create(user=organiser, club=club)
    admin = get_user_model().objects.create_superuser("admin", password="pw-for-tests-only")
    seen: dict[str, list[str]] = {}
    contexts = []
    for username, urls in [
        (
            None,
            [
                ("/", None),
                (f"/clubs/{club.slug}/", None),
                (f"/stages/{stage.pk}/", "() => document.querySelector('.bracket-scroll svg')"),
                (f"/stages/{stage.pk}/standings/", None),
                (f"/series/{series.pk}/", None),
                ("/accounts/login/", None),
                ("/tournaments/999999/", None),  # the error page
                ("/api/docs/", "() => document.querySelector('.swagger-ui .info')"),
            ],
        ),
        (
            organiser.username,
            [
                (f"/tournaments/{tournament.pk}/", None),
                ("/play/", None),
                ("/clubs/new/", None),
                (f"/clubs/{club.slug}/?organiser", None),
            ],
        ),
        (
            referee.username,
            [(f"/series/{series.pk}/record/", None), (f"/invitations/{invitation_token}/", None)],
        ),
        (
            admin.username,
            [
                ("/admin/", None),
                ("/admin/tournaments/club/", None),
                (f"/admin/tournaments/club/{club.pk}/change/", None),
            ],
        ),
    ]:
        context, console = _context(browser, server, username, PHONE)
        contexts.append(context)
        for url, ready in urls:
            page = _visit(context, f"{server}{url}", ready)
            seen[url] = page.evaluate("window.cspViolations") + console[:]
            console.clear()
            page.close()

    # A Snapszer table, opened from the lobby for a person: the invitation link selects itself.
    context, console = _context(browser, server, organiser.username, PHONE)
    contexts.append(context)
    page = _visit(context, f"{server}/play/")
    page.select_option("#opponent", "person")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")
    page.click("#invite-link")
    assert page.evaluate("window.getSelection().toString() || document.activeElement.selectionEnd") not in (
        "",
        0,
    )
    seen["table"] = page.evaluate("window.cspViolations") + console[:]

    for context in contexts:
        context.close()
    assert {url: found for url, found in seen.items() if found} == {}
    assert len(seen) == 18
