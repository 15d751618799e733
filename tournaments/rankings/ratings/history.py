"""A club's ratings recomputed from its whole result history (pure: plain values in, plain values out).

- **Snapszer**: Glicko-2 (:mod:`tournaments.rankings.ratings.glicko2`). One decided two-player series is one
  game (won 1, lost 0; a draw 0.5 cannot happen in a decided series but is handled). The rating
  period is a **club day**: every series whose round was published that day is rated against the
  ratings as they stood before the day, as Glicko-2 intends (a club evening gives a player 3–8
  series, Glickman's recommended 10–15 games per period being more than a club plays in a week).
  Every already rated player who does not play on a club day has their deviation widened once
  (step 6 of the paper): their rating grows less certain with the club's days they miss.
- **Snap**: OpenSkill's Plackett–Luce model on each game's placings (ties share a place), one game
  after another.

Both take :class:`Encounter` values in any order and sort them by :attr:`Encounter.order` (when the
game was played: a series by its round's publishing time, then tournament, stage, round, table,
game number; a ladder match by when its result was decided, then ladder and challenge), never by
when a series' result was confirmed: the same history gives the same ratings however it was
entered or corrected. A ladder match is rated like a two-player series (Snapszer) or one
two-player game (Snap), placed by its score.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Final

from openskill.models import PlackettLuce

from tournaments.rankings.ratings.glicko2 import Glicko, Outcome, rate_period

# OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): tau adds a little uncertainty
# before every game, so a rating keeps moving after many games.
SNAP_MODEL: Final = PlackettLuce()
# The number a Snap rating is shown and sorted by: OpenSkill's ordinal mu - 3 sigma (0 for a new
# player, rising as the rating becomes both higher and more certain).
SNAP_Z: Final = 3.0


@dataclass(frozen=True, slots=True)
class Encounter:
    """One rated game: a decided Snapszer series, one Snap game, or a played ladder match.

    ``order`` sorts encounters by when they were played; ``period`` is the Glicko-2 rating period
    (a club day, e.g. "2026-11-14"); ``placings`` maps every player who played to their place
    (1 = best; equal places for a tie). A ladder match has ``challenge_id`` and no series
    (``series_id`` None).
    """

    order: tuple[object, ...]
    period: str
    series_id: int | None
    game_number: int | None
    placings: Mapping[int, int]
    challenge_id: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """One encounter in a rating point: who the player met and where they finished (in a series'
    game, or in a ladder match: ``challenge_id``)."""

    series_id: int | None
    game_number: int | None
    opponents: tuple[int, ...]
    placing: int
    players: int
    challenge_id: int | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's current rating: ``value`` is what tables show and seeding sorts by (Glicko-2:
    the rating; OpenSkill: mu - 3 sigma); ``mu``/``sigma`` the estimate and its deviation
    (Glicko-2: rating and RD), ``volatility`` Glicko-2's sigma (None for OpenSkill)."""

    value: float
    mu: float
    sigma: float
    volatility: float | None
    played: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one period (Snapszer) or one game (Snap), with what moved it."""

    player_id: int
    seq: int  # 1, 2, … per player
    period: str
    order: tuple[object, ...]  # the order of the (first) encounter that moved it
    rating: Rating
    delta: float  # the change of ``value`` (from the starting value for the first point)
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class RatingHistory:
    current: dict[int, Rating] = field(default_factory=dict)
    points: list[RatingPoint] = field(default_factory=list)


def _sorted(encounters: Iterable[Encounter]) -> list[Encounter]:
    # The order key is unique per encounter; the ids and game number break any tie anyway.
    return sorted(
        encounters, key=lambda e: (e.order, e.series_id or 0, e.challenge_id or 0, e.game_number or 0)
    )


def _move(encounter: Encounter, player: int) -> Move:
    return Move(
        series_id=encounter.series_id,
        game_number=encounter.game_number,
        opponents=tuple(sorted(p for p in encounter.placings if p != player)),
        placing=encounter.placings[player],
        players=len(encounter.placings),
        challenge_id=encounter.challenge_id,
    )


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5


def glicko_rating(glicko: Glicko, played: int) -> Rating:
    return Rating(
        value=glicko.rating, mu=glicko.rating, sigma=glicko.rd, volatility=glicko.volatility, played=played
    )


def snapszer_history(encounters: Iterable[Encounter]) -> RatingHistory:
    """Glicko-2 over decided Snapszer series, one rating period per club day. Series with other
    than two placed players are skipped (they are not a game between two players)."""
    ratings: dict[int, Glicko] = {}
    played: dict[int, int] = {}
    seqs: dict[int, int] = {}
    points: list[RatingPoint] = []
    games = [e for e in _sorted(encounters) if len(e.placings) == 2]
    for period, group in groupby(games, key=lambda e: e.period):
        day = list(group)
        outcomes: dict[int, list[Outcome]] = {}
        moves: dict[int, list[Move]] = {}
        first: dict[int, tuple[object, ...]] = {}
        for encounter in day:
            (a, place_a), (b, place_b) = sorted(encounter.placings.items())
            before_a, before_b = ratings.get(a, Glicko()), ratings.get(b, Glicko())
            outcomes.setdefault(a, []).append(Outcome(before_b, _score(place_a, place_b)))
            outcomes.setdefault(b, []).append(Outcome(before_a, _score(place_b, place_a)))
            for player in (a, b):
                moves.setdefault(player, []).append(_move(encounter, player))
                first.setdefault(player, encounter.order)
        after = {
            player: rate_period(ratings.get(player, Glicko()), results)
            for player, results in outcomes.items()
        }
        for player in sorted(ratings.keys() - after.keys()):
            after[player] = rate_period(ratings[player], ())  # absent this club day
        for player in sorted(outcomes):
            before = ratings.get(player, Glicko()).rating
            played[player] = played.get(player, 0) + len(outcomes[player])
            seqs[player] = seqs.get(player, 0) + 1
            points.append(
                RatingPoint(
                    player_id=player,
                    seq=seqs[player],
                    period=period,
                    order=first[player],
                    rating=glicko_rating(after[player], played[player]),
                    delta=after[player].rating - before,
                    moves=tuple(moves[player]),
                )
            )
        ratings.update(after)
    current = {player: glicko_rating(ratings[player], played[player]) for player in sorted(ratings)}
    return RatingHistory(current=current, points=points)


def snap_value(mu: float, sigma: float) -> float:
    return mu - SNAP_Z * sigma


def snap_history(encounters: Iterable[Encounter]) -> RatingHistory:
    """OpenSkill Plackett–Luce over Snap games, one game after another. A game with fewer than two
    placed players is skipped."""
    model = SNAP_MODEL
    ratings: dict[int, tuple[float, float]] = {}
    played: dict[int, int] = {}
    seqs: dict[int, int] = {}
    points: list[RatingPoint] = []
    start = snap_value(model.mu, model.sigma)
    for encounter in _sorted(encounters):
        if len(encounter.placings) < 2:
            continue
        players = sorted(encounter.placings)
        teams = [[model.rating(*ratings.get(p, (model.mu, model.sigma)))] for p in players]
        rated = model.rate(teams, ranks=[float(encounter.placings[p]) for p in players])
        for player, [new] in zip(players, rated, strict=True):
            before = snap_value(*ratings[player]) if player in ratings else start
            ratings[player] = (new.mu, new.sigma)
            played[player] = played.get(player, 0) + 1
            seqs[player] = seqs.get(player, 0) + 1
            points.append(
                RatingPoint(
                    player_id=player,
                    seq=seqs[player],
                    period=encounter.period,
                    order=encounter.order,
                    rating=Rating(snap_value(new.mu, new.sigma), new.mu, new.sigma, None, played[player]),
                    delta=snap_value(new.mu, new.sigma) - before,
                    moves=(_move(encounter, player),),
                )
            )
    current = {
        p: Rating(snap_value(mu, sigma), mu, sigma, None, played[p])
        for p, (mu, sigma) in sorted(ratings.items())
    }
    return RatingHistory(current=current, points=points)


def order_by_rating(players: Sequence[int], values: Mapping[int, float]) -> list[int]:
    """``players`` best rated first (``values``: player -> rating value); unrated players follow, in
    the order given (the entry list's seed order), as do players with equal ratings."""
    position = {player: index for index, player in enumerate(players)}
    rated = sorted((p for p in players if p in values), key=lambda p: (-values[p], position[p]))
    return rated + [p for p in players if p not in values]
