"""Round robin (rules/tournaments.md "Formats"): two-seat series by the circle method, or Snap tables.

Pure and deterministic: the same entrants in the same order give the same rounds and tables. The
caller decides the entrants' order (seeding by rating, manual, or :func:`seeded_order`).

Two seats (:func:`round_robin_schedule`)
- The circle method: with m slots (n entrants, plus one empty slot when n is odd), slot m-1 stays
  fixed and in round r (0-based) meets slot r, while slot (r+i) mod (m-1) meets slot
  (r-i) mod (m-1) for i = 1 .. m/2-1. Everyone meets everyone exactly once per cycle, in m-1 rounds.
- Odd n: the fixed slot is the empty one, so whoever meets it has the bye: entrant r in round r+1,
  each entrant exactly once per cycle.
- Seat order (who sits first, i.e. deals first; tournaments.md "set by the pairing"): the fixed slot
  sits first in even rounds; in the other pairs the (r+i) side sits first when i is odd. Over a
  cycle every entrant sits first within one of half their series, never more than twice in a row.
- Double round robin: the second cycle repeats the first with the seats swapped.

Snap tables (:func:`snap_tables`)
- n entrants sit at ceil(n / table_size) tables, dealt by snake seeding (1..T, then T..1, …): the
  sizes differ by at most 1. Each table plays one series; seat order at a table is seeding order.
- table_size 2 with an odd n would leave one entrant alone; that is refused (use the two-seat
  round robin, which gives a rotating bye).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.dealing import shuffled
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError

type PlayerId = int | str

TABLE_SIZES = range(2, 7)  # rules/snap.md S1: 2 to 6 players


class PairingErrorCode(TournamentErrorCode):
    """Why no round robin can be made, and the ``extra`` values each code carries (``entrants`` is
    a count, ``players`` entrants as strings)."""

    TOO_FEW_ENTRANTS = "too_few_entrants", ("entrants",)
    DUPLICATE_ENTRANT = "duplicate_entrant", ("players",)  # the same problem as the standings'
    INVALID_TABLE_SIZE = "invalid_table_size", ("table_size",)
    TABLE_OF_ONE = "table_of_one", ("entrants", "table_size")


class PairingError(TournamentInputError):
    """Inputs no round robin can be made from (codes: :class:`PairingErrorCode`)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One two-seat series: ``first`` takes seat 0 (deals first), ``second`` seat 1."""

    first: PlayerId
    second: PlayerId

    @property
    def seats(self) -> tuple[PlayerId, PlayerId]:
        return (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Round:
    """One round: ``number`` counts from 1 across cycles; ``cycle`` is 1 (or 2 in a double)."""

    number: int
    cycle: int
    pairings: tuple[Pairing, ...]
    bye: PlayerId | None


@dataclass(frozen=True, slots=True)
class Table:
    """One Snap table: ``number`` from 1; ``seats`` in seat order (seeding order)."""

    number: int
    seats: tuple[PlayerId, ...]


def round_robin_schedule(entrants: Sequence[PlayerId], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a single (or ``double``) two-seat round robin, in order.

    Raises PairingError("too_few_entrants") for fewer than 2 entrants and
    PairingError("duplicate_entrant") when an entrant is listed twice.
    """
    players = _checked_entrants(entrants)
    slots: list[PlayerId | None] = [*players, None] if len(players) % 2 else list(players)
    m = len(slots)
    k = m - 1  # slot k is fixed; the others turn round it
    first_cycle: list[Round] = []
    for r in range(k):
        pairings: list[Pairing] = []
        bye: PlayerId | None = None
        for i in range(m // 2):
            if i == 0:
                a, b = (k, r) if r % 2 == 0 else (r, k)
            else:
                up, down = (r + i) % k, (r - i) % k
                a, b = (up, down) if i % 2 == 1 else (down, up)
            pa, pb = slots[a], slots[b]
            if pa is None or pb is None:
                bye = pb if pa is None else pa
            else:
                pairings.append(Pairing(pa, pb))
        first_cycle.append(Round(number=r + 1, cycle=1, pairings=tuple(pairings), bye=bye))
    if not double:
        return tuple(first_cycle)
    second_cycle = [
        Round(
            number=k + rnd.number,
            cycle=2,
            pairings=tuple(Pairing(p.second, p.first) for p in rnd.pairings),
            bye=rnd.bye,
        )
        for rnd in first_cycle
    ]
    return (*first_cycle, *second_cycle)


def snap_tables(entrants: Sequence[PlayerId], *, table_size: int) -> tuple[Table, ...]:
    """Seat ``entrants`` (in seeding order) at ceil(n / table_size) Snap tables by snake seeding.

    Raises PairingError: "too_few_entrants" (under 2), "duplicate_entrant", "invalid_table_size"
    (not 2-6), "table_of_one" (table_size 2 with an odd number of entrants).
    """
    if isinstance(table_size, bool) or not isinstance(table_size, int) or table_size not in TABLE_SIZES:
        raise PairingError(
            PairingErrorCode.INVALID_TABLE_SIZE,
            "A Snap table seats 2 to 6 players.",
            {"table_size": repr(table_size)},
        )
    players = _checked_entrants(entrants)
    n = len(players)
    count = -(-n // table_size)
    if n // count < 2:
        raise PairingError(
            PairingErrorCode.TABLE_OF_ONE,
            "These entrants cannot be seated without leaving one player alone at a table; use the "
            "two-seat round robin (with a rotating bye) or a larger table size.",
            {"entrants": n, "table_size": table_size},
        )
    seated: list[list[PlayerId]] = [[] for _ in range(count)]
    for index, player in enumerate(players):
        lap, position = divmod(index, count)
        seated[position if lap % 2 == 0 else count - 1 - position].append(player)
    return tuple(Table(number=i + 1, seats=tuple(seats)) for i, seats in enumerate(seated))


# The context of a stage's draw in ``games.engine.dealing.shuffled`` (a deal's is b"deal", b"hand:3"…).
DRAW_CONTEXT = b"draw"


def seeded_order(entrants: Sequence[PlayerId], seed: str) -> tuple[PlayerId, ...]:
    """A random seeding that anyone can check from the revealed ``seed`` and the published
    ``entrants`` (in that order): the online deals' shuffle (``games.engine.dealing.shuffled``, an
    HMAC-SHA-256 Fisher–Yates) of ``entrants`` keyed by the seed's UTF-8 bytes, context ``b"draw"``.
    docs/formats.md "Checking a random draw" recomputes it in a few lines.

    Raises PairingError("duplicate_entrant") when an entrant is listed more than once.
    """
    _check_duplicates(entrants)
    if len(entrants) < 2:
        return tuple(entrants)
    return shuffled(entrants, seed.encode("utf-8"), DRAW_CONTEXT)


def _check_duplicates(entrants: Sequence[PlayerId]) -> None:
    repeated = [player for player, times in Counter(entrants).items() if times > 1]
    if repeated:
        raise PairingError(
            PairingErrorCode.DUPLICATE_ENTRANT,
            "An entrant is listed more than once.",
            {"players": sorted({str(p) for p in repeated})},
        )


def _checked_entrants(entrants: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    if len(entrants) < 2:
        raise PairingError(
            PairingErrorCode.TOO_FEW_ENTRANTS,
            "A round robin needs at least 2 entrants.",
            {"entrants": len(entrants)},
        )
    _check_duplicates(entrants)
    return tuple(entrants)
