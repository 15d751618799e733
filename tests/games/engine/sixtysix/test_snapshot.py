"""Snapshots, the engine contract's cache (issue: "one engine contract"): compact JSON; a game
continued from ``from_snapshot(json(to_snapshot(s)))`` at a random point plays out exactly as the
uninterrupted one (same legal actions, events, final state and result); the byte size stays under
the bound games/engine/sixtysix/snapshot.py states and does not grow with the number of actions.

Matches for every profile that has one (X32), single hands through the hand-level snapshot for every
profile (`schnapsen-lite` has nothing else). ``pytest -m slow`` runs ten times as many.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine.sixtysix import (
    PROFILES,
    Action,
    LeadMarriage,
    Pass,
    Phase,
    PlayCard,
    SixtySixState,
    apply,
    legal_actions,
    new_hand,
    seats_to_act,
)
from games.engine.sixtysix.contract import ENGINE
from games.engine.sixtysix.game import SixtySixGame
from games.engine.sixtysix.snapshot import (
    InvalidSnapshot,
    hand_from_snapshot,
    hand_to_snapshot,
)
from tests.games.engine.sixtysix.helpers import quiet_choice, random_deal, require_slow

MATCH_PROFILES = [name for name, rules in PROFILES.items() if rules.match is not None]
MATCHES = 400  # per profile: 2,000 matches (about 25,000 hands) in the default run
HANDS = 1000  # per profile, hand-level
SLOW = 10  # ``-m slow`` multiplies both

# The bound of snapshot.py in bytes of compact JSON (separators without spaces, UTF-8):
HAND_BYTES = 800  # the hand in play, whatever has happened in it (measured: at most about 650)
RESULT_BYTES = 100  # one finished hand's result (measured: at most about 85)
FRAME_BYTES = 40  # the keys and the version around the parts
# So a match's snapshot is at most setup + 840 + 100 per finished hand. With a profile's own
# options and a seed of up to 32 bytes the setup is under 160 bytes; the longest `snapszer-hu`
# match (39 hands of 1 game point, below) then stays under 4,900 bytes, and every snapshot taken
# in the random matches here is under 4 KiB.
MATCH_BYTES = 4096


def size(data: Any) -> int:
    return len(json.dumps(data, separators=(",", ":")).encode())


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def choose(hand: SixtySixState, rng: random.Random, wild: bool) -> Action:
    """A random legal action: mostly play as people do (quiet_choice); ``wild`` picks among every
    legal action of every seat, declarations included."""
    if wild:
        return rng.choice([a for s in seats_to_act(hand) for a in legal_actions(hand, s)])
    return quiet_choice(hand, rng)


def play_match(profile: str, seed: int) -> tuple[list[SixtySixGame], bool]:
    """Every state of one random match (a fifth of them wild), and whether it was wild."""
    rng = random.Random(seed)
    game = ENGINE.new_game(
        {"profile": profile}, seats=2, dealer=rng.randrange(2), seed=rng.randbytes(rng.randint(8, 32))
    )
    wild = seed % 5 == 0
    states = [game]
    while not game.is_terminal:
        game, _events = ENGINE.apply(game, choose(game.hand, rng, wild))
        states.append(game)
    return states, wild


def check_size(snapshot: dict[str, Any]) -> int:
    """The snapshot's size, after checking each part against the bound."""
    hand, results = size(snapshot["hand"]), [size(r) for r in snapshot["hands"]]
    assert hand <= HAND_BYTES, hand
    assert max(results, default=0) <= RESULT_BYTES, max(results)
    total = size(snapshot)
    assert total <= size(snapshot["setup"]) + FRAME_BYTES + HAND_BYTES + RESULT_BYTES * len(results)
    return total


