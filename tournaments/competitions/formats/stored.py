"""A stage's planned rounds as canonical JSON and back (``Round.inputs``, the round as its format
planned it). Pure."""

from __future__ import annotations

import json
from collections.abc import Iterable

from tournaments.competitions.formats.base import (
    Phase,
    PlannedRound,
    PlannedSeries,
    Slot,
)


def rounds_to_json(rounds: Iterable[PlannedRound]) -> str:
    """The rounds as canonical JSON (sorted keys, no spaces): byte-identical for equal rounds."""
    data = [
        {
            "number": rnd.number,
            "byes": list(rnd.byes),
            "series": [
                {
                    "key": s.key,
                    "table": s.table,
                    "seats": list(s.seats),
                    "phase": s.phase.value,
                    "phase_round": s.phase_round,
                    "advance": s.advance,
                    "to": [None if slot is None else [slot.series, slot.seat] for slot in s.to],
                    "group": s.group,
                }
                for s in rnd.series
            ],
        }
        for rnd in rounds
    ]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def rounds_from_json(text: str) -> tuple[PlannedRound, ...]:
    """The inverse of :func:`rounds_to_json` (for a stored stage state)."""
    return tuple(
        PlannedRound(
            number=rnd["number"],
            byes=tuple(rnd["byes"]),
            series=tuple(
                PlannedSeries(
                    key=s["key"],
                    table=s["table"],
                    seats=tuple(s["seats"]),
                    phase=Phase(s["phase"]),
                    phase_round=s["phase_round"],
                    advance=s["advance"],
                    to=tuple(None if t is None else Slot(t[0], t[1]) for t in s["to"]),
                    group=s["group"],
                )
                for s in rnd["series"]
            ),
        )
        for rnd in json.loads(text)
    )
