"""Brackets: single elimination (two seats, or tables with the top k advancing) and double
elimination, built whole from the number of seeds, then played round by round.

A bracket is a list of :class:`BracketSeries`, fixed before any result: each seat says where its
player comes from (a seed, or the player finishing some place in an earlier series of the bracket),
and each series where its players go (``to``). :func:`bracket_rounds` fills the seats of the next
bracket round from the decided results once the round before it is decided.

Single elimination, two seats (rules/tournaments.md: standard seeding, byes to the top seeds)
- A bracket of N = 2**ceil(log2 n) slots in :func:`~tournaments.competitions.formats.seeding.bracket_order`
  (1 v 16, 8 v 9 …). The N - n highest seeds meet an empty seat in round 1: a bye (a walkover) that
  sends them to round 2. Seat 0 comes from the upper half of the pair (the better seed in round 1).
- ``third_place``: the semi-finals' losers play a third-place series beside the final (4 or more
  seeds; with fewer there are no semi-finals and the option does nothing).

Single elimination by tables (3-6 seats, top k advance)
- Round 1 seats everyone at ceil(n / t) tables by snake seeding (sizes within 1). A table of s
  players sends its top min(k, s - 1) on: everyone who goes on beat someone. The players going on
  form a line (all the table winners in table order, then the seconds in reverse table order, …)
  dealt by snake seeding to the next round's tables; when at most t are left they sit at one final
  table, whose winner is the champion. The line and the seats are fixed when the bracket is built.

Double elimination (two seats)
- Winners' bracket as above. Losers' round 1 pairs the losers of winners' round 1; losers' round
  2j takes the winners of losers' round 2j-1 (seat 0) against the losers of winners' round j+1
  (seat 1); losers' round 2j+1 pairs the winners of round 2j. So a bracket of 2**k has 2(k-1)
  losers' rounds. Losers drop in the order of :func:`~tournaments.competitions.formats.seeding.drop_orderings`,
  which keeps a dropped player away from anyone they could have met.
- Grand final: the winners' champion (seat 0) against the losers' champion. With
  ``grand_final_reset`` (default), if the losers' champion wins it, a second grand final is played
  (seats swapped); whoever wins that is the champion.
- Stage rounds: winners' round r is stage round r, losers' round j stage round j + 1, the grand
  final the round after the losers' final.
- A forfeit (no-show) is out: it does not drop into the losers' bracket.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.competitions.formats.base import (
    Phase,
    PlannedRound,
    PlannedSeries,
    Slot,
    StageState,
    StageWideStandings,
)
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.formats.seeding import ORDERINGS, bracket_order, drop_orderings, snake
from tournaments.competitions.formats.state import effective_placings, finishing_order, generate_request


@dataclass(frozen=True, slots=True)
class FromSeed:
    """The player seeded ``index``-th (0-based) in the bracket; an index past the last is a bye."""

    index: int


@dataclass(frozen=True, slots=True)
class FromSeries:
    """The player finishing ``place``-th (from 1) in series ``series``."""

    series: str
    place: int


type Source = FromSeed | FromSeries


@dataclass(frozen=True, slots=True)
class BracketSeries:
    """One series of a bracket before its players are known. ``round`` counts the bracket's rounds
    from 1 (the stage round is the bracket's offset plus ``round``); ``reset`` marks the second grand
    final, played only when the losers' side wins the first."""

    key: str
    round: int
    table: int
    phase: Phase
    phase_round: int
    sources: tuple[Source, ...]
    advance: int
    to: tuple[Slot | None, ...]
    reset: bool = False


def single_elimination(n: int, *, prefix: str = "", third_place: bool = False) -> tuple[BracketSeries, ...]:
    """The two-seat single-elimination bracket of ``n`` (at least 2) seeds."""
    rounds = max(1, math.ceil(math.log2(n)))
    size = 2**rounds
    order = bracket_order(size)
    third = third_place and rounds >= 2
    built: list[BracketSeries] = []
    for r in range(1, rounds + 1):
        for i in range(1, size // 2**r + 1):
            if r == 1:
                sources: tuple[Source, ...] = (FromSeed(order[2 * i - 2] - 1), FromSeed(order[2 * i - 1] - 1))
            else:
                sources = (
                    FromSeries(f"{prefix}W{r - 1}-{2 * i - 1}", 1),
                    FromSeries(f"{prefix}W{r - 1}-{2 * i}", 1),
                )
            winner = Slot(f"{prefix}W{r + 1}-{(i + 1) // 2}", (i - 1) % 2) if r < rounds else None
            to: tuple[Slot | None, ...] = (winner,)
            if third and r == rounds - 1:
                to = (winner, Slot(f"{prefix}3P", (i - 1) % 2))
            built.append(BracketSeries(f"{prefix}W{r}-{i}", r, i, Phase.WINNERS, r, sources, 1, to))
    if third:
        semis = (FromSeries(f"{prefix}W{rounds - 1}-1", 2), FromSeries(f"{prefix}W{rounds - 1}-2", 2))
        built.append(BracketSeries(f"{prefix}3P", rounds, 2, Phase.THIRD_PLACE, 1, semis, 1, (None,)))
    return tuple(built)


def tables_elimination(
    n: int, *, table_size: int, advance: int, prefix: str = ""
) -> tuple[BracketSeries, ...]:
    """The single-elimination bracket of ``n`` seeds at tables of at most ``table_size``, the top
    ``advance`` of each table going on (at most all but one of a table)."""
    built: list[BracketSeries] = []
    line: list[Source] = [FromSeed(i) for i in range(n)]
    r = 1
    while True:
        final = len(line) <= table_size
        count = 1 if final else math.ceil(len(line) / table_size)
        tables = snake(line, count)
        keys = [f"{prefix}F" if final else f"{prefix}T{r}-{j}" for j in range(1, count + 1)]
        goes_on = [0 if final else min(advance, len(t) - 1) for t in tables]
        nxt: list[Source] = []
        for place in range(1, max(goes_on, default=0) + 1):
            order = range(count) if place % 2 else range(count - 1, -1, -1)
            nxt += [FromSeries(keys[j], place) for j in order if place <= goes_on[j]]
        # where each of those goes: its position in the next round's snake
        nxt_count = 1 if len(nxt) <= table_size else math.ceil(len(nxt) / table_size)
        nxt_keys = [
            f"{prefix}F" if nxt_count == 1 else f"{prefix}T{r + 1}-{j}" for j in range(1, nxt_count + 1)
        ]
        slot_of: dict[Source, Slot] = {
            src: Slot(nxt_keys[j], seat)
            for j, t in enumerate(snake(nxt, nxt_count))
            for seat, src in enumerate(t)
        }
        for j, seats in enumerate(tables):
            to = tuple(slot_of[FromSeries(keys[j], p)] for p in range(1, goes_on[j] + 1))
            phase, advancing = (Phase.FINAL, 1) if final else (Phase.WINNERS, goes_on[j])
            built.append(
                BracketSeries(
                    keys[j], r, j + 1, phase, r, tuple(seats), advancing, to if not final else (None,)
                )
            )
        if final:
            return tuple(built)
        line = nxt
        r += 1


def double_elimination(n: int, *, prefix: str = "", reset: bool = True) -> tuple[BracketSeries, ...]:
    """The double-elimination bracket of ``n`` (at least 2) seeds."""
    k = max(1, math.ceil(math.log2(n)))
    size = 2**k
    order = bracket_order(size)
    orderings = drop_orderings(k)
    last_losers = 2 * (k - 1)
    gf = f"{prefix}GF1"
    gf_round = 2 * k if k >= 2 else 2

    def w(r: int, i: int) -> str:
        return f"{prefix}W{r}-{i}"

    def lb(j: int, m: int) -> str:
        return f"{prefix}L{j}-{m}"

    # Where the losers of each winners' round go.
    loser_slot: dict[str, Slot] = {}
    for r in range(1, k + 1):
        losers = [w(r, i) for i in range(1, size // 2**r + 1)]
        dropped = ORDERINGS[orderings[r - 1]](list(losers))
        for q, key in enumerate(dropped):
            if k == 1:
                loser_slot[str(key)] = Slot(gf, 1)
            elif r == 1:
                loser_slot[str(key)] = Slot(lb(1, q // 2 + 1), q % 2)
            else:
                loser_slot[str(key)] = Slot(lb(2 * (r - 1), q + 1), 1)
    sources_of: dict[Slot, Source] = {}
    for key, slot in loser_slot.items():
        sources_of[slot] = FromSeries(key, 2)

    built: list[BracketSeries] = []
    tables: dict[int, int] = {}

    def table(stage_round: int) -> int:
        tables[stage_round] = tables.get(stage_round, 0) + 1
        return tables[stage_round]

    for r in range(1, k + 1):
        for i in range(1, size // 2**r + 1):
            if r == 1:
                sources: tuple[Source, ...] = (FromSeed(order[2 * i - 2] - 1), FromSeed(order[2 * i - 1] - 1))
            else:
                sources = (FromSeries(w(r - 1, 2 * i - 1), 1), FromSeries(w(r - 1, 2 * i), 1))
            winner = Slot(w(r + 1, (i + 1) // 2), (i - 1) % 2) if r < k else Slot(gf, 0)
            built.append(
                BracketSeries(
                    w(r, i), r, table(r), Phase.WINNERS, r, sources, 1, (winner, loser_slot[w(r, i)])
                )
            )
    counts = {j: size // 2 ** ((j + 1) // 2 + 1) for j in range(1, last_losers + 1)}
    for j in range(1, last_losers + 1):
        for m in range(1, counts[j] + 1):
            if j == 1 or j % 2 == 0:
                seat0 = sources_of[Slot(lb(j, m), 0)] if j == 1 else FromSeries(lb(j - 1, m), 1)
                sources = (seat0, sources_of[Slot(lb(j, m), 1)])
            else:
                sources = (FromSeries(lb(j - 1, 2 * m - 1), 1), FromSeries(lb(j - 1, 2 * m), 1))
            if j == last_losers:
                winner = Slot(gf, 1)
            elif j % 2 == 1:
                winner = Slot(lb(j + 1, m), 0)
            else:
                winner = Slot(lb(j + 1, (m + 1) // 2), (m - 1) % 2)
            built.append(BracketSeries(lb(j, m), j + 1, table(j + 1), Phase.LOSERS, j, sources, 1, (winner,)))
    final_sources = (
        FromSeries(w(k, 1), 1),
        FromSeries(lb(last_losers, 1), 1) if k >= 2 else FromSeries(w(1, 1), 2),
    )
    reset_key = f"{prefix}GF2"
    gf_to: tuple[Slot | None, ...] = (Slot(reset_key, 0), Slot(reset_key, 1)) if reset else (None,)
    built.append(BracketSeries(gf, gf_round, 1, Phase.GRAND_FINAL, 1, final_sources, 1, gf_to))
    if reset:
        again = (FromSeries(gf, 1), FromSeries(gf, 2))
        built.append(
            BracketSeries(
                reset_key, gf_round + 1, 1, Phase.GRAND_FINAL_RESET, 1, again, 1, (None,), reset=True
            )
        )
    return tuple(built)


# -- playing a bracket --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BracketProgress:
    """What :func:`bracket_rounds` found: the rounds due now, the series the next round waits for,
    the champion once the bracket is decided (None while it is not, or when nobody is left), and
    the published series whose players a corrected result would now change (``stale``: they stay
    as published; the organiser is told, rules/tournaments.md)."""

    due: tuple[PlannedRound, ...]
    waiting: tuple[str, ...]
    finished: bool
    champion: PlayerId | None
    stale: tuple[str, ...] = ()


class BracketFormat(StageWideStandings):
    """A stage played to a champion (single and double elimination, groups → playoff, heats):
    subclasses give ``progress``; the rest of the format interface follows from it."""

    def progress(self, state: StageState) -> BracketProgress:
        raise NotImplementedError

    def next_rounds(self, state: StageState, *, round_number: int | None = None) -> tuple[PlannedRound, ...]:
        progress = self.progress(state)
        return generate_request(state, progress.due, progress.waiting, round_number)

    def finished(self, state: StageState) -> bool:
        progress = self.progress(state)
        return progress.finished and not progress.due

    def champion(self, state: StageState) -> PlayerId | None:
        """The winner of the final once it is decided (None before, or when nobody is left)."""
        progress = self.progress(state)
        return progress.champion if not progress.due else None

    def stale_series(self, state: StageState) -> tuple[str, ...]:
        """Published series whose players a corrected result would now change (to flag)."""
        return self.progress(state).stale


def bracket_rounds(
    state: StageState,
    bracket: Sequence[BracketSeries],
    seeded: Sequence[PlayerId],
    results: Mapping[str, tuple[int | None, ...]],
    *,
    offset: int = 0,
    group: str | None = None,
) -> BracketProgress:
    """Play ``bracket`` (its round r is stage round ``offset + r``) over ``state``: the next bracket
    rounds whose players are all known, once the stage rounds before them are decided. A round whose
    series are all walkovers is decided at once, so the rounds after it come in the same answer.
    Published series are read as published (their seats never change)."""
    published = state.series()
    by_round: dict[int, list[BracketSeries]] = {}
    for node in bracket:
        by_round.setdefault(node.round, []).append(node)
    generated: dict[str, tuple[int, PlannedSeries]] = {
        key: (rnd.number, series) for key, (rnd, series) in published.items()
    }
    last = max(by_round)
    due: list[PlannedRound] = []
    number = len(state.rounds)

    def placings(key: str) -> tuple[int | None, ...] | None:
        round_number, series = generated[key]
        return effective_placings(state, results, round_number, series)

    def player(source: Source, round_number: int) -> PlayerId | None:
        if isinstance(source, FromSeed):
            chosen = seeded[source.index] if source.index < len(seeded) else None
        else:
            _n, series = generated[source.series]
            decided = placings(source.series)
            assert decided is not None  # the rounds before are decided
            order = settled_order(series, finishing_order(series, decided), generated)
            chosen = order[source.place - 1] if source.place <= len(order) else None
        return None if chosen is None or state.withdrawn(chosen, round_number) else chosen

    for r in range(1, last + 1):
        nodes = by_round.get(r, [])
        if any(node.key in generated for node in nodes):
            continue
        stage_round = offset + r
        if number != stage_round - 1:
            break  # the stage is not at this round yet
        if any(n == number and placings(key) is None for key, (n, _s) in generated.items()):
            break  # the round before is not decided yet
        planned: list[PlannedSeries] = []
        for node in nodes:
            if node.reset and not _reset_needed(generated, placings, node):
                continue
            seats = tuple(player(src, stage_round) for src in node.sources)
            planned.append(
                PlannedSeries(
                    key=node.key,
                    table=node.table,
                    seats=seats,
                    phase=node.phase,
                    phase_round=node.phase_round,
                    advance=node.advance,
                    to=node.to,
                    group=group,
                )
            )
        if not planned:
            break
        rnd = PlannedRound(number=stage_round, series=tuple(planned))
        due.append(rnd)
        number = stage_round
        for series in planned:
            generated[series.key] = (stage_round, series)
    awaited = tuple(key for key, (n, _s) in generated.items() if n == number and placings(key) is None)
    final = _final_key(bracket, generated)
    finished = not awaited and final is not None and placings(final) is not None
    champion: PlayerId | None = None
    if finished and final is not None:
        decided = placings(final)
        assert decided is not None
        order = finishing_order(generated[final][1], decided)
        champion = order[0] if order else None
    stale = tuple(
        node.key
        for node in bracket
        if node.key in published
        and node.round > 1
        and any(
            isinstance(src, FromSeries)
            and _moved(state, seat, _now(src, generated, placings), published[node.key][0].number)
            for src, seat in zip(node.sources, published[node.key][1].seats, strict=True)
        )
    )
    done = finished and not due_after(bracket, generated)
    return BracketProgress(tuple(due), awaited, done, champion, stale)


def _moved(state: StageState, seated: PlayerId | None, now: PlayerId | None, round_number: int) -> bool:
    """Does the player the results name now differ from the one seated (a withdrawal aside)?"""
    if seated is None and now is not None and state.withdrawn(now, round_number):
        return False
    return seated != now


def _now(
    source: FromSeries, generated: Mapping[str, tuple[int, PlannedSeries]], placings: Placings
) -> PlayerId | None:
    """Who ``source`` names by the results as they are now (a withdrawal aside)."""
    decided = placings(source.series)
    if decided is None:
        return None
    order = finishing_order(generated[source.series][1], decided)
    return order[source.place - 1] if source.place <= len(order) else None


def settled_order(
    series: PlannedSeries,
    order: Sequence[PlayerId],
    published: Mapping[str, tuple[int, PlannedSeries]],
) -> list[PlayerId | None]:
    """``series``' finishing ``order`` squared with the published rounds: a player already seated
    where one of its places goes keeps that place (published pairings never change), even when a
    correction has since given them another; the other places follow ``order`` without them. So a
    corrected winners' bracket result whose winner already plays on sends the other player down.
    """
    fixed: dict[int, PlayerId] = {}
    for place, slot in enumerate(series.to, start=1):
        if slot is not None and slot.series in published:
            seated = published[slot.series][1].seats[slot.seat]
            if seated is not None and seated in series.players:
                fixed[place] = seated
    if not fixed:
        return list(order)
    rest = [p for p in order if p not in fixed.values()]
    settled: list[PlayerId | None] = []
    for place in range(1, max(len(order), *fixed) + 1):
        settled.append(fixed[place] if place in fixed else (rest.pop(0) if rest else None))
    return settled


def due_after(bracket: Sequence[BracketSeries], generated: Mapping[str, object]) -> bool:
    """Is a series of the bracket (other than a reset grand final) still unpublished?"""
    return any(node.key not in generated and not node.reset for node in bracket)


type Placings = Callable[[str], tuple[int | None, ...] | None]


def _reset_needed(
    generated: Mapping[str, tuple[int, PlannedSeries]], placings: Placings, node: BracketSeries
) -> bool:
    """The second grand final is played when the first was played and won by seat 1 (the losers'
    champion)."""
    first = node.sources[0]
    assert isinstance(first, FromSeries)
    _n, final = generated[first.series]
    decided = placings(first.series)
    if decided is None or final.walkover:
        return False
    order = finishing_order(final, decided)
    return len(order) == 2 and order[0] == final.seats[1]


def _final_key(
    bracket: Sequence[BracketSeries], generated: Mapping[str, tuple[int, PlannedSeries]]
) -> str | None:
    """The published series whose winner is the champion: the second grand final when it was
    played, else the grand final, the final or the final table (None before it is published)."""
    resets = [node.key for node in bracket if node.reset]
    if resets and resets[0] in generated:
        return resets[0]
    last = max(node.round for node in bracket if not node.reset)
    final = min((node for node in bracket if node.round == last), key=lambda node: node.table)
    return final.key if final.key in generated else None