def continue_both(a: SixtySixGame, b: SixtySixGame, seed: int, wild: bool) -> None:
    """Play ``a`` and ``b`` on, each drawing from its own Random seeded alike: they must offer the
    same actions, report the same events and end in the same state and result."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    while not ENGINE.is_terminal(a):
        assert not ENGINE.is_terminal(b) and a.hand_number == b.hand_number
        action = choose(a.hand, rng_a, wild)
        assert choose(b.hand, rng_b, wild) == action
        a, events_a = ENGINE.apply(a, action)
        b, events_b = ENGINE.apply(b, action)
        assert events_a == events_b
    assert ENGINE.is_terminal(b)
    assert ENGINE.to_snapshot(a) == ENGINE.to_snapshot(b)
    assert ENGINE.result(a) == ENGINE.result(b) is not None
    for seat in (0, 1, None):
        assert ENGINE.observe(a, seat) == ENGINE.observe(b, seat)


def run_matches(profile: str, count: int, first: int) -> Counter[str]:
    stats: Counter[str] = Counter()
    for seed in range(first, first + count):
        states, wild = play_match(profile, seed)
        at = random.Random(-seed).randrange(len(states))
        # a random point, and the first with a pot carried (X29), which the snapshot does not hold:
        # it is folded again from the hands' results
        pots = [i for i, game in enumerate(states) if game.match.pot and not game.is_terminal][:1]
        for point in (at, *pots):
            snapshot = ENGINE.to_snapshot(states[point])
            stats["largest"] = max(stats["largest"], check_size(snapshot))
            restored = ENGINE.from_snapshot(through_json(snapshot))
            assert ENGINE.to_snapshot(restored) == snapshot and restored.match == states[point].match
            continue_both(states[point], restored, seed, wild)
        stats["pot"] += bool(pots)
        final = ENGINE.to_snapshot(states[-1])
        stats["largest"] = max(stats["largest"], check_size(final))
        assert ENGINE.result(ENGINE.from_snapshot(through_json(final))) == ENGINE.result(states[-1])
        game = states[at]
        stats["mid_hand"] += bool(game.hand.tricks) and not game.is_terminal
        stats["later_hand"] += game.hand_number > 1
        stats["tied_hands"] += sum(h.winner is None for h in states[-1].hands)
        stats["hands"] = max(stats["hands"], len(states[-1].hands))
    return stats


@pytest.mark.parametrize("profile", MATCH_PROFILES)
def test_a_match_continued_from_its_snapshot_plays_out_the_same(profile: str) -> None:
    stats = run_matches(profile, MATCHES, 0)
    assert stats["largest"] <= MATCH_BYTES
    # the random points fell mid-hand and in later hands; snapszer matches carried pots (X29)
    assert stats["mid_hand"] > MATCHES // 3 and stats["later_hand"] > MATCHES // 3
    if profile == "snapszer":
        assert stats["pot"] > 0 and stats["tied_hands"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("profile", MATCH_PROFILES)
def test_many_matches_continued_from_snapshots(profile: str, request: pytest.FixtureRequest) -> None:
    """Ten times the default run: ``pytest -m slow``."""
    require_slow(request)
    assert run_matches(profile, MATCHES * SLOW, 1_000_000)["largest"] <= MATCH_BYTES


def passive(hand: SixtySixState, rng: random.Random) -> Action:
    """Never bid, close or declare: under `snapszer-hu` every hand goes to the last trick and wins
    1 game point (X28), the longest matches there are."""
    seat = seats_to_act(hand)[0]
    if hand.phase in (Phase.BIDDING, Phase.AFTER_LAST):
        return Pass(seat)
    return rng.choice([a for a in legal_actions(hand, seat) if isinstance(a, (PlayCard, LeadMarriage))])


def test_the_longest_matches_stay_under_the_bound() -> None:
    """`snapszer-hu`, two games of 7 won by 1 game point a hand: at most (2*2-1)*(2*7-1) = 39 hands.
    These seeds play 37 and 38 of them; every state's snapshot stays under the bound."""
    longest = 0
    for seed in (4, 39, 117):
        rng = random.Random(seed)
        game = ENGINE.new_game({"profile": "snapszer-hu"}, seats=2, dealer=0, seed=rng.randbytes(32))
        while not game.is_terminal:
            game, _ = ENGINE.apply(game, passive(game.hand, rng))
            if game.hand.result is not None or not game.hand.tricks:  # each hand's first and last state
                total = check_size(ENGINE.to_snapshot(game))
        longest = max(longest, len(game.hands))
        assert total <= size(ENGINE.game_setup(game)) + FRAME_BYTES + HAND_BYTES + RESULT_BYTES * 39
        assert total < 4900
    assert longest >= 38


# --- single hands -------------------------------------------------------------------------------


def continue_hands(a: SixtySixState, b: SixtySixState, seed: int, wild: bool) -> None:
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    while a.phase is not Phase.OVER:
        action = choose(a, rng_a, wild)
        assert choose(b, rng_b, wild) == action
        a, events_a = apply(a, action)
        b, events_b = apply(b, action)
        assert events_a == events_b
    assert hand_to_snapshot(a) == hand_to_snapshot(b)
    assert a.result == b.result is not None


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_hand_continued_from_its_snapshot_plays_out_the_same(profile: str) -> None:
    rules = PROFILES[profile]
    for seed in range(HANDS):
        rng = random.Random(seed)
        wild = seed % 4 == 0
        states = [new_hand(rules, random_deal(rules, rng), dealer=seed % 2)]
        while states[-1].phase is not Phase.OVER:
            states.append(apply(states[-1], choose(states[-1], rng, wild))[0])
        at = rng.randrange(len(states))
        snapshot = hand_to_snapshot(states[at])
        assert size(snapshot) <= HAND_BYTES
        restored = hand_from_snapshot(rules, through_json(snapshot))
        assert hand_to_snapshot(restored) == snapshot
        continue_hands(states[at], restored, seed, wild)


# --- damaged snapshots --------------------------------------------------------------------------


def _sample() -> dict[str, Any]:
    states, _wild = play_match("snapszer", 3)
    return ENGINE.to_snapshot(states[len(states) // 2])


def _broken(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = through_json(_sample())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("v",), 2, "version"),
        (("setup", "options"), {"profile": "schnapsen-lite"}, "single hands"),
        (("setup", "seed"), "not hex", "setup"),
        (("setup", "seats"), 3, "2 seats"),
        (("hand", "stock", 0), "ZZ", "card name"),
        (("hand", "phase"), "dancing", "one of"),
        (("hand", "leader"), 2, "whole number from 0 to 1"),
        (("hand", "hands", 0), [], "pack"),
        (("hand", "result"), [0, 3, "declared", "", 0, 0, 0, 0, 0, 0], "over"),
        (("hands",), [[1, 3, "declared", "", 0, 0, 0, 0, 0, 0]] * 4, "not a match"),
        (("hands",), [[1, 3, "declared", "", 0, 0, 0, 0]], "a list of 10"),
    ],
)
def test_a_damaged_snapshot_is_refused(path: tuple[Any, ...], value: Any, message: str) -> None:
    with pytest.raises(InvalidSnapshot, match=message):
        ENGINE.from_snapshot(_broken(path, value))


def test_a_snapshot_whose_hand_was_dealt_by_the_wrong_seat_is_refused() -> None:
    data = _sample()
    data["hand"]["dealer"] = 1 - data["hand"]["dealer"]
    with pytest.raises(InvalidSnapshot, match="wrong seat"):
        ENGINE.from_snapshot(data)
