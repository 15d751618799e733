"""A test-side adapter from the pure formats to the bracket drawing: plays an elimination stage
through ``next_rounds`` with seeded random results and builds the drawing's sections the way the
bracket page will (the whole bracket from the format's ``bracket()``, seats and results from the
published rounds). Used by tests/tournaments/competitions/test_bracket_svg.py, benchmarks/bracket_svg.py and
the screenshot script.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from games.engine.protocol import GameKind
from tournaments.competitions.bracket_svg import Box, BoxSeat, Column, Section
from tournaments.competitions.formats.base import FormatKey, Phase, PlannedSeries, SeriesResult, StageState
from tournaments.competitions.formats.bracket import BracketSeries, FromSeed
from tournaments.competitions.formats.registry import FORMATS

SECTION_OF = {
    Phase.WINNERS: "winners",
    Phase.THIRD_PLACE: "winners",
    Phase.FINAL: "winners",
    Phase.LOSERS: "losers",
    Phase.GRAND_FINAL: "final",
    Phase.GRAND_FINAL_RESET: "final",
}
SECTION_TITLES = {"winners": "Winners' bracket", "losers": "Losers' bracket", "final": "Grand final"}


@dataclass(frozen=True)
class Played:
    """A stage played so far: its state, its whole bracket, and the series left in play."""

    state: StageState
    bracket: tuple[BracketSeries, ...]
    playing: frozenset[str]


def play(
    key: FormatKey,
    entrants: int,
    *,
    options: Mapping[str, object] | None = None,
    seed: int = 1,
    rounds: int | None = None,
    no_show: float = 0.0,
) -> Played:
    """Play ``entrants`` through format ``key`` from seeded random results; with ``rounds``, stop
    once that many stage rounds are published and leave half of the last round's series in play."""
    rng = random.Random(seed)
    fmt = FORMATS[key]
    game = GameKind.SNAP if int(str((options or {}).get("table_size", 2))) > 2 else GameKind.SNAPSZER
    state = StageState(
        entrants=tuple(f"Player {i}" for i in range(1, entrants + 1)),
        seed=f"svg-{seed}",
        game=game,
        options=dict(options or {}),
    )
    playing: set[str] = set()
    while True:
        due = fmt.next_rounds(state)
        if not due:
            break
        state = replace(state, rounds=state.rounds + due)
        results = dict(state.results)
        last = rounds is not None and len(state.rounds) >= rounds
        for rnd in due:
            for series in rnd.series:
                if series.walkover:
                    continue
                if last and rng.random() < 0.5:
                    playing.add(series.key)
                    continue
                results[series.key] = _result(series, rng, no_show)
        state = replace(state, results=results)
        if last:
            break
    bracket: tuple[BracketSeries, ...] = ()
    if hasattr(fmt, "bracket"):  # a fixed bracket (elimination); groups and heats are seated as they go
        checked = fmt.check_options(state.options, game=state.game, entrants=entrants)
        bracket = fmt.bracket(entrants, checked)
    return Played(state, bracket, frozenset(playing))


def _result(series: PlannedSeries, rng: random.Random, no_show: float) -> SeriesResult:
    """A random finishing order; with ``no_show`` some players do not come (a forfeit: placing
    None), but someone always does."""
    seats = [i for i, p in enumerate(series.seats) if p is not None and rng.random() >= no_show]
    if not seats:
        seats = [i for i, p in enumerate(series.seats) if p is not None]
    rng.shuffle(seats)
    placings: list[int | None] = [None] * len(series.seats)
    for place, seat in enumerate(seats, start=1):
        placings[seat] = place
    return SeriesResult(tuple(placings))


def sections(played: Played) -> tuple[Section, ...]:
    """The drawing's sections: winners' (or the only) bracket, losers' bracket, grand final."""
    published = played.state.series()
    columns: dict[str, dict[int, list[Box]]] = {}
    for node in played.bracket:
        section = SECTION_OF[node.phase]
        column = node.phase_round - 1 if section != "winners" else node.round - 1
        if node.phase is Phase.GRAND_FINAL_RESET:
            column = 1
        columns.setdefault(section, {}).setdefault(column, []).append(
            box(node, published.get(node.key, (None, None))[1], played)
        )
    built = []
    for name in ("winners", "losers", "final"):
        if name not in columns:
            continue
        cols = columns[name]
        title = SECTION_TITLES[name] if len(columns) > 1 else ""
        prefix = {"winners": "Round", "losers": "Losers' round", "final": "Final"}[name]
        built.append(
            Section(
                title,
                tuple(Column(f"{prefix} {c + 1}", tuple(cols[c])) for c in sorted(cols)),
            )
        )
    return tuple(built)


