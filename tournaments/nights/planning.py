"""The pure rules of a club night: which station each table gets, which round is "current", and
which series is a player's next. Plain values in, plain values out (no Django)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def stations_in_order(
    tables: Sequence[int], stations: Sequence[int], taken: Mapping[int, int] | None = None
) -> dict[int, int]:
    """Give each table (a series' table number) a station, in order: the lowest table the first
    station free, and so on. ``taken`` (table -> station) are kept as they are (the organiser's
    choice, or an earlier assignment) and their stations are not handed out again. Tables left over
    when there are fewer stations than tables get none (their table number stands).

    >>> stations_in_order([1, 2, 3], [10, 11])
    {1: 10, 2: 11}
    >>> stations_in_order([1, 2, 3], [10, 11, 12], taken={2: 10})
    {1: 11, 2: 10, 3: 12}
    """
    kept = dict(taken or {})
    free = [s for s in stations if s not in set(kept.values())]
    assigned = dict(kept)
    for table in sorted(tables):
        if table in assigned:
            continue
        if not free:
            break
        assigned[table] = free.pop(0)
    return {t: assigned[t] for t in sorted(assigned) if t in set(tables)}


# How long one series at a table is reckoned to take: the only round length the project knows (a
# series' calendar event lasts this long; a round scheduled after another in a session starts this
# much later). Minutes.
SERIES_MINUTES = 60


SESSION_HOURS = 3  # a club evening, when nothing later is scheduled in it


def session_end(starts_at: float, round_starts: Sequence[float]) -> float:
    """When a session is over (POSIX seconds): ``SESSION_HOURS`` after its start, or a series
    after the last round scheduled in it starts, whichever is later (its calendar event ends
    then; a session that is over takes no more rounds)."""
    last = max(round_starts, default=starts_at)
    return max(starts_at + SESSION_HOURS * 3600, last + SERIES_MINUTES * 60)


@dataclass(frozen=True, slots=True)
class SessionRoom:
    """A session as automatic scheduling weighs it: its id, start (POSIX seconds), how many rounds
    it plans (None: it takes none by itself) and the starts of the rounds scheduled in it (POSIX
    seconds; a round without a time starts with the session)."""

    id: int
    starts_at: float
    planned: int | None
    scheduled: tuple[float, ...] = ()


def session_for_round(
    sessions: Sequence[SessionRoom], *, now: float, not_before: float | None = None
) -> tuple[int, float] | None:
    """Where a round just published goes: the earliest session (by start, then id) not over at
    ``now`` (:func:`session_end`) with fewer rounds scheduled than it plans, that starts no earlier
    than ``not_before`` (the start of the session of the previous round of the same stage; None:
    any). Its start: the session's for its first round, else ``SERIES_MINUTES`` after the latest
    round scheduled there. None when no session has room: the round stays unscheduled.

    >>> rooms = [SessionRoom(1, 0.0, 1, (0.0,)), SessionRoom(2, 7200.0, 2, ())]
    >>> session_for_round(rooms, now=0.0)
    (2, 7200.0)
    >>> session_for_round([SessionRoom(2, 7200.0, 2, (7200.0,))], now=0.0)
    (2, 10800.0)
    >>> session_for_round(rooms, now=0.0, not_before=9000.0) is None
    True
    >>> session_for_round(rooms, now=99999.0) is None  # both evenings are over
    True
    """
    for room in sorted(sessions, key=lambda s: (s.starts_at, s.id)):
        if not_before is not None and room.starts_at < not_before:
            continue
        if session_end(room.starts_at, room.scheduled) <= now:
            continue
        if room.planned is None or len(room.scheduled) >= room.planned:
            continue
        if not room.scheduled:
            return room.id, room.starts_at
        return room.id, max(room.starts_at, max(room.scheduled) + SERIES_MINUTES * 60)
    return None


@dataclass(frozen=True, slots=True)
class RoundStatus:
    """A round as the tonight page weighs it: its id, number, and how many of its series are still
    to be decided (walkovers do not count)."""

    id: int
    number: int
    open_series: int


def current_round(rounds: Sequence[RoundStatus]) -> int | None:
    """The round being played: the first (in the order given: the session's schedule) with a series
    still open; when every one is decided, the last. None without rounds."""
    for one in rounds:
        if one.open_series:
            return one.id
    return rounds[-1].id if rounds else None


@dataclass(frozen=True, slots=True)
class Upcoming:
    """A series a player sits in that is not decided yet, with when it is due (POSIX seconds; None:
    not scheduled). Seconds, not datetimes: this module reads no clock and imports no time type."""

    series_id: int
    starts_at: float | None
    round_number: int
    table: int


def next_series(candidates: Sequence[Upcoming]) -> int | None:
    """The player's next series: the earliest scheduled one, then those not scheduled in round and
    table order (a series being played now comes first, since its round started before the rest)."""
    if not candidates:
        return None
    scheduled = sorted(
        (c for c in candidates if c.starts_at is not None),
        key=lambda c: (c.starts_at, c.round_number, c.table, c.series_id),
    )
    unscheduled = sorted(
        (c for c in candidates if c.starts_at is None), key=lambda c: (c.round_number, c.table, c.series_id)
    )
    return (scheduled or unscheduled)[0].series_id
