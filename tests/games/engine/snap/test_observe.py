"""S5 and observe(): no face-down card is ever named before it is flipped; views are JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.errors import ActionCode, InvalidAction
from games.engine.snap import SnapRules, SnapState, apply, new_game, observe
from games.engine.snap.events import Flipped
from games.engine.snap.playout import Temperament, random_input, shuffled_deal
from games.engine.snap.view import TableViews
from tests.games.engine.snap.helpers import CLASSIC, flip, skip_unless_slow, start
from tests.games.engine.snap.variants import SMALL_SETS, STANDARD_SETS, players_for


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _visible(state: SnapState) -> set[str]:
    """Cards face up on top of something right now."""
    names = state.deck.cards
    tops = {names[c] for s in range(state.n) if (c := state.top(s)) is not None}
    tops |= {names[p.cards[0]] for p in state.pools}
    shown = len(state.central) - state.central_hidden
    tops |= {names[c] for c in state.central[: min(shown, 2)]}
    return tops


def _view_cards(state: SnapState, seat: int, full: bool) -> set[str]:
    view = observe(state, seat)
    if full:  # the whole serialised view, through JSON
        return set(state.deck.cards).intersection(_strings(json.loads(json.dumps(view.to_dict()))))
    named = {p.top for p in view.piles} | {p.top for p in view.pools} | {view.central_top, view.central_below}
    return {name for name in named if name is not None}


def check_game(rules: SnapRules, players: int, rng: random.Random, every_seat: bool) -> int:
    """Play one random game; assert that no view or event names an unflipped card. Return flips."""
    state = new_game(rules, shuffled_deal(rules, players, rng), rng.randrange(players))
    cards = set(state.deck.cards)
    revealed: set[str] = set()
    temper = Temperament(call=0.4, wrong=0.05, late=0.05)
    step = 0
    while state.result is None:
        state, events = apply(state, random_input(state, rng, temper))
        step += 1
        for event in events:
            if isinstance(event, Flipped):
                revealed.add(event.card)
                continue
            data = event.to_dict()
            named = cards.intersection(_strings(json.loads(json.dumps(data))))
            assert named <= revealed, f"{event} names an unflipped card"
        seats = range(players) if every_seat else [rng.randrange(players)]
        visible = _visible(state)
        for seat in seats:
            named = _view_cards(state, seat, full=step % 16 == 0)
            assert named <= visible, f"view of seat {seat} shows a card not on top"
            assert named <= revealed
    return state.flips


def test_S5_no_facedown_card_leaks_in_thousands_of_small_games() -> None:
    rng = random.Random(5)
    games = 0
    for name, rules in SMALL_SETS.items():
        for i in range(190 if name != "animals" else 30):
            check_game(rules, players_for(rules, i), rng, every_seat=i % 4 == 0)
            games += 1
    assert games >= 1900  # with the standard-deck games below, over 2,000 games


@pytest.mark.parametrize("name", sorted(STANDARD_SETS))
def test_S5_no_facedown_card_leaks_in_standard_deck_games(name: str) -> None:
    rng = random.Random(name)
    rules = STANDARD_SETS[name]
    for i in range(10):
        check_game(rules, players_for(rules, i), rng, every_seat=False)


@pytest.mark.slow
def test_S5_no_facedown_card_leaks_in_ten_thousand_games(request: pytest.FixtureRequest) -> None:
    """10,000 games over every rule set: ``pytest -m slow``."""
    skip_unless_slow(request)
    rng = random.Random(55)
    sets = list(SMALL_SETS.values()) + list(STANDARD_SETS.values())
    for i in range(10_000):
        rules = sets[i % len(sets)]
        check_game(rules, players_for(rules, i), rng, every_seat=False)


def test_observe_shows_sizes_tops_and_turn_only() -> None:
    state = start(CLASSIC, 3, {0: ["5H", "9C"], 1: ["KD"]})
    view = observe(state, 2)
    assert view.turn == 0 and view.seat == 2 and view.seq == 0
    assert [p.facedown for p in view.piles] == [18, 17, 17] and all(p.top is None for p in view.piles)
    assert set(view.to_dict()) == {
        "seat",
        "seq",
        "players",
        "dealer",
        "turn",
        "last_flipper",
        "flips",
        "piles",
        "pools",
        "central_size",
        "central_top",
        "central_below",
        "central_matches",
        "cap_reached",
        "result",
    }
    assert observe(state, None).seat is None  # a spectator
    with pytest.raises(InvalidAction) as exc:
        observe(state, 3)
    assert exc.value.code is ActionCode.NO_SUCH_SEAT


def test_views_say_what_each_top_matches_on() -> None:
    from tests.games.engine.snap.variants import SMALL_SETS

    state = start(SMALL_SETS["animals"], 2, {0: ["cat.1"], 1: ["cat.2"]})
    state, _ = flip(state, 2)
    piles = observe(state, 0).piles
    assert (piles[0].top, piles[1].top) == ("cat.1", "cat.2") and piles[0].match == piles[1].match == "cat"


def test_table_views_built_state_after_state_equal_fresh_views() -> None:
    """``TableViews`` reuses the pile and pool views a state shares with the one before; every
    view it builds must equal ``observe``'s, over every rule set, calls and captures included."""
    rng = random.Random(77)
    temper = Temperament(call=0.4, wrong=0.05, late=0.05)
    sets = list(SMALL_SETS.values()) + list(STANDARD_SETS.values())
    compared = 0
    for i in range(3 * len(sets)):
        rules = sets[i % len(sets)]
        players = players_for(rules, i)
        state = new_game(rules, shuffled_deal(rules, players, rng), rng.randrange(players))
        views = TableViews()
        seen = [state]
        while state.result is None:
            state, _events = apply(state, random_input(state, rng, temper))
            seen.append(state)
            seat = rng.choice([None, *range(players)])
            assert views.observe(state, seat) == observe(state, seat)
            compared += 1
            if rng.random() < 0.05:  # now and then an older state (a reconnecting client's)
                old = rng.choice(seen)
                assert views.observe(old, None) == observe(old, None)
    assert compared > 1000
