"""Free-for-all heats (Snap, 3-6 seats): rounds of tables, the top k of each table go on, until one
final table is left; an optional repechage gives the first round's other players a second chance.

Pure and deterministic. Unlike single elimination by tables (a fixed bracket), heats are re-seated
from the results each round (decisions also in docs/formats.md):
- Round 1: everyone at ceil(n / table_size) tables by snake seeding. A table of s players sends on
  its top min(k, s − 1) (at least one player of every table goes out).
- The players going on are ordered by the place they finished, then by seed, and dealt by snake
  seeding to the next round's tables; when at most ``table_size`` are left they sit at the final
  table, whose winner is the champion.
- ``repechage``: after the first round (unless it was the final), everyone who played it and did
  not go on (forfeits and withdrawn players excepted) plays a repechage round at tables, and the
  top min(k, s − 1) of each repechage table join the qualifiers (after them, ordered the same way).
  With fewer than 2 such players there is no repechage.
- A table whose players are no more than the number going on is a walkover.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import FormatKey, Phase, PlannedRound, PlannedSeries, StageState
from tournaments.competitions.formats.bracket import BracketFormat, BracketProgress
from tournaments.competitions.formats.options import (
    SEEDING,
    OptionSpec,
    Whole,
    YesNo,
    checked_options,
    refuse_game,
    require_advance_below,
    require_entrants,
)
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.formats.seeding import snake
from tournaments.competitions.formats.state import (
    checked_results,
    effective_placings,
    finishing_order,
    stage_entrants,
    undecided,
)
from tournaments.competitions.standings.chain import Tiebreak


class Heats(BracketFormat):
    """Free-for-all heats (Snap only). Options: ``table_size`` (3-6), ``advance`` (the top k of a
    table, below the table size), ``repechage`` (default false), ``seeding``."""

    key = FormatKey.HEATS
    SPECS: dict[str, OptionSpec] = {
        "table_size": Whole(4, 3, 6),
        "advance": Whole(2, 1, 5),
        "repechage": YesNo(False),
        "seeding": SEEDING,
    }

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        if game is not GameKind.SNAP:
            raise refuse_game(self.key, game)
        checked = checked_options(options, self.SPECS)
        require_advance_below(int(str(checked["advance"])), int(str(checked["table_size"])))
        require_entrants(entrants, 2)
        return checked

    def progress(self, state: StageState) -> BracketProgress:
        """Where the heats stand (rounds due, series awaited, champion)."""
        options = self.check_options(state.options, game=state.game)
        players = stage_entrants(state, options)
        options = self.check_options(state.options, game=state.game, entrants=len(players))
        size, advance = int(str(options["table_size"])), int(str(options["advance"]))
        results = checked_results(state, draws=False)
        seed_index = {p: i for i, p in enumerate(players)}
        number = len(state.rounds) + 1
        if not state.rounds:
            opening = self._round(
                state, players, number=number, heat=1, size=size, advance=advance, phase=Phase.HEAT
            )
            return BracketProgress((opening,), (), False, None)
        last = state.rounds[-1]
        waiting = undecided(state, results, last)
        if waiting:
            return BracketProgress((), tuple(waiting), False, None)
        phase = last.series[0].phase if last.series else Phase.FINAL
        if phase is Phase.FINAL:
            final = last.series[0] if last.series else None
            placings = None if final is None else effective_placings(state, results, last.number, final)
            order = [] if final is None or placings is None else finishing_order(final, placings)
            return BracketProgress((), (), True, order[0] if order else None)

        def qualifiers(rnd: PlannedRound) -> tuple[list[PlayerId], list[PlayerId]]:
            """Who goes on from ``rnd`` (by place, then seed) and who played and did not."""
            ranked: list[tuple[int, int, PlayerId]] = []
            out: list[tuple[int, int, PlayerId]] = []
            for series in rnd.series:
                placings = effective_placings(state, results, rnd.number, series)
                assert placings is not None  # the round is decided
                for place, player in enumerate(finishing_order(series, placings), start=1):
                    entry = (place, seed_index[player], player)
                    (ranked if place <= series.advance else out).append(entry)
            return [p for *_k, p in sorted(ranked)], [p for *_k, p in sorted(out)]

        def sorted_by_place(group: list[PlayerId]) -> list[PlayerId]:
            """``group`` (players of the first round) by their place there, then seed."""
            place = {}
            for series in heat_rounds[0].series:
                placings = effective_placings(state, results, heat_rounds[0].number, series)
                assert placings is not None
                place.update({p: i for i, p in enumerate(finishing_order(series, placings), start=1)})
            return sorted(group, key=lambda p: (place[p], seed_index[p]))

        heat_rounds = [rnd for rnd in state.rounds if rnd.series and rnd.series[0].phase is Phase.HEAT]
        heat_number = len(heat_rounds)
        going_on, out = qualifiers(last)
        if phase is Phase.HEAT and heat_number == 1 and options["repechage"]:
            second_chance = [p for p in out if not state.withdrawn(p, number)]
            if len(second_chance) >= 2:
                rnd = self._round(
                    state,
                    second_chance,
                    number=number,
                    heat=1,
                    size=size,
                    advance=advance,
                    phase=Phase.REPECHAGE,
                )
                return BracketProgress((rnd,), (), False, None)
        if phase is Phase.REPECHAGE:
            # The first round's qualifiers are its players who did not go to the (published)
            # repechage and did not forfeit: a correction of the first round since cannot move
            # anyone into or out of the repechage.
            first, out = qualifiers(heat_rounds[-1])
            in_repechage = {p for series in last.series for p in series.players}
            going_on = [p for p in sorted_by_place(first + out) if p not in in_repechage] + going_on
        rnd = self._round(
            state, going_on, number=number, heat=heat_number + 1, size=size, advance=advance, phase=Phase.HEAT
        )
        return BracketProgress((rnd,), (), False, None)

    def _round(
        self,
        state: StageState,
        ordered: Sequence[PlayerId],
        *,
        number: int,
        heat: int,
        size: int,
        advance: int,
        phase: Phase,
    ) -> PlannedRound:
        seated = [p for p in ordered if not state.withdrawn(p, number)]
        if phase is Phase.HEAT and len(seated) <= size:
            final = PlannedSeries(
                key="F", table=1, seats=tuple(seated), phase=Phase.FINAL, phase_round=heat, advance=1
            )
            return PlannedRound(number, (final,))
        count = max(1, math.ceil(len(seated) / size))
        prefix = "RP" if phase is Phase.REPECHAGE else f"H{heat}"
        series = tuple(
            PlannedSeries(
                key=f"{prefix}-{t}",
                table=t,
                seats=tuple(table),
                phase=phase,
                phase_round=heat,
                advance=min(advance, max(len(table) - 1, 1)),
            )
            for t, table in enumerate(snake(seated, count), start=1)
        )
        return PlannedRound(number, series)

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        return (
            Tiebreak.DEPTH,
            Tiebreak.PLACEMENT_POINTS,
            Tiebreak.FIRSTS,
            Tiebreak.AVERAGE_PLACING,
            Tiebreak.COIN_FLIP,
        )
