"""Draw a few brackets into one static HTML page (the project's CSS and the bracket partial's
markup) and take screenshots of it with headless Chromium, to look at the drawing without a server.

    .venv/bin/python -m scripts.bracket_preview [var/bracket-preview]

Writes ``preview.html`` and ``bracket-390.png`` / ``bracket-1280.png`` (viewport screenshots,
as ``chromium --headless --screenshot`` takes them), ``bracket-390-scrolled.png`` (the first
bracket scrolled inside its box on a 390×844 phone: the header strip stays on top; Playwright), and
``bracket-print.pdf`` (the print rules).
"""

from __future__ import annotations

import subprocess
import sys
from html import escape
from pathlib import Path

from playwright.sync_api import sync_playwright

from snapleague.chromium import CHROMIUM, CHROMIUM_ARGS, launch
from tests.tournaments.competitions import bracket_boxes
from tournaments.competitions.bracket_svg import Box, BoxSeat, Column, Drawing, Section, bracket_drawing
from tournaments.competitions.formats.base import FormatKey

ROOT = Path(__file__).resolve().parents[1]


def drawings() -> list[tuple[str, Drawing]]:
    double = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 8, seed=3, rounds=4)
    single = bracket_boxes.play(
        FormatKey.SINGLE_ELIMINATION, 12, seed=5, rounds=2, options={"third_place": True}
    )
    tables = bracket_boxes.play(
        FormatKey.SINGLE_ELIMINATION, 14, seed=7, rounds=2, options={"table_size": 4, "advance": 2}
    )
    groups = bracket_boxes.play(
        FormatKey.GROUPS_PLAYOFF, 12, seed=4, options={"group_size": 4, "advance": 2, "third_place": True}
    )
    odd = Section(
        "Edge cases",
        (
            Column(
                "Names",
                (
                    Box(
                        "X1",
                        'Table <1> & "2"',
                        (
                            BoxSeat("<script>alert('x')</script> & Sons", "2", "won", url="/p/1/?a=1&b=2"),
                            BoxSeat("Bartholomew Featherstonehaugh-Worthington", "1", "out"),
                        ),
                        url="/series/x1/",
                        status="decided",
                        note="flagged: a correction changed an earlier result",
                    ),
                ),
            ),
        ),
    )
    return [
        ("Double elimination, 8 players, winners' round 3 in play", _draw(bracket_boxes.sections(double))),
        ("Single elimination, 12 players (byes), third place", _draw(bracket_boxes.sections(single))),
        ("Tables of 4, top 2 go on, 14 players", _draw(bracket_boxes.sections(tables))),
        ("Groups of 4, top 2 to a playoff, 12 players", _draw(bracket_boxes.sections_from_rounds(groups))),
        ("Escaping, truncation, a flagged series", _draw((odd,))),
    ]


def _draw(sections: tuple[Section, ...]) -> Drawing:
    return bracket_drawing(sections, title="Bracket", aria_label="The bracket")


def page(parts: list[tuple[str, Drawing]]) -> str:
    css = [(ROOT / "static/css" / name).as_uri() for name in ("snapleague.css", "bracket.css")]
    body = "".join(
        f"<h2>{escape(title)}</h2>"
        f'<div class="bracket-scroll" tabindex="0"><div class="bracket-head">{d.header_svg}</div>{d.body_svg}</div>'
        for title, d in parts
    )
    links = "".join(f'<link rel="stylesheet" href="{href}">' for href in css)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Bracket preview</title>{links}</head><body><main><h1>Bracket</h1>{body}</main></body></html>"
    )


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    html = out / "preview.html"
    html.write_text(page(drawings()))
    for width, height in ((390, 1600), (1280, 1400)):
        png = out / f"bracket-{width}.png"
        subprocess.run(
            [
                str(CHROMIUM),
                *CHROMIUM_ARGS,
                "--hide-scrollbars",
                f"--window-size={width},{height}",
                f"--screenshot={png}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        print(f"wrote {png}")
    scrolled = out / "bracket-390-scrolled.png"
    with sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        tab.goto(html.as_uri())
        tab.locator(".bracket-scroll").first.evaluate("e => { e.scrollTop = 330; e.scrollLeft = 200; }")
        tab.screenshot(path=str(scrolled))
        browser.close()
    print(f"wrote {scrolled}")
    pdf = out / "bracket-print.pdf"
    subprocess.run(
        [str(CHROMIUM), *CHROMIUM_ARGS, f"--print-to-pdf={pdf}", "--no-pdf-header-footer", html.as_uri()],
        check=True,
        capture_output=True,
    )
    print(f"wrote {pdf}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "var" / "bracket-preview")
