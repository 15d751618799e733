"""Groups → playoff (two seats): snake-seeded groups play a round robin or a Swiss, then the top k
of each group play a single or double elimination seeded from the group standings with the usual
cross-over (A1 v B2, B1 v A2 …): a group's qualifiers as far apart as the bracket allows.

Pure and deterministic. Decisions (also in docs/formats.md):
- ``group_size`` is the largest group: n entrants make g = ceil(n / group_size) groups by snake
  seeding, and every group must have ``group_size`` or ``group_size − 1`` players (5 players in
  groups of 4 would make groups of 3 and 2: refused, "groups_uneven"). Groups are labelled A, B, …
- ``group_format``: ``round_robin`` (every group round published at once; the groups' rounds run
  side by side, so stage round r holds every group's round r) or ``swiss`` (``group_rounds``,
  default ceil(log2 of the smallest group), paired group by group, round by round).
- A group's ranking is the standings handed in for it (``StageState.standings[label]``, computed
  by the caller with the stage's tiebreak list); without them, the format ranks the group itself
  by series won, head-to-head, Buchholz, Sonneborn-Berger and the coin flip (results only).
  Players withdrawn by the playoff's first round do not qualify: the next in the group does.
- Qualifiers are seeded tier by tier (all group winners, then all runners-up, …), so the byes go
  to the best-placed qualifiers; the winners in group order. Each later tier's seed numbers are
  shared out among its groups by an assignment (the Hungarian method) that makes the fewest early
  meetings with the group's qualifiers already placed, an earlier round weighing more than all the
  later ones together; among equal ones, the classic order (even tiers in the reverse order of each
  group's partner, A↔B, C↔D …), so 2 or 4 groups give A1 v B2, B1 v A2 (C1 v D2, D1 v C2).
  The result, checked for every shape the options allow up to 160 players: with two groups or more,
  for every q, the best q of a group have at most ceil(q / 2**m) players in any 1/2**m of the
  bracket (the best 2 in opposite halves, the best 4 in different quarters …), and round 1 never
  pairs a group with itself. One group: a standard bracket of its ranking.
- :meth:`GroupsPlayoff.group_tables`: each group's own table (the ranking above, with its values)
  and who goes to the playoff from it, by the same code the playoff is seeded with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatError,
    FormatErrorCode,
    FormatKey,
    Phase,
    PlannedRound,
    PlannedSeries,
    StageState,
)
from tournaments.competitions.formats.bracket import (
    BracketFormat,
    BracketProgress,
    bracket_rounds,
    double_elimination,
    single_elimination,
)
from tournaments.competitions.formats.options import (
    BYE,
    SEEDING,
    Choice,
    OptionSpec,
    Whole,
    YesNo,
    checked_options,
    require_entrants,
)
from tournaments.competitions.formats.round_by_round import default_swiss_rounds
from tournaments.competitions.formats.round_robin import PlayerId, round_robin_schedule
from tournaments.competitions.formats.seeding import (
    bracket_order,
    cheapest_assignment,
    meeting_round,
    sizes_within_one,
    snake,
)
from tournaments.competitions.formats.state import (
    checked_results,
    effective_placings,
    stage_entrants,
    undecided,
)
from tournaments.competitions.formats.swiss import BYE_POINTS, most_rounds, swiss_round
from tournaments.competitions.series.values import BEST_OF_3
from tournaments.competitions.standings.chain import ByeScore, SeriesRecord, Standings, Tiebreak
from tournaments.competitions.standings.stage import stage_standings

GROUP_TIEBREAKS = (
    Tiebreak.SERIES_WON,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.COIN_FLIP,
)


def group_label(index: int) -> str:
    """A, B, … Z, AA, AB, … (spreadsheet columns)."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def playoff_seeds(rankings: Sequence[Sequence[PlayerId]], advance: int) -> list[PlayerId]:
    """The playoff's seeding order from each group's qualifiers (best first): tier by tier (all the
    group winners, then all the runners-up, …), so the byes go to the best-placed qualifiers; the
    winners in group order, and each later tier's seeds shared out among the groups so that a
    group's qualifiers sit as far apart in the standard bracket as they can (module docstring)."""
    tiers = [[g for g, ranking in enumerate(rankings) if tier < len(ranking)] for tier in range(advance)]
    total = sum(len(groups) for groups in tiers)
    if total < 2:
        return [ranking[0] for ranking in rankings if ranking][:total]
    size = 2 ** math.ceil(math.log2(total))
    rounds = size.bit_length() - 1
    position = {seed: index for index, seed in enumerate(bracket_order(size))}
    weight = total + 1  # one meeting a round earlier outweighs every later one together
    count = len(rankings)
    placed: dict[int, list[int]] = {g: [] for g in range(count)}
    seeds: list[PlayerId] = []
    for tier, groups in enumerate(tiers):
        numbers = range(len(seeds) + 1, len(seeds) + len(groups) + 1)
        # Among equally spread seedings, the classic order: odd tiers in group order, even tiers in
        # the reverse order of each group's partner (A↔B, C↔D …), giving A1 v B2, B1 v A2.
        classic = [g for g in _classic_order(count, tier) if g in groups]
        stretch = len(groups) ** 2 + 1  # more than the whole tier's distance from the classic order
        costs = [
            [
                stretch
                * sum(weight ** (rounds - meeting_round(position[number], mate)) for mate in placed[g])
                + abs(classic.index(g) - column)
                for column, number in enumerate(numbers)
            ]
            for g in groups
        ]
        given = cheapest_assignment(costs)
        tier_seeds: list[PlayerId | None] = [None] * len(groups)
        for row, g in enumerate(groups):
            tier_seeds[given[row]] = rankings[g][tier]
            placed[g].append(position[numbers[given[row]]])
        seeds += [p for p in tier_seeds if p is not None]
    return seeds


