"""Small stages built by hand, and a real call that reports each format and new standings code
(used by the format tests and by tests/tournaments/competitions/test_tournament_messages.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import (
    FormatErrorCode,
    FormatKey,
    Phase,
    PlannedRound,
    PlannedSeries,
    SeriesResult,
    StageState,
)
from tournaments.competitions.formats.registry import FORMATS, format_for
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.series.values import BEST_OF_3
from tournaments.competitions.standings.chain import SeriesRecord, StandingsErrorCode, Tiebreak
from tournaments.competitions.standings.stage import stage_standings

SNAP, SNAPSZER = GameKind.SNAP, GameKind.SNAPSZER


def state(
    key: FormatKey | str, entrants: Sequence[PlayerId], game: GameKind = SNAP, **options: Any
) -> StageState:
    """A stage of ``entrants`` (manual seeding unless ``seeding`` is given) before round 1."""
    options.setdefault("seeding", "manual")
    return StageState(entrants=tuple(entrants), seed=f"seed-{key}", game=game, options=options)


def publish(stage: StageState, key: FormatKey | str) -> StageState:
    """``stage`` with the rounds now due published."""
    return replace(stage, rounds=stage.rounds + FORMATS[FormatKey(key)].next_rounds(stage))


def decide(stage: StageState, outcomes: Mapping[str, Sequence[int | None]]) -> StageState:
    """``stage`` with these results added (series key -> placings by seat)."""
    return replace(
        stage, results={**stage.results, **{k: SeriesResult(tuple(v)) for k, v in outcomes.items()}}
    )


def play_out(
    stage: StageState, key: FormatKey | str, winner: Callable[[PlannedSeries], int] = lambda s: 0
) -> StageState:
    """Publish and decide round after round until nothing is due; ``winner`` picks the seat that
    finishes first in each series (the others follow in seat order)."""
    fmt = FORMATS[FormatKey(key)]
    for _ in range(200):
        due = fmt.next_rounds(stage)
        if not due:
            return stage
        stage = replace(stage, rounds=stage.rounds + due)
        outcomes: dict[str, list[int | None]] = {}
        for rnd in due:
            for series in rnd.series:
                if series.walkover:
                    continue
                first = winner(series)
                order = [first] + [s for s in range(len(series.seats)) if s != first and series.seats[s]]
                placings: list[int | None] = [None] * len(series.seats)
                for place, seat in enumerate(order, start=1):
                    placings[seat] = place
                outcomes[series.key] = placings
        stage = decide(stage, outcomes)
    raise AssertionError("the stage did not end")


def k33_swiss() -> StageState:
    """Six players who have met everyone across the halves {1, 2, 3} and {4, 5, 6}: what is left
    are two triangles, which no round can pair (FIDE's classic stuck Swiss)."""
    pairings = [((1, 4), (2, 5), (3, 6)), ((1, 5), (2, 6), (3, 4)), ((1, 6), (2, 4), (3, 5))]
    rounds = tuple(
        PlannedRound(
            number,
            tuple(
                PlannedSeries(
                    key=f"R{number}-{t}", table=t, seats=pair, phase=Phase.SWISS, phase_round=number
                )
                for t, pair in enumerate(pairs, start=1)
            ),
        )
        for number, pairs in enumerate(pairings, start=1)
    )
    results = {s.key: SeriesResult((1, 2)) for rnd in rounds for s in rnd.series}
    return replace(state(FormatKey.SWISS, range(1, 7), SNAPSZER, rounds=5), rounds=rounds, results=results)


def _raised(call: Callable[[], object]) -> list[TournamentInputError]:
    try:
        call()
    except TournamentInputError as exc:
        return [exc]
    return []


def _check(
    key: FormatKey, options: dict[str, Any], game: GameKind = SNAP, entrants: int | None = None
) -> object:
    return FORMATS[key].check_options(options, game=game, entrants=entrants)


def _next(stage: StageState, key: FormatKey | str, round_number: int | None = None) -> object:
    return FORMATS[FormatKey(key)].next_rounds(stage, round_number=round_number)


def _groups_done() -> StageState:
    stage = state(FormatKey.GROUPS_PLAYOFF, range(1, 7), group_size=3, advance=1)
    return play_out(stage, FormatKey.GROUPS_PLAYOFF)


def _wrong_group_standings() -> object:
    stage = state(FormatKey.GROUPS_PLAYOFF, range(1, 7), group_size=3, advance=1)
    stage = publish(stage, FormatKey.GROUPS_PLAYOFF)
    stage = decide(stage, {s.key: (1, 2) for rnd in stage.rounds for s in rnd.series})
    return _next(replace(stage, standings={"A": (1, 2, 3)}), FormatKey.GROUPS_PLAYOFF)


S, E, K = StandingsErrorCode, FormatErrorCode, FormatKey
_SE = state(K.SINGLE_ELIMINATION, [1, 2, 3, 4])
_SE_1 = publish(_SE, K.SINGLE_ELIMINATION)
_SWISS_1 = publish(state(K.SWISS, [1, 2, 3, 4], SNAPSZER), K.SWISS)
_TABLE = SeriesRecord(("a", "b", "c"), BEST_OF_3, (), result=(1, 3, 3))

EXAMPLES: list[tuple[TournamentErrorCode, Callable[[], list[TournamentInputError]]]] = [
    (E.UNKNOWN_FORMAT, lambda: _raised(lambda: format_for("knockout"))),
    (E.FORMAT_NOT_FOR_GAME, lambda: _raised(lambda: _check(K.HEATS, {}, SNAPSZER))),
    (E.UNKNOWN_OPTION, lambda: _raised(lambda: _check(K.SWISS, {"colour": "white"}))),
    (E.OPTION_NOT_A_NUMBER, lambda: _raised(lambda: _check(K.SWISS, {"rounds": 0}))),
    (
        E.OPTION_NOT_YES_OR_NO,
        lambda: _raised(lambda: _check(K.DOUBLE_ELIMINATION, {"grand_final_reset": "yes"})),
    ),
    (E.OPTION_NOT_A_CHOICE, lambda: _raised(lambda: _check(K.SWISS, {"bye": "half"}))),
    (E.NOT_ENOUGH_ENTRANTS, lambda: _raised(lambda: _check(K.SWISS, {}, entrants=1))),
    (E.TOO_MANY_ROUNDS, lambda: _raised(lambda: _check(K.SWISS, {"rounds": 4}, entrants=4))),
    (
        E.ADVANCE_NOT_BELOW_TABLE_SIZE,
        lambda: _raised(lambda: _check(K.HEATS, {"table_size": 4, "advance": 4})),
    ),
    (E.GROUPS_UNEVEN, lambda: _raised(lambda: _check(K.GROUPS_PLAYOFF, {"group_size": 4}, entrants=5))),
    (
        E.ADVANCE_NOT_BELOW_GROUP_SIZE,
        lambda: _raised(lambda: _check(K.GROUPS_PLAYOFF, {"group_size": 4, "advance": 4}, entrants=8)),
    ),
    (
        E.OPTION_NEEDS_TWO_SEATS,
        lambda: _raised(
            lambda: _check(K.SINGLE_ELIMINATION, {"table_size": 4, "advance": 2, "third_place": True})
        ),
    ),
    (
        E.TABLES_NOT_FOR_GAME,
        lambda: _raised(lambda: _check(K.SINGLE_ELIMINATION, {"table_size": 4}, SNAPSZER)),
    ),
    (
        E.NOT_AN_ENTRANT,
        lambda: _raised(lambda: _next(replace(_SE, withdrawals={9: 1}), K.SINGLE_ELIMINATION)),
    ),
    (E.UNKNOWN_SERIES, lambda: _raised(lambda: _next(decide(_SE_1, {"W9-9": (1, 2)}), K.SINGLE_ELIMINATION))),
    (
        E.INVALID_RESULT,
        lambda: _raised(lambda: _next(decide(_SE_1, {"W1-1": (1, 2, 3)}), K.SINGLE_ELIMINATION)),
    ),
    (E.TIED_AT_CUT, lambda: _raised(lambda: _next(decide(_SE_1, {"W1-1": (1, 1)}), K.SINGLE_ELIMINATION))),
    (E.STANDINGS_NOT_THE_GROUP, lambda: _raised(_wrong_group_standings)),
    (E.ROUND_ALREADY_GENERATED, lambda: _raised(lambda: _next(_SWISS_1, K.SWISS, 1))),
    (E.ROUND_NOT_DUE, lambda: _raised(lambda: _next(_SWISS_1, K.SWISS, 2))),
    (E.ROUND_NOT_NEXT, lambda: _raised(lambda: _next(state(K.SWISS, [1, 2, 3, 4], SNAPSZER), K.SWISS, 2))),
    (E.NO_MORE_ROUNDS, lambda: _raised(lambda: _next(_groups_done(), K.GROUPS_PLAYOFF, 9))),
    (E.NO_PAIRING_WITHOUT_REMATCH, lambda: _raised(lambda: _next(k33_swiss(), K.SWISS))),
    (
        S.SERIES_PLAYERS,
        lambda: _raised(
            lambda: stage_standings(["a", "b"], [_TABLE], game=SNAP, stage_seed="s", chain=[Tiebreak.FIRSTS])
        ),
    ),
    (
        S.INVALID_SERIES_RESULT,
        lambda: _raised(
            lambda: stage_standings(
                ["a", "b", "c"], [_TABLE], game=SNAP, stage_seed="s", chain=[Tiebreak.FIRSTS]
            )
        ),
    ),
]
