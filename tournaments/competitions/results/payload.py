"""Reading a result as a referee or an API client submits it, at the edge, into a value.

The page form and the API's result field both call :func:`parse_result` with the
:class:`ResultTable` the game is played at, before any lock is taken; the service gets the value
(``tournaments/competitions/results/values.py``). Three shapes are submitted (player ids as numbers or strings,
since they are JSON keys):

Snap (rules/snap.md S19–S21, S28, S42 and "Table play")::

    {"ending": "last_player_standing", "eliminated": [7, [3, 9]]}   # first out first; a list = out together
    {"ending": "draw", "eliminated": [7, [3, 9, 4]]}                 # the last input took everyone left
    {"ending": "adjudicated", "eliminated": [7], "card_counts": {"3": 20, "9": 12, "4": 20}}
    ... and optionally "wrong_calls": {"3": 1, "9": 0}              # per player, 0 when left out

Snapszer, one match (rules/snapszer.md X29–X33)::

    {"score": {"3": 7, "9": 4}, "pot_carried": 0}
    {"games": [{"3": 7, "9": 5}, {"3": 2, "9": 7}, {"3": 7, "9": 1}]}    # two games of 7 (snapszer-hu)
    {"hands": [{"winner": 3, "points": 2, "reason": "declared"}, {"winner": null, "reason": "tie_pot"}, ...]}

The score and game-by-game shapes become a match of those games with ``hands`` None; the hands
shape keeps every hand (a hand without a reason gets the first reason its points allow under the
profile) and the games they add up to. What does not fit the table or the rules raises
``ResultInvalid`` with field errors a referee can act on, named as in the payload.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.errors import InvalidRules
from games.engine.protocol import GameKind
from games.engine.sixtysix import (
    Reason,
    RecordedHand,
    SixtySixRules,
    hand_record_problems,
    match_fold,
    match_hands_valid,
    match_score_valid,
    rules_from_options,
)
from games.engine_messages import problem_messages
from snapleague.errors import ApplicationError
from tournaments.competitions.results.values import (
    MAX_CARDS,
    PlayedResult,
    SnapEnding,
    SnapszerHand,
    SnapszerMatchResult,
    SnapTableResult,
)

SNAP_ENDINGS = tuple(str(ending) for ending in SnapEnding)

Errors = dict[str, list[str | Promise]]


class ResultInvalid(ApplicationError):
    """A submitted result that cannot be recorded: 400 ``result_invalid``, with field errors named
    as in the payload (``eliminated``, ``card_counts``, ``wrong_calls``, ``score``, ``hands.2`` …)."""

    def __init__(self, fields: Mapping[str, list[str | Promise]]) -> None:
        super().__init__(
            code="result_invalid", message=_("This result cannot be recorded as it is."), fields=fields
        )


@dataclass(frozen=True)
class ResultTable:
    """What a submitted result is read against: the game's kind, the players who play it (seat
    order; in sudden death only the tied ones), their names for the messages, and for Snapszer the
    tournament's rules (:func:`snapszer_rules`)."""

    kind: GameKind
    players: tuple[int, ...]
    names: Mapping[int, str] = field(default_factory=dict)
    rules: SixtySixRules | None = None

    def name(self, player: int) -> str:
        return self.names.get(player, f"#{player}")


def snapszer_rules(profile: str, options: Mapping[str, Any]) -> SixtySixRules:
    """The tournament's 66-family rules. Raises ResultInvalid when they cannot be played."""
    try:
        return rules_from_options(options, profile=profile)
    except InvalidRules as exc:
        raise ResultInvalid({"rules": problem_messages(exc.errors)}) from None


def parse_result(raw: Any, table: ResultTable) -> PlayedResult:
    """The value of ``raw``, a result as submitted for a game at ``table``. Raises ResultInvalid."""
    if not isinstance(raw, Mapping):
        raise ResultInvalid({"result": [_("Expected an object describing the game's result.")]})
    if table.kind == GameKind.SNAP:
        return _snap(raw, table)
    return _snapszer(raw, table)


def _player_id(value: Any, table: ResultTable) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        pid = int(value)
    except (TypeError, ValueError):
        return None
    return pid if pid in table.players else None


