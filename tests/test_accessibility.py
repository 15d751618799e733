"""Accessibility (issue 15): axe-core, vendored in tests/fixtures/axe/ (no CDN: the tests run
offline), on every page type in headless Chromium, phone and desktop: no serious or critical
violation. And the keyboard: every control of a page is reached by Tab, in the order it reads, and
shows where the focus is (docs/web.md, "Accessibility")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, TransactionTestCase, override_settings
from django.utils import timezone

from games.engine.protocol import GameKind
from games.online.services import table_create
from snapleague.celery import app as celery_app
from snapleague.chromium import CHROMIUM
from snapleague.users import Account
from tests.browser import PHONE, serving
from tests.conftest import connection_shared_by_all_threads, record_result, snapszer_win
from tests.games.online.finished_games import play_snapszer
from tournaments.clubs.services import organiser_invitation_create
from tournaments.competitions.services import tournament_players_add
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.integrations.tokens.services import api_token_create
from tournaments.models import Club, Player, Series, Stage, Tournament
from tournaments.nights import services as session_services
from tournaments.rankings.ladder import services as ladder_services

AXE = Path(__file__).resolve().parent / "fixtures" / "axe" / "axe.min.js"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"  # as the other tests' (tests/conftest.py)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@dataclass
class World:
    club: Club
    tournament: Tournament
    draft_stage: Stage
    league: Stage
    knockout: Stage
    played: Series
    player: Player
    anna: Account
    casual: Any
    finished: Any
    invitation: str
    session: Any = None
    ladder: Any = None

    def new_snap_table(self) -> Any:
        """Anna's Snap table against a bot, as it is before anyone moves."""
        return table_create(user=self.anna, kind="snap", options={}, seats=2, bots=["casual"])


@pytest.fixture(scope="module")
def shared(
    django_db_setup: None, django_db_blocker: Any, _end_live_server_sessions: None
) -> Iterator[tuple[World, str]]:
    """One world and one server for the module's tests, which only read pages (GET, Tab, axe): the
    world is committed once, as a transactional test's data is, and flushed once at the end, instead
    of being built, served and flushed for each of a hundred tests (about 1.3 s each). A live game
    changes as it is played: the Snap table against a bot is made afresh for its tests
    (``World.new_snap_table``)."""
    celery_app.conf.task_always_eager = True  # as the tests' own ``_celery_eager`` does
    with (
        django_db_blocker.unblock(),
        override_settings(ONLINE_BOT_DELAY=0.0, PASSWORD_HASHERS=[MD5]),
        connection_shared_by_all_threads(),
        # The tests stay transactional (what they write, a session, a table, is committed and
        # seen by the server's threads), but the flush after each would empty the shared world.
        mock.patch.object(TransactionTestCase, "_fixture_teardown", lambda self: None),
    ):
        try:
            built = _build_world()
            with serving() as base:
                yield built, base
        finally:
            celery_app.conf.task_always_eager = False
            call_command("flush", verbosity=0, interactive=False)


def _make_user(username: str, **extra: Any) -> Account:
    return get_user_model().objects.create_user(username=username, password="pw-for-tests-only", **extra)


