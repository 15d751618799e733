"""Reading a result as a referee submits it, and checking it, before anything is stored.

Two shapes, one per game (player ids as strings, since they are JSON keys when stored):

Snap (rules/snap.md S19–S21, S28 and "Table play")::

    {"ending": "last_player_standing", "eliminated": [7, [3, 9]]}   # first out first; a list = out together
    {"ending": "draw", "eliminated": [7, [3, 9, 4]]}                 # the last input took everyone left
    {"ending": "adjudicated", "eliminated": [7], "card_counts": {"3": 20, "9": 12, "4": 20}}

Snapszer, one match (rules/snapszer.md X32–X33)::

    {"score": {"3": 7, "9": 4}, "pot_carried": 0}
    {"hands": [{"winner": 3, "points": 2, "reason": "declared"}, ...]}   # folded into a score

Stored (``GameResult.data``) is the normalised form: ``placings`` ({player: place}, competition
ranking), ``winner`` (player id or null), and the game's own details. The checks raise
``ResultInvalid`` with field errors a referee can act on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError

SNAP_ENDINGS = ("last_player_standing", "draw", "adjudicated")


class ResultInvalid(ApplicationError):
    def __init__(self, fields: Mapping[str, list[str | Promise]]) -> None:
        super().__init__(
            code="result_invalid", message=_("This result cannot be recorded as it is."), fields=fields
        )


@dataclass(frozen=True)
class GameContext:
    """What a result is checked against: the game and the players who sat at it."""

    game: str  # "snap" | "snapszer"
    player_ids: tuple[int, ...]
    names: Mapping[int, str]
    rules_profile: str
    rules_options: Mapping[str, Any]


def _player_id(value: Any, ctx: GameContext) -> int | None:
    try:
        pid = int(value)
    except (TypeError, ValueError):
        return None
    return pid if pid in ctx.player_ids else None


def normalise_result(raw: Any, ctx: GameContext) -> dict[str, Any]:
    """Return the stored form of ``raw`` for a game in ``ctx``. Raises ResultInvalid."""
    if not isinstance(raw, Mapping):
        raise ResultInvalid({"result": [_("Expected an object describing the game's result.")]})
    if ctx.game == "snap":
        return _normalise_snap(raw, ctx)
    return _normalise_snapszer(raw, ctx)


# --- Snap ---------------------------------------------------------------------------------------


def _elimination_groups(
    raw: Any, ctx: GameContext, errors: dict[str, list[str | Promise]]
) -> list[list[int]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.setdefault("eliminated", []).append(_("List the players in the order they went out."))
        return []
    groups: list[list[int]] = []
    for item in raw:
        members = item if isinstance(item, list) else [item]
        group = []
        for member in members:
            pid = _player_id(member, ctx)
            if pid is None:
                errors.setdefault("eliminated", []).append(
                    _("%(value)s is not a player at this table.") % {"value": member}
                )
            else:
                group.append(pid)
        if group:
            groups.append(group)
    return groups


def _rank_groups(groups_best_first: Sequence[Sequence[int]]) -> dict[str, int]:
    """Competition ranking (1, 2, 2, 4) over groups of players who share a place (S28)."""
    placings: dict[str, int] = {}
    place = 1
    for group in groups_best_first:
        for pid in group:
            placings[str(pid)] = place
        place += len(group)
    return placings


def _normalise_snap(raw: Mapping[str, Any], ctx: GameContext) -> dict[str, Any]:
    errors: dict[str, list[str | Promise]] = {}
    ending = raw.get("ending")
    if ending not in SNAP_ENDINGS:
        raise ResultInvalid(
            {"ending": [_("Choose how the game ended: last player standing, draw or adjudicated.")]}
        )
    eliminated = _elimination_groups(raw.get("eliminated"), ctx, errors)
    counts_raw = raw.get("card_counts") or {}
    counts: dict[int, int] = {}
    if ending == "adjudicated":
        if not isinstance(counts_raw, Mapping) or not counts_raw:
            errors.setdefault("card_counts", []).append(_("Give the card count of every player still in."))
        else:
            for key, value in counts_raw.items():
                pid = _player_id(key, ctx)
                if pid is None:
                    errors.setdefault("card_counts", []).append(
                        _("%(value)s is not a player at this table.") % {"value": key}
                    )
                elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 104:
                    errors.setdefault("card_counts", []).append(
                        _("%(name)s: a player still in holds between 1 and 104 cards.")
                        % {"name": ctx.names[pid]}
                    )
                else:
                    counts[pid] = value
    elif counts_raw:
        errors.setdefault("card_counts", []).append(_("Card counts are only given for an adjudicated game."))
    if errors:
        raise ResultInvalid(errors)

    listed = [pid for group in eliminated for pid in group] + list(counts)
    seen: set[int] = set()
    for pid in listed:
        if pid in seen:
            errors.setdefault("eliminated", []).append(
                _("%(name)s is listed more than once.") % {"name": ctx.names[pid]}
            )
        seen.add(pid)
    remaining = [pid for pid in ctx.player_ids if pid not in seen]

    winner: int | None = None
    if ending == "last_player_standing":
        if len(remaining) != 1:
            errors.setdefault("eliminated", []).append(
                _("List every player but the winner, in the order they went out (%(n)s of %(total)s listed).")
                % {"n": len(seen), "total": len(ctx.player_ids)}
            )
        else:
            winner = remaining[0]
        groups_best_first: list[list[int]] = [remaining, *reversed(eliminated)]
    elif ending == "draw":
        if remaining:
            errors.setdefault("eliminated", []).append(
                _("In a draw every player went out: %(names)s missing.")
                % {"names": ", ".join(ctx.names[p] for p in remaining)}
            )
        elif eliminated and len(eliminated[-1]) < 2:
            errors.setdefault("eliminated", []).append(
                _("A draw means the last players went out together: give them as one group.")
            )
        groups_best_first = list(reversed(eliminated))
    else:
        if remaining:
            errors.setdefault("card_counts", []).append(
                _("Missing from the result: %(names)s.")
                % {"names": ", ".join(ctx.names[p] for p in remaining)}
            )
        if len(counts) < 2:
            errors.setdefault("card_counts", []).append(
                _("An adjudicated game has at least two players still in.")
            )
        by_count: dict[int, list[int]] = {}
        for pid, count in counts.items():
            by_count.setdefault(count, []).append(pid)
        ordered = [sorted(by_count[c]) for c in sorted(by_count, reverse=True)]
        if ordered and len(ordered[0]) == 1:
            winner = ordered[0][0]
        groups_best_first = [*ordered, *reversed(eliminated)]
    if errors:
        raise ResultInvalid(errors)
    return {
        "game": "snap",
        "ending": ending,
        "winner": winner,
        "eliminated": eliminated,
        "card_counts": {str(k): v for k, v in counts.items()} or None,
        "placings": _rank_groups(groups_best_first),
    }


# --- Snapszer -----------------------------------------------------------------------------------

HAND_POINTS = (1, 2, 3, 6)


def _normalise_snapszer(raw: Mapping[str, Any], ctx: GameContext) -> dict[str, Any]:
    errors: dict[str, list[str | Promise]] = {}
    hands_out: list[dict[str, Any]] | None = None
    pot_carried = raw.get("pot_carried", 0)
    if raw.get("hands") is not None:
        hands_out, score, pot_carried = _fold_hands(raw["hands"], ctx, errors)
    else:
        score = {}
        score_raw = raw.get("score")
        if not isinstance(score_raw, Mapping):
            raise ResultInvalid(
                {"score": [_("Give the match score of both players, or the hands one by one.")]}
            )
        for key, value in score_raw.items():
            pid = _player_id(key, ctx)
            if pid is None:
                errors.setdefault("score", []).append(
                    _("%(value)s is not a player at this table.") % {"value": key}
                )
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                errors.setdefault("score", []).append(
                    _("%(name)s: a score is a whole number of game points, 0 or more.")
                    % {"name": ctx.names[pid]}
                )
            else:
                score[pid] = value
        if not errors and set(score) != set(ctx.player_ids):
            errors.setdefault("score", []).append(_("Give the score of both players."))
        if not isinstance(pot_carried, int) or isinstance(pot_carried, bool) or pot_carried < 0:
            errors.setdefault("pot_carried", []).append(
                _("The pot is a whole number of game points, 0 or more.")
            )
    if errors:
        raise ResultInvalid(errors)
    a, b = ctx.player_ids
    problems = match_score_problems(ctx.rules_profile, ctx.rules_options, (score[a], score[b]), pot_carried)
    if problems:
        raise ResultInvalid({"hands" if hands_out is not None else "score": list(problems)})
    winner = a if score[a] > score[b] else b
    loser = b if winner == a else a
    return {
        "game": "snapszer",
        "winner": winner,
        "score": {str(a): score[a], str(b): score[b]},
        "pot_carried": pot_carried,
        "hands": hands_out,
        "placings": {str(winner): 1, str(loser): 2},
    }


def _fold_hands(
    raw: Any, ctx: GameContext, errors: dict[str, list[str | Promise]]
) -> tuple[list[dict[str, Any]], dict[int, int], int]:
    """Add up hands (0–3 game points, 6 for a bid) into a match score, the X29 pot included."""
    score = dict.fromkeys(ctx.player_ids, 0)
    hands: list[dict[str, Any]] = []
    pot = 0
    largest_pot = 0
    if not isinstance(raw, list) or not raw:
        errors.setdefault("hands", []).append(_("List the hands of the match in the order they were played."))
        return hands, score, 0
    for index, hand in enumerate(raw, start=1):
        where = f"hands.{index - 1}"
        if not isinstance(hand, Mapping):
            errors.setdefault(where, []).append(_("Each hand is a winner, its game points and a reason."))
            continue
        reason = str(hand.get("reason") or "")[:40]
        if hand.get("winner") in (None, ""):
            # X29: nobody scores, one game point goes into the pot for the next hand with a winner.
            pot += 1
            hands.append({"winner": None, "points": 0, "reason": reason or "tie"})
            continue
        pid = _player_id(hand.get("winner"), ctx)
        points = hand.get("points")
        if pid is None:
            errors.setdefault(where, []).append(_("Hand %(n)s: choose the winner.") % {"n": index})
            continue
        if points not in HAND_POINTS:
            errors.setdefault(where, []).append(
                _("Hand %(n)s: a hand is worth 1, 2 or 3 game points (6 for a Snapszer bid).") % {"n": index}
            )
            continue
        largest_pot = max(largest_pot, pot)
        score[pid] += points + pot
        hands.append({"winner": pid, "points": points, "pot": pot, "reason": reason})
        pot = 0
    return hands, score, largest_pot


def match_score_problems(
    profile: str, options: Mapping[str, Any], score: tuple[int, int], pot_carried: int
) -> list[str]:
    target = int(options.get("target", 7))
    high, low = max(score), min(score)
    problems = []
    if high < target:
        problems.append(
            _("A match to %(t)s is not over at %(a)s–%(b)s.") % {"t": target, "a": high, "b": low}
        )
    elif low >= target:
        problems.append(_("Only one player can reach %(t)s.") % {"t": target})
    elif high > target - 1 + 3 + pot_carried:
        problems.append(
            _("%(a)s is more than one hand can bring from %(t1)s.") % {"a": high, "t1": target - 1}
        )
    return problems