def sections_from_rounds(played: Played) -> tuple[Section, ...]:
    """Sections from the published rounds alone (any format): one per group ("Group A"), then
    one per phase (heats, repechage, the playoff's brackets), a column per round of each."""
    order: list[str] = []
    columns: dict[str, dict[int, list[Box]]] = {}
    for rnd in played.state.rounds:
        for series in rnd.series:
            name = (
                f"Group {series.group}" if series.group else PHASE_TITLES.get(series.phase, str(series.phase))
            )
            if name not in columns:
                order.append(name)
            node = BracketSeries(
                series.key,
                rnd.number,
                series.table,
                series.phase,
                series.phase_round,
                tuple(FromSeed(0) for _ in series.seats),
                series.advance,
                series.to,
            )
            columns.setdefault(name, {}).setdefault(series.phase_round - 1, []).append(
                box(node, series, played)
            )
    return tuple(
        Section(name, tuple(Column(f"Round {c + 1}", tuple(columns[name][c])) for c in sorted(columns[name])))
        for name in order
    )


PHASE_TITLES = {
    Phase.WINNERS: "Playoff",
    Phase.LOSERS: "Playoff, losers' bracket",
    Phase.GRAND_FINAL: "Grand final",
    Phase.GRAND_FINAL_RESET: "Grand final",
    Phase.THIRD_PLACE: "Third place",
    Phase.HEAT: "Heats",
    Phase.REPECHAGE: "Repechage",
    Phase.FINAL: "Final",
}


def box(node: BracketSeries, series: PlannedSeries | None, played: Played) -> Box:
    """The box of one bracket series: empty seats before it is published; rows in finishing order
    once it is decided (the top ``advance`` above the cut)."""
    to = tuple(slot.series if slot is not None else None for slot in node.to)
    label = {Phase.GRAND_FINAL: "Grand final", Phase.FINAL: "Final", Phase.THIRD_PLACE: "Third place"}.get(
        node.phase, f"Table {node.table}"
    )
    url = f"/series/{node.key}/"
    if series is None:
        seats = tuple(BoxSeat("") for _ in node.sources)
        return Box(node.key, label, seats, url=url, advance=node.advance, to=to)
    result = played.state.results.get(node.key)
    if series.walkover:
        seats = tuple(
            BoxSeat(str(p), state="won", url=f"/players/{p}/") if p is not None else BoxSeat("", state="bye")
            for p in series.seats
        )
        seats = tuple(sorted(seats, key=lambda s: s.state != "won"))
        return Box(node.key, label, seats, url=url, status="walkover", advance=node.advance, to=to)
    if result is None:
        status = "playing" if node.key in played.playing else "pending"
        seats = tuple(
            BoxSeat(
                str(p or ""),
                score="1" if status == "playing" and i == 0 else "0" if status == "playing" else "",
            )
            for i, p in enumerate(series.seats)
        )
        return Box(node.key, label, seats, url=url, status=status, advance=node.advance, to=to)
    rows = sorted(
        range(len(series.seats)),
        key=lambda i: (result.placings[i] is None, result.placings[i] or 0, i),
    )
    seats_list = []
    for i in rows:
        player, place = series.seats[i], result.placings[i]
        if player is None:
            seats_list.append(BoxSeat("", state="empty"))
        elif place is None:
            seats_list.append(BoxSeat(str(player), state="forfeit", url=f"/players/{player}/"))
        else:
            # where nobody advances by one series (a group game) the winner is bold, nobody is out
            won = place <= node.advance if node.advance else place == 1
            goes_on = not node.advance or (place <= len(to) and to[place - 1] is not None)
            score = str(len(series.seats) - place + 1) if len(series.seats) > 2 else ("2" if won else "1")
            state = "won" if won else "" if goes_on else "out"
            seats_list.append(BoxSeat(str(player), score=score, state=state, url=f"/players/{player}/"))
    return Box(node.key, label, tuple(seats_list), url=url, status="decided", advance=node.advance, to=to)