def _build_world() -> World:
    organiser = _make_user("organiser", is_staff=True)
    referee = _make_user("referee")
    anna_user = _make_user("anna")
    club = Club.objects.create(name="Hatvan Card Club", slug="hatvan")
    club.organisers.add(organiser)
    names = ["Anna", "Bence", "Csilla", "Dániel"]
    people = [
        Player.objects.create(club=club, name=n, user=anna_user if n == "Anna" else None) for n in names
    ]
    from tournaments.competitions.services import tournament_create, tournament_referee_add

    tournament = tournament_create(user=organiser, club=club, name="Spring Snapszer", game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=people)
    tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
    league = stages_create.stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin"
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=league.pk)
    knockout = stages_create.stage_create(
        user=organiser, tournament=tournament, name="Cup", format="single_elimination"
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=knockout.pk)
    api_token_create(user=anna_user, name="results script", scope="read")  # a row with its Revoke…
    draft_stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="Later", format="swiss"
    )
    played = Series.objects.filter(stage=league, seats__player=people[0]).order_by("round__number").first()
    assert played is not None
    first, second = [s.player for s in played.seats.order_by("seat")]
    record_result(user=referee, series_id=played.pk, game_number=1, result=snapszer_win(first, second))
    casual = table_create(user=anna_user, kind=GameKind.SNAPSZER, options={"profile": "snapszer"}, seats=2)
    finished = table_create(
        user=anna_user, kind=GameKind.SNAPSZER, options={"profile": "snapszer"}, seats=2, bots=["casual"]
    )
    play_snapszer(finished)
    _invitation, token = organiser_invitation_create(user=organiser, club=club)
    session = session_services.session_create(
        user=organiser,
        tournament=tournament,
        name="Thursday night",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    session_services.session_stations_set(
        user=organiser, session_id=session.pk, stations=session_services.parse_stations("1 Window\n2 Bar")
    )
    session_services.session_round_schedule(user=organiser, session_id=session.pk, round_id=played.round_id)
    # A ladder with an open challenge: the organiser's page has the forms to record a challenge
    # and a result.
    ladder = ladder_services.ladder_create(user=organiser, club=club, name="Ladder", game=GameKind.SNAPSZER)
    for person in people[:4]:
        ladder_services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=person.pk)
    ladder_services.challenge_create(
        user=organiser, ladder_id=ladder.pk, challenged_id=people[2].pk, challenger_id=people[3].pk
    )
    return World(
        club,
        tournament,
        draft_stage,
        league,
        knockout,
        played,
        people[0],
        anna_user,
        casual,
        finished,
        token,
        session,
        ladder,
    )


