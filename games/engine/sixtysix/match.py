"""Match scoring (rules/snapszer.md X32) as a pure fold over hand results, and the X33 checks a
referee's recorded score must pass.

Scores are game points won in the current game. A countdown profile (`schnapsen`, the Bummerl)
only shows them differently: ``remaining = target - score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.engine.errors import ActionCode, IllegalAction, InvalidRules, Problem, ProblemCode
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


class MatchRecordProblem(ProblemCode):
    """What the X33 checks of a recorded match report (codes and their params).

    ``a``/``b`` are the game points of seat 0 and seat 1 as recorded; a problem about one game of a
    several-game match also carries ``game``, one about a recorded hand ``hand`` (1-based).
    """

    NO_MATCH = "match_no_match", ("profile",)
    NO_POT = "match_no_pot", ("profile", "pot")
    POT_NEGATIVE = "match_pot_negative", ("pot",)
    GAMES_AFTER_DECIDED = "match_games_after_decided", ("decided_by", "recorded")
    GAMES_NOT_DECIDED = "match_games_not_decided", ("games_to_win", "a", "b")
    ONE_GAME_PER_MATCH = "match_one_game_per_match", ("profile", "recorded")
    SCORE_NOT_TWO_NUMBERS = "match_score_not_two_numbers", ("value",)
    SCORE_NEGATIVE = "match_score_negative", ("a", "b")
    SCORE_BELOW_TARGET = "match_score_below_target", ("a", "b", "target")
    SCORE_BOTH_REACHED = "match_score_both_reached", ("a", "b", "target")
    SCORE_TOO_HIGH = "match_score_too_high", ("a", "b", "most", "target", "award")
    HAND_ENDING_NOT_IN_PROFILE = "match_hand_ending_not_in_profile", ("reason", "profile")
    HAND_NO_WINNER_EXPECTED = "match_hand_no_winner_expected", ("reason",)
    HAND_NO_POINTS_EXPECTED = "match_hand_no_points_expected", ("reason",)
    HAND_WINNER_NEEDED = "match_hand_winner_needed", ("reason",)
    HAND_NO_CLOSING = "match_hand_no_closing", ("profile",)
    HAND_LAST_TRICK_DOES_NOT_WIN = "match_hand_last_trick_does_not_win", ("profile",)
    HAND_LAST_TRICK_DECIDES = "match_hand_last_trick_decides", ("profile",)
    HAND_NO_BID = "match_hand_no_bid", ("profile",)
    HAND_REACHED_66_NO_MATCH = "match_hand_reached_66_no_match", ("reason",)
    HAND_WRONG_POINTS = "match_hand_wrong_points", ("reason", "allowed", "points")
    HANDS_AFTER_DECIDED = "match_hands_after_decided", ("decided_after",)
    HANDS_NOT_DECIDED = "match_hands_not_decided", ("hands", "a", "b")


class HandScore(Protocol):
    """What the match fold reads of one hand: who won it, its game points (without any pot) and why.

    A played hand's :class:`HandResult` and a referee's :class:`RecordedHand` both are one, so a
    recorded match is folded as it was entered, with no made-up card points.
    """

    @property
    def winner(self) -> Seat | None: ...

    @property
    def game_points(self) -> int: ...

    @property
    def reason(self) -> Reason: ...


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


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match, as a tournament series records it: every hand in order and who won.

    ``game_scores`` are the final scores of every game of the match (one game in most profiles,
    X32); ``hands`` are the hand results the match was folded from (pot hands included).
    """

    profile: str
    first_dealer: Seat
    winner: Seat
    game_scores: tuple[tuple[int, int], ...]
    hands: tuple[HandResult, ...]

    @staticmethod
    def of(rules: SixtySixRules, first_dealer: Seat, hands: Iterable[HandResult]) -> MatchResult:
        """The result of the match ``hands`` decide; raises ValueError when they do not decide it."""
        hands = tuple(hands)
        match = match_fold(rules, first_dealer, hands)
        if match.winner is None:
            raise ValueError(f"{len(hands)} hands do not decide a {rules.name} match")
        return MatchResult(rules.name, first_dealer, match.winner, match.game_scores, hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "first_dealer": self.first_dealer,
            "winner": self.winner,
            "game_scores": [list(g) for g in self.game_scores],
            "hands": [h.to_dict() for h in self.hands],
        }


