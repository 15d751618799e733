"""The bracket page's drawing: brackets and tables as server-side SVG (issue 13).

Pure: plain values in, SVG text out (no Django, no clock, no randomness), so the same sections give
byte-identical SVG in any process. The Django side builds the view-model (sections of columns of
boxes) from the stage's rounds and results, with every text already translated, and renders the
:class:`Drawing` with ``templates/tournaments/_bracket.html``; ``static/css/bracket.css`` styles it
through the classes below (screen, print, the sticky header). docs/brackets.md has the decisions.

Layout
- Columns go left to right, at the same x in every section (the header strip's column titles line
  up with every section's columns).
- In a column, boxes are placed in the order given. A box whose feeders (the boxes of an earlier
  column of the same section whose ``to`` names it) are known is centred on them (midway between the
  highest and the lowest feeder's centre); a box without feeders goes right under the box above it.
  Either way a box never starts less than ``V_GAP`` under the one above it, so boxes never overlap
  (a third-place series, fed by the same semi-finals as the final, goes right under the final).
- Sections are drawn one below the other in the one body SVG, each under its title (when it has
  one). The header strip carries the first section's column titles, so it can stay at the top of a
  scrolling wrapper (CSS ``position: sticky``); the other sections carry a row of their own column
  titles inside the body, under their section title.
- ``to[i]`` of a box is where the player in its row i goes (rows are in finishing order once the
  series is decided). A target in a later column of the same section gets a connector (an
  orthogonal elbow from the box's right edge to the target's left edge, at the target's centre);
  from a box with one such target the line leaves at the box's centre, otherwise at row i. Any other
  target (another section, e.g. a loser dropping into the losers' bracket, or a box not drawn) is a
  small "→ key" label in row i instead.

Safety: every text and URL from the inputs is escaped (and characters XML cannot hold are
replaced), so the SVG can be put in a page as is (``|safe``). URLs must be relative, ``http`` or
``https``. Names longer than ``NAME_BUDGET`` characters are cut with an ellipsis; the full name is
in the seat's ``<title>`` (and the box's).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

SVG_NS = "http://www.w3.org/2000/svg"

# Geometry, in CSS pixels (the SVG is drawn at 1:1; print scales it down to the page).
PAD = 8  # around the drawing
BOX_W = 188
COL_GAP = 44  # between columns: room for the connectors' elbows
HEAD_H = 18  # the box's label line
ROW_H = 22  # one seat
NOTE_H = 16  # the note line under the seats, when there is a note
V_GAP = 10  # least space between two boxes of a column
HEADER_H = 26  # the header strip (column titles)
SECTION_TITLE_H = 28
COLUMN_TITLES_H = 22
SECTION_GAP = 18

NAME_BUDGET = 22  # characters of a name shown in a seat; longer names end in "…"
NAME_BUDGET_SHORT = 14  # … in a seat that also shows a "→ key" label
LABEL_BUDGET = 24  # a box's label (fewer when the key and a status share its line)
KEY_BUDGET = 10
TITLE_BUDGET = 28  # a column title
NOTE_BUDGET = 30
ELLIPSIS = "…"

STATUSES = ("pending", "playing", "decided", "walkover")
SEAT_STATES = ("", "won", "out", "bye", "empty", "forfeit")

# The texts the drawing writes itself; the caller passes translated ones (any subset).
TEXTS: Mapping[str, str] = {
    "bye": "bye",
    "empty": "—",
    "walkover": "walkover",
    "live": "live",
    "forfeit": "ff",
    "goes_to": "Place {place} goes to {key}",
    "pending": "not started",
    "playing": "in play",
    "decided": "decided",
}


@dataclass(frozen=True, slots=True)
class BoxSeat:
    """One row of a box: a player (or an empty seat) and their series score."""

    name: str  # the player's name, or "" for an empty seat
    score: str = ""  # series score shown at the right ("2", "1", "" before play)
    state: str = ""  # "won", "out", "bye", "empty", "forfeit", "" (undecided)
    url: str | None = None  # the player's page


@dataclass(frozen=True, slots=True)
class Box:
    """One series. ``to[i]`` is the key of the box the player in row i goes to (None: nowhere)."""

    key: str  # the series key, unique in the drawing ("W1-1", "L2-3", "GF1", "T2-1", "A-R1-2")
    label: str  # what heads the box, already translated ("Table 3", "Final")
    seats: tuple[BoxSeat, ...]
    url: str | None = None  # the series page
    status: str = "pending"  # "pending", "playing" (live, highlighted), "decided", "walkover"
    advance: int = 1  # top k go on (tables of 3-6: a dashed line under the k-th row)
    to: tuple[str | None, ...] = ()
    note: str = ""  # e.g. "flagged: a correction changed an earlier result"


@dataclass(frozen=True, slots=True)
class Column:
    title: str  # "Winners' round 1", "Semi-finals", already translated
    boxes: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class Section:
    title: str  # "Winners' bracket", "Losers' bracket", "Group A", "Playoff" ("" for none)
    columns: tuple[Column, ...]


@dataclass(frozen=True, slots=True)
class Drawing:
    """``header_svg``: the column titles, as wide as the body with the same x positions (for a
    sticky header); ``body_svg``: the sections. ``width``/``height`` are the body's."""

    header_svg: str
    body_svg: str
    width: int
    height: int


