"""End to end in headless Chromium on phone-sized screens: the referee records, watching phones follow.

Playwright drives Debian's chromium (``apt-get install chromium``; ``playwright install`` cannot
download a browser here). The server is uvicorn, as ``bin/run`` starts it, serving
``snapleague.asgi.application`` (pages and the live-pages websocket) in a thread of this process,
so it sees the test database; Celery runs eagerly, so the standings task runs on commit exactly as
the worker would run it. ``-s`` prints the measured latencies (docs/benchmarks.md, "Live updates").
"""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

import pytest

from tests.browser import BROWSER_TEST, PHONE, signed_in_page
from tests.conftest import record_result, snap_win
from tournaments.competitions.services import (
    stage_rounds_generate,
    tournament_create,
    tournament_players_add,
    tournament_referee_add,
)
from tournaments.competitions.stages.create import stage_create
from tournaments.models import GameKind, GameResult, Player, Series, SeriesFormat, Stage, StageFormat

pytestmark = BROWSER_TEST


def _league(club: Any, referee: Any, players: list[Player], seats: int) -> tuple[Stage, list[Series]]:
    """A paired Snap league of ``seats`` players at tables of 4, first to 3, refereed by ``referee``."""
    organiser = club.organisers.get()
    tournament = tournament_create(
        user=organiser,
        club=club,
        name="Phone league",
        game=GameKind.SNAP,
        series_format=SeriesFormat.FIRST_TO_3,
    )
    tournament_players_add(user=organiser, tournament=tournament, players=players[:seats])
    tournament_referee_add(user=organiser, tournament=tournament, username=referee.username)
    stage = stage_create(
        user=organiser, tournament=tournament, name="League", format=StageFormat.ROUND_ROBIN, options={}
    )
    stage_rounds_generate(user=organiser, stage_id=stage.pk)
    return stage, list(Series.objects.filter(stage=stage).order_by("table"))


def _seated(series: Series) -> list[Player]:
    return [seat.player for seat in series.seats.order_by("seat")]


# Records, in the watching page, when its fragment changes to which version (Date.now(): the same
# clock as this process's time.time() on one machine).
WATCH_CHANGES = """
window.changes = [];
new MutationObserver(() => {
  const section = document.querySelector("[data-live-topic]");
  const last = window.changes.length ? window.changes[window.changes.length - 1].version : null;
  if (section && section.dataset.version !== last) {
    window.changes.push({version: section.dataset.version, at: Date.now()});
  }
}).observe(document.querySelector("main"), {childList: true, subtree: true});
"""


def _watch(context: Any, url: str, version_requests: list[str], fetches: list[str] | None = None) -> Any:
    """A watching page; ``version_requests`` collects its pollers' requests and ``fetches`` (if
    given) its fragments' reloads."""
    page = context.new_page()
    page.on("request", lambda request: "/version/" in request.url and version_requests.append(request.url))
    if fetches is not None:
        page.on("request", lambda request: "/standings/table/" in request.url and fetches.append(request.url))
    page.goto(url)
    page.wait_for_function(
        "() => window.snapLive && snapLive.subscribed().length === 1"
    )  # the socket follows it
    page.evaluate(WATCH_CHANGES)
    page.evaluate("window.notReloaded = true")
    return page


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


TAPS = 10


