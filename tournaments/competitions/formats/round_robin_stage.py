"""Round robin behind the format interface: the schedule of ``round_robin.py`` as stage rounds.

(The schedule functions stay in ``round_robin.py``, which the standings import for ``PlayerId``; the
format object lives here so that ``round_robin.py`` need not import the interface.)

- Snap: everyone sits at ``table_size`` tables (snake seeding), one round, one series per table.
- Snapszer: the circle method, single or ``double``, a rotating bye when the number is odd.
- Every round is published at once, by the first generate. A player withdrawn later keeps their
  seat in the published schedule; their series without a result are walkovers for the opponent
  (tables: the table plays on without them and records them as forfeits).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatKey,
    GroupStandings,
    Phase,
    PlannedRound,
    PlannedSeries,
    StageState,
)
from tournaments.competitions.formats.options import (
    BYE,
    SEEDING,
    OptionSpec,
    Whole,
    YesNo,
    checked_options,
    require_entrants,
)
from tournaments.competitions.formats.round_robin import PlayerId, round_robin_schedule, snap_tables
from tournaments.competitions.formats.state import (
    checked_results,
    generate_request,
    stage_entrants,
    undecided,
)
from tournaments.competitions.standings.chain import (
    TABLE_TIEBREAKS,
    TWO_SEAT_TIEBREAKS,
    ByeScore,
    SeriesRecord,
    Tiebreak,
    default_chain,
)
from tournaments.competitions.standings.stage import round_robin_standings
from tournaments.competitions.standings.tables import table_standings

OPTIONS: dict[GameKind, dict[str, OptionSpec]] = {
    GameKind.SNAP: {"table_size": Whole(4, 2, 6), "seeding": SEEDING},
    GameKind.SNAPSZER: {"double": YesNo(False), "bye": BYE, "seeding": SEEDING},
}


class RoundRobin:
    """Round robin. Snap options: ``table_size``, ``seeding``; Snapszer: ``double``, ``bye``,
    ``seeding``."""

    key = FormatKey.ROUND_ROBIN

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        checked = checked_options(options, OPTIONS[game])
        require_entrants(entrants, 2)
        return checked

    def rounds(self, state: StageState) -> tuple[PlannedRound, ...]:
        """Every round of the stage. Raises PairingError (too few entrants, a table of one)."""
        options = self.check_options(state.options, game=state.game)
        players = stage_entrants(state, options)
        if state.game is GameKind.SNAP:
            tables = snap_tables(players, table_size=int(str(options["table_size"])))
            series = tuple(
                PlannedSeries(key=f"R1-{t.number}", table=t.number, seats=t.seats, phase=Phase.ROUND_ROBIN)
                for t in tables
            )
            return (PlannedRound(1, series),)
        return tuple(
            PlannedRound(
                number=rnd.number,
                series=tuple(
                    PlannedSeries(
                        key=f"R{rnd.number}-{table}",
                        table=table,
                        seats=pairing.seats,
                        phase=Phase.ROUND_ROBIN,
                        phase_round=rnd.number,
                    )
                    for table, pairing in enumerate(rnd.pairings, start=1)
                ),
                byes=() if rnd.bye is None else (rnd.bye,),
            )
            for rnd in round_robin_schedule(players, double=bool(options["double"]))
        )

    def next_rounds(self, state: StageState, *, round_number: int | None = None) -> tuple[PlannedRound, ...]:
        due = () if state.rounds else self.rounds(state)
        return generate_request(state, due, [], round_number)

    def finished(self, state: StageState) -> bool:
        if not state.rounds:
            return False
        results = checked_results(state, draws=False)
        return not any(undecided(state, results, rnd) for rnd in state.rounds)

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        return default_chain(game, tables=game is GameKind.SNAP)

    def option_specs(self, game: GameKind) -> Mapping[str, OptionSpec]:
        return OPTIONS[game]

    def tiebreak_choices(self, game: GameKind, options: Mapping[str, object]) -> frozenset[Tiebreak]:
        return TABLE_TIEBREAKS if game is GameKind.SNAP else TWO_SEAT_TIEBREAKS

    def standings(
        self,
        entrants: Sequence[PlayerId],
        records: Sequence[tuple[int, SeriesRecord]],
        *,
        game: GameKind,
        options: Mapping[str, object],
        stage_seed: str,
        chain: Sequence[Tiebreak | str],
        byes: Sequence[PlayerId] = (),
    ) -> GroupStandings:
        """Snap: each table ranks its own players (its series is the whole league); Snapszer: one
        round robin table."""
        if game is GameKind.SNAP:
            return [
                (table, table_standings(record, stage_seed=stage_seed, chain=chain or None))
                for table, record in records
            ]
        return [
            (
                0,
                round_robin_standings(
                    entrants,
                    [record for _table, record in records],
                    game=game,
                    stage_seed=stage_seed,
                    chain=chain or None,
                    byes=byes,
                    bye_score=ByeScore(str(options.get("bye", ByeScore.WIN.value))),
                ),
            )
        ]
