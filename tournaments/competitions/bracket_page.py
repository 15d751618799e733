"""The bracket page's drawing: a stage's series as the sections, columns and boxes that
``tournaments/competitions/bracket_svg.py`` draws (pure), with the translated labels and the links.

Sections by phase: the winners' bracket (or the one bracket), the losers' bracket, the finals
(grand final, its reset, the third-place series), each group of a groups stage, the heats and the
repechage. Columns are the rounds of each phase.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.competitions.bracket_svg import Box, BoxSeat, Column, Drawing, Section, bracket_drawing
from tournaments.competitions.selectors.stages import StagePage
from tournaments.models import Series, SeriesPhase


def _section_of(series: Series, *, has_losers: bool) -> tuple[int, str]:
    """(order, title) of the section a series is drawn in (``has_losers``: the stage has a losers'
    bracket, so the main one is the winners')."""
    phase = series.phase
    if series.group:
        return (0, _("Group %(g)s") % {"g": series.group})
    if phase in (SeriesPhase.WINNERS, SeriesPhase.ROUND_ROBIN, SeriesPhase.SWISS):
        return (1, _("Winners' bracket") if has_losers else _("Bracket"))
    if phase == SeriesPhase.LOSERS:
        return (2, _("Losers' bracket"))
    if phase in (
        SeriesPhase.GRAND_FINAL,
        SeriesPhase.GRAND_FINAL_RESET,
        SeriesPhase.THIRD_PLACE,
        SeriesPhase.FINAL,
    ):
        return (3, _("Finals"))
    if phase == SeriesPhase.REPECHAGE:
        return (5, _("Repechage"))
    return (4, _("Heats"))


def _column_title(series: Series, last_round: int) -> str:
    phase = series.phase
    if phase == SeriesPhase.GRAND_FINAL:
        return _("Grand final")
    if phase == SeriesPhase.GRAND_FINAL_RESET:
        return _("Grand final, again")
    if phase == SeriesPhase.THIRD_PLACE:
        return _("Third place")
    if phase == SeriesPhase.FINAL:
        return _("Final table")
    if phase == SeriesPhase.WINNERS and series.phase_round == last_round and not series.group:
        return _("Final")
    if phase == SeriesPhase.WINNERS and series.phase_round == last_round - 1 and not series.group:
        return _("Semi-finals")
    return _("Round %(n)s") % {"n": series.phase_round}


def _seats(series: Series, score: tuple[int, ...] | None) -> tuple[BoxSeat, ...]:
    by_seat = {s.seat: s for s in series.seats.all()}
    forfeited = {f.player_id for f in series.forfeits.all()}
    seats: list[tuple[tuple[bool, int, int], BoxSeat]] = []
    for index in range(series.seat_count):
        seat = by_seat.get(index)
        if seat is None:
            seats.append(((True, 0, index), BoxSeat(name="", state="bye" if series.walkover else "empty")))
            continue
        place = series.placings.get(str(seat.player_id))
        if seat.player_id in forfeited:
            state = "forfeit"
        elif series.status != Series.Status.DECIDED or place is None:
            state = "" if series.status != Series.Status.DECIDED else "out"
        else:
            state = "won" if place <= max(series.advance, 1) else "out"
        seats.append(
            (
                (place is None, place or 0, index),
                BoxSeat(
                    name=seat.player.name,
                    score=str(score[index]) if score else "",
                    state=state,
                    url=reverse("tournaments:player", args=[seat.player_id]),
                ),
            )
        )
    if series.status == Series.Status.DECIDED:
        # Decided: in finishing order, so the top-k line and the "goes to" labels fall on the right rows.
        seats.sort(key=lambda item: item[0])
    return tuple(box_seat for _key, box_seat in seats)


def stage_drawing(page: StagePage) -> Drawing | None:
    """The bracket of ``page``'s stage, or None when it has no series that send players on."""
    if not page.bracket:
        return None
    texts = {"bye": _("bye"), "walkover": _("walkover"), "empty": "—"}
    series_all: Sequence[Series] = [s for line in page.rounds for s in line.series]
    slots = {s.pk: {slot.place: slot.to_key for slot in s.slots.all()} for s in series_all}
    sections: dict[tuple[int, str], dict[tuple[str, int], list[Box]]] = {}
    last_winners = max((s.phase_round for s in series_all if s.phase == SeriesPhase.WINNERS), default=0)
    has_losers = any(s.phase == SeriesPhase.LOSERS for s in series_all)
    for series in series_all:
        section = _section_of(series, has_losers=has_losers)
        column = (series.phase, series.phase_round)
        places = slots[series.pk]
        status = "walkover" if series.walkover else str(series.status).replace("decided", "decided")
        box = Box(
            key=series.key,
            label=_("Table %(n)s") % {"n": series.table},
            seats=_seats(series, page.scores.get(series.pk)),
            url=reverse("tournaments:series", args=[series.pk]),
            status=status,
            advance=max(series.advance, 1),
            to=tuple(places.get(place) for place in range(1, max(places, default=0) + 1)),
            note=_("flagged: a correction changed a result it was paired from") if series.flagged else "",
        )
        sections.setdefault(section, {}).setdefault(column, []).append(box)
    drawn = []
    phase_order = {p.value: i for i, p in enumerate(SeriesPhase)}
    for (_order, title), columns in sorted(sections.items()):
        ordered = sorted(columns.items(), key=lambda item: (phase_order[item[0][0]], item[0][1]))
        drawn.append(
            Section(
                title=title,
                columns=tuple(
                    Column(
                        title=_column_title(_first(series_all, boxes[0].key), last_winners),
                        boxes=tuple(boxes),
                    )
                    for (_phase, _round), boxes in ordered
                ),
            )
        )
    return bracket_drawing(
        drawn,
        title=str(page.stage.name),
        aria_label=_("The bracket of %(stage)s") % {"stage": page.stage.name},
        texts=texts,
    )


def _first(series_all: Sequence[Series], key: str) -> Series:
    return next(s for s in series_all if s.key == key)