def _whole(value: Any, minimum: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _not_at_table(value: Any) -> str | Promise:
    return _("%(value)s is not a player at this table.") % {"value": value}


# --- Snap ---------------------------------------------------------------------------------------


def _elimination_groups(raw: Any, table: ResultTable, errors: Errors) -> list[list[int]]:
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
            pid = _player_id(member, table)
            if pid is None:
                errors.setdefault("eliminated", []).append(_not_at_table(member))
            else:
                group.append(pid)
        if group:
            groups.append(group)
    return groups


def _per_player_counts(
    raw: Any, table: ResultTable, name: str, errors: Errors, *, minimum: int, maximum: int | None
) -> dict[int, int]:
    """A ``{player: count}`` object (card counts, wrong calls); problems go to ``errors[name]``."""
    counts: dict[int, int] = {}
    for key, value in raw.items():
        pid = _player_id(key, table)
        if pid is None:
            errors.setdefault(name, []).append(_not_at_table(key))
        elif not _whole(value, minimum) or (maximum is not None and value > maximum):
            message = (
                _("%(name)s: a player still in holds between 1 and 104 cards.")
                if name == "card_counts"
                else _("%(name)s: wrong calls are a whole number, 0 or more.")
            )
            errors.setdefault(name, []).append(message % {"name": table.name(pid)})
        else:
            counts[pid] = value
    return counts


def _snap(raw: Mapping[str, Any], table: ResultTable) -> SnapTableResult:
    errors: Errors = {}
    ending = raw.get("ending")
    if ending not in SNAP_ENDINGS:
        raise ResultInvalid(
            {"ending": [_("Choose how the game ended: last player standing, draw or adjudicated.")]}
        )
    eliminated = _elimination_groups(raw.get("eliminated"), table, errors)
    counts_raw = raw.get("card_counts") or {}
    counts: dict[int, int] = {}
    if ending == SnapEnding.ADJUDICATED:
        if not isinstance(counts_raw, Mapping) or not counts_raw:
            errors.setdefault("card_counts", []).append(_("Give the card count of every player still in."))
        else:
            counts = _per_player_counts(
                counts_raw, table, "card_counts", errors, minimum=1, maximum=MAX_CARDS
            )
    elif counts_raw:
        errors.setdefault("card_counts", []).append(_("Card counts are only given for an adjudicated game."))
    wrong_raw = raw.get("wrong_calls") or {}
    wrong_calls: dict[int, int] = {}
    if not isinstance(wrong_raw, Mapping):
        errors.setdefault("wrong_calls", []).append(
            _("Give the wrong calls as a number for each player (0 if left out).")
        )
    else:
        wrong_calls = _per_player_counts(wrong_raw, table, "wrong_calls", errors, minimum=0, maximum=None)
    if errors:
        raise ResultInvalid(errors)

    listed = [pid for group in eliminated for pid in group] + list(counts)
    seen: set[int] = set()
    for pid in listed:
        if pid in seen:
            errors.setdefault("eliminated", []).append(
                _("%(name)s is listed more than once.") % {"name": table.name(pid)}
            )
        seen.add(pid)
    remaining = [pid for pid in table.players if pid not in seen]

    if ending == SnapEnding.LAST_PLAYER_STANDING:
        if len(remaining) != 1:
            errors.setdefault("eliminated", []).append(
                _("List every player but the winner, in the order they went out (%(n)s of %(total)s listed).")
                % {"n": len(seen), "total": len(table.players)}
            )
    elif ending == SnapEnding.DRAW:
        if remaining:
            errors.setdefault("eliminated", []).append(
                _("In a draw every player went out: %(names)s missing.")
                % {"names": ", ".join(table.name(p) for p in remaining)}
            )
        elif eliminated and len(eliminated[-1]) < 2:
            errors.setdefault("eliminated", []).append(
                _("A draw means the last players went out together: give them as one group.")
            )
    else:
        if remaining:
            errors.setdefault("card_counts", []).append(
                _("Missing from the result: %(names)s.")
                % {"names": ", ".join(table.name(p) for p in remaining)}
            )
        if len(counts) < 2:
            errors.setdefault("card_counts", []).append(
                _("An adjudicated game has at least two players still in.")
            )
    if errors:
        raise ResultInvalid(errors)
    return SnapTableResult(
        players=table.players,
        ending=SnapEnding(ending),
        eliminated=tuple(tuple(group) for group in eliminated),
        card_counts=counts,
        wrong_calls=wrong_calls,
    )


# --- Snapszer -----------------------------------------------------------------------------------


def _score_pair(raw: Any, table: ResultTable, name: str, errors: Errors) -> tuple[int, int]:
    if not isinstance(raw, Mapping):
        errors.setdefault(name, []).append(_("Give the game points of both players."))
        return (0, 0)
    score: dict[int, int] = {}
    for key, value in raw.items():
        pid = _player_id(key, table)
        if pid is None:
            errors.setdefault(name, []).append(_not_at_table(key))
        elif not _whole(value):
            errors.setdefault(name, []).append(
                _("%(name)s: a score is a whole number of game points, 0 or more.")
                % {"name": table.name(pid)}
            )
        else:
            score[pid] = value
    if set(score) != set(table.players):
        errors.setdefault(name, []).append(_("Give the score of both players."))
        return (0, 0)
    a, b = table.players
    return (score[a], score[b])


def _recorded_hands(raw: Any, table: ResultTable, rules: SixtySixRules, errors: Errors) -> list[RecordedHand]:
    """The hands as the 66 engine records them (winner by seat 0/1)."""
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
        winner = None if winner_raw in (None, "") else _player_id(winner_raw, table)
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
        seat = None if winner is None else table.players.index(winner)
        if not hand.get("reason"):
            # A referee may give just the winner and the points: take the first way a hand can end
            # that gives them under this profile (a 6 is the bid's, a tie feeds the pot).
            hands.append(
                RecordedHand(winner=seat, game_points=points, reason=_likely_reason(rules, seat, points))
            )
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


def _snapszer(raw: Mapping[str, Any], table: ResultTable) -> SnapszerMatchResult:
    """One match: its final score (a list of game scores for two-game profiles), or hand by hand.

    The 66 engine decides what is possible (X33 and the hand rules of its profile).
    """
    if table.rules is None:
        raise ValueError("a Snapszer result is read against the tournament's rules")
    rules = table.rules
    errors: Errors = {}
    pot_carried = raw.get("pot_carried", 0)
    if not _whole(pot_carried):
        errors.setdefault("pot_carried", []).append(_("The pot is a whole number of game points, 0 or more."))
    hands: list[RecordedHand] | None = None
    games: list[tuple[int, int]] = []
    if raw.get("hands") is not None:
        name = "hands"
        hands = _recorded_hands(raw["hands"], table, rules, errors)
        if errors:
            raise ResultInvalid(errors)
        problems = match_hands_valid(rules, hands)
        if not problems:
            games = list(match_fold(rules, 0, hands).game_scores)
    elif raw.get("games") is not None:
        name = "games"
        if not isinstance(raw["games"], list) or not raw["games"]:
            raise ResultInvalid({"games": [_("List the score of each game of the match.")]})
        games = [_score_pair(game, table, f"games.{i}", errors) for i, game in enumerate(raw["games"])]
        if errors:
            raise ResultInvalid(errors)
        problems = match_score_valid(rules, games, pot_carried=pot_carried)
    else:
        name = "score"
        if raw.get("score") is None:
            raise ResultInvalid(
                {"score": [_("Give the match score of both players, or the hands one by one.")]}
            )
        games = [_score_pair(raw["score"], table, "score", errors)]
        if errors:
            raise ResultInvalid(errors)
        problems = match_score_valid(rules, games[0], pot_carried=pot_carried)
    if problems:
        raise ResultInvalid({name: problem_messages(problems)})
    if errors:
        raise ResultInvalid(errors)
    a, b = table.players
    return SnapszerMatchResult(
        players=(a, b),
        games=tuple(games),
        hands=(
            None
            if hands is None
            else tuple(
                SnapszerHand(None if h.winner is None else table.players[h.winner], h.game_points, h.reason)
                for h in hands
            )
        ),
        pot_carried=pot_carried,
    )


def result_payload(value: PlayedResult) -> dict[str, Any]:
    """The submitted shape of ``value``: what :func:`parse_result` reads back into the same value
    (the correction form starts from it; API clients may send it back)."""
    if isinstance(value, SnapTableResult):
        payload: dict[str, Any] = {
            "ending": str(value.ending),
            "eliminated": [list(group) for group in value.eliminated],
            "wrong_calls": {str(p): n for p, n in value.wrong_calls.items()},
        }
        if value.card_counts:
            payload["card_counts"] = {str(p): n for p, n in value.card_counts.items()}
        return payload
    a, b = value.players
    if value.hands is not None:
        return {"hands": [h.to_json() for h in value.hands], "pot_carried": value.pot_carried}
    games = [{str(a): x, str(b): y} for x, y in value.games]
    if len(games) == 1:
        return {"score": games[0], "pot_carried": value.pot_carried}
    return {"games": games, "pot_carried": value.pot_carried}
