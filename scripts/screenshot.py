"""Take the README's screenshot of a standings page with headless Chromium (Debian's chromium).

    .venv/bin/python -m scripts.screenshot http://127.0.0.1:8000/stages/2/standings/ docs/standings.png

Start snapleague first (bin/run). Uses the same browser and flags as the browser test.
"""

from __future__ import annotations

import sys

from playwright.sync_api import sync_playwright

from snapleague.chromium import launch


def main(url: str, out: str, width: int = 760) -> None:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": width, "height": 600}, device_scale_factor=1)
        page.goto(url)
        page.wait_for_selector("#standings")
        page.screenshot(path=out, full_page=True)
        browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:4]))
