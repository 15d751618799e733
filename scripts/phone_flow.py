"""The issue's "done when", timed: on a running snapleague, the demo referee opens the Snap league
on a phone-sized headless Chromium, records the next game of an open series by tapping, and a
second tab watching the standings shows the new table without a reload.

    .venv/bin/python -m scripts.phone_flow [http://127.0.0.1:8000]

Needs Debian's chromium (/usr/bin/chromium) and the demo data (bin/run). Prints the times.
"""

from __future__ import annotations

import re
import sys
import time

from playwright.sync_api import sync_playwright

from snapleague.chromium import launch

BASE = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000").rstrip("/")


def main() -> None:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        started = time.perf_counter()
        page.goto(BASE + "/")
        page.tap("text=Demo Card Club")
        page.tap("text=Thursday Snap League")
        page.tap("text=Log in")
        page.fill("input[name=username]", "referee")
        page.fill("input[name=password]", "referee-demo")
        page.tap("button[type=submit]")
        page.wait_for_url(
            re.compile(r"^[^?]*/tournaments/\d+/$")
        )  # not the login page, whose ?next= ends alike
        if page.locator("a.record").count() == 0:
            browser.close()
            sys.exit("No open series left in the Snap league: start over with bin/run --reset.")
        standings_url = page.locator("a.button", has_text="Standings").get_attribute("href")
        watch = context.new_page()
        watch.goto(BASE + str(standings_url))
        before = watch.locator("#standings").get_attribute("data-version")

        page.locator("a.record").first.tap()
        page.wait_for_selector("button.tap")
        names = [name.strip() for name in page.locator("button.tap .tap-name").all_inner_texts()]
        tapping = time.perf_counter()
        for name in names[:-1]:  # everyone but the last went out, in this order
            page.locator("button.tap", has_text=name).tap()
        page.locator("button.submit").tap()
        page.wait_for_url(re.compile(r"^[^?]*/series/\d+/$"))
        recorded = time.perf_counter()
        print("referee sees:", page.locator(".msg").first.inner_text())
        watch.wait_for_function(
            f"document.querySelector('#standings').dataset.version !== '{before}'"
            " && !document.querySelector('#standings .updating')"
        )
        followed = time.perf_counter()
        after = watch.locator("#standings").get_attribute("data-version")
        print(f"standings version {before} -> {after} (results.standings)")
        print(
            f"taps and submit {recorded - tapping:.2f} s; result to the watching tab's new table"
            f" {followed - recorded:.2f} s; whole flow from the home page {followed - started:.2f} s"
        )
        for tab in (watch, page):
            tab.goto("about:blank")
        browser.close()


if __name__ == "__main__":
    main()