@dataclass(frozen=True, slots=True)
class GroupTable:
    """One group's table: its standings by :data:`GROUP_TIEBREAKS` from the group's own series (rows
    in the order that ranks the group), the ``advance`` per group, the ``qualifiers`` (best first:
    who goes to the playoff, or would if the group ended now), the players ``withdrawn`` by the
    playoff's first round (they do not qualify: the next one does), and whether the group is
    ``complete`` (every group round published and decided: the qualifiers are final)."""

    label: str
    standings: Standings
    advance: int
    qualifiers: tuple[PlayerId, ...]
    withdrawn: frozenset[PlayerId]
    complete: bool


def qualifiers_of(
    state: StageState, ranking: Sequence[PlayerId], advance: int, group_rounds: int
) -> list[PlayerId]:
    """A group's qualifiers from its ranking: the first ``advance`` not withdrawn by the playoff."""
    return [p for p in ranking if not state.withdrawn(p, group_rounds + 1)][:advance]


def _classic_order(count: int, tier: int) -> list[int]:
    """The groups' order in ``tier`` (0-based) by the classic cross-over, before spreading."""
    if tier % 2 == 0:
        return list(range(count))
    return [i ^ 1 if (i ^ 1) < count else i for i in range(count)][::-1]


class GroupsPlayoff(BracketFormat):
    """Groups then playoff. Options: ``group_size``, ``group_format`` (round_robin, swiss),
    ``group_rounds`` (Swiss groups), ``advance`` (per group), ``playoff`` (single_elimination,
    double_elimination), ``third_place``, ``grand_final_reset``, ``bye``, ``seeding``."""

    key = FormatKey.GROUPS_PLAYOFF
    finish_first = True  # the playoff's bracket first; the groups' players after, by the chain
    SPECS: dict[str, OptionSpec] = {
        "group_size": Whole(4, 3, 16),
        "group_format": Choice("round_robin", ("round_robin", "swiss")),
        "group_rounds": Whole(None, 1, 15, optional=True),
        "advance": Whole(2, 1, 15),
        "playoff": Choice("single_elimination", ("single_elimination", "double_elimination")),
        "third_place": YesNo(False),
        "grand_final_reset": YesNo(True),
        "bye": BYE,
        "seeding": SEEDING,
    }

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        checked = checked_options(options, self.SPECS)
        require_entrants(entrants, 3)
        if entrants is None:
            return checked
        size, advance = int(str(checked["group_size"])), int(str(checked["advance"]))
        sizes = sizes_within_one(entrants, math.ceil(entrants / size))
        if min(sizes) < size - 1:
            raise FormatError(
                FormatErrorCode.GROUPS_UNEVEN,
                f"{entrants} players do not make groups of {size} (or {size - 1}).",
                {"field": "group_size", "entrants": entrants, "group_size": size},
            )
        if advance >= min(sizes):
            raise FormatError(
                FormatErrorCode.ADVANCE_NOT_BELOW_GROUP_SIZE,
                "At least one player of each group must go out.",
                {"field": "advance", "advance": advance, "smallest_group": min(sizes)},
            )
        if len(sizes) * advance < 2:
            raise FormatError(
                FormatErrorCode.NOT_ENOUGH_ENTRANTS,
                "The playoff needs at least 2 players.",
                {"field": "advance", "entrants": len(sizes) * advance, "minimum": 2},
            )
        rounds = checked["group_rounds"]
        if (
            checked["group_format"] == "swiss"
            and isinstance(rounds, int)
            and rounds > most_rounds(min(sizes))
        ):
            raise FormatError(
                FormatErrorCode.TOO_MANY_ROUNDS,
                "More rounds than the smallest group can play without a rematch.",
                {
                    "field": "group_rounds",
                    "rounds": rounds,
                    "entrants": min(sizes),
                    "most": most_rounds(min(sizes)),
                },
            )
        return checked

    def groups(self, state: StageState) -> tuple[dict[str, object], dict[str, list[PlayerId]]]:
        """The checked options and the groups (label -> players in seeding order)."""
        options = self.check_options(state.options, game=state.game)
        players = stage_entrants(state, options)
        options = self.check_options(state.options, game=state.game, entrants=len(players))
        count = math.ceil(len(players) / int(str(options["group_size"])))
        return options, {group_label(i): members for i, members in enumerate(snake(players, count))}

    def progress(self, state: StageState) -> BracketProgress:
        """Where the stage stands: group rounds, then the playoff bracket."""
        options, groups = self.groups(state)
        results = checked_results(state, draws=True)
        bye_points = BYE_POINTS[str(options["bye"])]
        swiss = options["group_format"] == "swiss"
        group_rounds = self._group_rounds(options, groups)
        published = len(state.rounds)
        if published and (waiting := undecided(state, results, state.rounds[-1])):
            return BracketProgress((), tuple(waiting), False, None)
        if published < group_rounds:
            if swiss:
                due: tuple[PlannedRound, ...] = (
                    self._swiss_round(
                        state, groups, results, published + 1, bye_points, last=published + 1 == group_rounds
                    ),
                )
            else:
                due = () if published else self._round_robin(groups, group_rounds)
            return BracketProgress(due, (), False, None)
        rankings = [
            self._ranking(state, label, members, results=results, group_rounds=group_rounds, options=options)
            for label, members in groups.items()
        ]
        advance = int(str(options["advance"]))
        qualifiers = [qualifiers_of(state, ranking, advance, group_rounds) for ranking in rankings]
        seeds = playoff_seeds(qualifiers, advance)
        if len(seeds) < 2:
            return BracketProgress((), (), True, seeds[0] if seeds else None)
        if options["playoff"] == "double_elimination":
            bracket = double_elimination(len(seeds), prefix="P-", reset=bool(options["grand_final_reset"]))
        else:
            bracket = single_elimination(len(seeds), prefix="P-", third_place=bool(options["third_place"]))
        return bracket_rounds(state, bracket, seeds, results, offset=group_rounds)

    @staticmethod
    def _group_rounds(options: Mapping[str, object], groups: Mapping[str, list[PlayerId]]) -> int:
        """How many stage rounds the groups play (the playoff starts after them)."""
        if options["group_format"] == "swiss":
            rounds = options["group_rounds"]
            smallest = min(len(members) for members in groups.values())
            return rounds if isinstance(rounds, int) else default_swiss_rounds(smallest)
        return max(
            len(round_robin_schedule(members)) if len(members) >= 2 else 0 for members in groups.values()
        )

    def group_tables(self, state: StageState) -> tuple[GroupTable, ...]:
        """Each group's own table and its qualifiers, in group order (A, B, …), from the results so
        far: the ranking and the qualifiers are those :meth:`progress` seeds the playoff with.
        Raises FormatError as :meth:`progress` does."""
        options, groups = self.groups(state)
        results = checked_results(state, draws=True)
        group_rounds = self._group_rounds(options, groups)
        advance = int(str(options["advance"]))
        complete = len(state.rounds) >= group_rounds and not any(
            undecided(state, results, rnd) for rnd in state.rounds[:group_rounds]
        )
        tables = []
        for label, members in groups.items():
            standings = self._group_standings(
                state, label, members, results=results, group_rounds=group_rounds, options=options
            )
            ranking = self._ranking(
                state, label, members, results=results, group_rounds=group_rounds, options=options
            )
            if [row.player for row in standings.rows] != ranking:  # standings handed in: their order
                place = {str(p): i for i, p in enumerate(ranking)}
                rows = tuple(sorted(standings.rows, key=lambda row: place[str(row.player)]))
                standings = Standings(standings.chain, rows, (None,) * max(len(rows) - 1, 0))
            tables.append(
                GroupTable(
                    label=label,
                    standings=standings,
                    advance=advance,
                    qualifiers=tuple(qualifiers_of(state, ranking, advance, group_rounds)),
                    withdrawn=frozenset(p for p in members if state.withdrawn(p, group_rounds + 1)),
                    complete=complete,
                )
            )
        return tuple(tables)

    def _round_robin(
        self, groups: Mapping[str, list[PlayerId]], group_rounds: int
    ) -> tuple[PlannedRound, ...]:
        schedules = {label: round_robin_schedule(m) if len(m) >= 2 else () for label, m in groups.items()}
        rounds = []
        for number in range(1, group_rounds + 1):
            series: list[PlannedSeries] = []
            byes: list[PlayerId] = []
            for label, schedule in schedules.items():
                if number > len(schedule):
                    continue
                rnd = schedule[number - 1]
                byes += [] if rnd.bye is None else [rnd.bye]
                for pairing in rnd.pairings:
                    table = len(series) + 1
                    series.append(
                        PlannedSeries(
                            key=f"{label}-R{number}-{table}",
                            table=table,
                            seats=pairing.seats,
                            phase=Phase.GROUP,
                            phase_round=number,
                            group=label,
                        )
                    )
            rounds.append(PlannedRound(number, tuple(series), tuple(byes)))
        return tuple(rounds)

    def _swiss_round(
        self,
        state: StageState,
        groups: Mapping[str, list[PlayerId]],
        results: Mapping[str, tuple[int | None, ...]],
        number: int,
        bye_points: int,
        *,
        last: bool,
    ) -> PlannedRound:
        series: list[PlannedSeries] = []
        byes: list[PlayerId] = []
        for label, members in groups.items():
            if sum(not state.withdrawn(p, number) for p in members) < 2:
                continue
            planned, bye = swiss_round(
                state,
                members,
                results,
                round_number=number,
                history_rounds=state.rounds,
                bye_points=bye_points,
                key_prefix=f"{label}-",
                first_table=len(series) + 1,
                group=label,
                last_round=last,
            )
            series += planned
            byes += [] if bye is None else [bye]
        return PlannedRound(number, tuple(series), tuple(byes))

    def _ranking(
        self,
        state: StageState,
        label: str,
        members: list[PlayerId],
        *,
        results: Mapping[str, tuple[int | None, ...]],
        group_rounds: int,
        options: Mapping[str, object],
    ) -> list[PlayerId]:
        handed_in = state.standings.get(label)
        if handed_in is not None:
            if sorted(map(str, handed_in)) != sorted(map(str, members)) or len(handed_in) != len(members):
                raise FormatError(
                    FormatErrorCode.STANDINGS_NOT_THE_GROUP,
                    f"The standings handed in for group {label} are not its players.",
                    {"group": label, "players": [str(p) for p in handed_in]},
                )
            return list(handed_in)
        standings = self._group_standings(
            state, label, members, results=results, group_rounds=group_rounds, options=options
        )
        return [row.player for row in standings.rows]

    def _group_standings(
        self,
        state: StageState,
        label: str,
        members: list[PlayerId],
        *,
        results: Mapping[str, tuple[int | None, ...]],
        group_rounds: int,
        options: Mapping[str, object],
    ) -> Standings:
        """The group's standings by :data:`GROUP_TIEBREAKS` from its own decided series and byes."""
        records: list[SeriesRecord] = []
        byes: list[PlayerId] = []
        for rnd in state.rounds[:group_rounds]:
            byes += [p for p in rnd.byes if p in members]
            for series in rnd.series:
                if series.group != label:
                    continue
                placings = effective_placings(state, results, rnd.number, series)
                seats = tuple(p for p in series.seats if p is not None)
                if placings is not None and len(seats) == len(series.seats):
                    records.append(SeriesRecord(seats, BEST_OF_3, (), result=placings, round=rnd.number))
        return stage_standings(
            members,
            records,
            game=state.game,
            stage_seed=state.seed,
            chain=GROUP_TIEBREAKS,
            byes=byes,
            bye_score=ByeScore(str(options["bye"])),
        )

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        by_game = Tiebreak.PLACING_SUM if game is GameKind.SNAP else Tiebreak.GAME_POINT_DIFFERENCE
        return (
            Tiebreak.FINISH,
            Tiebreak.DEPTH,
            Tiebreak.SERIES_WON,
            Tiebreak.BUCHHOLZ,
            Tiebreak.GAMES_WON,
            by_game,
            Tiebreak.COIN_FLIP,
        )
