"""The engine contract (games/engine/protocol.py), checked the same way for every GameKind through
``engine_for(kind)`` and the Protocol's methods only: random games end with a result, replays and
snapshots give back the played game, deals follow the seed, ``apply`` never changes its input,
illegal and malformed actions are refused with the right error, and no view shows a hidden card.

The one thing the Protocol cannot say generically is which cards are hidden: ``HIDDEN`` asks each
engine's own state (the 66 family: the stock and the cards in the other hands; Snap: the face-down
cards, hidden from everyone).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from games.engine.errors import ActionCode, ActionError, IllegalAction, InvalidAction
from games.engine.protocol import Engine, GameKind, engine_for

GAMES = 15  # random games per kind, shared by the tests below
MAX_STEPS = 50_000  # a game that has not ended by then is a bug
SEAT_KEYS = ("seat", "caller")  # where an action's JSON form names the seat that makes it


def _snapszer_hidden(state: Any, seat: int | None) -> set[str]:
    """The stock, and the other seats' hand cards, but those both seats saw lie face up in a trump
    exchange (the view names them: X14)."""
    hand = state.hand
    shown = {c.name for e in hand.exchanges for c in (e.given, e.taken)}
    others = {c.name for s in (0, 1) if s != seat for c in hand.hands[s]}
    return (others - shown) | {c.name for c in hand.stock}


def _snap_hidden(state: Any, seat: int | None) -> set[str]:
    """Every face-down card, of every seat's pile and of the central pile's face-down bottom
    (single_pile): nobody may see them, their owner included."""
    names = state.deck.cards
    hidden = {names[c] for s in range(state.n) for c in state.facedown(s)}
    if state.central_hidden:
        hidden |= {names[c] for c in state.central[len(state.central) - state.central_hidden :]}
    return hidden


# The options the games are played with, in turn: the defaults and, for Snapszer, every profile
# that has a match (`sixty-six` and the others leave seats idle between declarations; the seed's
# any-time declarations never do).
OPTIONS: dict[GameKind, list[dict[str, Any]]] = {
    GameKind.SNAPSZER: [{}, *({"profile": p} for p in ("snapszer-hu", "schnapsen", "sixty-six", "santase"))],
    GameKind.SNAP: [{}],
}

HIDDEN: dict[GameKind, Callable[[Any, int | None], set[str]]] = {
    GameKind.SNAPSZER: _snapszer_hidden,
    GameKind.SNAP: _snap_hidden,
}


@dataclass(frozen=True)
class Played:
    """One random game: its seats, every state from the first, the actions and their events."""

    seats: int
    states: list[Any]
    actions: list[Any]
    events: list[list[Any]]


def _movers(engine: Engine, state: Any, seats: int) -> list[int]:
    return [s for s in range(seats) if engine.legal_actions(state, s)]


def _pick(engine: Engine, actions: list[Any], rng: random.Random) -> Any:
    """A random kind of action (its JSON ``type``), then a random action of that kind: uniform over
    all actions, a Snap seat would call (dozens of claims, nearly all wrong) far more often than it
    flips, and a six-seat game would take tens of thousands of wrong calls to end."""
    kinds: dict[str, list[Any]] = {}
    for action in actions:
        kinds.setdefault(str(engine.action_to_dict(action).get("type")), []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def play(
    engine: Engine, seed: int, options: dict[str, Any] | None = None, deal_seed: bytes | None = None
) -> Played:
    """A game with random legal actions: a random seat among those that may act, then a random
    action of that seat (see ``_pick``), all drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    low, high = engine.seat_range()
    seats = rng.randint(low, high)
    state = engine.new_game(
        options or {}, seats=seats, dealer=rng.randrange(seats), seed=deal_seed or b"contract:%d" % seed
    )
    played = Played(seats, [state], [], [])
    for _step in range(MAX_STEPS):
        if engine.is_terminal(state):
            return played
        movers = _movers(engine, state, seats)
        assert movers, "a game that is not over has a seat with something to do"
        action = _pick(engine, engine.legal_actions(state, rng.choice(movers)), rng)
        state, events = engine.apply(state, action)
        played.states.append(state)
        played.actions.append(action)
        played.events.append(events)
    raise AssertionError(f"no end after {MAX_STEPS} actions")