def new_match(rules: SixtySixRules, first_dealer: Seat) -> MatchState:
    """A match at 0-0; ``first_dealer`` was chosen by lot (X4). Raises InvalidRules without a match."""
    if rules.match is None:
        raise InvalidRules(
            [
                Problem(
                    MatchRecordProblem.NO_MATCH,
                    f"profile {rules.name!r} plays single hands: it has no match (X32)",
                    profile=rules.name,
                )
            ]
        )
    if first_dealer not in (0, 1):
        raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
    return MatchState(rules, (0, 0), (0, 0), (), 0, first_dealer, 0, None)


def match_apply(match: MatchState, result: HandScore) -> MatchState:
    """The match after one more hand (X29, X32). Raises IllegalAction: "game_over" if the match is
    over, "not_legal" if the result cannot happen under the profile (a tie it does not have)."""
    if match.winner is not None:
        raise IllegalAction(ActionCode.GAME_OVER, "the match already has a winner")
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
        raise IllegalAction(
            ActionCode.NOT_LEGAL, f"a hand without a winner ({result.reason}) under {rules.name!r}"
        )
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


def match_fold(rules: SixtySixRules, first_dealer: Seat, results: Iterable[HandScore]) -> MatchState:
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
) -> list[Problem]:
    """X33: the problems with a recorded match score; an empty list means it is valid.

    ``rules`` is a rules object or a profile name (an unknown name is reported as a problem).

    ``score`` is the final (seat 0, seat 1) game points of a one-game match, or for a profile of
    several games (`snapszer-hu`, "two games of 7") the list of each game's final score in order.
    ``pot_carried`` is the pot the referee says was carried into the deciding hand (X29).
    """
    try:
        rules = _rules(rules)
    except InvalidRules as exc:
        return _coded(exc)
    problems: list[Problem] = []
    if rules.match is None:
        return [
            Problem(
                MatchRecordProblem.NO_MATCH,
                f"profile {rules.name!r} plays single hands: there is no match score to record",
                profile=rules.name,
            )
        ]
    fmt = rules.match
    if pot_carried and rules.equal_points is not EqualPoints.POT:
        problems.append(
            Problem(
                MatchRecordProblem.NO_POT,
                f"profile {rules.name!r} has no pot, but a pot of {pot_carried} was given",
                profile=rules.name,
                pot=pot_carried,
            )
        )
    if pot_carried < 0:
        problems.append(
            Problem(MatchRecordProblem.POT_NEGATIVE, "the pot carried cannot be negative", pot=pot_carried)
        )
    if len(score) == 2 and all(isinstance(x, int) for x in score):
        games: list[tuple[int, int]] = [score]  # type: ignore[list-item]
    else:
        games = list(score)  # type: ignore[arg-type]
    if fmt.games_to_win > 1:
        wins = [0, 0]
        for number, game in enumerate(games, 1):
            game_problems = _game_problems(rules, game, pot_carried, number)
            problems += game_problems
            if not game_problems:
                game_winner = 0 if game[0] > game[1] else 1
                wins[game_winner] += 1
                if max(wins) >= fmt.games_to_win and number < len(games):
                    problems.append(
                        Problem(
                            MatchRecordProblem.GAMES_AFTER_DECIDED,
                            f"game {number} already decided the match, but {len(games)} games were recorded",
                            decided_by=number,
                            recorded=len(games),
                        )
                    )
                    break
        if not problems and max(wins) < fmt.games_to_win:
            problems.append(
                Problem(
                    MatchRecordProblem.GAMES_NOT_DECIDED,
                    f"nobody has won {fmt.games_to_win} games (games won {wins[0]}-{wins[1]}): "
                    "the match is not over",
                    games_to_win=fmt.games_to_win,
                    a=wins[0],
                    b=wins[1],
                )
            )
        return problems
    if len(games) != 1:
        return [
            *problems,
            Problem(
                MatchRecordProblem.ONE_GAME_PER_MATCH,
                f"profile {rules.name!r} plays one game per match, but {len(games)} games were recorded",
                profile=rules.name,
                recorded=len(games),
            ),
        ]
    return problems + _game_problems(rules, games[0], pot_carried, None)


