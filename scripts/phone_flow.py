"""The issue's "done when", timed: on a running snapleague, the demo referee opens the Snap league
on a phone-sized headless Chromium, records the next game of an open series by tapping, and a
second phone watching the standings shows the new table without a reload (pushed over the
live-pages websocket; the watching page's version requests are counted: none means the push did it).

    .venv/bin/python -m scripts.phone_flow [http://127.0.0.1:8000] [--taps 10 --new-league] [--screenshot FILE]

With ``--taps N`` N games are recorded (the next open series each time, a different winner each
time) and the script prints the latency from each final tap to the watching phone's new table, with
p50/p95. The demo league has few open series: ``--new-league`` first makes a fresh one through the
API as the demo organiser (12 demo players at three tables, first to 3), who then records. Needs
Debian's chromium (/usr/bin/chromium) and the demo data (bin/run; bin/run --reset when the demo
league has no open series left). Prints the times.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import statistics
import sys
import time
import urllib.request
from typing import Any

from playwright.sync_api import sync_playwright

from snapleague.chromium import launch

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# In the watching page: when its standings change to which version (Date.now(), the same clock as
# this process's time.time()).
WATCH_CHANGES = """
window.changes = [];
new MutationObserver(() => {
  const version = document.querySelector("#standings").dataset.version;
  const last = window.changes.length ? window.changes[window.changes.length - 1].version : null;
  if (version !== last) window.changes.push({version, at: Date.now()});
}).observe(document.querySelector("main"), {childList: true, subtree: true});
"""


def _api(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        f"{base}/api/{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Authorization": "Basic " + base64.b64encode(b"organiser:organiser-demo").decode(),
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def new_league(base: str) -> int:
    """A fresh Snap league of 12 demo players at tables of 4, first to 3, paired, made through the
    API as the demo organiser. Returns its id."""
    club = _api(base, "GET", "clubs/?slug=demo")["results"][0]["id"]
    players = [p["id"] for p in _api(base, "GET", f"players/?club={club}")["results"]][:12]
    name = f"Live timing {time.strftime('%H:%M:%S')}"
    body = {"club": club, "name": name, "game": "snap", "series_format": "first_to_3"}
    tournament = _api(base, "POST", "tournaments/", body)["id"]
    _api(base, "POST", f"tournaments/{tournament}/players/", {"players": players})
    stage = _api(base, "POST", "stages/", {"tournament": tournament, "name": "League", "options": {}})["id"]
    _api(base, "POST", f"stages/{stage}/rounds/", {})
    return int(tournament)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--taps", type=int, default=1)
    parser.add_argument(
        "--new-league", action="store_true", help="record in a fresh league, as the organiser"
    )
    parser.add_argument("--screenshot", help="a PNG of the watching phone after the last update")
    args = parser.parse_args()
    base = args.base.rstrip("/")
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(**PHONE)
        context.set_default_timeout(20_000)
        page = context.new_page()
        started = time.perf_counter()
        user, password = ("organiser", "organiser-demo") if args.new_league else ("referee", "referee-demo")
        if args.new_league:
            page.goto(f"{base}/tournaments/{new_league(base)}/")
        else:
            page.goto(base + "/")
            page.tap("text=Demo Card Club")
            page.tap("text=Thursday Snap League")
        tournament_url = page.url
        page.tap("text=Log in")
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", password)
        page.tap("button[type=submit]")
        page.wait_for_url(
            re.compile(r"^[^?]*/tournaments/\d+/$")
        )  # not the login page, whose ?next= ends alike
        standings_url = page.locator("a.button", has_text="Standings").get_attribute("href")
        watcher = browser.new_context(**PHONE)  # another phone: an anonymous visitor
        watch = watcher.new_page()
        version_requests: list[str] = []
        watch.on("request", lambda r: "/version/" in r.url and version_requests.append(r.url))
        watch.goto(base + str(standings_url))
        watch.wait_for_function("() => window.snapLive && snapLive.subscribed().length > 0")
        watch.evaluate(WATCH_CHANGES)
        first = watch.locator("#standings").get_attribute("data-version")

        latencies: list[float] = []
        recorded_to_table: list[float] = []
        tapping_times: list[float] = []
        for tap in range(args.taps):
            if tap:
                page.goto(tournament_url)
            if page.locator("a.record").count() == 0:
                print(f"No open series left after {tap} taps: start over with bin/run --reset.")
                break
            before = watch.locator("#standings").get_attribute("data-version")
            results = int(str(before).split(".")[0])
            page.locator("a.record").first.tap()
            page.wait_for_selector("button.tap")
            names = [name.strip() for name in page.locator("button.tap .tap-name").all_inner_texts()]
            winner = names[tap % len(names)]  # a different winner each time: series stay open longer
            tapping = time.perf_counter()
            for name in names:
                if name != winner:  # everyone but the winner went out, in this order
                    page.locator(f'button.tap[data-name="{name}"]').tap()
            tapped_at = time.time() * 1000
            page.locator("button.submit").tap()
            page.wait_for_url(re.compile(r"^[^?]*/series/\d+/$"))
            recorded = time.time() * 1000
            tapping_times.append(time.perf_counter() - tapping)
            if args.taps == 1:
                print("referee sees:", page.locator(".msg").first.inner_text())
            expected = f"{results + 1}.{results + 1}"
            watch.wait_for_function(
                f"() => window.changes.some((c) => c.version === '{expected}')", polling=50
            )
            changed_at = watch.evaluate(f"window.changes.find((c) => c.version === '{expected}').at")
            latencies.append((changed_at - tapped_at) / 1000)
            recorded_to_table.append(max(0.0, changed_at - recorded) / 1000)

        if not latencies:
            browser.close()
            sys.exit("Nothing recorded.")
        after = watch.locator("#standings").get_attribute("data-version")
        print(f"standings version {first} -> {after} (results.standings)")
        print(
            f"version requests from the watching phone: {len(version_requests)} (0: every update was pushed)"
        )
        if args.taps == 1:
            print(
                f"taps and submit {tapping_times[0]:.2f} s; final tap to the watching phone's new table"
                f" {latencies[0]:.2f} s (after the referee's page showed the series:"
                f" {recorded_to_table[0]:.2f} s); whole flow from the home page"
                f" {time.perf_counter() - started:.2f} s"
            )
        else:
            ordered = sorted(latencies)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            print(
                f"final tap to the watching phone's new table, {len(latencies)} taps (s):"
                f" p50 {statistics.median(latencies):.3f}, p95 {p95:.3f}, max {max(latencies):.3f};"
                f" all: {' '.join(f'{x:.3f}' for x in latencies)}"
            )
        if args.screenshot:
            watch.screenshot(path=args.screenshot, full_page=True)
            print("screenshot:", args.screenshot)
        for tab in (watch, page):
            tab.goto("about:blank")
        browser.close()


if __name__ == "__main__":
    main()
