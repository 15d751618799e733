"""The ladder's rules as pure functions (docs/ladder.md): who may challenge whom, how a won
challenge reorders the ladder, a best-of-N score. No Django, no clock (the services work out dates).

A ladder is an ordered tuple of player ids, top first; a player's *place* is their index + 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

REACH_DEFAULT = 3
REACH_MAX = 50
REPLY_DAYS_DEFAULT = 7
REPLY_DAYS_MAX = 90
REMATCH_DAYS_DEFAULT = 7
REMATCH_DAYS_MAX = 365
BEST_OF_DEFAULT = 3
BEST_OF_MAX = 9


def place_of[P: Hashable](order: Sequence[P], player: P) -> int:
    """``player``'s place (1 = top). Raises ValueError when they are not on the ladder."""
    return list(order).index(player) + 1


def challenge_problem[P: Hashable](
    order: Sequence[P], challenger: P, challenged: P, *, reach: int
) -> str | None:
    """Why ``challenger`` may not challenge ``challenged`` by the places alone, or None:
    ``self``, ``challenger_not_in_ladder``, ``challenged_not_in_ladder``, ``below`` (the challenged
    is not above), ``too_far`` (more than ``reach`` places above)."""
    if challenger == challenged:
        return "self"
    if challenger not in order:
        return "challenger_not_in_ladder"
    if challenged not in order:
        return "challenged_not_in_ladder"
    gap = place_of(order, challenger) - place_of(order, challenged)
    if gap <= 0:
        return "below"
    if gap > reach:
        return "too_far"
    return None


def challengeable[P: Hashable](order: Sequence[P], challenger: P, *, reach: int) -> list[P]:
    """The players ``challenger`` may challenge by the places alone (up to ``reach`` above)."""
    if challenger not in order:
        return []
    index = place_of(order, challenger) - 1
    return list(order[max(0, index - reach) : index])


def after_win[P: Hashable](order: Sequence[P], winner: P, loser: P) -> tuple[P, ...]:
    """The ladder after the challenger ``winner`` beat ``loser``: when the winner is below the loser
    the winner takes the loser's place and everyone from the loser down to just above the winner
    moves down one; everyone else keeps their place. When the winner is already above (others'
    results moved them since the challenge) nothing changes. Raises ValueError when either is not
    on the ladder."""
    items = list(order)
    win_index = items.index(winner)
    lose_index = items.index(loser)
    if win_index < lose_index:
        return tuple(items)
    items.pop(win_index)
    items.insert(lose_index, winner)
    return tuple(items)


def after_join[P: Hashable](order: Sequence[P], player: P) -> tuple[P, ...]:
    """A new player joins at the bottom. Raises ValueError when already on the ladder."""
    if player in order:
        raise ValueError("already on the ladder")
    return (*order, player)


def after_leave[P: Hashable](order: Sequence[P], player: P) -> tuple[P, ...]:
    """A player leaves; everyone below moves up one. Raises ValueError when not on the ladder."""
    items = list(order)
    items.remove(player)
    return tuple(items)


def best_of_problem(best_of: int, challenger_wins: int, challenged_wins: int) -> str | None:
    """Why a score is not a finished best-of-``best_of`` series, or None: ``negative``, ``unfinished``
    (nobody reached the wins needed), ``too_many`` (both did, or more games than the series has)."""
    if challenger_wins < 0 or challenged_wins < 0:
        return "negative"
    need = best_of // 2 + 1
    if (
        challenger_wins > need
        or challenged_wins > need
        or (challenger_wins == need and challenged_wins == need)
    ):
        return "too_many"
    if need not in (challenger_wins, challenged_wins):
        return "unfinished"
    return None
