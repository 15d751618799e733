"""A game's result as a value: one frozen value per game kind, and the JSON it is stored as.

Pure: no Django, no clock, no randomness. This module is the only one that knows the stored JSON
(``GameResult.data``); everything else reads a value (``GameResult.value``) and its properties.

- :class:`SnapTableResult`: one Snap game (rules/snap.md S19–S21, S28, S42 and "Table play"): who
  played, how it ended (last player standing, draw, adjudicated with card counts), who went out
  when (players out together form a group), and each player's wrong calls.
- :class:`SnapszerMatchResult`: one Snapszer match (rules/snapszer.md X29–X33): the final score of
  each game of the match and, when it was entered hand by hand (or played online), every hand with
  its winner, game points and reason. ``hands is None`` means only the score was entered.
- :class:`VoidResult`: the version that voids a game (docs/results.md, "Void games").

A value is built three ways, all giving the same value for the same game: parsed from what a
referee or an API client sends (``tournaments/competitions/results/payload.py``, which also checks the result
against the table and the rules), read back from storage (:func:`result_from_json`), and from a
finished engine game (:func:`result_from_engine`). Constructors check the value's own invariants
(every player placed once, a game with a winner …) and raise ``ValueError``: a value that breaks
them is a bug or a corrupt row, never user input (the payload parser reports those first, with
messages). Player ids are ints; seat order is the series' seat order.

Stored JSON, format version 2 (``"v": 2``). Keys marked *derived* are written for readers of the
raw JSON (the API's ``data``, SQL) and checked against the value when it is read back::

    {"v": 2, "game": "snap", "players": [3, 9, 4, 7], "ending": "last_player_standing",
     "eliminated": [[7], [4, 9]], "card_counts": {}, "wrong_calls": {"3": 0, "9": 2, "4": 0, "7": 1},
     "winner": 3, "placings": {"3": 1, "9": 2, "4": 2, "7": 4}}                    # derived: winner, placings
    {"v": 2, "game": "snapszer", "players": [3, 9], "games": [{"3": 7, "9": 4}], "pot_carried": 0,
     "hands": [{"winner": 3, "points": 2, "reason": "declared"}, ...] | null,
     "winner": 3, "score": {"3": 7, "9": 4}, "placings": {"3": 1, "9": 2}}      # derived: winner, score, placings
    {"v": 2, "void": true, "voided_by_correction_of": 2}

Version 1 (before the format had a version) had no ``v``, ``players``, ``wrong_calls`` nor
``void``; migration ``tournaments/0003`` rewrote every row to version 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Final, NamedTuple

from games.engine.protocol import GameKind
from games.engine.sixtysix import MatchResult, Reason
from games.engine.snap import EndReason, SnapResult

FORMAT_VERSION: Final = 2

# S20: the most personal cards anyone can hold at an adjudication (two packs, the double104 deck).
MAX_CARDS: Final = 104


class SnapEnding(StrEnum):
    """How a Snap game ended (S18–S20), as a referee says it."""

    LAST_PLAYER_STANDING = "last_player_standing"  # S18
    DRAW = "draw"  # S19: the last players went out together
    ADJUDICATED = "adjudicated"  # S20: most personal cards wins; equal counts draw


def _whole(value: object, minimum: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def rank_groups(groups_best_first: Iterable[Iterable[int]]) -> dict[int, int]:
    """Competition ranking (1, 2, 2, 4) over groups of players who share a place (S28)."""
    placings: dict[int, int] = {}
    place = 1
    for group in groups_best_first:
        members = list(group)
        for player in members:
            placings[player] = place
        place += len(members)
    return placings


def _keyed(mapping: Mapping[int, int]) -> dict[str, int]:
    return {str(player): value for player, value in mapping.items()}


def _unkeyed(raw: Any, what: str) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        raise ValueError(f"stored {what} is not an object: {raw!r}")
    return {int(key): value for key, value in raw.items()}


@dataclass(frozen=True, slots=True)
class SnapTableResult:
    """One Snap game at a table (S19–S21, S28).

    ``players`` played the game, in seat order. ``eliminated`` lists who went out, first out first;
    a group went out together (one input eliminated them all, S28). ``card_counts`` gives, for an
    adjudicated game only, the personal cards of each player still in (S20). ``wrong_calls`` counts
    each player's wrong calls in the game (S42 uses the series' totals in sudden death); a player
    left out counts 0.
    """

    players: tuple[int, ...]
    ending: SnapEnding
    eliminated: tuple[tuple[int, ...], ...]
    card_counts: Mapping[int, int] = field(default_factory=dict)
    wrong_calls: Mapping[int, int] = field(default_factory=dict)

    kind: ClassVar[GameKind] = GameKind.SNAP

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "ending", SnapEnding(self.ending))
        object.__setattr__(self, "eliminated", tuple(tuple(group) for group in self.eliminated))
        object.__setattr__(self, "card_counts", dict(self.card_counts))
        strangers = set(self.wrong_calls) - set(self.players)
        if strangers:
            raise ValueError(f"wrong calls of players who did not play: {sorted(strangers)}")
        object.__setattr__(self, "wrong_calls", {p: self.wrong_calls.get(p, 0) for p in self.players})
        problem = self._problem()
        if problem:
            raise ValueError(f"not a Snap result: {problem} ({self!r})")

    def _problem(self) -> str:
        players = self.players
        if len(players) < 2 or len(set(players)) != len(players):
            return "a game has two or more different players"
        out = [p for group in self.eliminated for p in group]
        if any(not group for group in self.eliminated):
            return "an empty group went out"
        if len(set(out)) != len(out) or not set(out) <= set(players):
            return "everyone who went out played, and went out once"
        if not all(_whole(n) for n in self.wrong_calls.values()):
            return "wrong calls are counts"
        left = self.still_in
        if self.ending is SnapEnding.LAST_PLAYER_STANDING:
            if len(left) != 1 or self.card_counts:
                return "exactly one player is left, with no card counts"
        elif self.ending is SnapEnding.DRAW:
            if left or len(self.eliminated[-1]) < 2 or self.card_counts:
                return "in a draw the last two or more went out together, with no card counts"
        elif set(self.card_counts) != set(left) or len(left) < 2:
            return "an adjudication gives the card count of each of the two or more players still in"
        elif not all(_whole(n, 1) and n <= MAX_CARDS for n in self.card_counts.values()):
            return f"a player still in holds 1 to {MAX_CARDS} cards"
        return ""

    @property
    def still_in(self) -> tuple[int, ...]:
        """The players who never went out, in seat order (the winner; those adjudicated)."""
        out = {p for group in self.eliminated for p in group}
        return tuple(p for p in self.players if p not in out)

    @property
    def placing_groups(self) -> tuple[tuple[int, ...], ...]:
        """S21: who shares which place, best first."""
        if self.ending is SnapEnding.LAST_PLAYER_STANDING:
            top: list[tuple[int, ...]] = [self.still_in]
        elif self.ending is SnapEnding.DRAW:
            top = []
        else:
            counts = sorted(set(self.card_counts.values()), reverse=True)
            top = [tuple(sorted(p for p, n in self.card_counts.items() if n == count)) for count in counts]
        return (*top, *reversed(self.eliminated))

    @property
    def placings(self) -> dict[int, int]:
        """Each player's place, competition ranking (S28): a draw shares first place."""
        return rank_groups(self.placing_groups)

    @property
    def winner(self) -> int | None:
        """The winner; None for a draw (S19) or equal top card counts at an adjudication (S20)."""
        first = self.placing_groups[0]
        return first[0] if self.ending is not SnapEnding.DRAW and len(first) == 1 else None

    @property
    def game_points(self) -> None:
        """Snap has no points (S21)."""
        return None

    def in_seat_order(self, players: Sequence[int]) -> SnapTableResult:
        """The same result with ``players`` (the same players) in that order."""
        if sorted(players) != sorted(self.players):
            raise ValueError(f"{list(players)} are not the players of this result")
        return replace(self, players=tuple(players))

    def to_json(self) -> dict[str, Any]:
        return {
            "v": FORMAT_VERSION,
            "game": str(self.kind),
            "players": list(self.players),
            "ending": str(self.ending),
            "eliminated": [list(group) for group in self.eliminated],
            "card_counts": _keyed(self.card_counts),
            "wrong_calls": _keyed(self.wrong_calls),
            "winner": self.winner,
            "placings": _keyed(self.placings),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SnapTableResult:
        """Read a stored version-2 Snap result. Raises ValueError on anything else."""
        _check_header(data, cls.kind)
        value = cls(
            players=tuple(int(p) for p in data["players"]),
            ending=SnapEnding(data["ending"]),
            eliminated=tuple(tuple(int(p) for p in group) for group in data["eliminated"]),
            card_counts=_unkeyed(data.get("card_counts", {}), "card counts"),
            wrong_calls=_unkeyed(data.get("wrong_calls", {}), "wrong calls"),
        )
        _check_derived(data, value)
        return value

    @classmethod
    def from_engine(cls, result: SnapResult, players: Sequence[int]) -> SnapTableResult:
        """The result of a finished engine game; ``players[seat]`` sat in ``seat``."""
        if len(players) != len(result.placings):
            raise ValueError(f"{len(result.placings)} seats, {len(players)} players")
        if result.ended_by is EndReason.LAST_PLAYER:
            ending = SnapEnding.LAST_PLAYER_STANDING
        elif result.ended_by is EndReason.NOBODY_LEFT:
            ending = SnapEnding.DRAW
        else:
            ending = SnapEnding.ADJUDICATED
        out = {seat for group in result.elimination_order for seat in group}
        value = cls(
            players=tuple(players),
            ending=ending,
            eliminated=tuple(tuple(players[seat] for seat in group) for group in result.elimination_order),
            card_counts=(
                {players[s]: result.cards[s] for s in range(len(players)) if s not in out}
                if ending is SnapEnding.ADJUDICATED
                else {}
            ),
            wrong_calls={players[s]: n for s, n in enumerate(result.wrong_calls)},
        )
        engine_placings = {players[s]: place for s, place in enumerate(result.placings)}
        if value.placings != engine_placings:
            raise ValueError(f"the engine placed {engine_placings}, the value {value.placings}")
        return value


@dataclass(frozen=True, slots=True)
class SnapszerHand:
    """One hand of a match: its winner (None: nobody won it, X29), game points (without any pot
    it takes, 0 without a winner) and why it ended (X20–X31)."""

    winner: int | None
    points: int
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "reason": str(self.reason)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SnapszerHand:
        winner = data.get("winner")
        return cls(None if winner is None else int(winner), data["points"], Reason(data["reason"]))


@dataclass(frozen=True, slots=True)
class SnapszerMatchResult:
    """One Snapszer match (X32–X33) between ``players`` (seat order).

    ``games`` holds the final score of each game of the match (one game in most profiles, two or
    three in ``snapszer-hu``), by ``players``. ``hands`` holds every hand when the match was entered
    hand by hand or played online, and is None when only the score was entered: the games are then
    what was entered, and otherwise what the hands add up to (folded when the result was checked
    against the rules). ``pot_carried`` is the pot a referee says was carried into the deciding
    hand of a score-only match (X33 allows the winner that much more).
    """

    players: tuple[int, int]
    games: tuple[tuple[int, int], ...]
    hands: tuple[SnapszerHand, ...] | None = None
    pot_carried: int = 0

    kind: ClassVar[GameKind] = GameKind.SNAPSZER

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "games", tuple((game[0], game[1]) for game in self.games))
        if self.hands is not None:
            object.__setattr__(self, "hands", tuple(self.hands))
        problem = self._problem()
        if problem:
            raise ValueError(f"not a Snapszer match: {problem} ({self!r})")

    def _problem(self) -> str:
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            return "a match has two different players"
        if not self.games or not all(_whole(a) and _whole(b) and a != b for a, b in self.games):
            return "each game has a final score with a winner"
        won = self.games_won
        if won[0] == won[1]:
            return "the match has a winner"
        if not _whole(self.pot_carried):
            return "the pot carried is 0 or more"
        for hand in self.hands or ():
            if hand.winner is not None and hand.winner not in self.players:
                return "a hand's winner played the match"
            if not _whole(hand.points) or (hand.winner is None and hand.points):
                return "a hand gives its winner 0 or more game points, a hand nobody won none"
        return ""

    @property
    def games_won(self) -> tuple[int, int]:
        return (sum(1 for a, b in self.games if a > b), sum(1 for a, b in self.games if b > a))

    @property
    def winner(self) -> int:
        won = self.games_won
        return self.players[0] if won[0] > won[1] else self.players[1]

    @property
    def loser(self) -> int:
        return self.players[1] if self.winner == self.players[0] else self.players[0]

    @property
    def score(self) -> dict[int, int]:
        """Game points of the whole match (all its games), by player: the standings' difference."""
        a, b = self.players
        return {a: sum(g[0] for g in self.games), b: sum(g[1] for g in self.games)}

    @property
    def placings(self) -> dict[int, int]:
        return {self.winner: 1, self.loser: 2}

    @property
    def game_points(self) -> dict[int, int]:
        return self.score

    @property
    def wrong_calls(self) -> None:
        """Snapszer has no calls."""
        return None

    @property
    def entered_by_hand(self) -> bool:
        return self.hands is not None

    def in_seat_order(self, players: Sequence[int]) -> SnapszerMatchResult:
        """The same match with ``players`` (the same two) in that order."""
        if tuple(players) == self.players:
            return self
        if tuple(players) != self.players[::-1]:
            raise ValueError(f"{list(players)} are not the players of this match")
        return replace(self, players=self.players[::-1], games=tuple((b, a) for a, b in self.games))

    def to_json(self) -> dict[str, Any]:
        a, b = self.players
        return {
            "v": FORMAT_VERSION,
            "game": str(self.kind),
            "players": [a, b],
            "games": [{str(a): x, str(b): y} for x, y in self.games],
            "pot_carried": self.pot_carried,
            "hands": None if self.hands is None else [hand.to_json() for hand in self.hands],
            "winner": self.winner,
            "score": _keyed(self.score),
            "placings": _keyed(self.placings),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SnapszerMatchResult:
        """Read a stored version-2 Snapszer result. Raises ValueError on anything else."""
        _check_header(data, cls.kind)
        a, b = (int(p) for p in data["players"])
        hands = data.get("hands")
        value = cls(
            players=(a, b),
            games=tuple((game[str(a)], game[str(b)]) for game in data["games"]),
            hands=None if hands is None else tuple(SnapszerHand.from_json(h) for h in hands),
            pot_carried=data.get("pot_carried", 0),
        )
        _check_derived(data, value)
        return value

    @classmethod
    def from_engine(cls, result: MatchResult, players: Sequence[int]) -> SnapszerMatchResult:
        """The result of a match played through the 66 engine; ``players[seat]`` sat in ``seat``."""
        if len(players) != 2:
            raise ValueError(f"a match has two players, not {len(players)}")
        value = cls(
            players=(players[0], players[1]),
            games=result.game_scores,
            hands=tuple(
                SnapszerHand(None if h.winner is None else players[h.winner], h.game_points, h.reason)
                for h in result.hands
            ),
        )
        if value.winner != players[result.winner]:
            raise ValueError(f"the engine's winner is seat {result.winner}, the games say {value.winner}")
        return value


@dataclass(frozen=True, slots=True)
class VoidResult:
    """The version that voids a game: a correction of game ``corrected_game`` decided the series
    before it, so it counts for nothing (the result it had stays in the version before)."""

    corrected_game: int

    def to_json(self) -> dict[str, Any]:
        return {"v": FORMAT_VERSION, "void": True, "voided_by_correction_of": self.corrected_game}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VoidResult:
        if data.get("v") != FORMAT_VERSION or data.get("void") is not True:
            raise ValueError(f"not a stored void result: {data!r}")
        return cls(int(data["voided_by_correction_of"]))


# What a played game's result is, and what one result version holds.
PlayedResult = SnapTableResult | SnapszerMatchResult
ResultValue = PlayedResult | VoidResult

PLAYED: Final[Mapping[GameKind, type[SnapTableResult] | type[SnapszerMatchResult]]] = {
    GameKind.SNAP: SnapTableResult,
    GameKind.SNAPSZER: SnapszerMatchResult,
}


def _check_header(data: Mapping[str, Any], kind: GameKind) -> None:
    if data.get("v") != FORMAT_VERSION or data.get("game") != kind:
        raise ValueError(f"not a stored version-{FORMAT_VERSION} {kind} result: {data!r}")


def _check_derived(data: Mapping[str, Any], value: PlayedResult) -> None:
    """The derived keys, when stored, agree with the value (else the row was edited by hand)."""
    for key in ("winner", "placings", "score"):
        if key not in data:
            continue
        # What to_json would store, computed alone (to_json also writes every hand: standings read
        # thousands of rows).
        derived = getattr(value, key, None)
        if key != "winner" and derived is not None:
            derived = _keyed(derived)
        if data[key] != derived:
            raise ValueError(f"stored {key} {data[key]!r} disagrees with the result ({derived!r})")


def result_from_json(data: Mapping[str, Any]) -> ResultValue:
    """The value a stored result version holds. Raises ValueError for anything but version 2."""
    if data.get("v") != FORMAT_VERSION:
        raise ValueError(f"stored result of format version {data.get('v', 1)!r}, not {FORMAT_VERSION}")
    if data.get("void"):
        return VoidResult.from_json(data)
    try:
        return PLAYED[GameKind(str(data.get("game")))].from_json(data)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"stored result is missing {exc}: {data!r}") from exc


