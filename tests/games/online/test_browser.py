"""Snapszer against a bot in headless Chromium, phone and desktop: create the table in the lobby,
play the match to its end screen, its log and snapshots in the database, the deal verifiable.
Two browser contexts play each other through an invitation link."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest

from games.models import GameLogEntry, GameSnapshot, OnlineGame
from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page
from tests.tournaments.competitions.test_browser import _watch
from tournaments.competitions.services import stage_rounds_generate, tournament_create, tournament_players_add
from tournaments.competitions.stages.create import stage_create
from tournaments.models import GameKind, GameResult, Player, Series, SeriesFormat, StageFormat

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = "var/screenshots"


pytestmark = [
    pytest.mark.usefixtures("robot_speed"),
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _logged_in(browser: Any, server: str, username: str, device: dict[str, Any]) -> Any:
    return signed_in_page(browser, server, username, device, then="/play/")


def _play_one(page: Any) -> int | None:
    """Make one move when it is this page's turn: the number of moves made (0 or 1), None once
    the end screen shows."""
    page.wait_for_function(
        "() => !document.getElementById('ended').hidden ||"
        " document.querySelector('#hand button.legal:not(:disabled), #actions button:not([data-action=declare]):not(:disabled)')"
    )
    if page.locator("#ended").is_visible():
        return None
    # One step in the page (a view frame may re-render the table between two Playwright calls):
    # click the first legal card, else the first action that is not a declaration.
    before = page.evaluate(
        """() => {
        const el = document.querySelector('#hand button.legal:not(:disabled)') ||
                   document.querySelector('#actions button:not([data-action=declare]):not(:disabled)');
        if (!el) return null;
        const v = document.getElementById('table').dataset.version;
        el.click();
        return v;
    }"""
    )
    if before is None:  # re-rendered between the wait and the click: look again
        return 0
    try:
        page.wait_for_function(
            "v => document.getElementById('table').dataset.version !== v || !document.getElementById('ended').hidden",
            arg=before,
        )
    except Exception:
        raise AssertionError(page.locator("#status").inner_text()) from None
    return 1


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_snapszer_match_against_a_bot_is_played_to_the_end(
    server: str, browser: Any, make_user: Any, device: dict[str, Any], settings: Any
) -> None:
    make_user("anna")
    page = _logged_in(browser, server, "anna", device)
    name = "phone" if device is PHONE else "desktop"
    page.screenshot(path=f"{SHOTS}/online-lobby-{name}.png", full_page=True)
    page.select_option("#level", "random")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#hand button.pcard")
    page.screenshot(path=f"{SHOTS}/online-table-{name}.png", full_page=True)
    moves = 0
    while (made := _play_one(page)) is not None:
        moves += made
        assert moves < 400
    page.screenshot(path=f"{SHOTS}/online-ended-{name}.png", full_page=True)
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.FINISHED
    assert game.result is not None and game.result["winner"] in (0, 1)
    ended = page.locator("#ended").inner_text()
    assert ("won" in ended) == (game.result["winner"] == 0)
    # each of her taps is logged, unless the page sent it on a view already outdated (refused stale)
    assert 0 < GameLogEntry.objects.filter(game=game, user__username="anna").count() <= moves
    assert GameLogEntry.objects.filter(game=game).count() == game.version
    assert GameSnapshot.objects.filter(game=game).exists()
    page.goto(f"{server}/play/{game.pk}/verify/")
    assert page.locator("#checks").inner_text().count("✔") == 2
    page.screenshot(path=f"{SHOTS}/online-verify-{name}.png", full_page=True)


def test_two_people_play_each_other_through_an_invitation(server: str, browser: Any, make_user: Any) -> None:
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#opponent", "person")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.click("#take-seat button[type=submit]")
    bence.wait_for_selector("#hand button.pcard")
    anna.wait_for_selector("#hand button.pcard")  # her page reloads once the table has started
    for _ in range(6):  # a few moves each, whoever's turn it is
        for page in (anna, bence):
            if page.locator("#hand button.legal:not(:disabled)").count():
                _play_one(page)
    game = OnlineGame.objects.get()
    users = set(GameLogEntry.objects.filter(game=game).values_list("user__username", flat=True))
    assert users == {"anna", "bence"}


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_waiting_page_follows_its_table_and_opens_the_game_without_reloading(
    server: str, browser: Any, make_user: Any, device: dict[str, Any]
) -> None:
    """Anna waits for her opponent while she copies the invitation: her page does not reload (a
    marker set in it survives, the link stays selected, the page is not asked for again); when Bence
    takes the seat her socket hears it and the page opens the game once, by itself."""
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", device)
    anna.select_option("#opponent", "person")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    table_url = anna.url
    asked: list[str] = []
    anna.on("request", lambda request: asked.append(request.url) if request.url == table_url else None)
    anna.wait_for_selector("#table[data-waiting=socket]", state="attached")
    anna.click("#invite-link")  # it selects itself: she is copying it
    invite = anna.locator("#invite-link").input_value()
    anna.evaluate("() => { window.stillHere = 'anna'; }")
    selected = "() => { const el = document.getElementById('invite-link'); return el.value.substring(el.selectionStart, el.selectionEnd); }"
    assert anna.evaluate(selected) == invite
    anna.wait_for_timeout(5000)
    assert anna.evaluate("() => window.stillHere") == "anna"  # no reload in 5 s
    assert anna.evaluate(selected) == invite  # still selected
    assert asked == []  # and no poll of the page behind her back
    assert anna.locator("#waiting-refresh").get_attribute("href") == ""  # the no-script way on
    bence = _logged_in(browser, server, "bence", DESKTOP if device is PHONE else PHONE)
    bence.goto(invite)
    bence.click("#take-seat button[type=submit]")
    bence.wait_for_selector("#hand button.pcard")
    anna.wait_for_selector("#hand button.pcard")  # her page opened the game by itself
    assert anna.evaluate("() => window.stillHere") is None and anna.url == table_url
    assert asked == [table_url]  # once, when the table started
    assert anna.locator("#waiting").count() == 0


# --- Snap in real time ---------------------------------------------------------------------------

_SNAP_WAIT = """() => {
    if (!document.getElementById('ended').hidden) return 'ended';
    const flip = document.getElementById('flip');
    const t = document.getElementById('table');
    const tops = [...document.querySelectorAll('#seats .seat:not(.out) .pcard[data-card]')]
        .map((c) => c.dataset.card.split('.')[0]);
    if (new Set(tops).size < tops.length && t.dataset.seq !== t.dataset.calledSeq) return 'match';
    if (!flip.disabled && !flip.hidden) return 'flip';
    return false;
}"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_snap_game_against_three_bots_is_played_to_the_end(
    server: str, browser: Any, make_user: Any, device: dict[str, Any]
) -> None:
    """A short Snap game (the 12-card shapes deck, a 30 s time cap) at real speed against three
    expert bots: she flips when it is her turn (a tap on Flip, or F) and calls with the space bar
    when two tops match; the game ends by itself (the owner's timers, the bots) on the end screen."""
    make_user("anna")
    page = _logged_in(browser, server, "anna", device)
    name = "phone" if device is PHONE else "desktop"
    page.select_option("#snap-variant", "shapes")
    page.select_option("#snap-seats", "4")
    page.select_option("#snap-length", "30")
    page.select_option("#snap-level", "expert")
    page.click("#new-snap-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#seats .seat")
    page.wait_for_function("() => document.getElementById('table').dataset.rtt !== undefined")  # lag shown
    page.screenshot(path=f"{SHOTS}/snap-table-{name}.png", full_page=True)
    presses = {"flip": 0, "match": 0}
    deadline = 90_000
    while True:
        what = page.wait_for_function(_SNAP_WAIT, timeout=deadline).json_value()
        if what == "ended":
            break
        if what == "match":
            page.evaluate(
                "() => { const t = document.getElementById('table'); t.dataset.calledSeq = t.dataset.seq; }"
            )
            page.keyboard.press("Space")
            if page.locator("#claims:not([hidden]) button").count():
                try:  # several claims match: pick the first
                    page.locator("#claims button").first.click(timeout=1000)
                except Exception:
                    continue
        elif device is PHONE:
            try:  # the turn may have moved on since the wait (a bot's call, an auto-flip)
                page.locator("#flip").tap(timeout=1000)
            except Exception:
                continue
        else:
            page.keyboard.press("f")
        presses[what] += 1
        assert sum(presses.values()) < 300
    page.screenshot(path=f"{SHOTS}/snap-ended-{name}.png", full_page=True)
    page.wait_for_function("() => document.getElementById('table').dataset.finished === '1'")
    game = OnlineGame.objects.get()
    assert game.kind == "snap" and game.status == OnlineGame.Status.FINISHED and game.result is not None
    ended = page.locator("#ended").inner_text()
    assert ended.count("\n") >= 4 and page.locator("#ended tr").count() == 5  # a row per seat
    assert ("You won" in ended) == (game.result["winner"] == 0)
    mine = GameLogEntry.objects.filter(game=game, user__username="anna")
    assert mine.filter(action__type="flip").exists() and mine.filter(action__type="rtt").exists()
    assert presses["flip"] > 0
    assert GameLogEntry.objects.filter(game=game).count() == game.version