@pytest.mark.django_db(transaction=True)
def test_a_referees_taps_reach_watching_phones_by_push_without_polling(
    server: str, browser: Any, club: Any, referee: Any, players: list[Player]
) -> None:
    # Given a Snap league of two tables of four, first to 3, paired, and no result yet;
    stage, tables = _league(club, referee, players, seats=8)
    assert len(tables) == 2
    referee_context = browser.new_context(**PHONE)
    referee_context.set_default_timeout(15_000)
    referee_page = referee_context.new_page()
    referee_page.goto(f"{server}/accounts/login/?next=/series/{tables[0].pk}/record/")
    referee_page.fill("input[name=username]", "referee")
    referee_page.fill("input[name=password]", "pw-for-tests-only")
    referee_page.tap("button[type=submit]")
    referee_page.wait_for_url(re.compile(rf"^[^?]*/series/{tables[0].pk}/record/$"))  # not ?next=

    # and another phone (another visitor) watching the standings and the first table, each page
    # following its topic over the socket, counting the version requests of their pollers.
    watcher_context = browser.new_context(**PHONE)
    watcher_context.set_default_timeout(15_000)
    version_requests: list[str] = []
    table_fetches: list[str] = []
    standings = _watch(
        watcher_context, f"{server}/stages/{stage.pk}/standings/", version_requests, table_fetches
    )
    # Publishing the round made version 1: everyone listed, nothing played yet.
    assert standings.locator("#standings tbody tr").count() == 8  # two tables of 4
    assert standings.evaluate("document.querySelector('#standings').dataset.version") == "1.1"
    table_page = _watch(watcher_context, f"{server}/series/{tables[0].pk}/", version_requests)

    # When the referee records ten games on the two tables by tapping (winners rotate: nobody gets
    # to 3 wins), and the watching standings page is timed from each final tap to its new table;
    latencies: list[float] = []
    for tap in range(TAPS):
        table = tables[tap % 2]
        game = tap // 2 + 1
        seated = _seated(table)
        winner = seated[(game - 1) % 4]
        referee_page.goto(f"{server}/series/{table.pk}/record/")
        for player in [p for p in seated if p != winner]:  # everyone but the winner, in seat order
            referee_page.tap(f'button.tap[data-name="{player.name}"]')
        assert referee_page.locator("#preview").inner_text().endswith(winner.name)
        tapped_at = time.time() * 1000
        referee_page.locator("button.submit").tap()
        expected = f"{tap + 2}.{tap + 2}"
        standings.wait_for_function(
            f"() => window.changes.some((c) => c.version === '{expected}')", timeout=10_000, polling=50
        )
        changed_at = standings.evaluate(f"window.changes.find((c) => c.version === '{expected}').at")
        latencies.append((changed_at - tapped_at) / 1000)
        referee_page.wait_for_url(re.compile(rf"^[^?]*/series/{table.pk}/$"))
        assert f"Game {game} recorded." in referee_page.content()

    # Then each new table arrived by push, in the socket's "changed" frame itself (the page never
    # fetched its table), with no version request from either watching page, and without a reload;
    assert version_requests == []
    assert table_fetches == []
    assert standings.evaluate("window.notReloaded") is True
    assert (
        f"Version {TAPS + 1}" in standings.locator("#standings .version").inner_text()
    )  # the publish, then the taps
    assert not standings.locator("#standings .updating").count()
    table_page.wait_for_function(
        f"() => document.querySelector('#series-live').dataset.version === '{TAPS // 2}'"
    )
    assert table_page.locator("#series-live li.game").count() == TAPS // 2
    assert table_page.evaluate("window.notReloaded") is True
    assert GameResult.objects.filter(game__series__stage=stage).count() == TAPS
    print(
        f"\nfrom the referee's tap to the watching phone's new table, {TAPS} taps (s): "
        f"p50 {statistics.median(latencies):.3f}, p95 {_percentile(latencies, 0.95):.3f}, "
        f"max {max(latencies):.3f}; all: {' '.join(f'{x:.3f}' for x in latencies)}"
    )
    for page in (standings, table_page, referee_page):
        page.goto("about:blank")  # close the sockets before the server and its connections go away
    watcher_context.close()
    referee_context.close()


