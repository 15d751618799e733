"""The record form through bad Wi-Fi, in headless Chromium on a phone and a desktop: results
entered with the network cut are kept on the device (IndexedDB), the page is reopened offline from
the service worker's cache, and when the network returns each result lands exactly once; a game
another referee recorded meanwhile is shown as a conflict until dismissed (docs/results.md,
"Offline entry")."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from snapleague.users import Account
from tests.browser import PHONE, signed_in_page
from tests.conftest import record_result, snapszer_win
from tournaments.models import GameKind, GameResult, Player, Series, SeriesFormat

pytestmark = pytest.mark.browser
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def _enter_score(page: Any, winner: Player, loser: Player, loser_points: int) -> None:
    page.fill(f"input[name=score_{winner.pk}]", "7")
    page.fill(f"input[name=score_{loser.pk}]", str(loser_points))
    page.locator("button.submit").click()


def _waiting(page: Any, n: int) -> None:
    expected = f"{n} result{'s' if n != 1 else ''} waiting to be sent"
    page.wait_for_function(
        "(text) => document.querySelector('.offline-waiting').textContent === text", arg=expected
    )


def _results(series: Series) -> list[tuple[int, int, str]]:
    return sorted(
        (r.game.number, r.data["winner"], r.recorded_by.username)
        for r in GameResult.objects.filter(game__series=series).select_related("game", "recorded_by")
    )


@pytest.fixture
def duels(
    make_series: Callable[..., Series], players: list[Player], make_user: Callable[..., Account]
) -> list[Series]:
    """Three Snapszer duels (best of 3) of one tournament, refereed by "referee" and "second"."""
    a, b, c, d, e, f = players[:6]
    first = make_series([a, b], game=GameKind.SNAPSZER, series_format=SeriesFormat.BEST_OF_3)
    tournament = first.stage.tournament
    tournament.referees.add(make_user("second"))
    return [first, make_series([c, d], tournament=tournament), make_series([e, f], tournament=tournament)]


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.django_db(transaction=True)
def test_results_entered_offline_are_sent_once_when_the_network_returns(
    server: str,
    browser: Any,
    device: dict[str, Any],
    duels: list[Series],
    players: list[Player],
) -> None:
    # Given three Snapszer duels of one tournament, refereed by "referee" and "second";
    a, b, c, d, e, f = players[:6]
    first, second_duel, third_duel = duels
    second = get_user_model().objects.get(username="second")

    # and the referee's device has opened the three record forms while the Wi-Fi worked
    # (the service worker keeps them);
    page = signed_in_page(browser, server, "referee", device, then=f"/series/{first.pk}/record/")
    context = page.context
    csp_errors: list[str] = []
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and csp_errors.append(message.text),
    )
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    for series in (second_duel, third_duel, first):
        page.goto(f"{server}/series/{series.pk}/record/")
        assert page.locator(".record-title").inner_text() == "Record game 1"

    # When the network drops, and the referee records games 1 and 2 of the first duel and game 1
    # of the second, each from its form (the second one reopened offline);
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    _enter_score(page, a, b, 3)
    page.wait_for_function(
        "() => document.querySelector('.offline-note').textContent.includes('Game 1 saved')"
    )
    _waiting(page, 1)
    assert page.locator(".record-title").inner_text() == "Record game 2"  # the form moved on
    assert page.locator(f"input[name=score_{a.pk}]").input_value() == ""
    _enter_score(page, b, a, 5)
    _waiting(page, 2)
    page.goto(f"{server}/series/{second_duel.pk}/record/")  # served by the service worker
    _waiting(page, 2)
    _enter_score(page, c, d, 0)

    # Then the page says three results wait, and nothing reached the server;
    _waiting(page, 3)
    assert GameResult.objects.count() == 0
    # the page reloads offline (from the service worker) and still knows them;
    page.reload()
    _waiting(page, 3)
    assert page.locator(".record-title").inner_text() == "Record game 2"
    assert page.evaluate("() => navigator.onLine") is False

    # and a fourth, game 1 of the third duel, which the second referee records meanwhile online;
    page.goto(f"{server}/series/{third_duel.pk}/record/")
    _enter_score(page, e, f, 2)
    _waiting(page, 4)
    record_result(user=second, series_id=third_duel.pk, game_number=1, result=snapszer_win(f, e, 4))

    # When the network returns,
    context.set_offline(False)

    # Then everything waiting is sent: each result is in the database exactly once, as entered;
    page.wait_for_function("() => document.querySelector('.offline-waiting').hidden", timeout=30_000)
    assert _results(first) == [(1, a.pk, "referee"), (2, b.pk, "referee")]
    assert _results(second_duel) == [(1, c.pk, "referee")]
    # and the third duel's game 1 is the second referee's; the referee's entry is shown as a
    # conflict: which game, what the server holds, what they entered.
    assert _results(third_duel) == [(1, f.pk, "second")]
    conflict = page.locator(".offline-problem")
    conflict.wait_for()
    text = conflict.inner_text()
    assert f"Not recorded: game 1 of {third_duel}" in text
    assert f"On the server: {f.name} 7–4 {e.name}" in text and "(recorded by second)" in text
    assert f"You entered: {e.name} 7–2 {f.name}" in text
    # It stays until dismissed, across a reload.
    page.reload()
    page.locator(".offline-problem").wait_for()
    assert not page.locator(".offline-waiting").is_visible()
    page.locator(".offline-problem .offline-dismiss").click()
    page.locator(".offline-problem").wait_for(state="detached")
    page.reload()
    page.wait_for_load_state()
    page.wait_for_timeout(300)  # the page reads IndexedDB after load: give it a moment, then check none
    assert page.locator(".offline-problem").count() == 0
    # Sending everything again changes nothing (each result kept once).
    assert GameResult.objects.count() == 4
    assert re.search(r"/series/\d+/record/$", page.url)
    assert csp_errors == []
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_form_posted_while_the_wifi_does_not_answer_is_kept_by_the_service_worker(
    server: str,
    browser: Any,
    duels: list[Series],
    players: list[Player],
) -> None:
    # Given a phone whose browser believes it is online (the venue's Wi-Fi is connected) but whose
    # requests fail: the page cannot tell beforehand, so the form is posted the ordinary way;
    a, b = players[:2]
    first = duels[0]
    page = signed_in_page(browser, server, "referee", PHONE, then=f"/series/{first.pk}/record/")
    context = page.context
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    context.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', {get: () => true});")
    page.reload()  # now through the worker, which keeps it
    assert page.evaluate("() => navigator.onLine") is True
    context.set_offline(True)
    navigated: list[str] = []
    page.on("framenavigated", lambda frame: navigated.append(frame.url))

    # When the referee records game 1,
    _enter_score(page, a, b, 6)

    # Then the service worker keeps it and answers with the kept form, which says so;
    page.wait_for_url(re.compile(rf"/series/{first.pk}/record/$"))
    _waiting(page, 1)
    page.wait_for_function(
        "() => document.querySelector('.offline-note').textContent.includes('Game 1 saved')"
    )
    assert page.locator(".record-title").inner_text() == "Record game 2"
    assert GameResult.objects.count() == 0
    assert any(url.endswith("/record/?kept=1") for url in navigated)  # the worker's answer

    # and when the network answers again, the page's next try sends it, once.
    context.set_offline(False)
    page.wait_for_function("() => document.querySelector('.offline-waiting').hidden", timeout=60_000)
    assert _results(first) == [(1, a.pk, "referee")]

    # The caches hold the form page and the static files, nothing else (no API answer, no other
    # page); signing out drops the kept pages, so the next person on this phone finds none.
    page.goto(f"{server}/series/{first.pk}/")
    kept = page.evaluate(CACHED_URLS)
    assert any(re.search(rf"/series/{first.pk}/record/$", url) for url in kept)
    assert all(re.search(r"/series/\d+/record/$|/static/", url) for url in kept), kept
    page.locator("header form button[type=submit]").click()
    page.wait_for_load_state()
    page.wait_for_function(
        "async () => { for (const name of await caches.keys()) { if (name.startsWith('snapleague-pages-')"
        " && (await (await caches.open(name)).keys()).length) return false; } return true; }"
    )
    assert not [url for url in page.evaluate(CACHED_URLS) if "/record/" in url]
    context.close()


CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
  }
  return urls;
}"""
