"""A player's rating history as a server-side SVG line plot (pure: plain values in, SVG text out).

One point per rating point (a Snapszer club day, a Snap game), evenly spaced left to right in the
order they happened; the y axis has round ticks covering the values (and the band, when given). An
optional band (Glicko-2: rating ± RD) is shaded behind the line. Each point is a link to its line
in the list under the plot (``#<anchor>``) and carries a ``<title>`` (date, value, change), so the
plot needs no script; ``static/css/ratings.css`` styles it through the classes below.

Safety, as ``tournaments/competitions/bracket_svg.py``: every text from the inputs is escaped, so the SVG can be
put in a page as is (``|safe``); anchors are limited to ``[A-Za-z0-9_-]``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 640
HEIGHT = 240
PAD_LEFT = 48  # room for the y labels
PAD_RIGHT = 16
PAD_TOP = 14
PAD_BOTTOM = 30  # room for the first and last dates
TICKS = 5


@dataclass(frozen=True, slots=True)
class PlotPoint:
    value: float
    label: str  # the point's date, under the axis for the first and last point
    title: str  # the tooltip: date, value, change (already translated)
    anchor: str  # the id of its line in the page's list
    band: tuple[float, float] | None = None  # (low, high) shaded behind the line


def _nice_step(span: float, ticks: int) -> float:
    raw = span / max(ticks - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _axis(points: Sequence[PlotPoint]) -> tuple[float, float, float]:
    """Low, high and step of the y axis: round ticks covering every value and band."""
    values = [p.value for p in points]
    for point in points:
        if point.band:
            values += list(point.band)
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    step = _nice_step(high - low, TICKS)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _number(value: float, step: float) -> str:
    decimals = 0 if step >= 1 else 1 if step >= 0.1 else 2
    return f"{value:.{decimals}f}".replace("-", "\u2212")


def _safe_anchor(anchor: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "", anchor)


def rating_plot_svg(points: Sequence[PlotPoint], *, title: str, ident: str = "rating-plot") -> str:
    """The plot of ``points`` (oldest first) titled ``title`` (its accessible name; ``ident`` the
    title's id, one per plot on a page). An empty sequence gives an empty string."""
    if not points:
        return ""
    low, high, step = _axis(points)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(index: int) -> float:
        return PAD_LEFT + (inner_w / 2 if len(points) == 1 else inner_w * index / (len(points) - 1))

    def y(value: float) -> float:
        return PAD_TOP + inner_h * (high - value) / (high - low)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-plot" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="{_safe_anchor(ident)}-title">',
        f'<title id="{_safe_anchor(ident)}-title">{escape(title)}</title>',
    ]
    tick = low
    while tick <= high + step / 2:
        ty = y(tick)
        out.append(
            f'<line class="grid" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}"/>'
            f'<text class="tick" x="{PAD_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{_number(tick, step)}</text>'
        )
        tick += step
    banded = [(i, p.band) for i, p in enumerate(points) if p.band]
    if len(banded) == len(points) and len(points) > 1:
        upper = " ".join(f"{x(i):.1f},{y(b[1]):.1f}" for i, b in banded if b)
        lower = " ".join(f"{x(i):.1f},{y(b[0]):.1f}" for i, b in reversed(banded) if b)
        out.append(f'<polygon class="band" points="{upper} {lower}"/>')
    line = " ".join(f"{x(i):.1f},{y(p.value):.1f}" for i, p in enumerate(points))
    out.append(f'<polyline class="line" points="{line}"/>')
    for i, point in enumerate(points):
        out.append(
            f'<a href="#{_safe_anchor(point.anchor)}"><circle class="point" cx="{x(i):.1f}" '
            f'cy="{y(point.value):.1f}" r="4"><title>{escape(point.title)}</title></circle></a>'
        )
    base = HEIGHT - PAD_BOTTOM + 18
    out.append(
        f'<text class="date" x="{x(0):.1f}" y="{base}" text-anchor="start">{escape(points[0].label)}</text>'
    )
    if len(points) > 1:
        out.append(
            f'<text class="date" x="{x(len(points) - 1):.1f}" y="{base}" text-anchor="end">'
            f"{escape(points[-1].label)}</text>"
        )
    out.append("</svg>")
    return "".join(out)