def _coded(exc: InvalidRules) -> list[Problem]:
    """The problems of an InvalidRules from the rules module, which codes every one of them."""
    problems = [p for p in exc.errors if isinstance(p, Problem)]
    if len(problems) != len(exc.errors):
        raise exc  # a bug: an uncoded problem must not pass for a valid score
    return problems


def _game_problems(
    rules: SixtySixRules, game: tuple[int, int], pot_carried: int, number: int | None
) -> list[Problem]:
    """X33 for one game's final score; ``number`` is the game's place in a several-game match."""
    assert rules.match is not None
    target = rules.match.target
    label = "the score" if number is None else f"game {number}"
    where: dict[str, object] = {} if number is None else {"game": number}
    if len(game) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in game):
        return [
            Problem(
                MatchRecordProblem.SCORE_NOT_TWO_NUMBERS,
                f"{label} must be two whole numbers, not {game!r}",
                value=game,
                **where,
            )
        ]
    a, b = game
    if a < 0 or b < 0:
        return [
            Problem(
                MatchRecordProblem.SCORE_NEGATIVE,
                f"{label} {a}-{b}: game points cannot be negative",
                a=a,
                b=b,
                **where,
            )
        ]
    high, low = max(a, b), min(a, b)
    problems = []
    if high < target:
        problems.append(
            Problem(
                MatchRecordProblem.SCORE_BELOW_TARGET,
                f"{label} {a}-{b}: nobody has reached the target of {target}",
                a=a,
                b=b,
                target=target,
                **where,
            )
        )
    elif low >= target:
        problems.append(
            Problem(
                MatchRecordProblem.SCORE_BOTH_REACHED,
                f"{label} {a}-{b}: both players reached the target of {target}; the match stops at the first",
                a=a,
                b=b,
                target=target,
                **where,
            )
        )
    else:
        award = largest_award(rules, pot_carried)
        most = target - 1 + award
        if high > most:
            problems.append(
                Problem(
                    MatchRecordProblem.SCORE_TOO_HIGH,
                    f"{label} {a}-{b}: the winner can have at most {most} (the target {target} - 1 + the "
                    f"largest award of one hand, {award})",
                    a=a,
                    b=b,
                    most=most,
                    target=target,
                    award=award,
                    **where,
                )
            )
    return problems


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """One hand as a referee records it at a table: who won, how many game points, and why."""

    winner: Seat | None
    game_points: int
    reason: Reason


