"""Match scoring (rules/snapszer.md X32) as a pure fold over hand results, and the X33 checks a
referee's recorded score must pass.

Scores are game points won in the current game. A countdown profile (`schnapsen`, the Bummerl)
only shows them differently: ``remaining = target - score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.errors import IllegalAction, InvalidRules
from games.engine.sixtysix.rules import (
    EqualPoints,
    FailedCloseThreeIf,
    MatchFormat,
    NextDealer,
    NobodyDeclares,
    SixtySixRules,
    WrongDeclaration,
    profile,
)
from games.engine.sixtysix.state import HandResult, Reason, Seat


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match after some hands. ``dealer`` deals the next hand; ``pot`` is X29's carried points."""

    rules: SixtySixRules
    scores: tuple[int, int]
    games_won: tuple[int, int]
    game_scores: tuple[tuple[int, int], ...]  # final scores of finished games (X33 records them)
    pot: int
    dealer: Seat
    hands_played: int
    winner: Seat | None

    @property
    def format(self) -> MatchFormat:
        assert self.rules.match is not None  # new_match refuses profiles without a match
        return self.rules.match

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def remaining(self) -> tuple[int, int]:
        """Countdown display (Schnapsen): game points each seat still needs."""
        target = self.format.target
        return (max(0, target - self.scores[0]), max(0, target - self.scores[1]))

    @property
    def bummerl(self) -> Seat | None:
        """The seat that lost a countdown match (got the Bummerl), once it is over."""
        if self.winner is None or not self.format.countdown:
            return None
        return 1 - self.winner

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.rules.name,
            "scores": list(self.scores),
            "games_won": list(self.games_won),
            "game_scores": [list(g) for g in self.game_scores],
            "pot": self.pot,
            "dealer": self.dealer,
            "hands_played": self.hands_played,
            "winner": self.winner,
            "remaining": list(self.remaining) if self.format.countdown else None,
            "bummerl": self.bummerl,
        }


def new_match(rules: SixtySixRules, first_dealer: Seat) -> MatchState:
    """A match at 0-0; ``first_dealer`` was chosen by lot (X4). Raises InvalidRules without a match."""
    if rules.match is None:
        raise InvalidRules([f"profile {rules.name!r} plays single hands: it has no match (X32)"])
    if first_dealer not in (0, 1):
        raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
    return MatchState(rules, (0, 0), (0, 0), (), 0, first_dealer, 0, None)


def match_apply(match: MatchState, result: HandResult) -> MatchState:
    """The match after one more hand (X29, X32). Raises IllegalAction if the match is over or the
    result cannot happen under the profile (a tie the profile does not have)."""
    if match.winner is not None:
        raise IllegalAction("match_over", "the match already has a winner")
    rules = match.rules
    fmt = match.format
    hands = match.hands_played + 1
    winner = result.winner
    if winner is None:
        if result.reason is Reason.TIE_POT and rules.equal_points is EqualPoints.POT:
            # X29: 1 game point into the pot; the deal still alternates.
            return MatchState(
                rules,
                match.scores,
                match.games_won,
                match.game_scores,
                match.pot + 1,
                1 - match.dealer,
                hands,
                None,
            )
        if result.reason is Reason.DRAW and rules.equal_points is EqualPoints.REDEAL:
            # X29: a draw, the same dealer deals again.
            return MatchState(
                rules, match.scores, match.games_won, match.game_scores, match.pot, match.dealer, hands, None
            )
        raise IllegalAction("not_legal", f"a hand without a winner ({result.reason}) under {rules.name!r}")
    award = result.game_points + match.pot  # X29: the winner adds the whole pot
    scores = (
        (match.scores[0] + award, match.scores[1])
        if winner == 0
        else (match.scores[0], match.scores[1] + award)
    )
    dealer = 1 - match.dealer if rules.next_dealer is NextDealer.ALTERNATE else winner
    games_won = match.games_won
    game_scores = match.game_scores
    match_winner: Seat | None = None
    if scores[winner] >= fmt.target:
        games_won = (games_won[0] + 1, games_won[1]) if winner == 0 else (games_won[0], games_won[1] + 1)
        game_scores = (*game_scores, scores)
        if games_won[winner] >= fmt.games_to_win:
            match_winner = winner
        else:
            scores = (0, 0)  # X32 snapszer-hu: the next game restarts at 0-0, the deal keeps alternating
    return MatchState(rules, scores, games_won, game_scores, 0, dealer, hands, match_winner)


