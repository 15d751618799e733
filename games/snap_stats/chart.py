"""The reaction-time histogram as server-side SVG. Pure: plain values in, SVG text out (no Django,
no clock), like tournaments/competitions/bracket_svg.py; every text is escaped, so the page puts it in as is.
Bars of ``BIN_MS`` from 0; the last bar holds everything from ``LAST_MS`` on. Lines mark the median
and the 90th percentile. The SVG scales to its container (``viewBox``, width 100 %)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

BIN_MS = 100
LAST_MS = 1500  # the last bar: this and slower
W, H = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 28, 40


def reaction_histogram_svg(
    reactions: Sequence[int],
    *,
    title: str,
    axis: str,
    median_ms: float | None,
    p90_ms: int | None,
    median_label: str,
    p90_label: str,
) -> str:
    """A histogram of ``reactions`` (ms). ``title`` names the chart (the SVG's accessible name);
    ``axis`` labels the time axis; the labels name the two marker lines."""
    bins = LAST_MS // BIN_MS + 1
    counts = [0] * bins
    for r in reactions:
        counts[min(bins - 1, max(0, r) // BIN_MS)] += 1
    top = max(counts, default=0) or 1
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM
    bar_w = plot_w / bins

    def x_of(ms: float) -> float:
        return LEFT + min(ms, LAST_MS + BIN_MS) / BIN_MS * bar_w

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="reaction-chart" viewBox="0 0 {W} {H}" '
        f'width="100%" role="img" aria-labelledby="reaction-chart-title">',
        f'<title id="reaction-chart-title">{escape(title)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{W - RIGHT}" y2="{TOP + plot_h}" stroke="#666"/>',
    ]
    for i, count in enumerate(counts):
        h = count / top * plot_h
        x = LEFT + i * bar_w
        lo = i * BIN_MS
        span = f"{lo}+ ms" if i == bins - 1 else f"{lo}–{lo + BIN_MS - 1} ms"
        out.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{TOP + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{h:.1f}" fill="#2f6fb0" data-count="{count}"><title>{span}: {count}</title></rect>'
        )
        if count:
            out.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{TOP + plot_h - h - 3:.1f}" font-size="11" '
                f'text-anchor="middle">{count}</text>'
            )
    for ms in range(0, LAST_MS + 1, 500):
        out.append(
            f'<text x="{x_of(ms):.1f}" y="{TOP + plot_h + 15}" font-size="11" text-anchor="middle">{ms}</text>'
        )
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{H - 6}" font-size="12" text-anchor="middle">{escape(axis)}</text>'
    )
    for value, label, colour, y in (
        (median_ms, median_label, "#c0392b", 12),
        (p90_ms, p90_label, "#8e44ad", 24),
    ):
        if value is None:
            continue
        x = x_of(value)
        out.append(
            f'<line class="marker" x1="{x:.1f}" y1="{TOP - 2}" x2="{x:.1f}" y2="{TOP + plot_h}" '
            f'stroke="{colour}" stroke-dasharray="4 3"/>'
        )
        anchor = "end" if x > W / 2 else "start"
        out.append(
            f'<text x="{x:.1f}" y="{y}" font-size="11" fill="{colour}" text-anchor="{anchor}">'
            f"{escape(label)} {round(value)} ms</text>"
        )
    out.append("</svg>")
    return "".join(out)
