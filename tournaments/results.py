"""Reading a result as a referee submits it, and checking it, before anything is stored.

Two shapes, one per game (player ids as strings, since they are JSON keys when stored):

Snap (rules/snap.md S19–S21, S28 and "Table play")::

    {"ending": "last_player_standing", "eliminated": [7, [3, 9]]}   # first out first; a list = out together
    {"ending": "draw", "eliminated": [7, [3, 9, 4]]}                 # the last input took everyone left
    {"ending": "adjudicated", "eliminated": [7], "card_counts": {"3": 20, "9": 12, "4": 20}}

Snapszer, one match (rules/snapszer.md X32–X33)::

    {"score": {"3": 7, "9": 4}, "pot_carried": 0}
    {"games": [{"3": 7, "9": 5}, {"3": 2, "9": 7}, {"3": 7, "9": 1}]}    # two games of 7 (snapszer-hu)
    {"hands": [{"winner": 3, "points": 2, "reason": "declared"}, {"winner": null, "reason": "tie_pot"}, ...]}

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

from games.engine.errors import InvalidRules
from games.engine.sixtysix import (
    HandResult,
    Reason,
    RecordedHand,
    SixtySixRules,
    hand_record_problems,
    match_fold,
    match_hands_valid,
    match_score_valid,
    rules_from_options,
)
from snapleague.errors import ApplicationError
from tournaments.engine_messages import problem_messages

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


def snapszer_rules(profile: str, options: Mapping[str, Any]) -> SixtySixRules:
    """The tournament's 66-family rules. Raises ResultInvalid when they cannot be played."""
    try:
        return rules_from_options(options, profile=profile)
    except InvalidRules as exc:
        raise ResultInvalid({"rules": problem_messages(exc.errors)}) from None