def match_fold(rules: SixtySixRules, first_dealer: Seat, results: Iterable[HandResult]) -> MatchState:
    """The match after ``results`` in order (a pure fold of :func:`match_apply`)."""
    match = new_match(rules, first_dealer)
    for result in results:
        match = match_apply(match, result)
    return match


# --- X33: validating what a referee records ---------------------------------------------------


def _rules(rules: SixtySixRules | str) -> SixtySixRules:
    return profile(rules) if isinstance(rules, str) else rules


def largest_award(rules: SixtySixRules, pot_carried: int = 0) -> int:
    """X33: the most one hand can give: 3 (6 with the bid), plus a pot carried into it."""
    return max(3, rules.bid_points or 0) + pot_carried


def match_score_valid(
    rules: SixtySixRules | str, score: tuple[int, int] | Sequence[tuple[int, int]], *, pot_carried: int = 0
) -> list[str]:
    """X33: the problems with a recorded match score; an empty list means it is valid.

    ``rules`` is a rules object or a profile name (an unknown name is reported as a problem).

    ``score`` is the final (seat 0, seat 1) game points of a one-game match, or for a profile of
    several games (`snapszer-hu`, "two games of 7") the list of each game's final score in order.
    ``pot_carried`` is the pot the referee says was carried into the deciding hand (X29).
    """
    try:
        rules = _rules(rules)
    except InvalidRules as exc:
        return exc.errors
    problems: list[str] = []
    if rules.match is None:
        return [f"profile {rules.name!r} plays single hands: there is no match score to record"]
    fmt = rules.match
    if pot_carried and rules.equal_points is not EqualPoints.POT:
        problems.append(f"profile {rules.name!r} has no pot, but a pot of {pot_carried} was given")
    if pot_carried < 0:
        problems.append("the pot carried cannot be negative")
    if len(score) == 2 and all(isinstance(x, int) for x in score):
        games: list[tuple[int, int]] = [score]  # type: ignore[list-item]
    else:
        games = list(score)  # type: ignore[arg-type]
    if fmt.games_to_win > 1:
        wins = [0, 0]
        for number, game in enumerate(games, 1):
            game_problems = _game_problems(rules, game, pot_carried, f"game {number}")
            problems += game_problems
            if not game_problems:
                game_winner = 0 if game[0] > game[1] else 1
                wins[game_winner] += 1
                if max(wins) >= fmt.games_to_win and number < len(games):
                    problems.append(
                        f"game {number} already decided the match, but {len(games)} games were recorded"
                    )
                    break
        if not problems and max(wins) < fmt.games_to_win:
            problems.append(
                f"nobody has won {fmt.games_to_win} games (games won {wins[0]}-{wins[1]}): "
                "the match is not over"
            )
        return problems
    if len(games) != 1:
        return [
            *problems,
            f"profile {rules.name!r} plays one game per match, but {len(games)} games were recorded",
        ]
    return problems + _game_problems(rules, games[0], pot_carried, "the score")


def _game_problems(rules: SixtySixRules, game: tuple[int, int], pot_carried: int, label: str) -> list[str]:
    assert rules.match is not None
    target = rules.match.target
    if len(game) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in game):
        return [f"{label} must be two whole numbers, not {game!r}"]
    a, b = game
    if a < 0 or b < 0:
        return [f"{label} {a}-{b}: game points cannot be negative"]
    high, low = max(a, b), min(a, b)
    problems = []
    if high < target:
        problems.append(f"{label} {a}-{b}: nobody has reached the target of {target}")
    elif low >= target:
        problems.append(
            f"{label} {a}-{b}: both players reached the target of {target}; the match stops at the first"
        )
    else:
        most = target - 1 + largest_award(rules, pot_carried)
        if high > most:
            problems.append(
                f"{label} {a}-{b}: the winner can have at most {most} (the target {target} - 1 + the largest "
                f"award of one hand, {largest_award(rules, pot_carried)})"
            )
    return problems


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """One hand as a referee records it at a table: who won, how many game points, and why."""

    winner: Seat | None
    game_points: int
    reason: Reason