def test_a_snap_table_for_people_is_joined_by_link_and_filled_with_bots(
    server: str, browser: Any, make_user: Any
) -> None:
    """Anna opens a three-seat Snap table for people on her phone, Bence joins by the link on a
    desktop, and she fills the last seat with a bot: the game starts on both pages."""
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#snap-seats", "3")
    anna.select_option("#snap-opponent", "person")
    anna.click("#new-snap-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    anna.screenshot(path=f"{SHOTS}/snap-waiting-phone.png", full_page=True)
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.click("#take-seat button[type=submit]")
    bence.wait_for_url(re.compile(r"/play/\d+/$"))
    assert bence.locator("#fill-bots").count() == 0  # only the table's creator fills it
    anna.reload()
    assert "1 more player" in anna.locator("#waiting").inner_text()
    anna.select_option("#fill-level", "beginner")
    anna.click("#fill-bots")
    for page in (anna, bence):  # Bence's page reloads by itself once the table has started
        page.wait_for_function("() => document.querySelectorAll('#seats .seat').length === 3")
    game = OnlineGame.objects.get()
    assert game.status == OnlineGame.Status.PLAYING
    assert [s.bot_level for s in game.seats.all()] == ["", "", "beginner"]
    names = anna.locator("#seats .seat-name").all_inner_texts()
    assert names[0].startswith("anna") and names[1] == "bence" and "beginner" in names[2]


# --- Seeds from the pages, a dropped network, a series played online -------------------------------

_ON_MOVE = "#hand button.legal:not(:disabled), #actions button:not([data-action=declare]):not(:disabled)"


def _browser_seed(page: Any, selector: str) -> str:
    """The client seed the page drew in the browser (static/js/seed.js), as it will be posted."""
    page.wait_for_function(f"() => document.querySelector('{selector}').dataset.drawn === 'browser'")
    seed: str = page.locator(selector).input_value()
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    return seed


def _version(page: Any) -> int:
    return int(page.evaluate("() => document.getElementById('table').dataset.version || '-1'"))


def _ended(page: Any) -> bool:
    return bool(page.locator("#ended").is_visible())


def test_a_player_offline_for_five_seconds_resyncs_and_the_match_goes_on(
    server: str, browser: Any, make_user: Any
) -> None:
    """Anna (phone) and Bence (desktop) play Snapszer, each with a seed drawn in their browser; Anna's
    context drops its network for 5 s while Bence moves; back online, her page resyncs to the current
    version and shows his move, and the match goes on to its end with every action in the log."""
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna_seed = _browser_seed(anna, "#client-seed")
    anna.select_option("#opponent", "person")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    game = OnlineGame.objects.get()
    assert bence.locator("#commitment").inner_text() == game.server_seed_hash  # committed before he sits
    bence_seed = _browser_seed(bence, "#join-client-seed")
    bence.screenshot(path=f"{SHOTS}/online-join-desktop.png", full_page=True)
    bence.click("#take-seat button[type=submit]")
    for page in (anna, bence):
        page.wait_for_selector("#hand button.pcard")
    game.refresh_from_db()
    assert [s.client_seed for s in game.seats.all()] == [anna_seed, bence_seed]
    pages = {"anna": anna, "bence": bence}
    moves = {"anna": 0, "bence": 0}

    def on_move() -> str | None:
        """Whose page offers a move (waiting for one to), None once both show the end."""
        for _ in range(200):
            if all(_ended(p) for p in pages.values()):
                return None
            for name, page in pages.items():
                if page.locator(_ON_MOVE).count():
                    return name
            anna.wait_for_timeout(50)
        raise AssertionError("nobody is on move")

    def move(name: str) -> None:
        moves[name] += _play_one(pages[name]) or 0

    while sum(moves.values()) < 4:  # a few moves each way first
        who = on_move()
        assert who is not None
        move(who)
    # Anna's network drops while it is Bence's turn (her turn: she waits for his move first).
    while (who := on_move()) != "bence":
        assert who is not None
        move(who)
    before = _version(anna)
    anna.context.set_offline(True)
    anna.wait_for_function("() => document.getElementById('status').textContent.includes('Reconnecting')")
    anna.wait_for_timeout(300)  # her socket is closed
    offline_at = time.monotonic()
    while bence.locator(_ON_MOVE).count():  # he moves (a lead he wins may be his again)
        move("bence")
    anna.wait_for_timeout(max(0, 5000 - (time.monotonic() - offline_at) * 1000))
    game.refresh_from_db()
    assert game.version > before and _version(anna) == before  # she missed it
    last = GameLogEntry.objects.get(game=game, seq=game.version)
    assert last.user is not None and last.user.username == "bence" and last.action["type"] == "play"
    anna.context.set_offline(False)
    anna.wait_for_function(
        "v => document.getElementById('table').dataset.version === String(v)", arg=game.version
    )
    assert anna.locator(f'#trick .pcard[data-card="{last.action["card"]}"]').count() == 1  # his card
    anna.screenshot(path=f"{SHOTS}/online-resynced-phone.png", full_page=True)
    while (who := on_move()) is not None:  # to the end of the match
        move(who)
        assert sum(moves.values()) < 800
    game.refresh_from_db()
    assert game.status == OnlineGame.Status.FINISHED and game.result is not None
    # No action lost: every move a page made is in the log, and nothing else.
    log = GameLogEntry.objects.filter(game=game)
    assert log.count() == game.version == sum(moves.values())
    for name, count in moves.items():
        assert log.filter(user__username=name).count() == count
    for page in pages.values():
        page.wait_for_function(
            "v => document.getElementById('table').dataset.version === String(v)", arg=game.version
        )
    verify = bence.context.new_page()
    verify.goto(f"{server}/play/{game.pk}/verify/")
    assert verify.locator("#checks").inner_text().count("✔") == 2
    assert [verify.locator(f'.client-seed[data-seat="{n}"]').inner_text() for n in (0, 1)] == [
        anna_seed,
        bence_seed,
    ]
    for page in (anna, bence, verify):
        page.goto("about:blank")


def _snap_press(page: Any) -> str | None:
    """One press a quick player makes now, if any (flip on their turn, call when two tops match):
    what the page showed ('ended', 'flip', 'match'), None when nothing to do."""
    what = page.evaluate(_SNAP_WAIT)
    if what == "match":
        page.evaluate(
            "() => { const t = document.getElementById('table'); t.dataset.calledSeq = t.dataset.seq; }"
        )
        page.keyboard.press("Space")
        if page.locator("#claims:not([hidden]) button").count():
            with contextlib.suppress(Exception):  # several claims match: pick the first
                page.locator("#claims button").first.click(timeout=1000)
    elif what == "flip":
        page.keyboard.press("f")
    return what or None


@pytest.mark.django_db(transaction=True)
def test_a_tournament_series_is_played_online_and_the_standings_follow_by_push(
    server: str, browser: Any, club: Any, make_user: Any, settings: Any
) -> None:
    """A Snap series (best of 3, the 12-card shapes deck, 30 s games) of a stage its organiser marks
    online on the stage page; Anna (phone) and Bence (desktop) each press "Play" on the series page,
    with a seed drawn in their browser, and play its games until it is decided; the organiser's third
    context watches the standings, which change by push, without a reload or a version request."""

    organiser = club.organisers.get()
    settings.ONLINE_SNAP_CLOCK_SCALE = 2.0  # game time runs twice as fast (every time is an input)
    people = {name: make_user(name) for name in ("anna", "bence")}
    seated = [Player.objects.create(club=club, name=name.title(), user=user) for name, user in people.items()]
    tournament = tournament_create(
        user=organiser,
        club=club,
        name="Online cup",
        game=GameKind.SNAP,
        series_format=SeriesFormat.BEST_OF_3,
        rules_profile="classic",
        rules_options={"picture": True, "deck": "shapes", "match_key": "picture_id", "max_game_seconds": 30},
    )
    tournament_players_add(user=organiser, tournament=tournament, players=seated)
    stage = stage_create(
        user=organiser, tournament=tournament, name="Final", format=StageFormat.ROUND_ROBIN, options={}
    )
    stage_rounds_generate(user=organiser, stage_id=stage.pk)
    series = Series.objects.get(stage=stage)

    watcher = signed_in_page(browser, server, "organiser", DESKTOP, then=f"/stages/{stage.pk}/")
    watcher.click("text=Play this stage online")
    watcher.wait_for_selector("text=Played online")
    version_requests: list[str] = []
    standings = _watch(watcher.context, f"{server}/stages/{stage.pk}/standings/", version_requests)
    first_version = standings.evaluate("document.querySelector('#standings').dataset.version")

    pages = {
        "anna": signed_in_page(browser, server, "anna", PHONE, then=f"/series/{series.pk}/"),
        "bence": signed_in_page(browser, server, "bence", DESKTOP, then=f"/series/{series.pk}/"),
    }
    games: list[OnlineGame] = []
    while True:
        series.refresh_from_db()
        if series.status == Series.Status.DECIDED:
            break
        assert len(games) < 6
        seeds = {}
        for name, page in pages.items():  # each presses "Play" with their own seed
            page.goto(f"{server}/series/{series.pk}/")
            seeds[name] = _browser_seed(page, "#series-client-seed")
            page.click("#play-online")
            page.wait_for_url(re.compile(r"/play/\d+/$"))
        for page in pages.values():  # the first one's page reloads once the second has sat down
            page.wait_for_selector("#seats .seat")
        game = OnlineGame.objects.get(series=series, game_number=len(games) + 1)
        assert {s.user.username: s.client_seed for s in game.seats.select_related("user")} == seeds
        deadline = time.monotonic() + 90  # 30 game seconds at twice the speed, then the last rounds
        while not all(_snap_press(page) == "ended" for page in pages.values()):
            assert time.monotonic() < deadline, "the game did not end"
            pages["anna"].wait_for_timeout(40)
        # The pages show the end as the last frame arrives; the owner stores the end just after.
        game.refresh_from_db()
        while game.status != OnlineGame.Status.FINISHED:
            assert time.monotonic() < deadline + 15, "the game's end was not stored"
            pages["anna"].wait_for_timeout(40)
            game.refresh_from_db()
        games.append(game)
    pages["anna"].screenshot(path=f"{SHOTS}/online-series-ended-phone.png", full_page=True)
    recorded = GameResult.objects.filter(game__series=series, source="engine")
    assert sorted(recorded.values_list("engine_game", flat=True)) == sorted(g.pk for g in games)
    # The standings followed by push: a new version with the series decided, no poll, no reload.
    standings.wait_for_function(
        "() => document.querySelector('#standings').textContent.includes('Decided')", timeout=15_000
    )
    assert standings.evaluate("document.querySelector('#standings').dataset.version") != first_version
    assert standings.evaluate("window.changes.length") >= 1
    assert standings.evaluate("window.notReloaded") is True and version_requests == []
    standings.screenshot(path=f"{SHOTS}/online-series-standings-desktop.png", full_page=True)
    for page in (*pages.values(), standings, watcher):
        page.goto("about:blank")


def test_an_animal_snap_players_call_button_shows_their_animal_and_the_call_carries_it(
    server: str, browser: Any, make_user: Any
) -> None:
    make_user("anna")
    page = _logged_in(browser, server, "anna", PHONE)
    page.select_option("#snap-variant", "animal")
    page.select_option("#snap-seats", "2")
    page.select_option("#snap-length", "30")
    page.click("#new-snap-table button[type=submit]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#seats .seat")
    assert page.locator("#call").inner_text() == "🐄 Moo!"
    page.wait_for_function("() => document.getElementById('table').dataset.seq !== undefined")
    page.locator("#call").tap()
    game = OnlineGame.objects.get()
    deadline = time.monotonic() + 10
    while not (
        calls := list(GameLogEntry.objects.filter(game=game, user__username="anna", action__type="call"))
    ):
        assert time.monotonic() < deadline, "her call was not logged"
        page.wait_for_timeout(100)
    assert calls[0].action["sound"] == 0  # her own sound: seat 0's
    page.screenshot(path=f"{SHOTS}/snap-animal-phone.png", full_page=True)
    page.goto("about:blank")


def test_an_absent_players_seat_shows_its_bot_and_comes_back(
    server: str, browser: Any, make_user: Any, monkeypatch: Any
) -> None:
    """The lobby's absence option; Bence's page closes; past the timeout (the owner's clock moved
    on, no waiting) Anna's page names "bence (bot playing)"; Bence opens the table again: his seat."""
    from games.online import owner as owner_module
    from tests.games.online.test_absence import Clock

    clock = Clock()
    monkeypatch.setattr(owner_module, "CLOCK", clock)
    make_user("anna")
    make_user("bence")
    anna = _logged_in(browser, server, "anna", PHONE)
    anna.select_option("#opponent", "person")
    anna.fill("#absent", "10")
    anna.click("#new-table button[type=submit]")
    anna.wait_for_url(re.compile(r"/play/\d+/$"))
    invite = anna.locator("#waiting input").input_value()
    bence = _logged_in(browser, server, "bence", DESKTOP)
    bence.goto(invite)
    bence.click("#take-seat button[type=submit]")
    bence.wait_for_selector("#hand button.pcard")
    anna.wait_for_selector("#hand button.pcard")
    game = OnlineGame.objects.get()
    assert game.options["absent_seconds"] == 10
    table_url = bence.url
    bence.close()
    deadline = time.monotonic() + 15
    while 1 not in getattr(owner_module.OWNERS.get(game.pk), "away_since", {}):
        assert time.monotonic() < deadline, "the owner did not hear Bence leave"
        time.sleep(0.05)
    clock.forward(11)
    anna.wait_for_function(
        "() => document.getElementById('opponent').textContent.includes('bence (bot playing)')"
    )
    anna.screenshot(path=f"{SHOTS}/online-bot-playing-phone.png", full_page=True)
    again = _logged_in(browser, server, "bence", DESKTOP)
    again.goto(table_url)
    again.wait_for_selector("#hand button.pcard")
    anna.wait_for_function("() => !document.getElementById('opponent').textContent.includes('bot playing')")
    kinds = [
        a["bot"]
        for a in GameLogEntry.objects.filter(game=game, action__type="stand_in").values_list(
            "action", flat=True
        )
    ]
    assert kinds == ["casual", None]
