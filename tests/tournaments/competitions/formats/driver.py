"""Plays a stage of any format from random results, the way the Django side will drive it, and
writes down everything as plain data (lists, dicts, ints, strings) for the independent checker.

Each call to ``next_rounds`` is recorded with what was known when it was made (the results and
withdrawals so far, the standings handed in), because a later correction changes the results but
never the rounds already published. Randomness comes from ``random.Random(config.seed)`` only, so a
config plays the same tournament in any process (``python -m tests.tournaments.competitions.formats.driver`` reads
configs as JSON on stdin and prints each one's rounds as JSON, for the determinism check).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import FormatError, PlannedSeries, SeriesResult, StageState
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.formats.round_robin import PairingError, PlayerId
from tournaments.competitions.formats.stored import rounds_to_json

DRAWS = {"swiss", "swiss_tables", "groups_playoff"}  # formats whose (group) series may be drawn


@dataclass(frozen=True)
class Config:
    """One tournament to play: its format and options, how many entrants, and how often results
    are draws, no-shows, double forfeits, withdrawals and corrections."""

    format: str
    game: str
    entrants: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    draw: float = 0.0
    no_show: float = 0.0
    double_forfeit: float = 0.0
    withdraw: float = 0.0
    correct: float = 0.0
    names: bool = False  # players as strings rather than ints


def play(config: Config, *, limit: int = 400) -> dict[str, Any]:
    """Play ``config`` to the end (or to a refusal) and return the record the checker reads."""
    rng = random.Random(config.seed)
    fmt = FORMATS[config.format]  # type: ignore[index]
    players: list[PlayerId] = [f"p{i}" if config.names else i for i in range(1, config.entrants + 1)]
    state = StageState(
        entrants=tuple(players),
        seed=f"stage-{config.seed}",
        game=GameKind(config.game),
        options=config.options,
    )
    record: dict[str, Any] = {
        "format": config.format,
        "game": config.game,
        "options": dict(config.options),
        "entrants": list(players),
        "seed": state.seed,
        "rounds": [],
        "error": None,
        "finished": False,
        "champion": None,
        "double_forfeits": False,
        "no_shows": False,
        "corrections": 0,
    }
    if rng.random() < config.withdraw:  # withdrawn before the stage starts
        state = replace(state, withdrawals={rng.choice(players): 1})
    for _ in range(limit):
        try:
            due = fmt.next_rounds(state)
        except (FormatError, PairingError) as error:
            record["error"] = {"code": str(error.code), "extra": error.extra}
            break
        if not due:
            record["finished"] = fmt.finished(state)
            break
        known = {
            "results": {k: list(v.placings) for k, v in state.results.items()},
            "withdrawals": [[p, r] for p, r in state.withdrawals.items()],
            "standings": {k: list(v) for k, v in state.standings.items()},
        }
        for rnd in due:
            (data,) = json.loads(rounds_to_json([rnd]))
            record["rounds"].append({**data, "known": known})
        state = replace(state, rounds=state.rounds + due)
        state = _withdraw(state, rng, config)
        state = _play_results(state, rng, config, record)
        state = _correct(state, rng, config, record)
        if config.format == "groups_playoff":
            state = replace(state, standings=_group_standings(state))
    champion = getattr(fmt, "champion", None)
    if champion is not None and record["finished"]:
        record["champion"] = champion(state)
    record["results"] = {k: list(v.placings) for k, v in state.results.items()}
    record["withdrawals"] = [[p, r] for p, r in state.withdrawals.items()]
    return record


def _active(state: StageState, round_number: int) -> list[PlayerId]:
    seated = {p for rnd in state.rounds for s in rnd.series for p in s.players} | {
        p for rnd in state.rounds for p in rnd.byes
    }
    return [p for p in state.entrants if p in seated and not state.withdrawn(p, round_number)]


def _withdraw(state: StageState, rng: random.Random, config: Config) -> StageState:
    """Sometimes a player withdraws: from the round just published (their series there become
    forfeits) or from the next one."""
    if rng.random() >= config.withdraw:
        return state
    current = len(state.rounds)
    candidates = _active(state, current)
    if not candidates:
        return state
    player = rng.choice(candidates)
    return replace(state, withdrawals={**state.withdrawals, player: current + rng.randrange(2)})


def _result(
    series: PlannedSeries, round_number: int, state: StageState, rng: random.Random, config: Config
) -> tuple[int | None, ...] | None:
    """A random result for ``series``, or None when it needs none (a walkover)."""
    if series.walkover:
        return None
    present = [
        i for i, p in enumerate(series.seats) if p is not None and not state.withdrawn(p, round_number)
    ]
    if len(present) < 2 or (series.advance and len(present) <= series.advance):
        return None
    placings: list[int | None] = [None] * len(series.seats)
    if rng.random() < config.double_forfeit:
        return tuple(placings)
    playing = [i for i in present if rng.random() >= config.no_show]
    rng.shuffle(playing)
    for place, seat in enumerate(playing, start=1):
        placings[seat] = place
    drawn = (
        config.format in DRAWS and series.advance == 0 and len(playing) >= 2 and rng.random() < config.draw
    )
    if drawn:
        placings[playing[1]] = 1  # the first two share first place (or, at a table, a place)
    return tuple(placings)


def _play_results(
    state: StageState, rng: random.Random, config: Config, record: dict[str, Any]
) -> StageState:
    results = dict(state.results)
    for rnd in state.rounds:
        for series in rnd.series:
            if series.key in results:
                continue
            placings = _result(series, rnd.number, state, rng, config)
            if placings is not None:
                results[series.key] = SeriesResult(placings)
                record["double_forfeits"] |= all(p is None for p in placings)
                record["no_shows"] |= any(
                    p is None and player is not None and not state.withdrawn(player, rnd.number)
                    for p, player in zip(placings, series.seats, strict=True)
                )
    return replace(state, results=results)


def _correct(state: StageState, rng: random.Random, config: Config, record: dict[str, Any]) -> StageState:
    """Sometimes an earlier result is corrected (a new random result of the same series)."""
    if rng.random() >= config.correct or len(state.rounds) < 2:
        return state
    earlier = [(rnd, s) for rnd in state.rounds[:-1] for s in rnd.series if s.key in state.results]
    if not earlier:
        return state
    rnd, series = rng.choice(earlier)
    placings = _result(series, rnd.number, state, rng, config)
    if placings is None:
        return state
    record["corrections"] += 1
    record["double_forfeits"] |= all(p is None for p in placings)
    return replace(state, results={**state.results, series.key: SeriesResult(placings)})


def _group_standings(state: StageState) -> dict[str, tuple[PlayerId, ...]]:
    """The standings the caller hands in for each group: series won (a draw half), then seed."""
    won: dict[PlayerId, float] = {}
    for rnd in state.rounds:
        for series in rnd.series:
            placings = state.results.get(series.key)
            if series.group is not None and placings is not None:
                firsts = [p for p, place in zip(series.seats, placings.placings, strict=True) if place == 1]
                for p in firsts:
                    won[p] = won.get(p, 0.0) + 1.0 / len(firsts)
    _options, groups = FORMATS["groups_playoff"].groups(state)  # type: ignore[index, attr-defined]
    seed = {p: i for i, p in enumerate(state.entrants)}
    return {
        label: tuple(sorted(members, key=lambda p: (-won.get(p, 0.0), seed[p])))
        for label, members in groups.items()
    }


def rounds_json(config: Config) -> str:
    """The rounds ``config`` publishes, as canonical JSON."""
    record = play(config)
    return json.dumps(
        [{k: v for k, v in rnd.items() if k != "known"} for rnd in record["rounds"]], sort_keys=True
    )


if __name__ == "__main__":
    configs = [Config(**c) for c in json.load(sys.stdin)]
    json.dump([rounds_json(c) for c in configs], sys.stdout)


__all__ = ["Config", "asdict", "play", "rounds_json"]