def hand_record_problems(rules: SixtySixRules, hand: RecordedHand) -> list[str]:
    """The problems with one recorded hand under ``rules`` (X21, X27-X31)."""
    reason = hand.reason
    allowed: set[int]
    if reason in (Reason.TIE_POT, Reason.DRAW):
        wanted = EqualPoints.POT if reason is Reason.TIE_POT else EqualPoints.REDEAL
        if rules.equal_points is not wanted:
            return [
                f"{reason.value!r} does not happen under {rules.name!r} "
                f"(equal points: {rules.equal_points.value})"
            ]
        problems = []
        if hand.winner is not None:
            problems.append(f"a {reason.value!r} hand has no winner")
        if hand.game_points != 0:
            problems.append(f"a {reason.value!r} hand gives no game points")
        return problems
    if hand.winner not in (0, 1):
        return [f"a {reason.value!r} hand needs a winner (seat 0 or 1)"]
    if reason is Reason.DECLARED:
        allowed = {1, 2, 3}
    elif reason is Reason.WRONG_DECLARATION:
        allowed = {2} if rules.wrong_declaration is WrongDeclaration.TWO else {2, 3}
    elif reason is Reason.FAILED_CLOSE:
        if rules.min_talon_close is None:
            return [f"there is no closing under {rules.name!r}"]
        allowed = {3} if rules.failed_close_three_if is FailedCloseThreeIf.ALWAYS else {2, 3}
    elif reason is Reason.LAST_TRICK:
        if rules.nobody_declares is not NobodyDeclares.LAST_TRICK_WINS_1:
            return [f"the last trick alone wins no hand under {rules.name!r}"]
        allowed = {1}
    elif reason is Reason.MORE_POINTS:
        if rules.nobody_declares is NobodyDeclares.LAST_TRICK_WINS_1:
            return [f"under {rules.name!r} the last trick, not more points, decides an undeclared hand"]
        allowed = {1, 2, 3}
    elif reason in (Reason.BID_WON, Reason.BID_LOST):
        if rules.bid_points is None:
            return [f"there is no bid under {rules.name!r}"]
        allowed = {rules.bid_points}
    else:  # REACHED_66
        return [f"{reason.value!r} only ends hands of schnapsen-lite, which has no match"]
    if hand.game_points not in allowed:
        return [
            f"a {reason.value!r} hand gives {' or '.join(str(x) for x in sorted(allowed))} game points, "
            f"not {hand.game_points}"
        ]
    return []


def match_hands_valid(
    rules: SixtySixRules | str, hands: Sequence[RecordedHand], first_dealer: Seat = 0
) -> list[str]:
    """X33 for table play recorded hand by hand: each hand must be possible under ``rules`` (or the
    named profile), and the match must be decided by the last hand, not before. Returns the
    problems (empty: valid)."""
    try:
        rules = _rules(rules)
    except InvalidRules as exc:
        return exc.errors
    if rules.match is None:
        return [f"profile {rules.name!r} plays single hands: there is no match to record"]
    problems: list[str] = []
    for number, hand in enumerate(hands, 1):
        problems += [f"hand {number}: {p}" for p in hand_record_problems(rules, hand)]
    if problems:
        return problems
    match = new_match(rules, first_dealer)
    for number, hand in enumerate(hands, 1):
        if match.is_over:
            return [f"hand {number}: the match was already decided after hand {number - 1}"]
        result = HandResult(hand.winner, hand.game_points, hand.reason, "recorded", (0, 0), (0, 0), (0, 0))
        match = match_apply(match, result)
    if not match.is_over:
        return [
            f"the match is not decided after {len(hands)} hands (score {match.scores[0]}-{match.scores[1]})"
        ]
    return []
