"""A club season's table: tournament placings -> season points -> an ordered table (docs/seasons.md).

Pure: plain values in, plain values out (no Django, no clock, no randomness;
tests/tournaments/test_purity.py checks the imports). Two steps:

1. :func:`final_placings` — one tournament's final placings from its stages' standings, as the
   stage standings store them (``StandingRow``: group, rank). The last stage with standings places
   its players; an earlier stage places, below them, those it had and the later ones did not (the
   players a playoff did not take), and so on back to the first stage. Within a stage a champion
   (the winner of a format played to one) is first; the others keep their standings rank, and
   players at the same rank in parallel groups (Snap tables of a round robin) share the placing
   (competition ranking: 1, 1, 3 …).
2. :func:`season_table` — points per placing on a scale (place p scores ``scale[p - 1]``, 0 beyond
   it; a shared placing scores that placing's points), the best ``best_of`` results counting (all
   when None), and the order:

   - **points** (more is better);
   - **count-back** over the counted results: more 1st places, then more 2nd places, … (the first
     place whose count differs separates: ``separated_by`` is ``places_<n>``);
   - **head-to-head** among everyone still tied: in each tournament two tied players both finished,
     +1 for finishing ahead of the other, −1 for behind; the sum over the tied group's other members.
     Applied once per tied group (as the stage standings do);
   - still equal: a shared rank (no coin flip: a season table can show two players level).

A result whose tournament is not finished (``provisional``) counts as it stands and is marked; a
row is provisional when one of its counted results is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, pairwise

type PlayerId = Hashable
type TournamentId = Hashable

DEFAULT_SCALE: tuple[int, ...] = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
SCALE_MAX_LENGTH = 64
SCALE_MAX_POINTS = 1000

POINTS = "points"
HEAD_TO_HEAD = "head_to_head"
PLACES_PREFIX = "places_"


# --- 1. A tournament's final placings ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageStandings:
    """One stage's stored standings: ``(player, group, rank)`` rows (rank within the group, shared
    when truly tied), and its champion when the stage was played to one and has finished."""

    rows: Sequence[tuple[PlayerId, int, int]]
    champion: PlayerId | None = None


def final_placings(stages: Sequence[StageStandings]) -> dict[PlayerId, int]:
    """Each player's final placing in a tournament whose stages (in order) have these standings.
    Stages without rows are skipped; a tournament without any gives ``{}``."""
    placings: dict[PlayerId, int] = {}
    above = 0  # players placed by later stages
    for stage in reversed(stages):
        keyed: list[tuple[tuple[int, int], PlayerId]] = []
        seen: set[PlayerId] = set()
        for player, _group, rank in stage.rows:
            if player in placings or player in seen:
                continue
            seen.add(player)
            keyed.append(((0, 0) if player == stage.champion else (1, rank), player))
        keyed.sort(key=lambda item: item[0])
        place = 0
        for index, (key, player) in enumerate(keyed):
            if index == 0 or key != keyed[index - 1][0]:
                place = above + index + 1  # competition ranking: 1, 1, 3
            placings[player] = place
        above += len(keyed)
    return placings


# --- 2. The season table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentPlacings:
    """One tournament of the season: its final placings, and whether they are provisional (the
    tournament has not finished, or its standings have not caught up with its results)."""

    tournament: TournamentId
    placings: Mapping[PlayerId, int]
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class SeasonResult:
    tournament: TournamentId
    place: int
    points: int
    counted: bool
    provisional: bool


@dataclass(frozen=True, slots=True)
class SeasonRow:
    player: PlayerId
    rank: int  # shared by players equal on every tiebreak
    position: int  # 1, 2, 3 … down the table
    points: int
    results: tuple[SeasonResult, ...]  # in the season's tournament order
    # How many counted results finished 1st, 2nd, … (index 0 = 1st), up to the season's worst place.
    countback: tuple[int, ...]
    head_to_head: int | None  # None: not tied with anyone after the count-back
    # The first tiebreak that puts this row below the one above: "points", "places_<n>",
    # "head_to_head"; "" for the first row and for a shared rank.
    separated_by: str
    provisional: bool

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def counted(self) -> int:
        return sum(1 for result in self.results if result.counted)

    @property
    def wins(self) -> int:
        return self.countback[0] if self.countback else 0


@dataclass(frozen=True, slots=True)
class SeasonTable:
    rows: tuple[SeasonRow, ...]
    scale: tuple[int, ...]
    best_of: int | None

    @property
    def provisional(self) -> bool:
        return any(row.provisional for row in self.rows)


def scale_problem(scale: Sequence[object]) -> str | None:
    """Why ``scale`` cannot be a points scale, as a code, or None when it can: ``empty``,
    ``too_long`` (more than :data:`SCALE_MAX_LENGTH` places), ``not_whole`` (a value that is not a
    whole number from 0 to :data:`SCALE_MAX_POINTS`), ``increasing`` (a place scoring more than the
    one above it), ``no_points`` (1st place scores nothing)."""
    if not scale:
        return "empty"
    if len(scale) > SCALE_MAX_LENGTH:
        return "too_long"
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= SCALE_MAX_POINTS for v in scale):
        return "not_whole"
    values = [int(v) for v in scale]  # type: ignore[call-overload]
    if any(lower > upper for upper, lower in pairwise(values)):
        return "increasing"
    if values[0] == 0:
        return "no_points"
    return None


def points_for(place: int, scale: Sequence[int]) -> int:
    return scale[place - 1] if 1 <= place <= len(scale) else 0


def season_table(
    tournaments: Sequence[TournamentPlacings],
    *,
    scale: Sequence[int] = DEFAULT_SCALE,
    best_of: int | None = None,
    name: Callable[[PlayerId], str] = str,
) -> SeasonTable:
    """The season's table from its tournaments' placings (in the season's order). ``name`` orders
    players who share a rank (alphabetically by default). Raises ValueError for a scale
    :func:`scale_problem` refuses or ``best_of`` < 1 (the services check both first)."""
    problem = scale_problem(scale)
    if problem is not None:
        raise ValueError(f"points scale {list(scale)!r}: {problem}")
    if best_of is not None and best_of < 1:
        raise ValueError(f"best_of {best_of} < 1")
    scale = tuple(scale)
    by_player: dict[PlayerId, list[tuple[int, TournamentPlacings]]] = {}
    for index, one in enumerate(tournaments):
        for player, _place in one.placings.items():
            by_player.setdefault(player, []).append((index, one))
    worst = max((p for one in tournaments for p in one.placings.values()), default=0)

    built: dict[PlayerId, tuple[int, tuple[int, ...], tuple[SeasonResult, ...]]] = {}
    for player, entries in by_player.items():
        scored = [(points_for(one.placings[player], scale), index, one) for index, one in entries]
        # The best results count; among equal points the earlier tournament is the one counted.
        best = sorted(scored, key=lambda item: (-item[0], item[1]))
        counted_indexes = {index for _pts, index, _one in (best if best_of is None else best[:best_of])}
        results = tuple(
            SeasonResult(
                tournament=one.tournament,
                place=one.placings[player],
                points=pts,
                counted=index in counted_indexes,
                provisional=one.provisional,
            )
            for pts, index, one in scored
        )
        countback = [0] * worst
        for result in results:
            if result.counted:
                countback[result.place - 1] += 1
        total = sum(result.points for result in results if result.counted)
        built[player] = (total, tuple(countback), results)

    def before_h2h(player: PlayerId) -> tuple[int, tuple[int, ...]]:
        total, countback, _results = built[player]
        return (-total, tuple(-c for c in countback))

    ordered = sorted(built, key=lambda p: (before_h2h(p), name(p)))
    h2h: dict[PlayerId, int | None] = dict.fromkeys(built)
    for _key, group in groupby(ordered, key=before_h2h):
        tied = list(group)
        if len(tied) > 1:
            h2h.update(_head_to_head(tied, tournaments))

    def full_key(player: PlayerId) -> tuple[tuple[int, tuple[int, ...]], int]:
        return (before_h2h(player), -(h2h[player] or 0))

    ordered = sorted(built, key=lambda p: (full_key(p), name(p)))
    rows: list[SeasonRow] = []
    for position, player in enumerate(ordered, start=1):
        total, countback, results = built[player]
        separated_by, rank = "", position
        if rows:
            above = ordered[position - 2]
            separated_by = _separated_by(built[above], built[player], h2h[above], h2h[player])
            if not separated_by:
                rank = rows[-1].rank
        rows.append(
            SeasonRow(
                player=player,
                rank=rank,
                position=position,
                points=total,
                results=results,
                countback=countback,
                head_to_head=h2h[player],
                separated_by=separated_by,
                provisional=any(r.provisional and r.counted for r in results),
            )
        )
    return SeasonTable(rows=tuple(rows), scale=scale, best_of=best_of)


def _head_to_head(tied: Sequence[PlayerId], tournaments: Iterable[TournamentPlacings]) -> dict[PlayerId, int]:
    score = dict.fromkeys(tied, 0)
    for one in tournaments:
        present = [p for p in tied if p in one.placings]
        for player in present:
            for other in present:
                if other != player:
                    mine, theirs = one.placings[player], one.placings[other]
                    score[player] += (mine < theirs) - (mine > theirs)
    return score


def _separated_by(
    above: tuple[int, tuple[int, ...], tuple[SeasonResult, ...]],
    below: tuple[int, tuple[int, ...], tuple[SeasonResult, ...]],
    h2h_above: int | None,
    h2h_below: int | None,
) -> str:
    if above[0] != below[0]:
        return POINTS
    for place, (a, b) in enumerate(zip(above[1], below[1], strict=True), start=1):
        if a != b:
            return f"{PLACES_PREFIX}{place}"
    if (h2h_above or 0) != (h2h_below or 0):
        return HEAD_TO_HEAD
    return ""