@dataclass(slots=True)
class _Placed:
    box: Box
    section: int
    column: int
    x: int
    y: int
    h: int

    @property
    def centre(self) -> int:
        return self.y + self.h // 2

    def row_centre(self, row: int) -> int:
        return self.y + HEAD_H + row * ROW_H + ROW_H // 2


def bracket_drawing(
    sections: Sequence[Section],
    *,
    title: str,
    aria_label: str,
    texts: Mapping[str, str] | None = None,
) -> Drawing:
    """Draw ``sections`` one below the other.

    ``title`` is the body SVG's ``<title>``, ``aria_label`` its accessible name; ``texts``
    translations of :data:`TEXTS` (missing keys stay English). Raises ValueError for input no page
    should build: a key used twice, an unknown status or seat state, an URL that is not relative,
    http or https.
    """
    # str(): the caller's texts may be lazy translations
    words = {key: str(value) for key, value in {**TEXTS, **(texts or {})}.items()}
    _check(sections)
    columns = max((len(s.columns) for s in sections), default=0)
    width = 2 * PAD + max(columns, 1) * BOX_W + max(columns - 1, 0) * COL_GAP

    placed: dict[str, _Placed] = {}
    body: list[str] = []
    y = PAD
    for index, section in enumerate(sections):
        if section.title:
            body.append(
                f'<text class="sec-title" x="{PAD}" y="{y + 19}" font-size="15" font-weight="bold">'
                f"{_text(section.title)}</text>"
            )
            y += SECTION_TITLE_H
        if index > 0 and any(c.title for c in section.columns):
            body.append(_column_titles(section, y + 15))
            y += COLUMN_TITLES_H
        bottom = _place_section(index, section, y, placed)
        body.extend(_section_lines(index, section, placed))
        body.extend(
            _box_svg(placed[box.key], placed, words) for column in section.columns for box in column.boxes
        )
        y = bottom + SECTION_GAP
    height = max(y - SECTION_GAP + PAD, 2 * PAD)

    head = (
        f'<svg xmlns="{SVG_NS}" class="bracket-svg bracket-head-svg" width="{width}" height="{HEADER_H}" '
        f'viewBox="0 0 {width} {HEADER_H}" font-family="system-ui, sans-serif" font-size="12">'
        + (_column_titles(sections[0], 17) if sections else "")
        + "</svg>"
    )
    svg = (
        f'<svg xmlns="{SVG_NS}" class="bracket-svg bracket-body-svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="group" aria-label="{_attr(aria_label)}" '
        f'font-family="system-ui, sans-serif" font-size="12">'
        f"<title>{_text(title)}</title>" + "".join(body) + "</svg>"
    )
    return Drawing(header_svg=head, body_svg=svg, width=width, height=height)


# -- layout -------------------------------------------------------------------------------------