def hand_record_problems(rules: SixtySixRules, hand: RecordedHand) -> list[Problem]:
    """The problems with one recorded hand under ``rules`` (X21, X27-X31)."""
    reason = hand.reason
    name = rules.name
    allowed: set[int]
    if reason in (Reason.TIE_POT, Reason.DRAW):
        wanted = EqualPoints.POT if reason is Reason.TIE_POT else EqualPoints.REDEAL
        if rules.equal_points is not wanted:
            return [
                Problem(
                    MatchRecordProblem.HAND_ENDING_NOT_IN_PROFILE,
                    f"{reason.value!r} does not happen under {name!r} (equal points: {rules.equal_points.value})",
                    reason=reason.value,
                    profile=name,
                )
            ]
        problems = []
        if hand.winner is not None:
            problems.append(
                Problem(
                    MatchRecordProblem.HAND_NO_WINNER_EXPECTED,
                    f"a {reason.value!r} hand has no winner",
                    reason=reason.value,
                )
            )
        if hand.game_points != 0:
            problems.append(
                Problem(
                    MatchRecordProblem.HAND_NO_POINTS_EXPECTED,
                    f"a {reason.value!r} hand gives no game points",
                    reason=reason.value,
                )
            )
        return problems
    if hand.winner not in (0, 1):
        return [
            Problem(
                MatchRecordProblem.HAND_WINNER_NEEDED,
                f"a {reason.value!r} hand needs a winner (seat 0 or 1)",
                reason=reason.value,
            )
        ]
    if reason is Reason.DECLARED:
        allowed = {1, 2, 3}
    elif reason is Reason.WRONG_DECLARATION:
        allowed = {2} if rules.wrong_declaration is WrongDeclaration.TWO else {2, 3}
    elif reason is Reason.FAILED_CLOSE:
        if rules.min_talon_close is None:
            return [
                Problem(
                    MatchRecordProblem.HAND_NO_CLOSING, f"there is no closing under {name!r}", profile=name
                )
            ]
        allowed = {3} if rules.failed_close_three_if is FailedCloseThreeIf.ALWAYS else {2, 3}
    elif reason is Reason.LAST_TRICK:
        if rules.nobody_declares is not NobodyDeclares.LAST_TRICK_WINS_1:
            return [
                Problem(
                    MatchRecordProblem.HAND_LAST_TRICK_DOES_NOT_WIN,
                    f"the last trick alone wins no hand under {name!r}",
                    profile=name,
                )
            ]
        allowed = {1}
    elif reason is Reason.MORE_POINTS:
        if rules.nobody_declares is NobodyDeclares.LAST_TRICK_WINS_1:
            return [
                Problem(
                    MatchRecordProblem.HAND_LAST_TRICK_DECIDES,
                    f"under {name!r} the last trick, not more points, decides an undeclared hand",
                    profile=name,
                )
            ]
        allowed = {1, 2, 3}
    elif reason in (Reason.BID_WON, Reason.BID_LOST):
        if rules.bid_points is None:
            return [Problem(MatchRecordProblem.HAND_NO_BID, f"there is no bid under {name!r}", profile=name)]
        allowed = {rules.bid_points}
    else:  # REACHED_66
        return [
            Problem(
                MatchRecordProblem.HAND_REACHED_66_NO_MATCH,
                f"{reason.value!r} only ends hands of schnapsen-lite, which has no match",
                reason=reason.value,
            )
        ]
    if hand.game_points not in allowed:
        return [
            Problem(
                MatchRecordProblem.HAND_WRONG_POINTS,
                f"a {reason.value!r} hand gives {' or '.join(str(x) for x in sorted(allowed))} game points, "
                f"not {hand.game_points}",
                reason=reason.value,
                allowed=tuple(sorted(allowed)),
                points=hand.game_points,
            )
        ]
    return []


def match_hands_valid(
    rules: SixtySixRules | str, hands: Sequence[RecordedHand], first_dealer: Seat = 0
) -> list[Problem]:
    """X33 for table play recorded hand by hand: each hand must be possible under ``rules`` (or the
    named profile), and the match must be decided by the last hand, not before. Returns the
    problems (empty: valid)."""
    try:
        rules = _rules(rules)
    except InvalidRules as exc:
        return _coded(exc)
    if rules.match is None:
        return [
            Problem(
                MatchRecordProblem.NO_MATCH,
                f"profile {rules.name!r} plays single hands: there is no match to record",
                profile=rules.name,
            )
        ]
    problems: list[Problem] = []
    for number, hand in enumerate(hands, 1):
        problems += [p.in_hand(number) for p in hand_record_problems(rules, hand)]
    if problems:
        return problems
    match = new_match(rules, first_dealer)
    for number, hand in enumerate(hands, 1):
        if match.is_over:
            after = Problem(
                MatchRecordProblem.HANDS_AFTER_DECIDED,
                f"the match was already decided after hand {number - 1}",
                decided_after=number - 1,
            )
            return [after.in_hand(number)]
        match = match_apply(match, hand)
    if not match.is_over:
        return [
            Problem(
                MatchRecordProblem.HANDS_NOT_DECIDED,
                f"the match is not decided after {len(hands)} hands (score {match.scores[0]}-{match.scores[1]})",
                hands=len(hands),
                a=match.scores[0],
                b=match.scores[1],
            )
        ]
    return []
