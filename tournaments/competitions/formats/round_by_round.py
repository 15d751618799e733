"""A stage paired one round at a time from the results so far (Swiss and Swiss tables). Pure."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatKey,
    PlannedRound,
    StageState,
    StageWideStandings,
)
from tournaments.competitions.formats.options import (
    OptionSpec,
    checked_options,
)
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.formats.state import (
    checked_results,
    generate_request,
    stage_entrants,
    undecided,
)


class RoundByRound(StageWideStandings):
    """A stage paired one round at a time from the results so far, for ``rounds`` rounds (default
    ceil(log2 n)): Swiss and Swiss tables. Subclasses give ``key``, ``SPECS``, ``check_options``
    and ``pair``."""

    key: FormatKey
    SPECS: dict[str, OptionSpec]

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        raise NotImplementedError

    def pair(
        self,
        state: StageState,
        players: Sequence[PlayerId],
        results: Mapping[str, tuple[int | None, ...]],
        number: int,
        options: Mapping[str, object],
    ) -> PlannedRound:
        """Round ``number`` among ``players`` (the stage's, in seeding order)."""
        raise NotImplementedError

    def progress(self, state: StageState, *, pair: bool) -> tuple[tuple[PlannedRound, ...], list[str], bool]:
        """(rounds due, series awaited, finished); the round is paired only when ``pair``. The
        stage ends after its rounds, or when fewer than 2 players are left."""
        options = checked_options(state.options, self.SPECS)
        players = stage_entrants(state, options)
        options = self.check_options(state.options, game=state.game, entrants=len(players))
        results = checked_results(state, draws=True)
        total = total_rounds(options, len(players))
        if state.rounds:
            waiting = undecided(state, results, state.rounds[-1])
            if waiting:
                return (), waiting, False
        number = len(state.rounds) + 1
        if number > total or sum(not state.withdrawn(p, number) for p in players) < 2:
            return (), [], True
        if not pair:
            return (), [], False
        return (self.pair(state, players, results, number, options),), [], False

    def next_rounds(self, state: StageState, *, round_number: int | None = None) -> tuple[PlannedRound, ...]:
        due, waiting, _done = self.progress(state, pair=True)
        return generate_request(state, due, waiting, round_number)

    def finished(self, state: StageState) -> bool:
        return self.progress(state, pair=False)[2]


def total_rounds(options: Mapping[str, object], entrants: int) -> int:
    """How many rounds the stage plays: its ``rounds`` option, or ceil(log2 n)."""
    rounds = options["rounds"]
    return rounds if isinstance(rounds, int) else default_swiss_rounds(entrants)


def default_swiss_rounds(entrants: int) -> int:
    """ceil(log2 n), at least 1."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))
