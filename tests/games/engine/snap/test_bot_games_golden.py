"""Golden bot games: the same seeds play the same games, release after release.

docs/snap-live.md quotes simulator runs by seed (10,000 games of ``--seed 1``); they reproduce
only while bot games stay exactly the same. Speed work on the timing layer, the views and the bot
loop must not change a single input, event or draw: this digest covers every timed input, engine
input and event of a few games over several rule sets and table sizes.

If a change is *meant* to change bot games (new bot behaviour, a rule fix), update ``DIGEST`` to
the value the failure prints and re-run the simulator figures in docs/snap-live.md.
"""

from __future__ import annotations

import hashlib
import random

from games.engine.snap import SnapRules
from games.engine.snap.bots import LEVELS, Link, play_bot_game
from games.engine.snap.playout import shuffled_deal
from games.engine.snap.timing import TimingRules, timed_input_to_dict

DIGEST = (
    "2d57ede96cfebcdad2e99bd77bc4672863b67065207151e9f0322c2cdb92cbbc"  # since d47c9a0, before the speed work
)

CASES = [
    (SnapRules(), 2, ("expert", "beginner"), TimingRules(), None),
    (
        SnapRules(),
        4,
        ("club", "club", "strong", "casual"),
        TimingRules(),
        [Link(40, 10), Link(250, 30), Link(20, 5), Link(90, 20)],
    ),
    (SnapRules(), 6, ("casual",) * 6, TimingRules(reveal_jitter_ms=120), None),
    (SnapRules(slapjack=True), 3, ("strong",) * 3, TimingRules(), None),
    (SnapRules(single_pile=True), 3, ("club",) * 3, TimingRules(), None),
    (SnapRules(speed=True), 4, ("expert", "club", "club", "beginner"), TimingRules(), None),
]


def _digest() -> str:
    digest = hashlib.sha256()
    for index, (rules, players, names, timing, links) in enumerate(CASES):
        rng = random.Random(1000 + index)
        deal = shuffled_deal(rules, players, rng)
        levels = [LEVELS[name] for name in names]
        game = play_bot_game(rules, levels, deal, index % players, rng, timing=timing, links=links).game
        for inp in game.log:
            digest.update(repr(sorted(timed_input_to_dict(inp).items())).encode())
        for at, action in game.engine_log:
            digest.update(repr((at, action)).encode())
        for at, event in game.events:
            digest.update(repr((at, event.to_dict())).encode())
        digest.update(repr(game.state.result).encode())
    return digest.hexdigest()


def test_bot_games_are_the_same_games_as_before() -> None:
    got = _digest()
    assert got == DIGEST, f"bot games changed (digest {got}); see this module's docstring"
