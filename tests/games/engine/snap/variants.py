"""Rule sets the randomised tests sweep (every variant and option value at least once)."""

from __future__ import annotations

from games.engine.snap import EmptyFacedown, MatchKey, PoolCall, PoolMode, SnapRules
from tests.games.engine.snap.helpers import CLASSIC, SHAPES, rules

STANDARD_SETS: dict[str, SnapRules] = {
    "classic": CLASSIC,
    "double": rules(double=True),
    "slapjack": rules(slapjack=True),
    "speed": rules(speed=True),
    "single_pile": rules(single_pile=True),
    "silent": rules(silent=True),
    "animal": rules(animal=True),
    "exact_card": rules(deck="double104", match_key=MatchKey.EXACT_CARD),
    "feed_pool": rules(empty_facedown=EmptyFacedown.FEED_POOL),
    "recycle_shuffle": rules(empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE),
    "pool_single": rules(pool_mode=PoolMode.SINGLE),
    "flipper_takes_pool": rules(pool_call=PoolCall.FLIPPER_TAKES_POOL),
    "flipper_may_not_call": rules(flipper_may_call=False),
    "short_cap": rules(max_flips=60, extra_rounds=1),
}

SMALL_SETS: dict[str, SnapRules] = {
    "shapes": SHAPES,
    "shapes_double": rules(SHAPES, double=True),
    "shapes_speed": rules(SHAPES, speed=True),
    "shapes_single_pile": rules(SHAPES, single_pile=True),
    "shapes_silent_animal": rules(SHAPES, silent=True, animal=True),
    "shapes_feed_pool": rules(SHAPES, empty_facedown=EmptyFacedown.FEED_POOL),
    "shapes_shuffle": rules(SHAPES, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE),
    "shapes_pool_single": rules(SHAPES, pool_mode=PoolMode.SINGLE),
    "shapes_flipper_pool": rules(SHAPES, pool_call=PoolCall.FLIPPER_TAKES_POOL),
    "shapes_no_flipper_call": rules(SHAPES, flipper_may_call=False),
    "animals": rules(deck="animals", match_key=MatchKey.PICTURE_ID, picture=True),
}


# Combinations of variants the sets above do not have (speed or pool modes with the recycle modes).
COMBINED_SETS: dict[str, SnapRules] = {
    "shapes_speed_shuffle": rules(SHAPES, speed=True, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE),
    "shapes_speed_feed_pool": rules(SHAPES, speed=True, empty_facedown=EmptyFacedown.FEED_POOL),
    "shapes_shuffle_pool_single": rules(
        SHAPES, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE, pool_mode=PoolMode.SINGLE
    ),
    "shapes_feed_pool_flipper_pool": rules(
        SHAPES, empty_facedown=EmptyFacedown.FEED_POOL, pool_call=PoolCall.FLIPPER_TAKES_POOL
    ),
    "double_slapjack_shuffle": rules(
        double=True, slapjack=True, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE, max_flips=300
    ),
    "speed_double_shuffle": rules(speed=True, double=True, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE),
}


def players_for(rules_: SnapRules, seed: int) -> int:
    """A table size the rules allow (speed: 2-3), varied by ``seed``."""
    if rules_.speed:
        return 2 + seed % 2
    return 2 + seed % 5
