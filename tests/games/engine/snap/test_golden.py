"""Golden replays: recorded games (rules, deal, inputs) with their full event lists.

The files in golden/ are checked in; a change in any event fails the test. ``scripted_2p`` was
worked out by hand (see ``HAND_CHECKED``) before it was recorded; ``shapes_single_pile_3p`` was
checked by hand after recording (dealer 2: card i goes to seat i mod 3; no two consecutive centre
cards match; seat 0 is out on flip 10 with its 4th card, seat 1 on flip 11; seat 2 takes the 11
centre cards; placings 3, 2, 1). To re-record after an intended
change: ``.venv/bin/python -m tests.games.engine.snap.test_golden`` and review the diff.

``double_slapjack_3p`` was recorded when a slap could name no pile. S31 makes that malformed, so
its input 5 (a bare slap the engine answered by taking seat 2's Jack) now names seat 2; every
event and the result are the recorded ones. Re-recording would play a different game from input
33 on (``legal_actions`` no longer lists a bare slap, so the random wrong call differs).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine.snap import (
    Call,
    CallKind,
    CapReached,
    Deal,
    Flip,
    PairClaim,
    SnapRules,
    Tie,
    action_from_dict,
    action_to_dict,
    replay,
)
from games.engine.snap.actions import Action
from games.engine.snap.playout import Temperament, random_game
from tests.games.engine.snap.helpers import CLASSIC, SHAPES, rules, stacked

GOLDEN = Path(__file__).parent / "golden"

SCRIPTED_RULES = rules(SHAPES, extra_rounds=0)
SCRIPTED_DEAL = stacked(
    SCRIPTED_RULES,
    2,
    {
        0: ["circle.1", "square.1", "star.1", "heart.1", "moon.1", "sun.1"],
        1: ["square.2", "circle.2", "star.2", "moon.2", "heart.2", "sun.2"],
    },
    dealer=1,
)
SCRIPTED_INPUTS: list[Action] = [
    Flip(0),  # seq 1: circle.1
    Flip(1),  # seq 2: square.2
    Flip(0),  # seq 3: square.1 -> squares on top
    Call(1, CallKind.SNAP, None, 3),  # seq 4: seat 1 takes both (its square.2 is older)
    Flip(1),  # seq 5: circle.2
    Flip(0),  # seq 6: star.1
    Call(0, CallKind.SNAP, PairClaim(0, 1), 6),  # seq 7: star vs circle: wrong, star.1 -> pool 1
    Flip(1),  # seq 8: star.2 matches pool 1
    Call(0, CallKind.SNAP_POOL, None, 8),  # seq 9: seat 0 takes pool 1 and seat 1's pile
    Tie(9, ((0, PairClaim(0, 1)), (1, PairClaim(0, 1)))),  # seq 10: nothing face up: two wrong calls
    CapReached(),  # seq 11: time cap; extra_rounds 0, counted from seat 1 (last flipper)
    Flip(0),  # seq 12: would start round 1: adjudicated, 6 cards each: a draw
]

PAIR = {"type": "pair", "a": 0, "b": 1}
HAND_CHECKED: list[dict[str, Any]] = [
    {"type": "flip", "seq": 1, "seat": 0, "card": "circle.1", "flip": 1},
    {"type": "flip", "seq": 2, "seat": 1, "card": "square.2", "flip": 2},
    {"type": "flip", "seq": 3, "seat": 0, "card": "square.1", "flip": 3},
    {"type": "capture", "seq": 4, "seat": 1, "kind": "snap", "claim": PAIR, "seats": [1, 0], "pools": []}
    | {"cards": 3, "extra": 0},
    {"type": "flip", "seq": 5, "seat": 1, "card": "circle.2", "flip": 4},
    {"type": "flip", "seq": 6, "seat": 0, "card": "star.1", "flip": 5},
    {"type": "pool", "seq": 7, "pool": 1, "reason": "wrong_call", "seats": [0], "cards": 1, "top": "star.1"},
    {"type": "wrong_call", "seq": 7, "caller": 0, "kind": "snap", "claim": PAIR, "reason": "no_match"}
    | {"penalty": "pool"},
    {"type": "flip", "seq": 8, "seat": 1, "card": "star.2", "flip": 6},
    {
        "type": "capture",
        "seq": 9,
        "seat": 0,
        "kind": "snap_pool",
        "claim": {"type": "pool", "pool": 1, "seat": 1},
    }
    | {"seats": [1], "pools": [1], "cards": 3, "extra": 0},
    {"type": "wrong_call", "seq": 10, "caller": 0, "kind": "snap", "claim": PAIR, "reason": "no_match"}
    | {"penalty": "none"},
    {"type": "wrong_call", "seq": 10, "caller": 1, "kind": "snap", "claim": PAIR, "reason": "no_match"}
    | {"penalty": "none"},
    {"type": "cap", "seq": 11, "seat": 1, "extra_rounds": 0},
    {"type": "end", "seq": 12, "reason": "cap", "winner": None, "placings": [1, 1], "cards": [6, 6]}
    | {"elimination_order": []},
]


def test_golden_scripted_game_matches_the_hand_worked_events() -> None:
    state, events = replay(SCRIPTED_RULES, SCRIPTED_DEAL, 1, SCRIPTED_INPUTS)
    assert [e.to_dict() for e in events] == HAND_CHECKED
    names = state.deck.cards
    # Seat 0 took pool 1 (star.1) then seat 1's pile (star.2 over circle.2), turned over (S24).
    assert [names[c] for c in state.facedown(0)] == [
        *["heart.1", "moon.1", "sun.1"],
        *["star.1", "circle.2", "star.2"],
    ]
    # Seat 1 took its own older pile first (square.2), then seat 0's (circle.1, square.1).
    assert [names[c] for c in state.facedown(1)] == [
        *["moon.2", "heart.2", "sun.2"],
        *["square.2", "circle.1", "square.1"],
    ]
    assert state.wrong_calls == (2, 1)
    assert state.result is not None and state.result.wrong_calls == (2, 1)


def _record(name: str, rules_: SnapRules, deal: Deal, dealer: int, inputs: list[Action]) -> dict[str, Any]:
    state, events = replay(rules_, deal, dealer, inputs)
    assert state.result is not None
    return {
        "name": name,
        "rules": rules_.to_dict(),
        "deal": deal.to_dict(),
        "dealer": dealer,
        "inputs": [action_to_dict(a) for a in inputs],
        "events": [e.to_dict() for e in events],
        "result": state.result.to_dict(),
    }


def _games() -> dict[str, dict[str, Any]]:
    games = {"scripted_2p": _record("scripted_2p", SCRIPTED_RULES, SCRIPTED_DEAL, 1, SCRIPTED_INPUTS)}
    for name, rules_, players, seed in [
        ("shapes_3p", SHAPES, 3, 3),
        ("shapes_single_pile_3p", rules(SHAPES, single_pile=True), 3, 7),
        ("classic_4p", CLASSIC, 4, 11),
        ("double_slapjack_3p", rules(double=True, slapjack=True), 3, 2),
    ]:
        game = random_game(rules_, players, random.Random(seed), Temperament(call=0.5, wrong=0.03, late=0.03))
        games[name] = _record(name, rules_, game.deal, game.dealer, list(game.inputs))
    return games


FILES = sorted(GOLDEN.glob("*.json"))


def test_golden_files_exist() -> None:
    assert {p.stem for p in FILES} >= {"scripted_2p", "shapes_3p", "classic_4p"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_replay_reproduces_every_event(path: Path) -> None:
    data = json.loads(path.read_text())
    rules_ = SnapRules.from_dict(data["rules"])
    inputs = [action_from_dict(a) for a in data["inputs"]]
    state, events = replay(rules_, Deal.from_dict(data["deal"]), data["dealer"], inputs)
    assert [e.to_dict() for e in events] == data["events"]
    assert state.result is not None and state.result.to_dict() == data["result"]


def test_golden_scripted_file_is_the_hand_checked_game() -> None:
    data = json.loads((GOLDEN / "scripted_2p.json").read_text())
    assert data["events"] == HAND_CHECKED


if __name__ == "__main__":
    for name, game in _games().items():
        (GOLDEN / f"{name}.json").write_text(json.dumps(game, indent=1) + "\n")
        print(f"wrote golden/{name}.json: {len(game['inputs'])} inputs, {len(game['events'])} events")