@cache
def games(kind: GameKind) -> tuple[Played, ...]:
    engine = engine_for(kind)
    variants = OPTIONS[kind]
    return tuple(play(engine, seed, variants[seed % len(variants)]) for seed in range(GAMES))


@pytest.fixture(params=list(GameKind), ids=str)
def kind(request: pytest.FixtureRequest) -> GameKind:
    return GameKind(request.param)


@pytest.fixture
def engine(kind: GameKind) -> Engine:
    return engine_for(kind)


def snapshot(engine: Engine, state: Any) -> str:
    """A state's snapshot as canonical JSON text: equal text, equal state."""
    return json.dumps(engine.to_snapshot(state), sort_keys=True)


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def is_plain_json(value: Any) -> bool:
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(is_plain_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    return False


# --- the contract -------------------------------------------------------------------------------


def test_every_kind_has_an_engine_and_a_hidden_card_check(kind: GameKind, engine: Engine) -> None:
    assert isinstance(engine, Engine)
    assert engine.kind is kind and engine_for(kind.value) is engine
    low, high = engine.seat_range()
    assert 1 <= low <= high
    assert kind in HIDDEN and OPTIONS[kind][0] == {}
    for options in OPTIONS[kind]:
        engine.check_options(options, low)


def test_default_options_are_playable_at_every_table_size(engine: Engine) -> None:
    low, high = engine.seat_range()
    for seats in range(low, high + 1):
        engine.check_options({}, seats)
    for seats in (low - 1, high + 1):
        with pytest.raises(ValueError):  # InvalidRules where the table size is a rules problem
            engine.check_options({}, seats)


def test_random_games_end_with_a_result(engine: Engine, kind: GameKind) -> None:
    for played in games(kind):
        first, last = played.states[0], played.states[-1]
        assert not engine.is_terminal(first) or not played.actions
        assert engine.result(first) is None or engine.is_terminal(first)
        assert all(engine.result(s) is None for s in played.states[:-1])
        assert engine.is_terminal(last)
        result = engine.result(last)
        assert result is not None
        assert is_plain_json(json.loads(json.dumps(result.to_dict())))
        assert not _movers(engine, last, played.seats)


def test_replaying_the_setup_and_the_actions_gives_the_played_game(engine: Engine, kind: GameKind) -> None:
    for played in games(kind):
        setup = engine.game_setup(played.states[0])
        assert is_plain_json(setup) and json.loads(json.dumps(setup)) == setup
        again = engine.replay(json.loads(json.dumps(setup)), played.actions)
        assert snapshot(engine, again) == snapshot(engine, played.states[-1])
        assert engine.game_setup(played.states[-1]) == setup


def _trajectory(engine: Engine, deal_seed: bytes) -> list[str]:
    """What a spectator sees and hears through a game dealt from ``deal_seed``, the choices made
    with the same Random each time."""
    played = play(engine, 7, deal_seed=deal_seed)
    views = [json.dumps(engine.observe(s, None).to_dict(), sort_keys=True) for s in played.states]
    heard = [json.dumps([e.to_dict() for e in events], sort_keys=True) for events in played.events]
    return views + heard


def test_the_same_seed_deals_the_same_game_another_seed_another(engine: Engine) -> None:
    same = _trajectory(engine, b"seed one")
    assert _trajectory(engine, b"seed one") == same
    assert _trajectory(engine, b"seed two") != same


def test_apply_never_changes_its_input(engine: Engine, kind: GameKind) -> None:
    for played in games(kind)[:4]:
        for state, action, after in zip(played.states[:-1], played.actions, played.states[1:], strict=True):
            before = snapshot(engine, state)
            again, _events = engine.apply(state, action)
            assert snapshot(engine, state) == before
            assert snapshot(engine, again) == snapshot(engine, after)


def _reseated(engine: Engine, action: Any, seat: int) -> Any | None:
    data = engine.action_to_dict(action)
    keys = [k for k in SEAT_KEYS if isinstance(data.get(k), int)]
    if not keys:
        return None
    return engine.action_from_dict({**data, keys[0]: seat})


def test_actions_of_a_seat_with_nothing_to_do_change_nothing_and_after_the_end_are_illegal(
    engine: Engine, kind: GameKind
) -> None:
    checked = 0
    for played in games(kind):
        for state in played.states[:-1][:: max(1, len(played.states) // 200)]:  # across the game
            idle = [s for s in range(played.seats) if not engine.legal_actions(state, s)]
            for seat in [s for s in range(played.seats) if s not in idle][:1]:
                for other in idle:
                    for action in engine.legal_actions(state, seat)[:3]:
                        moved = _reseated(engine, action, other)
                        if moved is None:
                            continue
                        try:
                            after, _events = engine.apply(state, moved)
                        except IllegalAction as exc:
                            assert exc.code is ActionCode.NOT_YOUR_TURN
                        else:  # Snap S16: a call by a seat that may not call is ignored
                            assert snapshot(engine, after) == snapshot(engine, state)
                        checked += 1
        last = played.states[-1]
        for action in {
            json.dumps(engine.action_to_dict(a), sort_keys=True): a for a in played.actions
        }.values():
            with pytest.raises(IllegalAction) as over:
                engine.apply(last, action)
            assert over.value.code is ActionCode.GAME_OVER
    if not checked:
        pytest.skip(f"{kind}: no seat was ever without legal actions in these games")


def test_a_malformed_action_is_an_invalid_action(engine: Engine, kind: GameKind) -> None:
    samples = [a for played in games(kind)[:3] for a in played.actions[:30]]
    shapes: list[dict[str, Any]] = [{}, {"type": "no such action"}, {"type": 42}, {"type": None}]
    for action in samples:
        data = engine.action_to_dict(action)
        shapes.append({k: v for k, v in data.items() if k != "type"})
        shapes.append({**data, "type": f"{data.get('type')}-nonsense"})
        shapes += [{**data, key: "not a seat"} for key in SEAT_KEYS if key in data]
    for shape in shapes:
        with pytest.raises(InvalidAction) as exc:
            engine.action_from_dict(shape)
        assert exc.value.code is ActionCode.MALFORMED, shape


def test_actions_views_and_events_are_json(engine: Engine, kind: GameKind) -> None:
    for played in games(kind)[:3]:
        for state, action, events in zip(played.states, played.actions, played.events, strict=False):
            data = engine.action_to_dict(action)
            assert is_plain_json(data)
            again = engine.action_from_dict(json.loads(json.dumps(data)))
            assert engine.action_to_dict(again) == data
            for seat in [*range(played.seats), None]:
                view = engine.observe(state, seat).to_dict()
                assert is_plain_json(view) and json.loads(json.dumps(view)) == view
            assert all(is_plain_json(e.to_dict()) for e in events)
    with pytest.raises(ActionError):
        engine.observe(played.states[0], played.seats)


def leaks(engine: Engine, kind: GameKind, state: Any, seat: int | None, view: dict[str, Any]) -> set[str]:
    """The hidden cards a view names."""
    return set(strings(view)) & HIDDEN[kind](state, seat)


def test_no_view_shows_a_hidden_card(engine: Engine, kind: GameKind) -> None:
    looked = 0
    for played in games(kind):
        for state in played.states[:: max(1, len(played.states) // 150)]:
            for seat in [*range(played.seats), None]:
                hidden = HIDDEN[kind](state, seat)
                assert not leaks(engine, kind, state, seat, engine.observe(state, seat).to_dict())
                looked += bool(hidden)
    assert looked > 100  # most views were taken while something was hidden


def test_the_hidden_card_check_catches_a_leak(engine: Engine, kind: GameKind) -> None:
    state = games(kind)[0].states[0]
    for seat in [0, None]:
        hidden = sorted(HIDDEN[kind](state, seat))
        assert hidden, "at the deal some cards are hidden"
        view = {**engine.observe(state, seat).to_dict(), "oops": hidden[:1]}
        assert leaks(engine, kind, state, seat, view) == {hidden[0]}


# --- snapshots ----------------------------------------------------------------------------------


def test_a_game_continued_from_a_snapshot_is_the_same_game(engine: Engine, kind: GameKind) -> None:
    rng = random.Random(0)
    for played in games(kind):
        at = rng.randrange(len(played.states))
        data = engine.to_snapshot(played.states[at])
        assert is_plain_json(data)
        restored = engine.from_snapshot(json.loads(json.dumps(data)))
        assert engine.to_snapshot(restored) == data
        for action, events in zip(played.actions[at:], played.events[at:], strict=True):
            restored, again = engine.apply(restored, action)
            assert [e.to_dict() for e in again] == [e.to_dict() for e in events]
        assert snapshot(engine, restored) == snapshot(engine, played.states[-1])
        assert engine.result(restored) == engine.result(played.states[-1])