@pytest.mark.django_db(transaction=True)
def test_a_page_without_a_socket_still_follows_by_polling(
    server: str, browser: Any, club: Any, referee: Any, players: list[Player]
) -> None:
    # Given a browser where the page cannot open a websocket (none, or refused) ...
    stage, tables = _league(club, referee, players, seats=4)
    context = browser.new_context(**PHONE)
    context.add_init_script("window.WebSocket = undefined;")
    context.set_default_timeout(15_000)
    version_requests: list[str] = []
    page = context.new_page()
    page.on("request", lambda request: "/version/" in request.url and version_requests.append(request.url))
    page.goto(f"{server}/stages/{stage.pk}/standings/")
    page.evaluate("window.notReloaded = true")
    assert page.evaluate("snapLive.subscribed()") == []

    # When a result is recorded,
    seated = _seated(tables[0])
    record_result(user=referee, series_id=tables[0].pk, game_number=1, result=snap_win(*seated))

    # Then its 2-s poller finds the new version and the table follows, without a reload.
    page.wait_for_function(
        "() => document.querySelector('#standings').dataset.version === '2.2'", timeout=10_000
    )
    assert page.locator("#standings tbody tr").first.inner_text().startswith("1")
    assert seated[0].name in page.locator("#standings tbody tr").first.inner_text()
    assert version_requests, "the table changed without polling"
    assert page.evaluate("window.notReloaded") is True
    page.goto("about:blank")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_bracket_page_shows_the_next_round_after_a_result(
    server: str, browser: Any, club: Any, referee: Any, players: list[Player]
) -> None:
    # Given a Snapszer knockout of four, seeded by the entry list, watched on a phone and a desktop;
    organiser = club.organisers.get()
    tournament = tournament_create(user=organiser, club=club, name="Cup", game=GameKind.SNAPSZER)
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
    semis = list(Series.objects.filter(stage=stage).order_by("table"))
    pages = []
    for viewport in (PHONE, {"viewport": {"width": 1280, "height": 800}}):
        context = browser.new_context(**viewport)
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(f"{server}/stages/{stage.pk}/")
        page.wait_for_function("() => window.snapLive && snapLive.subscribed().length === 1")
        page.evaluate("window.notReloaded = true")
        assert page.locator(".bracket-scroll svg").count() >= 1
        assert page.locator("svg a[href*='/series/']").count() == 2  # the two semi-finals, linked
        pages.append(page)

    # When both semi-finals are won 2-0 by their first seat,
    winners = []
    for series in semis:
        first, second = _seated(series)
        winners.append(first)
        for number in (1, 2):
            record_result(
                user=referee,
                series_id=series.pk,
                game_number=number,
                result={"score": {str(first.pk): 7, str(second.pk): 3}},
            )

    # Then, without a reload, each page draws the final between the two winners, linked to it.
    final = None
    for page in pages:
        page.wait_for_function("() => document.querySelectorAll(\"svg a[href*='/series/']\").length === 3")
        final = final or Series.objects.get(stage=stage, key="W2-1")
        box = page.locator(f"svg a[href$='/series/{final.pk}/']")
        text = box.text_content() or ""
        assert winners[0].name in text and winners[1].name in text
        assert page.evaluate("window.notReloaded") is True
        page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "device", [PHONE, {"viewport": {"width": 1280, "height": 800}}], ids=["phone", "desktop"]
)
def test_the_organiser_creates_a_knockout_previews_and_publishes_it_by_clicking(
    server: str, browser: Any, club: Any, players: list[Player], device: dict[str, Any]
) -> None:
    organiser = club.organisers.get()
    tournament = tournament_create(user=organiser, club=club, name="Cup", game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players[:6])
    page = signed_in_page(browser, server, organiser.username, device, then=f"/tournaments/{tournament.pk}/")
    context = page.context

    # Choosing a format shows only its options.
    form = page.locator("form[data-stage-form]")
    form.locator("input[name=format][value=single_elimination]").check()
    assert form.locator("input[name=third_place]").is_visible()
    assert not form.locator("input[name=double]").is_visible()
    assert not form.locator("input[name=rounds]").is_visible()
    form.locator("input[name=format][value=swiss]").check()
    assert (
        form.locator("input[name=rounds]").is_visible()
        and not form.locator("input[name=third_place]").is_visible()
    )
    form.locator("input[name=format][value=single_elimination]").check()
    form.locator("input[name=name]").fill("Knockout")
    form.locator("input[name=third_place]").check()
    form.locator("select[name=seeding]").select_option("manual")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Preview the first round")
    stage = Stage.objects.get(tournament=tournament)
    assert stage.format == "single_elimination" and stage.options["third_place"] is True
    assert "double" not in stage.options

    # The preview lists round 1 (six players in a bracket of eight: the top two seeds have a bye).
    page.click("text=Preview the first round")
    rows = page.locator("table.pairings tbody tr")
    assert rows.count() == 4
    assert page.locator("table.pairings tbody tr", has_text="walkover").count() == 2
    assert not stage.rounds.exists()
    page.click("button:has-text('Publish')")
    page.wait_for_selector(".bracket-scroll svg")
    assert "Round 1 published." in page.content()
    assert page.locator("svg a[href*='/series/']").count() == 4
    context.close()