class StoredOutcome(NamedTuple):
    """What the standings read of a stored played result: placings, and wrong calls (Snap) or game
    points (Snapszer), by player."""

    placings: dict[int, int]
    wrong_calls: dict[int, int] | None
    game_points: dict[int, int] | None


def stored_outcome(data: Mapping[str, Any]) -> StoredOutcome | None:
    """The outcome of a stored version-2 result read from its derived keys, without rebuilding the
    value (a 1,024-player Swiss has thousands of results: docs/benchmarks.md); None for a void
    version. The derived keys are what ``to_json`` wrote and :func:`result_from_json` checks; a row
    without them is read through the value. Raises ValueError as :func:`result_from_json` does."""
    if data.get("v") != FORMAT_VERSION:
        raise ValueError(f"stored result of format version {data.get('v', 1)!r}, not {FORMAT_VERSION}")
    if data.get("void"):
        return None
    try:
        placings = {int(p): int(place) for p, place in data["placings"].items()}
        if data.get("game") == GameKind.SNAP:
            wrong = {int(p): int(n) for p, n in data.get("wrong_calls", {}).items()}
            return StoredOutcome(placings, wrong, None)
        return StoredOutcome(placings, None, {int(p): int(n) for p, n in data["score"].items()})
    except (KeyError, TypeError, AttributeError, ValueError):
        value = result_from_json(data)
        assert not isinstance(value, VoidResult)
        return StoredOutcome(value.placings, value.wrong_calls, value.game_points)


def result_from_engine(result: SnapResult | MatchResult, players: Sequence[int]) -> PlayedResult:
    """The value of a finished engine game (a Snap game, or a Snapszer match); ``players[seat]``
    is the player who sat in ``seat``. Raises ValueError if they do not fit the result."""
    if isinstance(result, SnapResult):
        return SnapTableResult.from_engine(result, players)
    return SnapszerMatchResult.from_engine(result, players)