# Each page type: who looks (None: nobody signed in) and where.
PAGES: dict[str, tuple[str | None, Callable[[World], str]]] = {
    "home": ("anna", lambda w: "/"),
    "login": (None, lambda w: "/accounts/login/"),
    "not found": (None, lambda w: "/tournaments/999999/"),
    "club": ("organiser", lambda w: f"/clubs/{w.club.slug}/"),
    "new club": ("anna", lambda w: "/clubs/new/"),
    "player import": ("organiser", lambda w: f"/clubs/{w.club.slug}/players/import/"),
    "invitation": ("anna", lambda w: f"/invitations/{w.invitation}/"),
    "tournament": ("organiser", lambda w: f"/tournaments/{w.tournament.pk}/"),
    "audit": ("organiser", lambda w: f"/tournaments/{w.tournament.pk}/audit/"),
    "stage": ("organiser", lambda w: f"/stages/{w.league.pk}/"),
    "bracket": (None, lambda w: f"/stages/{w.knockout.pk}/"),
    "stage preview": ("organiser", lambda w: f"/stages/{w.draft_stage.pk}/preview/"),
    "round": ("referee", lambda w: f"/stages/{w.league.pk}/rounds/1/"),
    "round sheets": ("referee", lambda w: f"/stages/{w.league.pk}/rounds/1/sheets/"),
    "standings": (None, lambda w: f"/stages/{w.league.pk}/standings/"),
    "series": ("organiser", lambda w: f"/series/{w.played.pk}/"),
    "record form": ("referee", lambda w: f"/series/{w.played.pk}/record/"),
    "correction form": ("organiser", lambda w: f"/series/{w.played.pk}/games/1/correct/"),
    "player": (None, lambda w: f"/players/{w.player.pk}/"),
    "ladder": ("organiser", lambda w: f"/ladders/{w.ladder.pk}/"),
    "big screen": (None, lambda w: f"/tournaments/{w.tournament.pk}/screen/"),
    "session big screen": (None, lambda w: f"/sessions/{w.session.pk}/screen/"),
    "lobby": ("anna", lambda w: "/play/"),
    "join": ("referee", lambda w: f"/play/join/{w.casual.invite_token}/"),
    "snapszer table": ("anna", lambda w: f"/play/{w.casual.pk}/"),
    "snap table": ("anna", lambda w: f"/play/{w.new_snap_table().pk}/"),
    "replay": (None, lambda w: f"/play/{w.finished.pk}/replay/"),
    "verify": (None, lambda w: f"/play/{w.finished.pk}/verify/"),
    "fairness": (None, lambda w: "/play/fairness/"),
    # The deal form of a hand entered card by card, for a game of Anna's series (its play steps
    # are answers to its POSTs: tests/games/online/test_hand_entry_browser.py clicks through them).
    "api tokens": ("anna", lambda w: "/me/tokens/"),
    "notifications": ("anna", lambda w: "/notifications/"),
    "notification settings": ("anna", lambda w: "/notifications/settings/"),
    "disputes": ("organiser", lambda w: f"/tournaments/{w.tournament.pk}/disputes/"),
    "hand entry": ("anna", lambda w: f"/play/hands/new/?table_game={w.played.games.get(number=1).pk}"),
}

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary)}));
}"""


def _open(chromium: Any, base: str, device: dict[str, Any], username: str | None, url: str) -> Any:
    # The page's Content-Security-Policy would refuse the injected axe script: bypassed in this
    # context only (the pages' own scripts are files either way).
    context = chromium.new_context(**device, bypass_csp=True)
    context.set_default_timeout(20_000)
    if username is not None:
        # Signed in by a session made on the server (Django's test client), not through the login
        # form: the form is a page of its own here ("login") and the sign-in journey is the browser
        # tests'; going through it for each of the hundred pages cost about 0.7 s a test.
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        context.add_cookies(
            [
                {
                    "name": django_settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                    "url": base,
                }
            ]
        )
    page = context.new_page()
    page.goto(f"{base}{url}")
    assert username is None or "/accounts/login/" not in page.url, f"{url}: not signed in"
    page.wait_for_load_state("networkidle")
    return page


@pytest.fixture
def opened(browser: Any, shared: tuple[World, str]) -> Iterator[Callable[..., Any]]:
    world, server = shared
    contexts = []

    def open_page(name: str, device: dict[str, Any]) -> Any:
        username, url = PAGES[name]
        page = _open(browser, server, device, username, url(world))
        contexts.append(page.context)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_or_critical_axe_violation(
    opened: Callable[..., Any], name: str, device: dict[str, Any]
) -> None:
    page = opened(name, device)
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(AXE_RUN)
    assert violations == [], f"{name}: {violations}"


# Every control a visitor could use: shown (not in a closed <details> either), enabled, not taken
# out of the tab order. A group of radio buttons is one stop (its arrows move within it).
KEY = """(el) => el.type === "radio" ? "radio group " + el.name : el.outerHTML.slice(0, 120)"""
CONTROLS = (
    """() => Array.from(document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, [tabindex]"))
  .filter((el) => !el.disabled && el.tabIndex >= 0 && !el.closest("[inert]")
          && el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}))
  .map("""
    + KEY
    + ")"
)

FOCUSED = (
    """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  // Focus on a browser's own part of a field (the date-time field's calendar button): the field
  // itself is not :focus then, and the part is styled by its own rule.
  const shown = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
    || style.boxShadow !== "none" || !el.matches(":focus");
  return {html: ("""
    + KEY
    + """)(el), shown};
}"""
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", [n for n in PAGES if n not in ("snap table", "snapszer table")])
def test_every_control_is_reached_by_tab_and_shows_the_focus(opened: Callable[..., Any], name: str) -> None:
    # (The live tables change their controls with every move; their keys are tested with them.)
    page = opened(name, DESKTOP)
    controls = page.evaluate(CONTROLS)
    reached: list[str] = []
    unmarked: list[str] = []
    page.locator("body").click(position={"x": 1, "y": 1})  # start from the top of the page
    for _ in range(len(controls) + 5):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (reached and focused["html"] == reached[0]):
            break
        reached.append(focused["html"])
        if not focused["shown"]:
            unmarked.append(focused["html"])
    assert set(controls) <= set(reached), f"{name}: not reached by Tab: {set(controls) - set(reached)}"
    assert unmarked == [], f"{name}: no visible focus on {unmarked}"