def _whole(value: Any, minimum: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _score_pair(
    raw: Any, ctx: GameContext, field: str, errors: dict[str, list[str | Promise]]
) -> tuple[int, int]:
    if not isinstance(raw, Mapping):
        errors.setdefault(field, []).append(_("Give the game points of both players."))
        return (0, 0)
    score: dict[int, int] = {}
    for key, value in raw.items():
        pid = _player_id(key, ctx)
        if pid is None:
            errors.setdefault(field, []).append(
                _("%(value)s is not a player at this table.") % {"value": key}
            )
        elif not _whole(value):
            errors.setdefault(field, []).append(
                _("%(name)s: a score is a whole number of game points, 0 or more.") % {"name": ctx.names[pid]}
            )
        else:
            score[pid] = value
    if set(score) != set(ctx.player_ids):
        errors.setdefault(field, []).append(_("Give the score of both players."))
        return (0, 0)
    a, b = ctx.player_ids
    return (score[a], score[b])


def _recorded_hands(
    raw: Any, ctx: GameContext, rules: SixtySixRules, errors: dict[str, list[str | Promise]]
) -> list[RecordedHand]:
    if not isinstance(raw, list) or not raw:
        errors.setdefault("hands", []).append(_("List the hands of the match in the order they were played."))
        return []
    reasons = ", ".join(r.value for r in Reason)
    hands = []
    for index, hand in enumerate(raw, start=1):
        where = f"hands.{index - 1}"
        if not isinstance(hand, Mapping):
            errors.setdefault(where, []).append(_("Each hand is a winner, its game points and a reason."))
            continue
        winner_raw = hand.get("winner")
        winner = None if winner_raw in (None, "") else _player_id(winner_raw, ctx)
        if winner_raw not in (None, "") and winner is None:
            errors.setdefault(where, []).append(
                _("Hand %(n)s: the winner is not a player at this table.") % {"n": index}
            )
            continue
        points = hand.get("points", 0)
        if not _whole(points):
            errors.setdefault(where, []).append(
                _("Hand %(n)s: game points are a whole number.") % {"n": index}
            )
            continue
        seat = None if winner is None else ctx.player_ids.index(winner)
        if not hand.get("reason"):
            # A referee may give just the winner and the points: take the first way a hand can end
            # that gives them under this profile (a 6 is the bid's, a tie feeds the pot).
            reason = _likely_reason(rules, seat, points)
            hands.append(RecordedHand(winner=seat, game_points=points, reason=reason))
            continue
        try:
            reason = Reason(hand["reason"])
        except ValueError:
            errors.setdefault(where, []).append(
                _("Hand %(n)s: the reason is one of %(reasons)s.") % {"n": index, "reasons": reasons}
            )
            continue
        hands.append(RecordedHand(winner=seat, game_points=points, reason=reason))
    return hands


_REASONS_IN_ORDER = (
    Reason.DECLARED,
    Reason.LAST_TRICK,
    Reason.MORE_POINTS,
    Reason.FAILED_CLOSE,
    Reason.WRONG_DECLARATION,
    Reason.BID_WON,
    Reason.TIE_POT,
    Reason.DRAW,
)


def _likely_reason(rules: SixtySixRules, seat: int | None, points: int) -> Reason:
    """The first reason under which a hand won by ``seat`` for ``points`` is possible (the engine
    then reports the problem with a declared hand if none is)."""
    for reason in _REASONS_IN_ORDER:
        if not hand_record_problems(rules, RecordedHand(winner=seat, game_points=points, reason=reason)):
            return reason
    return Reason.TIE_POT if seat is None else Reason.DECLARED


def _normalise_snapszer(raw: Mapping[str, Any], ctx: GameContext) -> dict[str, Any]:
    """One match: its final score (a list of game scores for two-game profiles), or hand by hand.

    The 66 engine decides what is possible (X33 and the hand rules of its profile).
    """
    rules = snapszer_rules(ctx.rules_profile, ctx.rules_options)
    errors: dict[str, list[str | Promise]] = {}
    pot_carried = raw.get("pot_carried", 0)
    if not _whole(pot_carried):
        errors.setdefault("pot_carried", []).append(_("The pot is a whole number of game points, 0 or more."))
    hands: list[RecordedHand] | None = None
    if raw.get("hands") is not None:
        field = "hands"
        hands = _recorded_hands(raw["hands"], ctx, rules, errors)
        if errors:
            raise ResultInvalid(errors)
        problems = match_hands_valid(rules, hands)
        games: list[tuple[int, int]] = []
        if not problems:
            results = [
                HandResult(h.winner, h.game_points, h.reason, "recorded", (0, 0), (0, 0), (0, 0))
                for h in hands
            ]
            games = list(match_fold(rules, 0, results).game_scores)
    elif raw.get("games") is not None:
        field = "games"
        if not isinstance(raw["games"], list) or not raw["games"]:
            raise ResultInvalid({"games": [_("List the score of each game of the match.")]})
        games = [_score_pair(game, ctx, f"games.{i}", errors) for i, game in enumerate(raw["games"])]
        if errors:
            raise ResultInvalid(errors)
        problems = match_score_valid(rules, games, pot_carried=pot_carried)
    else:
        field = "score"
        if raw.get("score") is None:
            raise ResultInvalid(
                {"score": [_("Give the match score of both players, or the hands one by one.")]}
            )
        games = [_score_pair(raw["score"], ctx, "score", errors)]
        if errors:
            raise ResultInvalid(errors)
        problems = match_score_valid(rules, games[0], pot_carried=pot_carried)
    if problems:
        raise ResultInvalid({field: problem_messages(problems)})
    if errors:
        raise ResultInvalid(errors)
    a, b = ctx.player_ids
    won = [sum(1 for g in games if g[0] > g[1]), sum(1 for g in games if g[1] > g[0])]
    winner, loser = (a, b) if won[0] > won[1] else (b, a)
    return {
        "game": "snapszer",
        "winner": winner,
        # Game points of the whole match (all its games): the standings' game-point difference.
        "score": {str(a): sum(g[0] for g in games), str(b): sum(g[1] for g in games)},
        "games": [{str(a): g[0], str(b): g[1]} for g in games] if len(games) > 1 else None,
        "pot_carried": pot_carried,
        "hands": (
            [
                {
                    "winner": None if h.winner is None else ctx.player_ids[h.winner],
                    "points": h.game_points,
                    "reason": h.reason.value,
                }
                for h in hands
            ]
            if hands is not None
            else None
        ),
        "placings": {str(winner): 1, str(loser): 2},
    }