def column_x(column: int) -> int:
    """The left edge of column ``column`` (0-based), in every section and in the header strip."""
    return PAD + column * (BOX_W + COL_GAP)


def box_height(box: Box) -> int:
    return HEAD_H + max(len(box.seats), 1) * ROW_H + (NOTE_H if box.note else 0)


def _place_section(index: int, section: Section, top: int, placed: dict[str, _Placed]) -> int:
    """Place the section's boxes (from ``top``); returns the lowest box bottom."""
    feeders: dict[str, list[_Placed]] = {}
    bottom = top
    for c, column in enumerate(section.columns):
        last_bottom: int | None = None
        for box in column.boxes:
            h = box_height(box)
            fed = feeders.get(box.key)
            if fed:
                centre = (min(f.centre for f in fed) + max(f.centre for f in fed)) // 2
                y = centre - h // 2
            else:
                y = top if last_bottom is None else last_bottom + V_GAP
            if last_bottom is not None:
                y = max(y, last_bottom + V_GAP)
            y = max(y, top)
            here = _Placed(box, index, c, column_x(c), y, h)
            placed[box.key] = here
            last_bottom = y + h
            bottom = max(bottom, last_bottom)
        # what this column feeds: looked up by the later columns of this section only
        for box in column.boxes:
            for target in box.to:
                if target is not None:
                    feeders.setdefault(target, []).append(placed[box.key])
    # A `to` naming a box of the same or an earlier column feeds nothing (that box is placed
    # already), and gets no line either (_drawn_targets), only a label.
    return bottom


def _drawn_targets(box: Box, placed: Mapping[str, _Placed], section: int, column: int) -> list[int]:
    """The rows i of ``box`` whose ``to[i]`` gets a connector: a box of a later column of the same
    section."""
    return [
        i
        for i, target in enumerate(box.to)
        if target is not None
        and target in placed
        and placed[target].section == section
        and placed[target].column > column
    ]


def _section_lines(index: int, section: Section, placed: Mapping[str, _Placed]) -> list[str]:
    """The connectors of section ``index`` (drawn under its boxes)."""
    lines: list[str] = []
    for c, column in enumerate(section.columns):
        for box in column.boxes:
            rows = _drawn_targets(box, placed, index, c)
            source = placed[box.key]
            for i in rows:
                target = placed[str(box.to[i])]
                x1 = source.x + BOX_W
                one = len(rows) == 1 or not box.seats
                y1 = source.centre if one else source.row_centre(min(i, len(box.seats) - 1))
                # the elbows of the lower places a little to the right, so bundles stay apart
                xm = target.x - COL_GAP // 2 + 6 * min(i, 2)
                y2 = target.centre
                main = i < max(box.advance, 1)  # goes on in the main line: solid
                kind, dash = ("ln ln-win", "") if main else ("ln ln-other", ' stroke-dasharray="2 3"')
                lines.append(
                    f'<path class="{kind}" data-from="{_attr(box.key)}" data-to="{_attr(target.box.key)}" '
                    f'd="M{x1} {y1}H{xm}V{y2}H{target.x}" fill="none" stroke="#8a96a3"{dash}/>'
                )
    return lines


# -- boxes --------------------------------------------------------------------------------------


