"""A stage's standings, any format: round robin's chain, and every format's (the finish in a bracket,
placement points, byes, forfeits, walkovers). Pure. The chain's decisions: ``chain.py``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.standings.chain import (
    BRACKET_PHASES,
    STAGE_TIEBREAKS,
    THIRD_PLACE_PHASE,
    TWO_SEAT_TIEBREAKS,
    ByeScore,
    FinishHow,
    SeriesRecord,
    Standings,
    StandingsError,
    StandingsErrorCode,
    Tiebreak,
    TiebreakValue,
    checked_chain,
    checked_entrants,
    coin_flip_value,
    default_chain,
    ranked_standings,
    record_status,
)


def round_robin_standings(
    entrants: Sequence[PlayerId],
    series: Iterable[SeriesRecord],
    *,
    game: GameKind,
    stage_seed: str,
    chain: Sequence[Tiebreak | str] | None = None,
    byes: Iterable[PlayerId] = (),
    bye_score: ByeScore = ByeScore.WIN,
) -> Standings:
    """Standings of a two-seat round robin.

    ``series``: every series of the stage with its confirmed games (undecided ones are left out of
    the counts); ``byes``: one entry per bye a player has received. ``chain`` (None or empty) defaults to
    :func:`default_chain`. Rows list every entrant, even one without a series.

    Raises StandingsError: "invalid_chain" (a tiebreak that does not apply, or listed twice),
    "duplicate_entrant", "unknown_player" (a bye names a non-entrant), "series_seats" (a series
    does not seat two different entrants), "invalid_series" (its games break the series rules;
    ``extra`` has the index, the series' error code and game index, and its players by seat).
    """
    tiebreaks = checked_chain(chain or default_chain(game), TWO_SEAT_TIEBREAKS, game)
    players = checked_entrants(entrants)
    known = set(players)

    def check_seats(index: int, record: SeriesRecord) -> None:
        if len(record.seats) != 2 or len(set(record.seats)) != 2 or not set(record.seats) <= known:
            raise StandingsError(
                StandingsErrorCode.SERIES_SEATS,
                "Each series of a two-seat round robin seats two different entrants.",
                {"series": index, "players": [str(p) for p in record.seats]},
            )

    return _stage_rank(
        players,
        list(series),
        tiebreaks,
        game=game,
        stage_seed=stage_seed,
        byes=byes,
        bye_score=bye_score,
        check=check_seats,
    )


def stage_standings(
    entrants: Sequence[PlayerId],
    series: Iterable[SeriesRecord],
    *,
    game: GameKind,
    stage_seed: str,
    chain: Sequence[Tiebreak | str],
    byes: Iterable[PlayerId] = (),
    bye_score: ByeScore = ByeScore.WIN,
    placement_scale: Sequence[int] | None = None,
) -> Standings:
    """Standings of a stage of any format (Swiss, elimination, groups, heats, Swiss tables) over
    its series of 2-6 seats, by ``chain`` (the format's default list or the organiser's).

    Values (rules/tournaments.md "Standings and tiebreaks"; decisions also in docs/formats.md):
    - series won: 1 per series finished first (shared first place: 1 / number sharing it, so a drawn
      two-seat series is worth ½), plus the byes (``bye_score``);
    - placement points: per decided series, ``placement_scale[place - 1]`` (0 past its end), by
      default seats − place (3-6 seats: 1st = seats − 1 … last = 0; two seats: 1 and 0); a forfeit 0;
    - firsts: series finished first; average placing: the mean place over decided series, a
      forfeit counting as last (lower is better; None before any);
    - Buchholz: the sum of the series won of every opponent (every table-mate) of each decided series;
      median Buchholz drops the highest and the lowest of those when there are 3 or more;
      Sonneborn-Berger: the same over the opponents finished above (½ for those level);
      table-mates' points: the sum of the placement points of every table-mate of each decided series;
    - depth: the last stage round (``SeriesRecord.round``) the player had a series in;
    - finish (bracket stages): the player's place by the bracket, from the last series of a bracket
      phase they played (:data:`BRACKET_PHASES`): a later stage round is better; in the same round
      any series is better than the third-place series; then the place in that series (a forfeit
      last, an undecided series as first: still in). So the champion is 1st, the runner-up 2nd, the
      third-place series' winner 3rd and loser 4th, then everyone by the round they went out in.
      Players level on that share the finish (competition ranking); players without a bracket
      series (out in the groups) share the place after all of them;
    - head-to-head: when every series is two-seat, series won among the tied players if each pair of
      them met equally often (as round robin); otherwise how often each finished ahead of another
      tied player in the games they played together;
    - games won, placing sum, game-point difference and the coin flip as :func:`round_robin_standings`.

    Raises StandingsError: "invalid_chain", "duplicate_entrant", "unknown_player" (a bye),
    "series_players" (a series does not seat 2-6 different entrants), "invalid_series_result" (a
    ``result`` that does not rank its seats), "invalid_series" (the games break the series rules).
    """
    tiebreaks = checked_chain(chain, STAGE_TIEBREAKS, game)
    players = checked_entrants(entrants)
    known = set(players)

    def check_record(index: int, record: SeriesRecord) -> None:
        if (
            not 2 <= len(record.seats) <= 6
            or len(set(record.seats)) != len(record.seats)
            or not (set(record.seats) <= known)
        ):
            raise StandingsError(
                StandingsErrorCode.SERIES_PLAYERS,
                "Each series seats 2 to 6 different entrants of the stage.",
                {"series": index, "players": [str(p) for p in record.seats]},
            )
        if record.result is not None and not _ranks(record.result, len(record.seats)):
            raise StandingsError(
                StandingsErrorCode.INVALID_SERIES_RESULT,
                "The result does not rank the players of the series.",
                {"series": index, "result": ["—" if p is None else repr(p) for p in record.result]},
            )

    return _stage_rank(
        players,
        list(series),
        tiebreaks,
        game=game,
        stage_seed=stage_seed,
        byes=byes,
        bye_score=bye_score,
        placement_scale=placement_scale,
        check=check_record,
    )


@dataclass(frozen=True, slots=True)
class _Decided:
    """A decided series as the standings read it: placings per seat (None = forfeit) and the game
    tallies per seat."""

    record: SeriesRecord
    placings: tuple[int | None, ...]
    games_won: tuple[int, ...]
    placing_sums: tuple[int, ...]
    game_points: tuple[int, ...]


def _stage_rank(
    players: tuple[PlayerId, ...],
    records: list[SeriesRecord],
    tiebreaks: tuple[Tiebreak, ...],
    *,
    game: GameKind,
    stage_seed: str,
    byes: Iterable[PlayerId],
    bye_score: ByeScore,
    placement_scale: Sequence[int] | None = None,
    check: Callable[[int, SeriesRecord], None],
) -> Standings:
    """The rows of :func:`stage_standings` (and :func:`round_robin_standings`); ``check`` refuses
    a record before it is read (in order, so the first bad series is the one reported)."""
    known = set(players)
    bye_counts = Counter(byes)
    strangers = sorted({str(p) for p in bye_counts if p not in known})
    if strangers:
        raise StandingsError(
            StandingsErrorCode.UNKNOWN_PLAYER,
            "A bye names a player who is not an entrant.",
            {"players": strangers},
        )
    decided: list[_Decided] = []
    in_progress: Counter[PlayerId] = Counter()
    depth: Counter[PlayerId] = Counter()
    last_bracket: dict[PlayerId, tuple[tuple[int, int, int], FinishHow, int]] = {}
    for index, record in enumerate(records):
        check(index, record)
        for player in record.seats:
            depth[player] = max(depth[player], record.round)
        outcome = _decided(record, game, index)
        if outcome is None:
            in_progress.update(record.seats)
        else:
            decided.append(outcome)
        if record.phase in BRACKET_PHASES:
            for seat, player in enumerate(record.seats):
                entry = _bracket_exit(record, seat, outcome)
                if player not in last_bracket or entry[0] > last_bracket[player][0]:
                    last_bracket[player] = entry
    finish = _finish_places(players, last_bracket) if Tiebreak.FINISH in tiebreaks else {}

    series_won: dict[PlayerId, float] = {p: bye_counts[p] * bye_score.points for p in players}
    games_won: Counter[PlayerId] = Counter()
    placing_sum: Counter[PlayerId] = Counter()
    point_difference: Counter[PlayerId] = Counter()
    played: Counter[PlayerId] = Counter()
    placement: Counter[PlayerId] = Counter()
    firsts: Counter[PlayerId] = Counter()
    places: dict[PlayerId, list[int]] = {p: [] for p in players}
    for outcome in decided:
        seats = outcome.record.seats
        sharing_first = outcome.placings.count(1)
        for seat, player in enumerate(seats):
            place = outcome.placings[seat]
            played[player] += 1
            series_won[player] += 1.0 / sharing_first if place == 1 else 0.0
            firsts[player] += place == 1
            placement[player] += _placement_points(place, len(seats), placement_scale)
            places[player].append(len(seats) if place is None else place)
            games_won[player] += outcome.games_won[seat]
            placing_sum[player] += outcome.placing_sums[seat]
            point_difference[player] += outcome.game_points[seat] - sum(
                points for other, points in enumerate(outcome.game_points) if other != seat
            )
    opponents: dict[PlayerId, list[float]] = {p: [] for p in players}
    sonneborn_berger: dict[PlayerId, float] = dict.fromkeys(players, 0.0)
    mates_points: Counter[PlayerId] = Counter()
    for outcome in decided:
        seats = outcome.record.seats
        for seat, player in enumerate(seats):
            mine = _rank_key(outcome.placings[seat], len(seats))
            for other, mate in enumerate(seats):
                if other == seat:
                    continue
                opponents[player].append(series_won[mate])
                mates_points[player] += placement[mate]
                theirs = _rank_key(outcome.placings[other], len(seats))
                if outcome.placings[seat] is not None and mine <= theirs:
                    sonneborn_berger[player] += series_won[mate] * (1.0 if mine < theirs else 0.5)

    def median(scores: list[float]) -> float:
        trimmed = sorted(scores)[1:-1] if len(scores) >= 3 else scores
        return float(sum(trimmed))

    own: dict[Tiebreak, Callable[[PlayerId], TiebreakValue]] = {
        Tiebreak.SERIES_WON: lambda p: series_won[p],
        Tiebreak.GAMES_WON: lambda p: games_won[p],
        Tiebreak.PLACING_SUM: lambda p: placing_sum[p],
        Tiebreak.GAME_POINT_DIFFERENCE: lambda p: point_difference[p],
        Tiebreak.BUCHHOLZ: lambda p: float(sum(opponents[p])),
        Tiebreak.SONNEBORN_BERGER: lambda p: sonneborn_berger[p],
        Tiebreak.COIN_FLIP: lambda p: coin_flip_value(stage_seed, p),
        Tiebreak.MEDIAN_BUCHHOLZ: lambda p: median(opponents[p]),
        Tiebreak.PLACEMENT_POINTS: lambda p: placement[p],
        Tiebreak.FIRSTS: lambda p: firsts[p],
        Tiebreak.AVERAGE_PLACING: lambda p: sum(places[p]) / len(places[p]) if places[p] else None,
        Tiebreak.TABLE_MATES_POINTS: lambda p: mates_points[p],
        Tiebreak.DEPTH: lambda p: depth[p],
        Tiebreak.FINISH: lambda p: finish[p],
    }
    two_seats = all(len(outcome.record.seats) == 2 for outcome in decided)
    # Indexes for head-to-head, which runs once per tied group: two seats, meetings and outright
    # wins by pair; tables, the records each player sat in.
    meetings: Counter[frozenset[PlayerId]] = Counter()
    pair_wins: Counter[tuple[frozenset[PlayerId], PlayerId]] = Counter()
    records_of: dict[PlayerId, list[int]] = {}
    if two_seats:
        for outcome in decided:
            pair = frozenset(outcome.record.seats)
            meetings[pair] += 1
            if outcome.placings.count(1) == 1:
                pair_wins[pair, outcome.record.seats[outcome.placings.index(1)]] += 1
    else:
        for index, record in enumerate(records):
            for player in record.seats:
                records_of.setdefault(player, []).append(index)

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, TiebreakValue] | None:
        members = set(group)
        if two_seats:
            pairs = [frozenset(pair) for pair in combinations(group, 2)]
            counts = {meetings[pair] for pair in pairs}
            if len(counts) != 1 or 0 in counts:
                return None  # not every pair met, or not equally often: the mini-table would be unfair
            won: Counter[PlayerId] = Counter()
            for pair in pairs:
                for player in pair:
                    won[player] += pair_wins[pair, player]
            return {p: won[p] for p in group}
        ahead: Counter[PlayerId] = Counter()
        for index in sorted({i for p in group for i in records_of.get(p, ())}):
            record = records[index]
            seated = [(seat, p) for seat, p in enumerate(record.seats) if p in members]
            for outcome_game in record.games if len(seated) >= 2 else ():
                for (sa, a), (sb, b) in combinations(seated, 2):
                    pa, pb = outcome_game.placings[sa], outcome_game.placings[sb]
                    if pa is not None and pb is not None and pa != pb:
                        ahead[a if pa < pb else b] += 1
        return {p: ahead[p] for p in group}

    def note(p: PlayerId) -> tuple[FinishHow | None, int | None]:
        if Tiebreak.FINISH not in tiebreaks or p not in last_bracket:
            return None, None
        _key, how, round_number = last_bracket[p]
        return how, round_number

    return ranked_standings(
        players,
        tiebreaks,
        own,
        head_to_head,
        extra=lambda p: (played[p], in_progress[p], bye_counts[p]),
        note=note,
    )


def _bracket_exit(
    record: SeriesRecord, seat: int, outcome: _Decided | None
) -> tuple[tuple[int, int, int], FinishHow, int]:
    """How far a bracket series takes the player in ``seat``: the sort key (its round, 1 unless it
    is the third-place series, minus the place: higher is better), how it ended, and its round."""
    place = 1 if outcome is None else _rank_key(outcome.placings[seat], len(record.seats))
    third = record.phase == THIRD_PLACE_PHASE
    how = FinishHow.THIRD_PLACE if third else (FinishHow.IN if place == 1 else FinishHow.OUT)
    return (record.round, 0 if third else 1, -place), how, record.round


def _finish_places(
    players: Sequence[PlayerId], last: dict[PlayerId, tuple[tuple[int, int, int], FinishHow, int]]
) -> dict[PlayerId, TiebreakValue]:
    """Each player's finish: competition ranking by the bracket key, best first; a player without a
    bracket series after all who had one."""
    keys = sorted((entry[0] for entry in last.values()), reverse=True)
    first_at: dict[tuple[int, int, int], int] = {}
    for index, key in enumerate(keys, start=1):
        first_at.setdefault(key, index)
    after = len(keys) + 1
    return {p: first_at[last[p][0]] if p in last else after for p in players}


def _decided(record: SeriesRecord, game: GameKind, index: int) -> _Decided | None:
    """The series as decided, or None while it is not."""
    if record.result is None:
        status = record_status(record, game, index)
        if not status.decided or status.placings is None:
            return None
        recorded = status.game_points if status.game_points_recorded else (0,) * len(record.seats)
        return _Decided(record, status.placings, status.games_won, status.placing_sums, recorded)
    seats = range(len(record.seats))
    won = [0] * len(record.seats)
    sums = [0] * len(record.seats)
    points = [0] * len(record.seats)
    for outcome in record.games:
        if outcome.winner is not None and outcome.winner < len(won):
            won[outcome.winner] += 1
        for seat in seats:
            if seat < len(outcome.placings) and not outcome.sudden_death:
                sums[seat] += outcome.placings[seat] or 0
            if outcome.game_points is not None and seat < len(outcome.game_points):
                points[seat] += outcome.game_points[seat] or 0
    return _Decided(record, record.result, tuple(won), tuple(sums), tuple(points))


def _ranks(placings: Sequence[int | None], seat_count: int) -> bool:
    if len(placings) != seat_count:
        return False
    places = sorted(p for p in placings if p is not None)
    return all(not isinstance(p, bool) and isinstance(p, int) and p == places.index(p) + 1 for p in places)


def _rank_key(place: int | None, seat_count: int) -> int:
    """A place to compare by: a forfeit is below every player who played."""
    return seat_count + 1 if place is None else place


def _placement_points(place: int | None, seat_count: int, scale: Sequence[int] | None) -> int:
    if place is None:
        return 0
    if scale is None:
        return seat_count - place
    return scale[place - 1] if place - 1 < len(scale) else 0
