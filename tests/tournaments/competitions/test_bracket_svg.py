"""The bracket drawing (tournaments/competitions/bracket_svg.py): valid SVG, geometry on real brackets played
through the pure formats, escaping, links, classes, truncation and determinism."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.tournaments.competitions import bracket_boxes
from tournaments.competitions.bracket_svg import (
    BOX_W,
    ELLIPSIS,
    HEAD_H,
    NAME_BUDGET,
    NAME_BUDGET_SHORT,
    ROW_H,
    SVG_NS,
    V_GAP,
    Box,
    BoxSeat,
    Column,
    Drawing,
    Section,
    bracket_drawing,
    column_x,
)
from tournaments.competitions.formats.base import FormatKey
from tournaments.competitions.formats.registry import FORMATS

NS = {"s": SVG_NS}
ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    @property
    def centre(self) -> float:
        return self.y + self.h / 2

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )


def draw(sections: tuple[Section, ...], **kwargs: object) -> Drawing:
    return bracket_drawing(sections, title="The bracket", aria_label="Bracket of the stage", **kwargs)  # type: ignore[arg-type]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def rects(root: ET.Element) -> dict[str, Rect]:
    found: dict[str, Rect] = {}
    for g in root.iterfind(".//s:g[@data-key]", NS):
        rect = g.find(".//s:rect[@class='bx-bg']", NS)
        assert rect is not None
        key = g.get("data-key")
        assert key is not None and key not in found
        found[key] = Rect(*(int(rect.get(a, "")) for a in ("x", "y", "width", "height")))
    return found


def paths(root: ET.Element) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """Every connector: (from, to, its corner points)."""
    found = []
    for path in root.iterfind(".//s:path", NS):
        d = path.get("d", "")
        match = re.fullmatch(r"M(-?\d+) (-?\d+)H(-?\d+)V(-?\d+)H(-?\d+)", d)
        assert match, d
        x1, y1, xm, y2, x2 = map(int, match.groups())
        found.append(
            (path.get("data-from", ""), path.get("data-to", ""), [(x1, y1), (xm, y1), (xm, y2), (x2, y2)])
        )
    return found


def box_group(root: ET.Element, key: str) -> ET.Element:
    g = root.find(f".//s:g[@data-key='{key}']", NS)
    assert g is not None
    return g


def texts(element: ET.Element, cls: str) -> list[str]:
    return ["".join(t.itertext()) for t in element.iterfind(f".//s:text[@class='{cls}']", NS)]


def same_section_targets(sections: tuple[Section, ...]) -> dict[str, list[str]]:
    """Per box, the targets that must get a line: a box of a later column of the same section."""
    wanted: dict[str, list[str]] = {}
    for section in sections:
        column_of = {b.key: c for c, col in enumerate(section.columns) for b in col.boxes}
        for c, column in enumerate(section.columns):
            for box in column.boxes:
                wanted[box.key] = [t for t in box.to if t is not None and column_of.get(t, -1) > c]
    return wanted


def check_geometry(sections: tuple[Section, ...], *, centred: bool = True) -> ET.Element:
    """No two boxes overlap; every same-section `to` has a line from the source's right edge to the
    target's left edge; a box fed from its section sits between its feeders' centres."""
    drawing = draw(sections)
    root = parse(drawing.body_svg)
    found = rects(root)
    keys = [b.key for s in sections for c in s.columns for b in c.boxes]
    assert sorted(found) == sorted(keys)  # every series once
    for section in sections:
        for c, column in enumerate(section.columns):
            for box in column.boxes:
                assert found[box.key].x == column_x(c)
    ordered = sorted(found.values(), key=lambda r: (r.x, r.y))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x != a.x:
                break
            assert not a.overlaps(b), (a, b)
            assert b.y >= a.y + a.h + V_GAP
    assert all(r.x + r.w <= drawing.width and r.y + r.h <= drawing.height for r in ordered)

    wanted = same_section_targets(sections)
    drawn = paths(root)
    assert sorted((f, t) for f, t, _ in drawn) == sorted((f, t) for f, ts in wanted.items() for t in ts)
    for source, target, points in drawn:
        s, t = found[source], found[target]
        (x1, y1), *_middle, (x2, y2) = points
        assert x1 == s.x + s.w and s.y <= y1 <= s.y + s.h
        assert x2 == t.x and t.y <= y2 <= t.y + t.h  # ends at the target's left edge
        assert s.x + s.w < points[1][0] < t.x  # the elbow is in the gap before the target
    if centred:
        feeders: dict[str, list[Rect]] = {}
        for source, ts in wanted.items():
            for target in ts:
                feeders.setdefault(target, []).append(found[source])
        for target, rows in feeders.items():
            centre = found[target].centre
            middle = (min(r.centre for r in rows) + max(r.centre for r in rows)) / 2
            assert abs(centre - middle) <= 1, target  # midway between its feeders
    return root


# -- real brackets ------------------------------------------------------------------------------


@pytest.mark.parametrize("entrants", range(2, 65))
def test_single_elimination_geometry(entrants: int) -> None:
    played = bracket_boxes.play(FormatKey.SINGLE_ELIMINATION, entrants, seed=entrants)
    sections = bracket_boxes.sections(played)
    assert len(sections) == 1
    root = check_geometry(sections)
    # the whole stage was played: the final is decided, its winner in bold at the top
    final = max(rects(root).items(), key=lambda kv: kv[1].x)[0]
    champion = FORMATS[FormatKey.SINGLE_ELIMINATION].champion(played.state)  # type: ignore[attr-defined]
    assert texts(box_group(root, final).find(".//s:g[@class='seat seat-won']", NS), "nm") == [champion]  # type: ignore[arg-type]


@pytest.mark.parametrize("entrants", [*range(2, 18), 24, 31, 32, 33, 48, 64])
def test_double_elimination_geometry(entrants: int) -> None:
    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, entrants, seed=entrants)
    sections = bracket_boxes.sections(played)
    assert [s.title for s in sections] == ["Winners' bracket", "Losers' bracket", "Grand final"][
        : len(sections)
    ] or entrants == 2
    root = check_geometry(sections)
    # a loser's drop into the losers' bracket is a label, not a line
    drops = [
        (b.key, b.to[1])
        for c in sections[0].columns
        for b in c.boxes
        if len(b.to) > 1 and b.to[1] is not None and b.to[1].startswith("L")
    ]
    assert drops or entrants <= 2
    for key, target in drops:
        assert f"→ {target}" in texts(box_group(root, key), "dest")
    assert not any(t.startswith("L") for f, t, _ in paths(root) if f.startswith("W"))


@pytest.mark.parametrize("entrants", range(3, 41, 3))
def test_brackets_mid_stage_with_forfeits(entrants: int) -> None:
    """Half played, with no-shows: empty seats ahead, forfeits struck through, live boxes."""
    seen: Counter[str] = Counter()
    for key in (FormatKey.SINGLE_ELIMINATION, FormatKey.DOUBLE_ELIMINATION):
        played = bracket_boxes.play(key, entrants, seed=entrants, rounds=3, no_show=0.15)
        sections = bracket_boxes.sections(played)
        root = check_geometry(sections)
        boxes = {b.key: b for s in sections for c in s.columns for b in c.boxes}
        for key_, box in boxes.items():
            g = box_group(root, key_)
            assert g.get("class", "").split()[:2] == ["bx", f"bx-{box.status}"]
            states = [
                seat.get("class", "").split()[1]
                for seat in g.iterfind("s:g[@class]", NS)
                if "seat" in seat.get("class", "")
            ]
            assert states == [
                f"seat-{seat.state or 'open'}" if seat.name or seat.state == "bye" else "seat-empty"
                for seat in box.seats
            ]
        struck = root.findall(".//s:g[@class='seat seat-forfeit']//s:text[@class='nm']", NS)
        forfeits = [s for b in boxes.values() for s in b.seats if s.state == "forfeit"]
        assert len(struck) == len(forfeits)
        assert all(t.get("text-decoration") == "line-through" for t in struck)
        seen["forfeit"] += len(forfeits)
        seen["playing"] += len(played.playing)
    if entrants >= 12:  # (small fields may draw no no-show, or finish before round 3)
        assert seen["forfeit"] and seen["playing"]


@pytest.mark.parametrize("entrants", [32, 64])
def test_double_elimination_losers_bracket_of_16_and_32(entrants: int) -> None:
    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, entrants, seed=1)
    sections = bracket_boxes.sections(played)
    losers = sections[1]
    assert len(losers.columns[0].boxes) * 2 == entrants // 2  # losers' round 1 seats half the field
    assert len(losers.columns) == 2 * (entrants.bit_length() - 2)
    check_geometry(sections)


def test_double_elimination_in_play_draws_live_boxes() -> None:
    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 16, seed=4, rounds=3)
    assert played.playing
    root = check_geometry(bracket_boxes.sections(played))
    for key in played.playing:
        g = box_group(root, key)
        assert "bx-playing" in g.get("class", "").split()
        assert g.find(".//s:circle[@class='live-dot']", NS) is not None
        assert texts(g, "bx-live") == ["live"]


@pytest.mark.parametrize(
    ("entrants", "size", "advance"), [(9, 3, 1), (14, 4, 2), (23, 5, 2), (40, 6, 3), (64, 4, 2)]
)
def test_tables_elimination_geometry_and_cut(entrants: int, size: int, advance: int) -> None:
    options = {"table_size": size, "advance": advance}
    played = bracket_boxes.play(FormatKey.SINGLE_ELIMINATION, entrants, options=options, seed=entrants)
    sections = bracket_boxes.sections(played)
    # tables feed several tables of the next round: boxes are pushed apart, not centred
    root = check_geometry(sections, centred=False)
    first = sections[0].columns[0].boxes[0]
    rect = rects(root)[first.key]
    (cut,) = box_group(root, first.key).iterfind(".//s:line[@class='cut']", NS)
    assert int(cut.get("y1", "")) == rect.y + HEAD_H + min(advance, len(first.seats) - 1) * ROW_H
    assert cut.get("stroke-dasharray")
    won = box_group(root, first.key).findall(".//s:g[@class='seat seat-won']", NS)
    assert len(won) == min(advance, len(first.seats) - 1)


@pytest.mark.parametrize(
    ("key", "entrants", "options"),
    [
        (FormatKey.GROUPS_PLAYOFF, 16, {"group_size": 4, "advance": 2}),
        (FormatKey.GROUPS_PLAYOFF, 12, {"group_size": 4, "advance": 2, "playoff": "double_elimination"}),
        (FormatKey.HEATS, 22, {"table_size": 4, "advance": 2, "repechage": True}),
    ],
)
def test_groups_and_heats_from_their_published_rounds(
    key: FormatKey, entrants: int, options: dict[str, object]
) -> None:
    played = bracket_boxes.play(key, entrants, options=options, seed=entrants)
    assert FORMATS[key].finished(played.state)
    sections = bracket_boxes.sections_from_rounds(played)
    root = check_geometry(sections, centred=key is not FormatKey.HEATS)
    published = [s.key for r in played.state.rounds for s in r.series]
    assert sorted(rects(root)) == sorted(published)
    assert texts(root, "sec-title") == [s.title for s in sections]
    if key is FormatKey.GROUPS_PLAYOFF:
        assert [s.title for s in sections][: entrants // 4] == [f"Group {g}" for g in "ABCD"[: entrants // 4]]
        assert paths(root)  # the playoff's rounds are connected


def test_third_place_sits_right_under_the_final() -> None:
    played = bracket_boxes.play(FormatKey.SINGLE_ELIMINATION, 8, options={"third_place": True}, seed=2)
    sections = bracket_boxes.sections(played)
    root = check_geometry(sections, centred=False)
    found = rects(root)
    final, third = found["W3-1"], found["3P"]
    assert third.x == final.x and third.y == final.y + final.h + V_GAP
    assert abs(final.centre - (found["W2-1"].centre + found["W2-2"].centre) / 2) <= 1
    # the semi-finals' losers go to 3P by dotted lines
    kinds = {(f, t): p for f, t, p in paths(root)}
    assert ("W2-1", "3P") in kinds and ("W2-2", "3P") in kinds
    other = [p for p in root.iterfind(".//s:path", NS) if p.get("data-to") == "3P"]
    assert all("ln-other" in p.get("class", "") for p in other)


def test_byes_are_walkovers_with_an_italic_bye() -> None:
    played = bracket_boxes.play(FormatKey.SINGLE_ELIMINATION, 5, seed=1)
    root = check_geometry(bracket_boxes.sections(played))
    walkovers = [g for g in root.iterfind(".//s:g[@data-key]", NS) if "bx-walkover" in g.get("class", "")]
    assert len(walkovers) == 3  # 8 slots, 5 players
    for g in walkovers:
        rect = g.find(".//s:rect", NS)
        assert rect is not None and rect.get("stroke-dasharray")
        (bye,) = g.iterfind(".//s:g[@class='seat seat-bye']", NS)
        (text,) = bye.iterfind(".//s:text", NS)
        assert text.text == "bye" and text.get("font-style") == "italic"


# -- texts, links, classes ----------------------------------------------------------------------


def one_box(box: Box, **kwargs: object) -> ET.Element:
    return parse(draw((Section("", (Column("Round 1", (box,)),)),), **kwargs).body_svg)


def test_names_labels_and_urls_are_escaped() -> None:
    nasty = '<b>O\'Neil & "Sons"</b>'
    box = Box(
        "K&1",
        'Table "<3>"',
        (BoxSeat(nasty, "2", "won", url="/players/1/?a=1&b='2'"), BoxSeat("Zoë\x01 \x1f", "1", "out")),
        url='/series/1/?x="y"&z=<w>',
        status="decided",
        note="<i>flagged</i> & more",
    )
    drawing = draw((Section("<Group> & A", (Column("R<1>", (box,)),)),))
    for svg in (drawing.body_svg, drawing.header_svg):
        assert "<b>" not in svg and "<i>" not in svg and "<3>" not in svg and "\x01" not in svg
    root = parse(drawing.body_svg)
    g = box_group(root, "K&1")
    assert texts(g, "nm") == [nasty, "Zoë\ufffd \ufffd"]
    assert texts(g, "bx-label") == ['Table "<3>"']
    assert texts(root, "sec-title") == ["<Group> & A"]
    assert texts(parse(drawing.header_svg), "col-title") == ["R<1>"]
    (link,) = g.iterfind("s:a[@class='bx-a']", NS)
    assert link.get("href") == '/series/1/?x="y"&z=<w>'
    (player,) = g.iterfind(".//s:a[@class='nm-a']", NS)
    assert player.get("href") == "/players/1/?a=1&b='2'"
    assert "<i>flagged</i> & more" in (link.findtext("s:title", namespaces=NS) or "")


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "vbscript:x"]
)
def test_an_unsafe_url_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="URL"):
        draw((Section("", (Column("", (Box("A", "A", (BoxSeat("x"),), url=url),)),)),))
    with pytest.raises(ValueError, match="URL"):
        draw((Section("", (Column("", (Box("A", "A", (BoxSeat("x", url=url),)),)),)),))


def test_long_names_are_cut_with_the_full_name_in_the_title() -> None:
    long = "Bartholomew Featherstonehaugh-Worthington III"
    other = "Maximiliane Oppenheimer-Wittgenstein"
    root = one_box(
        Box("W1-1", "Table 1", (BoxSeat(long, "2", "won"), BoxSeat(other, "0", "out")), to=("W2-1", "L1-1"))
    )
    g = box_group(root, "W1-1")
    first, second = g.iterfind("s:g", NS)
    shown = texts(first, "nm")[0]
    assert shown.endswith(ELLIPSIS) and len(shown) == NAME_BUDGET_SHORT and long.startswith(shown[:-1])
    assert first.findtext("s:title", namespaces=NS) == long
    assert long in (g.findtext("s:title", namespaces=NS) or "")
    # targets not in the drawing are labels at their row (the name is cut shorter to make room)
    assert texts(first, "dest") == ["→ W2-1"] and texts(second, "dest") == ["→ L1-1"]
    root = one_box(Box("W1-1", "Table 1", (BoxSeat(long, "2", "won"), BoxSeat("Al", "0", "out"))))
    first, second = box_group(root, "W1-1").iterfind("s:g", NS)
    shown = texts(first, "nm")[0]
    assert shown.endswith(ELLIPSIS) and len(shown) == NAME_BUDGET and long.startswith(shown[:-1])
    assert texts(second, "nm") == ["Al"] and second.find("s:title", NS) is not None
    # the name sits in a clipping viewport narrower than the box, whatever the font
    clip = first.find(".//s:svg[@class='nm-clip']", NS)
    assert clip is not None and int(clip.get("width", "")) < BOX_W


def test_without_urls_there_are_no_links() -> None:
    root = one_box(Box("W1-1", "Table 1", (BoxSeat("A"), BoxSeat("B"))))
    assert root.find(".//s:a", NS) is None
    root = one_box(
        Box(
            "W1-1",
            "Table 1",
            (BoxSeat("A", url="/p/a/"), BoxSeat("", state="empty", url="/p/x/")),
            url="/s/1/",
        )
    )
    assert [a.get("href") for a in root.iterfind(".//s:a", NS)] == ["/s/1/", "/p/a/"]
    g = box_group(root, "W1-1")
    (link,) = g.iterfind("s:a", NS)
    assert link.find("s:rect", NS) is not None  # the whole box is the series' link
    assert link[0].tag == f"{{{SVG_NS}}}title"  # … named by its title


@pytest.mark.parametrize(
    ("state", "cls", "shown", "attr"),
    [
        ("won", "seat-won", "Ann", ("font-weight", "bold")),
        ("out", "seat-out", "Ann", ("fill", "#7b8691")),
        ("forfeit", "seat-forfeit", "Ann", ("text-decoration", "line-through")),
        ("bye", "seat-bye", "bye", ("font-style", "italic")),
        ("empty", "seat-empty", "—", ("font-style", "italic")),
        ("", "seat-open", "Ann", None),
    ],
)
def test_seat_states_have_their_class_and_look(
    state: str, cls: str, shown: str, attr: tuple[str, str] | None
) -> None:
    root = one_box(Box("A", "Table 1", (BoxSeat("Ann", "1", state), BoxSeat("Bo"))))
    seat = box_group(root, "A").find(f".//s:g[@class='seat {cls}']", NS)
    assert seat is not None
    (text,) = seat.iterfind(".//s:text[@class='nm']", NS)
    assert text.text == shown
    if attr is not None:
        assert text.get(attr[0]) == attr[1]
    else:
        assert not {"font-weight", "fill", "font-style"} & set(text.attrib)


def test_a_forfeit_without_a_score_says_so_in_the_score_column() -> None:
    root = one_box(
        Box("A", "Table 1", (BoxSeat("Ann", "", "won"), BoxSeat("Bo", "", "forfeit")), status="decided")
    )
    assert texts(box_group(root, "A"), "sc") == ["ff"]
    assert "Bo ff" in (box_group(root, "A").find("s:title", NS).text or "")  # type: ignore[union-attr]


def test_a_long_label_leaves_room_for_the_key_and_the_live_mark() -> None:
    label = "Winners' semi-final, table 12"
    seats = (BoxSeat("Ann", "1"), BoxSeat("Bo", "0"))
    shown = {}
    for status in ("pending", "playing"):
        root = one_box(Box("W3-1", label, seats, status=status))
        g = box_group(root, "W3-1")
        (shown[status],) = texts(g, "bx-label")
        assert label in (g.findtext("s:title", namespaces=NS) or "")
        if status == "playing":
            dot = g.find(".//s:circle[@class='live-dot']", NS)
            assert dot is not None
            # about 7 px a character at 11 px bold: the label ends before the dot
            assert column_x(0) + 6 + 7 * len(shown[status]) < float(dot.get("cx", "")) - 4
    assert all(v.endswith(ELLIPSIS) for v in shown.values())
    assert len(shown["playing"]) < len(shown["pending"]) < len(label)


def test_an_empty_name_is_an_empty_seat() -> None:
    root = one_box(Box("A", "Table 1", (BoxSeat(""), BoxSeat("Bo"))))
    assert texts(box_group(root, "A"), "nm") == ["—", "Bo"]
    assert box_group(root, "A").find(".//s:g[@class='seat seat-empty']", NS) is not None


def test_texts_are_the_callers() -> None:
    words = {"bye": "szabad", "walkover": "játék nélkül", "live": "élő", "goes_to": "{place}. → {key}"}
    box = Box(
        "A",
        "1. asztal",
        (BoxSeat("Ann", state="won"), BoxSeat("", state="bye")),
        status="walkover",
        to=(None, "L1-1"),
    )
    live = Box("B", "2. asztal", (BoxSeat("Cili", "1"), BoxSeat("Dóri", "0")), status="playing")
    root = parse(draw((Section("", (Column("", (box, live)),)),), texts=words).body_svg)
    a, b = box_group(root, "A"), box_group(root, "B")
    assert texts(a, "nm") == ["Ann", "szabad"] and texts(a, "bx-wo") == ["játék nélkül"]
    assert texts(b, "bx-live") == ["élő"]
    (dest,) = a.iterfind(".//s:g[@class='dest-g']", NS)
    assert dest.findtext("s:title", namespaces=NS) == "2. → L1-1"
    assert "bx-walkover" in a.get("class", "") and "bx-playing" in b.get("class", "")


def test_lazy_translations_are_taken_as_their_text() -> None:
    from django.utils.translation import gettext_lazy

    lazy = gettext_lazy
    box = Box(
        "A",
        lazy("Final"),  # type: ignore[arg-type]
        (BoxSeat(lazy("Anna"), lazy("2"), "won"), BoxSeat("", state="bye")),  # type: ignore[arg-type]
        note=lazy("flagged"),  # type: ignore[arg-type]
    )
    section = Section(lazy("Playoff"), (Column(lazy("Final round, the one that decides it all"), (box,)),))  # type: ignore[arg-type]
    drawing = draw((section,), texts={"bye": lazy("bye (lazy)")})
    root = parse(drawing.body_svg)
    assert texts(root, "sec-title") == ["Playoff"]
    assert texts(box_group(root, "A"), "nm") == ["Anna", "bye (lazy)"]
    assert "Final (A)" in (box_group(root, "A").findtext("s:title", namespaces=NS) or "")
    assert texts(parse(drawing.header_svg), "col-title")[0].endswith(ELLIPSIS)


def test_statuses_and_flags_are_classes() -> None:
    boxes = tuple(
        Box(status, status, (BoxSeat("A"), BoxSeat("B")), status=status)
        for status in ("pending", "playing", "decided", "walkover")
    )
    flagged = Box("F", "F", (BoxSeat("A"), BoxSeat("B")), status="decided", note="flagged: corrected")
    root = parse(draw((Section("", (Column("", (*boxes, flagged)),)),)).body_svg)
    for status in ("pending", "playing", "decided", "walkover"):
        assert box_group(root, status).get("class") == f"bx bx-{status}"
    assert box_group(root, "F").get("class") == "bx bx-decided bx-flagged"
    assert texts(box_group(root, "F"), "bx-note") == ["⚑ flagged: corrected"]
    assert rects(root)["F"].h == rects(root)["decided"].h + 16  # the note has a line of its own


def test_bad_input_is_refused() -> None:
    twice = Box("A", "A", (BoxSeat("x"),))
    with pytest.raises(ValueError, match="used twice"):
        draw((Section("", (Column("", (twice,)),)), Section("", (Column("", (twice,)),))))
    with pytest.raises(ValueError, match="status"):
        draw((Section("", (Column("", (Box("A", "A", (), status="live"),)),)),))
    with pytest.raises(ValueError, match="seat state"):
        draw((Section("", (Column("", (Box("A", "A", (BoxSeat("x", state="winner"),)),)),)),))


def test_a_target_in_another_section_is_a_label_whichever_comes_first() -> None:
    early = Section("A", (Column("1", ()), Column("2", (Box("A2", "A2", (BoxSeat("x"), BoxSeat("y"))),))))
    late = Section(
        "B",
        (
            Column("1", (Box("B1", "B1", (BoxSeat("x"), BoxSeat("y")), to=("B2", "A2")),)),
            Column("2", (Box("B2", "B2", (BoxSeat(""), BoxSeat(""))),)),
        ),
    )
    root = parse(draw((early, late)).body_svg)
    assert [(f, t) for f, t, _ in paths(root)] == [("B1", "B2")]
    assert texts(box_group(root, "B1"), "dest") == ["→ A2"]


def test_nothing_to_draw_is_still_an_svg() -> None:
    drawing = draw(())
    assert parse(drawing.body_svg).findtext("s:title", namespaces=NS) == "The bracket"
    parse(drawing.header_svg)


# -- sections and the header strip ------------------------------------------------------------


def test_sections_stack_with_titles_and_the_header_has_the_first_sections_columns() -> None:
    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 16, seed=3)
    sections = bracket_boxes.sections(played)
    drawing = draw(sections)
    root, head = parse(drawing.body_svg), parse(drawing.header_svg)
    assert root.get("aria-label") == "Bracket of the stage" and root.get("role") == "group"
    assert root.findtext("s:title", namespaces=NS) == "The bracket"
    assert head.get("width") == root.get("width") == str(drawing.width)
    assert root.get("height") == str(drawing.height)
    assert root.get("viewBox") == f"0 0 {drawing.width} {drawing.height}"
    titles = list(head.iterfind("s:text[@class='col-title']", NS))
    assert [t.text for t in titles] == [c.title for c in sections[0].columns]
    assert [int(t.get("x", "")) for t in titles] == [column_x(c) for c in range(len(titles))]
    # the other sections carry their own column titles under their section title
    assert texts(root, "sec-title") == [s.title for s in sections]
    assert texts(root, "col-title") == [c.title for s in sections[1:] for c in s.columns]
    found = rects(root)
    lowest = [max(found[b.key].y + found[b.key].h for c in s.columns for b in c.boxes) for s in sections]
    highest = [min(found[b.key].y for c in s.columns for b in c.boxes) for s in sections]
    assert all(lowest[i] < highest[i + 1] for i in range(len(sections) - 1))


def test_the_same_input_gives_the_same_bytes_in_another_process() -> None:
    code = (
        "from tests.tournaments.competitions import bracket_boxes as b;"
        "from tournaments.competitions.bracket_svg import bracket_drawing;"
        "from tournaments.competitions.formats.base import FormatKey;"
        "import sys;"
        "p = b.play(FormatKey.DOUBLE_ELIMINATION, 32, seed=9, rounds=5);"
        "d = bracket_drawing(b.sections(p), title='t', aria_label='a');"
        "sys.stdout.write(d.header_svg + d.body_svg)"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            check=True,
            env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    ]
    assert runs[0] == runs[1] and len(runs[0]) > 10_000
    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 32, seed=9, rounds=5)
    here = draw(bracket_boxes.sections(played))
    assert here == draw(bracket_boxes.sections(played))


def test_the_partial_puts_the_drawing_in_a_scrolling_wrapper() -> None:
    from django.template.loader import render_to_string

    drawing = draw(bracket_boxes.sections(bracket_boxes.play(FormatKey.SINGLE_ELIMINATION, 4, seed=1)))
    html = render_to_string("tournaments/_bracket.html", {"drawing": drawing})
    assert (
        f'<div class="bracket-scroll" id="bracket" tabindex="0"><div class="bracket-head">{drawing.header_svg}</div>'
        f"{drawing.body_svg}</div>"
    ) in html
    html = render_to_string("tournaments/_bracket.html", {"drawing": drawing, "bracket_id": "stage-3"})
    assert '<div class="bracket-scroll" id="stage-3" tabindex="0">' in html


# -- in a browser: the scroll box, the sticky header strip, print ------------------------------


@pytest.mark.browser
@pytest.mark.skipif(
    not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium at /usr/bin/chromium"
)
def test_in_chromium_the_bracket_scrolls_in_its_box_under_a_sticky_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import sync_playwright

    from snapleague.chromium import launch

    played = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 32, seed=5, rounds=4)
    drawing = draw(bracket_boxes.sections(played))
    css = "".join((ROOT / "static/css" / name).read_text() for name in ("snapleague.css", "bracket.css"))
    html = (
        f'<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{css}</style></head><body><main><h1>Bracket</h1>"
        f'<div class="bracket-scroll" tabindex="0"><div class="bracket-head">{drawing.header_svg}</div>'
        f"{drawing.body_svg}</div><p>after</p></main></body></html>"
    )
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
                page = browser.new_page(viewport=viewport)
                page.set_content(html)
                box = page.locator(".bracket-scroll")
                sizes = box.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
                assert sizes[0] >= drawing.width  # the whole drawing is in the box
                assert sizes[0] > sizes[1] and sizes[2] > sizes[3]  # both ways, inside the box
                assert sizes[3] <= 0.8 * viewport["height"] + 2
                # the page itself does not scroll sideways
                assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
                top = box.evaluate("e => e.getBoundingClientRect().top + e.clientTop")
                box.evaluate("e => { e.scrollTop = 600; e.scrollLeft = 300; }")
                head = page.locator(".bracket-head").evaluate("e => e.getBoundingClientRect().top")
                assert abs(head - top) <= 1  # stuck to the top of the box
                lefts = page.evaluate(
                    "[...document.querySelectorAll('.bracket-svg')].map(e => e.getBoundingClientRect().left)"
                )
                assert (
                    lefts[0] == lefts[1]
                )  # the strip scrolls sideways with the body: titles stay over their columns
                page.emulate_media(media="print")
                styles = box.evaluate("e => [getComputedStyle(e).overflowX, getComputedStyle(e).maxHeight]")
                assert styles == ["visible", "none"]
                assert page.locator(".bracket-head").evaluate("e => getComputedStyle(e).position") == "static"
                widths = page.evaluate(
                    "[...document.querySelectorAll('.bracket-svg')].map(e => e.getBoundingClientRect().width)"
                )
                assert all(w <= viewport["width"] for w in widths)  # scaled to the page
                fill = page.locator(".bracket-body-svg .bx-bg").first.evaluate(
                    "e => getComputedStyle(e).stroke"
                )
                assert fill == "rgb(0, 0, 0)"
                page.close()
        finally:
            browser.close()


@pytest.mark.browser
@pytest.mark.skipif(
    not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium at /usr/bin/chromium"
)
def test_in_chromium_a_reloaded_bracket_keeps_its_scroll_position() -> None:
    """The page follows results by swapping the fragment in (htmx); static/js/bracket.js keeps the
    phone where it had scrolled. Without the script the swap sends it back to the top left."""
    from django.template.loader import render_to_string
    from playwright.sync_api import Route, sync_playwright

    from snapleague.chromium import launch

    before = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 16, seed=2, rounds=3)
    after = bracket_boxes.play(FormatKey.DOUBLE_ELIMINATION, 16, seed=2, rounds=4)
    fragment = [
        render_to_string("tournaments/_bracket.html", {"drawing": draw(bracket_boxes.sections(p))})
        for p in (before, after)
    ]
    decided = fragment[1].count('class="bx bx-decided')
    assert decided > fragment[0].count('class="bx bx-decided')  # the new version has new results
    static = ROOT / "static"
    head = "".join(
        [
            f"<style>{(static / 'css/snapleague.css').read_text()}{(static / 'css/bracket.css').read_text()}</style>",
            f"<script>{(static / 'vendor/htmx-2.0.11.min.js').read_text()}</script>",
        ]
    )
    script = f"<script>{(static / 'js/bracket.js').read_text()}</script>"

    def serve(route: Route) -> None:
        url = route.request.url
        if url.endswith("/fragment"):
            route.fulfill(body=fragment[1], content_type="text/html")
        else:
            body = fragment[0] + (script if url.endswith("/with") else "")
            route.fulfill(
                body=f"<!doctype html><html><head>{head}</head><body>{body}</body></html>",
                content_type="text/html",
            )

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            kept = {}
            for page_path in ("with", "without"):
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.route("http://bracket.test/**", serve)
                page.goto(f"http://bracket.test/{page_path}")
                page.locator("#bracket").evaluate("e => { e.scrollLeft = 250; e.scrollTop = 200; }")
                page.evaluate("htmx.ajax('GET', '/fragment', {target: '#bracket', swap: 'outerHTML'})")
                page.wait_for_function(f"document.querySelectorAll('.bx-decided').length === {decided}")
                assert page.locator("#bracket").count() == 1
                kept[page_path] = page.locator("#bracket").evaluate("e => [e.scrollLeft, e.scrollTop]")
                page.close()
        finally:
            browser.close()
    assert kept["with"] == [250, 200]
    assert kept["without"] == [0, 0]