def _box_svg(here: _Placed, placed: Mapping[str, _Placed], words: Mapping[str, str]) -> str:
    box, x, y = here.box, here.x, here.y
    classes = f"bx bx-{box.status}" + (" bx-flagged" if box.note else "")
    drawn = set(_drawn_targets(box, placed, here.section, here.column))
    labels = {
        i: target
        for i, target in enumerate(box.to)
        if target is not None and i not in drawn and i < len(box.seats)
    }
    parts = [f'<g class="{classes}" data-key="{_attr(box.key)}">']
    inner = [f"<title>{_text(_box_title(box, words))}</title>"]
    dash = ' stroke-dasharray="4 3"' if box.status == "walkover" else ""
    inner.append(
        f'<rect class="bx-bg" x="{x}" y="{y}" width="{BOX_W}" height="{here.h}" rx="4" '
        f'fill="#fff" stroke="#c5ccd3"{dash}/>'
    )
    # The head: label left; the key (muted), and "live" or "walkover", right. The label gets the
    # characters the right side leaves (about 7 px each at 11 px bold; 6 px at 10 px).
    right = x + BOX_W - 6
    if box.label != box.key:
        key = _cut(box.key, KEY_BUDGET)
        inner.append(
            f'<text class="bx-key" x="{right}" y="{y + 13}" font-size="10" text-anchor="end" fill="#5f6b76">'
            f"{_text(key)}</text>"
        )
        right -= 6 * len(key) + 8
    if box.status == "playing":
        live = _cut(words["live"], 10)
        inner.append(
            f'<text class="bx-live" x="{right}" y="{y + 13}" font-size="10" text-anchor="end" fill="#a66b00">'
            f"{_text(live)}</text>"
        )
        inner.append(
            f'<circle class="live-dot" cx="{right - 6 * len(live) - 6}" cy="{y + 9}" r="3.5" fill="#d93025"/>'
        )
        right -= 6 * len(live) + 16
    elif box.status == "walkover":
        walkover = _cut(words["walkover"], 14)
        inner.append(
            f'<text class="bx-wo" x="{right}" y="{y + 13}" font-size="10" text-anchor="end" '
            f'font-style="italic" fill="#5f6b76">{_text(walkover)}</text>'
        )
        right -= 6 * len(walkover) + 6
    budget = max(4, min(LABEL_BUDGET, (right - x - 6) // 7))
    inner.append(
        f'<text class="bx-label" x="{x + 6}" y="{y + 13}" font-size="11" font-weight="bold">'
        f"{_text(_cut(box.label, budget))}</text>"
    )
    for row, seat in enumerate(box.seats):
        top = y + HEAD_H + row * ROW_H
        inner.append(
            f'<line class="bx-sep" x1="{x}" y1="{top}" x2="{x + BOX_W}" y2="{top}" stroke="#e3e7eb"/>'
        )
        score = seat.score or (words["forfeit"] if seat.state == "forfeit" else "")
        if score:
            won = seat.state == "won"
            inner.append(
                f'<text class="sc{" sc-won" if won else ""}" x="{x + BOX_W - 8}" y="{top + 15}" '
                f'text-anchor="end"{' font-weight="bold"' if won else ""}>'
                f"{_text(_cut(score, 4))}</text>"
            )
    if 0 < box.advance < len(box.seats) and len(box.seats) > 2:
        cut = y + HEAD_H + box.advance * ROW_H
        inner.append(
            f'<line class="cut" x1="{x + 3}" y1="{cut}" x2="{x + BOX_W - 3}" y2="{cut}" '
            f'stroke="#1d232a" stroke-dasharray="5 3"/>'
        )
    if box.note:
        top = y + HEAD_H + len(box.seats) * ROW_H
        inner.append(
            f'<text class="bx-note" x="{x + 6}" y="{top + 12}" font-size="10" fill="#b3261e">'
            f"⚑ {_text(_cut(box.note, NOTE_BUDGET))}</text>"
        )
    if box.url:
        parts.append(f'<a class="bx-a" href="{_attr(_url(box.url))}">' + "".join(inner) + "</a>")
    else:
        parts.append("".join(inner))
    # Names and "→ key" labels lie above the box's link: a name links to the player's page (links
    # cannot nest in SVG).
    for row, seat in enumerate(box.seats):
        parts.append(_seat_svg(seat, row, x, y + HEAD_H + row * ROW_H, target=labels.get(row), words=words))
    parts.append("</g>")
    return "".join(parts)


def _seat_svg(
    seat: BoxSeat, row: int, x: int, top: int, *, target: str | None, words: Mapping[str, str]
) -> str:
    state = seat.state or "open"
    full = ""  # the name in full, for the <title>: none for a bye or an empty seat
    if seat.state == "bye":
        shown = words["bye"]
    elif seat.state == "empty" or not seat.name:
        shown = words["empty"]
        state = "empty" if seat.state in ("", "empty") else state
    else:
        shown, full = _cut(seat.name, NAME_BUDGET_SHORT if target else NAME_BUDGET), seat.name
    style = {
        "won": ' font-weight="bold"',
        "out": ' fill="#7b8691"',
        "forfeit": ' fill="#7b8691" text-decoration="line-through"',
        "bye": ' font-style="italic" fill="#5f6b76"',
        "empty": ' font-style="italic" fill="#5f6b76"',
    }.get(state, "")
    room = BOX_W - 6 - 30 - (52 if target else 0)
    name = (
        f'<svg class="nm-clip" x="{x + 6}" y="{top}" width="{room}" height="{ROW_H}">'
        f'<text class="nm" x="0" y="15"{style}>{_text(shown)}</text></svg>'
    )
    if seat.url and full:
        # Named for assistive technology: the visible text sits in a nested, clipping <svg>.
        name = f'<a class="nm-a" href="{_attr(_url(seat.url))}" aria-label="{_attr(full)}">{name}</a>'
    parts = [f'<g class="seat seat-{state}">']
    if full:
        parts.append(f"<title>{_text(full)}</title>")
    parts.append(name)
    if target:
        goes = words["goes_to"].replace("{place}", str(row + 1)).replace("{key}", target)
        parts.append(
            f'<g class="dest-g"><title>{_text(goes)}</title>'
            f'<text class="dest" x="{x + BOX_W - 30}" y="{top + 15}" font-size="10" text-anchor="end" '
            f'fill="#5f6b76">→ {_text(_cut(target, 7))}</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)


def _box_title(box: Box, words: Mapping[str, str]) -> str:
    seats = ", ".join(
        " ".join(
            part
            for part in (
                words["bye"] if seat.state == "bye" else str(seat.name) or words["empty"],
                str(seat.score),
                words["forfeit"] if seat.state == "forfeit" else "",
            )
            if part
        )
        for seat in box.seats
    )
    head = box.label if box.label == box.key else f"{box.label} ({box.key})"
    status = words.get(box.status, box.status)
    return f"{head} — {status}: {seats}" + (f" — {box.note}" if box.note else "")


def _column_titles(section: Section, baseline: int) -> str:
    return "".join(
        f'<text class="col-title" x="{column_x(c)}" y="{baseline}" font-weight="bold" fill="#5f6b76">'
        + (f"<title>{_text(column.title)}</title>" if len(str(column.title)) > TITLE_BUDGET else "")
        + f"{_text(_cut(column.title, TITLE_BUDGET))}</text>"
        for c, column in enumerate(section.columns)
        if column.title
    )


# -- checks and escaping ------------------------------------------------------------------------


def _check(sections: Sequence[Section]) -> None:
    seen: set[str] = set()
    for section in sections:
        for column in section.columns:
            for box in column.boxes:
                if box.key in seen:
                    raise ValueError(f"bracket_drawing: the key {box.key!r} is used twice")
                seen.add(box.key)
                if box.status not in STATUSES:
                    raise ValueError(f"bracket_drawing: {box.key}: unknown status {box.status!r}")
                for seat in box.seats:
                    if seat.state not in SEAT_STATES:
                        raise ValueError(f"bracket_drawing: {box.key}: unknown seat state {seat.state!r}")
                    if seat.url is not None:
                        _url(seat.url)
                if box.url is not None:
                    _url(box.url)


_SAFE_URL = re.compile(r"^(?:https?://|/|\?|#)|^[^:]*$", re.IGNORECASE)
# XML 1.0 cannot hold these (a name typed with a control character would break the page).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _url(url: str) -> str:
    if not _SAFE_URL.match(url.strip()):
        raise ValueError(f"bracket_drawing: not a relative, http or https URL: {url!r}")
    return url


def _cut(text: str, budget: int) -> str:
    """``text`` shortened to ``budget`` characters, the last one an ellipsis when it was longer."""
    text = str(text)  # a lazy translation becomes its text
    return text if len(text) <= budget else text[: budget - 1].rstrip() + ELLIPSIS


def _text(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=False)


def _attr(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)
