"""The format interface: what every stage format is given, what it produces, and how it refuses.

Pure: plain values in, plain values out (no Django, no clock, no global randomness). Modelled on
Tabbycat's ``DRAW_MANAGER_CLASSES``: one object per stage format (:class:`Format`, registered in
``tournaments/competitions/formats/registry.py``) owns its options check, its seating or pairing,
``next_rounds(stage_state)`` and its default tiebreak list.

Vocabulary
- A stage's **entrants** come in seeding order (manual order, earlier standings, or shuffled from the
  stage seed by ``seeding: random``). A player's **seed index** is their position in that order.
- A **round** (:class:`PlannedRound`) holds **series** (:class:`PlannedSeries`), each at one table.
  ``seats`` are in seat order: seat 0 deals first (rules/tournaments.md). A seat may be empty
  (``None``) in a bracket: a bye (nobody was drawn there) or nobody came through to it.
- A series' ``key`` is unique in the stage and stable: a bracket knows its later series' keys
  before their players are known, so a series can name where its players go: ``to[i]`` is the
  :class:`Slot` (series key and seat) of the player finishing ``i + 1``-th, ``advance`` how many go on
  in the main line (the top k). A series whose players are not more than ``advance`` is a
  **walkover**: it is not played; its players go on in seat order.
- A **result** (:class:`SeriesResult`) gives a placing per seat (competition ranking; ``None`` for a
  seat whose player did not play: a no-show's forfeit, or an empty seat).
- The **stage state** (:class:`StageState`) is everything a format reads: entrants, the stored seed
  and options, the rounds published so far, the decided results, and withdrawals with the round they
  take effect from. Formats never change a published round; a corrected result changes what later
  rounds are generated from, never the rounds already published.

Rules the formats share (also in docs/formats.md)
- A player withdrawn from round r is not seated in round r or later. One withdrawn from round 1 (or
  earlier) is left out of the draw altogether.
- A published series without a result in which the players still in (not withdrawn by its round)
  are no more than ``advance``, or fewer than 2, is decided for them: a walkover (in elimination:
  the opponent of a withdrawn player advances; in Swiss: the forfeit win of rules/tournaments.md).
- In a result, ``None`` is a forfeit (a no-show): that player is placed below everyone who played,
  never advances, and, in a double elimination, is not dropped into the losers' bracket. A result of
  only ``None`` is a double forfeit: nobody advances.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, runtime_checkable

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId, seeded_order
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.standings.chain import (
    STAGE_TIEBREAKS,
    ByeScore,
    SeriesRecord,
    Standings,
    Tiebreak,
)
from tournaments.competitions.standings.stage import stage_standings

# A stage's standings: (group, standings) pairs; group 0 is the whole stage, a Snap round robin ranks
# each table (its number) on its own.
type GroupStandings = list[tuple[int, Standings]]


class FormatKey(StrEnum):
    """The stage formats (the values of the model's ``StageFormat``, which can use these as its
    choices)."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SWISS_TABLES = "swiss_tables"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    GROUPS_PLAYOFF = "groups_playoff"
    HEATS = "heats"


class Seeding(StrEnum):
    """How the entrants' order is decided (rules/tournaments.md "Seeding")."""

    MANUAL = "manual"  # the order handed in (the entry list)
    RANDOM = "random"  # shuffled from the stage seed: seeded_order(entrants, seed)
    STANDINGS = "standings"  # the order handed in is an earlier stage's standings
    # The order handed in is the entrants by current club rating, best first, unrated players last
    # in entry-list order (the Django side sorts them: tournaments/rankings/ratings/selectors.py).
    RATING = "rating"


class Phase(StrEnum):
    """What part of the stage a series belongs to (for pages and labels)."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    WINNERS = "winners"  # single elimination, or a double elimination's winners' bracket
    LOSERS = "losers"
    THIRD_PLACE = "third_place"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"
    FINAL = "final"  # the final table of an elimination by tables, or of heats
    GROUP = "group"
    HEAT = "heat"
    REPECHAGE = "repechage"


class FormatErrorCode(TournamentErrorCode):
    """Why a format refuses options, a stage state or a generate request, and the ``extra`` values
    each code carries. ``field`` names the option (or input) at fault, so a form can put the message
    next to it; ``players`` are player ids as strings; ``series`` a series key."""

    UNKNOWN_FORMAT = "unknown_format", ("field", "value", "allowed")
    FORMAT_NOT_FOR_GAME = "format_not_for_game", ("field", "format", "game")
    UNKNOWN_OPTION = "unknown_option", ("field", "known")
    OPTION_NOT_A_NUMBER = "option_not_a_number", ("field", "value", "minimum", "maximum")
    OPTION_NOT_YES_OR_NO = "option_not_yes_or_no", ("field", "value")
    OPTION_NOT_A_CHOICE = "option_not_a_choice", ("field", "value", "allowed")
    NOT_ENOUGH_ENTRANTS = "not_enough_entrants", ("field", "entrants", "minimum")
    TOO_MANY_ROUNDS = "too_many_rounds", ("field", "rounds", "entrants", "most")
    ADVANCE_NOT_BELOW_TABLE_SIZE = "advance_not_below_table_size", ("field", "advance", "table_size")
    GROUPS_UNEVEN = "groups_uneven", ("field", "entrants", "group_size")
    ADVANCE_NOT_BELOW_GROUP_SIZE = "advance_not_below_group_size", ("field", "advance", "smallest_group")
    OPTION_NEEDS_TWO_SEATS = "option_needs_two_seats", ("field", "table_size")
    TABLES_NOT_FOR_GAME = "tables_not_for_game", ("field", "game")
    NOT_AN_ENTRANT = "not_an_entrant", ("field", "players")
    UNKNOWN_SERIES = "unknown_series", ("series",)
    INVALID_RESULT = "invalid_result", ("series", "result")
    TIED_AT_CUT = "tied_at_cut", ("series", "result", "advance")
    STANDINGS_NOT_THE_GROUP = "standings_not_the_group", ("group", "players")
    ROUND_ALREADY_GENERATED = "round_already_generated", ("round",)
    ROUND_NOT_DUE = "round_not_due", ("round", "waiting")
    ROUND_NOT_NEXT = "round_not_next", ("round", "next")
    NO_MORE_ROUNDS = "no_more_rounds", ("round", "rounds")
    NO_PAIRING_WITHOUT_REMATCH = "no_pairing_without_rematch", ("field", "round")


class FormatError(TournamentInputError):
    """Options, a stage state or a request no format can work with (codes: :class:`FormatErrorCode`)."""


@dataclass(frozen=True, slots=True, order=True)
class Slot:
    """A seat of a series known before its player is: where a bracket sends a winner (or loser)."""

    series: str
    seat: int


@dataclass(frozen=True, slots=True)
class PlannedSeries:
    """One series of a round. ``seats`` in seat order (seat 0 deals first); ``None`` is an empty
    seat. ``advance`` is how many of its players go on (0 where nobody advances by one series: Swiss,
    round robin); ``to[i]`` where the player finishing ``i + 1``-th goes (None: out of the stage, or
    the champion). ``phase_round`` counts the rounds of its phase (winners' round 2 …); ``group`` is
    the group of a groups stage."""

    key: str
    table: int
    seats: tuple[PlayerId | None, ...]
    phase: Phase
    phase_round: int = 1
    advance: int = 0
    to: tuple[Slot | None, ...] = ()
    group: str | None = None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The players seated, in seat order (empty seats left out)."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def walkover(self) -> bool:
        """Not played: its players are no more than the number that advance."""
        return self.advance > 0 and len(self.players) <= self.advance


@dataclass(frozen=True, slots=True)
class PlannedRound:
    """One round of the stage: ``number`` counts from 1 across the whole stage; ``byes`` are the
    players who sit it out and score a bye (Swiss, two-seat round robin)."""

    number: int
    series: tuple[PlannedSeries, ...]
    byes: tuple[PlayerId, ...] = ()


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """A decided series: a placing per seat in competition ranking (1 = won; two seats at 1 is a
    draw where the format allows one), ``None`` for a seat whose player did not play (a forfeit) or
    that is empty. Build it from a series' S43 placings, or from its table standings where ties at
    the cut of an elimination must be broken."""

    placings: tuple[int | None, ...]

    @classmethod
    def forfeit(cls, seat_count: int, *, no_shows: Iterable[int]) -> SeriesResult:
        """The players at ``no_shows`` did not come; the others share first place (two seats: the
        opponent wins; everyone away: a double forfeit)."""
        away = set(no_shows)
        return cls(tuple(None if seat in away else 1 for seat in range(seat_count)))


@dataclass(frozen=True, slots=True)
class StageState:
    """Everything a format reads to generate rounds.

    ``entrants`` in seeding order; ``options`` the stage's options (normalised by
    :meth:`Format.check_options`, or raw: formats normalise again); ``rounds`` the rounds published so
    far, in order; ``results`` the decided series by key (confirmed results only; a missing key is
    undecided); ``withdrawals`` the round each withdrawn player stops being seated from; ``standings``
    standings handed in for a groups stage (group label -> players best first), which replace the
    format's own ranking of that group; ``seed`` the stage's stored seed; ``seeding`` the seeding
    order stored when round 1 was published (then ``stage_entrants`` returns it as is).
    """

    entrants: tuple[PlayerId, ...]
    seed: str
    game: GameKind = GameKind.SNAP
    options: Mapping[str, object] = field(default_factory=dict)
    rounds: tuple[PlannedRound, ...] = ()
    results: Mapping[str, SeriesResult] = field(default_factory=dict)
    withdrawals: Mapping[PlayerId, int] = field(default_factory=dict)
    standings: Mapping[str, tuple[PlayerId, ...]] = field(default_factory=dict)
    # The seeding order fixed when round 1 was published (the draw, for random seeding): read as is
    # once round 1 is out, so a stage never draws twice. Empty before (the format draws it).
    seeding: tuple[PlayerId, ...] = ()

    def withdrawn(self, player: PlayerId, round_number: int) -> bool:
        """Is ``player`` withdrawn by round ``round_number``?"""
        start = self.withdrawals.get(player)
        return start is not None and start <= round_number

    def series(self) -> dict[str, tuple[PlannedRound, PlannedSeries]]:
        """Every published series by key, with its round."""
        return {s.key: (rnd, s) for rnd in self.rounds for s in rnd.series}


@runtime_checkable
class Format(Protocol):
    """One stage format (the registry's pure half). Every method is pure and deterministic."""

    key: FormatKey

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        """The options with defaults filled in. With ``entrants`` (a count) the checks that depend
        on it run too. Raises FormatError naming the option (``field``)."""
        ...

    def next_rounds(self, state: StageState, *, round_number: int | None = None) -> tuple[PlannedRound, ...]:
        """The rounds due now (empty while results are awaited, or when the stage is over), numbered
        after the published ones. ``round_number``: the organiser asks for that round; refused with
        "round_already_generated" when it is published, "round_not_due" while the round before is
        undecided, "no_more_rounds" after the last. Raises FormatError / PairingError."""
        ...

    def finished(self, state: StageState) -> bool:
        """Every round the stage will have is published and decided."""
        ...

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        """The tiebreak list the stage's standings use unless the organiser lists others."""
        ...

    def tiebreak_choices(self, game: GameKind, options: Mapping[str, object]) -> frozenset[Tiebreak]:
        """The tiebreaks an organiser may list for this format."""
        ...

    def option_specs(self, game: GameKind) -> Mapping[str, OptionSpec]:
        """The options this format takes in ``game`` (what a form asks), by name."""
        ...

    def standings(
        self,
        entrants: Sequence[PlayerId],
        records: Sequence[tuple[int, SeriesRecord]],
        *,
        game: GameKind,
        options: Mapping[str, object],
        stage_seed: str,
        chain: Sequence[Tiebreak | str],
        byes: Sequence[PlayerId] = (),
    ) -> GroupStandings:
        """The stage's standings from its series (``(table, record)`` pairs, in round and table
        order) by ``chain`` (empty: :meth:`default_tiebreaks`). Raises StandingsError."""
        ...


class StageWideStandings:
    """One table of the whole stage by the catalogue's tiebreaks (every format but round robin),
    and the options of the format's ``SPECS``. A format with ``finish_first`` (single and double
    elimination, groups → playoff) ranks by its bracket first: the finish
    (:data:`~tournaments.competitions.standings.chain.Tiebreak.FINISH`) leads the chain, whatever the organiser lists,
    so their tiebreaks only order players who went out in the same round."""

    SPECS: dict[str, OptionSpec]
    finish_first: bool = False

    def option_specs(self, game: GameKind) -> Mapping[str, OptionSpec]:
        return self.SPECS

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        raise NotImplementedError

    def tiebreak_choices(self, game: GameKind, options: Mapping[str, object]) -> frozenset[Tiebreak]:
        wrong_game = Tiebreak.GAME_POINT_DIFFERENCE if game is GameKind.SNAP else Tiebreak.PLACING_SUM
        return STAGE_TIEBREAKS - {wrong_game} - (set() if self.finish_first else {Tiebreak.FINISH})

    def standings_chain(
        self, game: GameKind, options: Mapping[str, object], chain: Sequence[Tiebreak | str]
    ) -> tuple[Tiebreak | str, ...]:
        """The chain the standings use: the organiser's ``chain`` (empty: the default), with the
        finish moved or put first for a format that has ``finish_first``."""
        used: tuple[Tiebreak | str, ...] = tuple(chain) or self.default_tiebreaks(game, options)
        if not self.finish_first:
            return used
        return (Tiebreak.FINISH, *(t for t in used if t != Tiebreak.FINISH))

    def standings(
        self,
        entrants: Sequence[PlayerId],
        records: Sequence[tuple[int, SeriesRecord]],
        *,
        game: GameKind,
        options: Mapping[str, object],
        stage_seed: str,
        chain: Sequence[Tiebreak | str],
        byes: Sequence[PlayerId] = (),
    ) -> GroupStandings:
        return [
            (
                0,
                stage_standings(
                    entrants,
                    [record for _table, record in records],
                    game=game,
                    stage_seed=stage_seed,
                    chain=self.standings_chain(game, options, chain),
                    byes=byes,
                    bye_score=ByeScore(str(options.get("bye", ByeScore.WIN.value))),
                ),
            )
        ]


# -- options ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole-number option from ``minimum`` to ``maximum``; ``None`` allowed when ``optional``."""

    default: int | None
    minimum: int
    maximum: int
    optional: bool = False


@dataclass(frozen=True, slots=True)
class YesNo:
    default: bool


@dataclass(frozen=True, slots=True)
class Choice:
    default: str
    allowed: tuple[str, ...]


type OptionSpec = Whole | YesNo | Choice

SEEDING = Choice(Seeding.RANDOM.value, tuple(s.value for s in Seeding))
BYE = Choice("win", ("win", "draw", "nothing"))


def checked_options(options: Mapping[str, object], specs: Mapping[str, OptionSpec]) -> dict[str, object]:
    """``options`` checked against ``specs`` (name -> spec), defaults filled in, in spec order.

    Raises FormatError: "unknown_option", "option_not_a_number", "option_not_yes_or_no",
    "option_not_a_choice" (``field`` = the option).
    """
    if not isinstance(options, Mapping):
        raise FormatError(
            FormatErrorCode.UNKNOWN_OPTION,
            "Options are given as names and values.",
            _unknown("options", specs),
        )
    for name in sorted(options, key=str):
        if name not in specs:
            raise FormatError(
                FormatErrorCode.UNKNOWN_OPTION,
                f"This format has no option {name!r}.",
                _unknown(str(name), specs),
            )
    result: dict[str, object] = {}
    for name, spec in specs.items():
        value = options.get(name, spec.default)
        if isinstance(spec, Whole):
            if value is None and (spec.optional or spec.default is None):
                result[name] = None
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not spec.minimum <= value <= spec.maximum
            ):
                raise FormatError(
                    FormatErrorCode.OPTION_NOT_A_NUMBER,
                    f"{name} must be a whole number from {spec.minimum} to {spec.maximum}.",
                    {"field": name, "value": repr(value), "minimum": spec.minimum, "maximum": spec.maximum},
                )
        elif isinstance(spec, YesNo):
            if not isinstance(value, bool):
                raise FormatError(
                    FormatErrorCode.OPTION_NOT_YES_OR_NO,
                    f"{name} is true or false.",
                    {"field": name, "value": repr(value)},
                )
        elif value not in spec.allowed:
            raise FormatError(
                FormatErrorCode.OPTION_NOT_A_CHOICE,
                f"{name} must be one of {', '.join(spec.allowed)}.",
                {"field": name, "value": repr(value), "allowed": list(spec.allowed)},
            )
        result[name] = value
    return result


def _unknown(name: str, specs: Mapping[str, OptionSpec]) -> dict[str, object]:
    return {"field": name, "known": list(specs)}


def require_entrants(entrants: int | None, minimum: int, *, field_name: str = "entrants") -> None:
    """Raises FormatError("not_enough_entrants") when ``entrants`` is known and below ``minimum``."""
    if entrants is not None and entrants < minimum:
        raise FormatError(
            FormatErrorCode.NOT_ENOUGH_ENTRANTS,
            f"This format needs at least {minimum} entrants.",
            {"field": field_name, "entrants": entrants, "minimum": minimum},
        )


def refuse_game(key: FormatKey, game: GameKind) -> FormatError:
    """The error for a format that the game cannot be played in (Snapszer is played by two)."""
    return FormatError(
        FormatErrorCode.FORMAT_NOT_FOR_GAME,
        f"{key} is not played in {game}.",
        {"field": "format", "format": str(key), "game": str(game)},
    )


def require_advance_below(advance: int, table_size: int) -> None:
    """Raises FormatError("advance_not_below_table_size", field "advance") unless someone goes
    out at every table."""
    if advance >= table_size:
        raise FormatError(
            FormatErrorCode.ADVANCE_NOT_BELOW_TABLE_SIZE,
            "At least one player of each table must go out.",
            {"field": "advance", "advance": advance, "table_size": table_size},
        )


class RoundByRound(StageWideStandings):
    """A stage paired one round at a time from the results so far, for ``rounds`` rounds (default
    ceil(log2 n)): Swiss and Swiss tables. Subclasses give ``key``, ``SPECS``, ``check_options``
    and ``pair``."""

    key: FormatKey
    SPECS: dict[str, OptionSpec]

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        raise NotImplementedError

    def pair(
        self,
        state: StageState,
        players: Sequence[PlayerId],
        results: Mapping[str, tuple[int | None, ...]],
        number: int,
        options: Mapping[str, object],
    ) -> PlannedRound:
        """Round ``number`` among ``players`` (the stage's, in seeding order)."""
        raise NotImplementedError

    def progress(self, state: StageState, *, pair: bool) -> tuple[tuple[PlannedRound, ...], list[str], bool]:
        """(rounds due, series awaited, finished); the round is paired only when ``pair``. The
        stage ends after its rounds, or when fewer than 2 players are left."""
        options = checked_options(state.options, self.SPECS)
        players = stage_entrants(state, options)
        options = self.check_options(state.options, game=state.game, entrants=len(players))
        results = checked_results(state, draws=True)
        rounds = options["rounds"]
        total = rounds if isinstance(rounds, int) else default_swiss_rounds(len(players))
        if state.rounds:
            waiting = undecided(state, results, state.rounds[-1])
            if waiting:
                return (), waiting, False
        number = len(state.rounds) + 1
        if number > total or sum(not state.withdrawn(p, number) for p in players) < 2:
            return (), [], True
        if not pair:
            return (), [], False
        return (self.pair(state, players, results, number, options),), [], False

    def next_rounds(self, state: StageState, *, round_number: int | None = None) -> tuple[PlannedRound, ...]:
        due, waiting, _done = self.progress(state, pair=True)
        return generate_request(state, due, waiting, round_number)

    def finished(self, state: StageState) -> bool:
        return self.progress(state, pair=False)[2]


def default_swiss_rounds(entrants: int) -> int:
    """ceil(log2 n), at least 1."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))


# -- reading the stage state --------------------------------------------------------------------


def stage_entrants(state: StageState, options: Mapping[str, object]) -> tuple[PlayerId, ...]:
    """The entrants in the stage's seeding order, without those withdrawn from round 1 (once round
    1 is published: the players drawn into it).

    Raises PairingError("duplicate_entrant") and FormatError("not_an_entrant") for a withdrawal
    or handed-in standing naming someone who is not entered.
    """
    players = list(state.entrants)
    if len(set(players)) != len(players):
        seeded_order(players, state.seed)  # raises the shared "duplicate_entrant"
    known = set(players)
    strangers = sorted({str(p) for p in state.withdrawals if p not in known})
    if strangers:
        raise FormatError(
            FormatErrorCode.NOT_AN_ENTRANT,
            "A withdrawal names a player who is not entered.",
            {"field": "withdrawals", "players": strangers},
        )
    if state.rounds and state.seeding:  # the draw is made and stored: it is the seeding order
        return tuple(state.seeding)
    if state.rounds:  # the draw is made: a withdrawal from round 1 recorded since changes nothing
        first = state.rounds[0]
        drawn = {p for s in first.series for p in s.players} | set(first.byes)
        present = [p for p in players if p in drawn]
    else:
        present = [p for p in players if not state.withdrawn(p, 1)]
    if options.get("seeding") == Seeding.RANDOM:
        return seeded_order(present, state.seed)
    return tuple(present)


def checked_results(state: StageState, *, draws: bool) -> dict[str, tuple[int | None, ...]]:
    """Every given result, checked against its published series: the right number of seats,
    ``None`` at empty seats, a competition ranking of the rest, no tie across the cut of a series
    that advances players (and no draw unless ``draws``). Results for walkovers are ignored.

    Raises FormatError: "unknown_series", "invalid_result", "tied_at_cut".
    """
    published = state.series()
    checked: dict[str, tuple[int | None, ...]] = {}
    for key in sorted(state.results):
        if key not in published:
            raise FormatError(
                FormatErrorCode.UNKNOWN_SERIES,
                "A result names a series that is not published.",
                {"series": key},
            )
        _round, series = published[key]
        placings = tuple(state.results[key].placings)
        if series.walkover:
            continue
        places = [p for p in placings if p is not None]
        shape_ok = len(placings) == len(series.seats) and all(
            place is None or (not isinstance(place, bool) and isinstance(place, int)) for place in placings
        )
        if (
            not shape_ok
            or any(p is None and q is not None for p, q in zip(series.seats, placings, strict=True))
            or not _competition_ranking(places)
        ):
            raise FormatError(
                FormatErrorCode.INVALID_RESULT,
                "The placings do not rank the players of the series.",
                {"series": key, "result": [_shown(p) for p in placings]},
            )
        cut = series.advance or (0 if draws else 1)
        ranked = sorted(places)
        if cut and len(ranked) > cut and ranked[cut - 1] == ranked[cut]:
            raise FormatError(
                FormatErrorCode.TIED_AT_CUT,
                "Players are tied across the places that go on; break the tie with the table's standings.",
                {"series": key, "result": [_shown(p) for p in placings], "advance": cut},
            )
        checked[key] = placings
    return checked


def _competition_ranking(places: Sequence[int]) -> bool:
    ordered = sorted(places)
    return all(place == ordered.index(place) + 1 for place in ordered) and all(p >= 1 for p in places)


def effective_placings(
    state: StageState,
    results: Mapping[str, tuple[int | None, ...]],
    round_number: int,
    series: PlannedSeries,
) -> tuple[int | None, ...] | None:
    """The placings a series is decided by, or None while it is undecided: its result; for a
    walkover, its players in seat order; without a result, a walkover for the players not withdrawn
    by its round when they are no more than ``advance`` (or fewer than 2)."""
    if series.walkover:
        return _in_seat_order(series.seats, set(series.players))
    if series.key in results:
        return results[series.key]
    staying = {p for p in series.players if not state.withdrawn(p, round_number)}
    if len(staying) < 2 or (series.advance and len(staying) <= series.advance):
        return _in_seat_order(series.seats, staying)
    return None


def _in_seat_order(seats: Sequence[PlayerId | None], staying: set[PlayerId]) -> tuple[int | None, ...]:
    placings: list[int | None] = []
    place = 1
    for player in seats:
        if player is not None and player in staying:
            placings.append(place)
            place += 1
        else:
            placings.append(None)
    return tuple(placings)


def finishing_order(series: PlannedSeries, placings: Sequence[int | None]) -> list[PlayerId]:
    """The players who played, best first (ties by seat order); forfeits and empty seats left out."""
    ranked = sorted(
        (place, seat)
        for seat, place in enumerate(placings)
        if place is not None and series.seats[seat] is not None
    )
    return [p for _place, seat in ranked if (p := series.seats[seat]) is not None]


def undecided(
    state: StageState, results: Mapping[str, tuple[int | None, ...]], rnd: PlannedRound
) -> list[str]:
    """The keys of ``rnd``'s series that are not decided yet."""
    return [s.key for s in rnd.series if effective_placings(state, results, rnd.number, s) is None]


def generate_request(
    state: StageState, due: tuple[PlannedRound, ...], waiting: Sequence[str], round_number: int | None
) -> tuple[PlannedRound, ...]:
    """``due`` after checking an explicit request for round ``round_number`` (None: no request).

    ``waiting`` are the undecided series the next round waits for. Raises FormatError:
    "round_already_generated", "round_not_due" (the round before is undecided), "round_not_next"
    (the request skips a round), "no_more_rounds" (nothing is waited for and nothing is due: the
    stage is over).
    """
    if round_number is None:
        return due
    published = len(state.rounds)
    if round_number <= published:
        raise FormatError(
            FormatErrorCode.ROUND_ALREADY_GENERATED,
            f"Round {round_number} has already been generated.",
            {"round": round_number},
        )
    if due and due[0].number == round_number:
        return due
    if due:
        raise FormatError(
            FormatErrorCode.ROUND_NOT_NEXT,
            f"The next round is {due[0].number}, not {round_number}.",
            {"round": round_number, "next": due[0].number},
        )
    if not waiting:
        raise FormatError(
            FormatErrorCode.NO_MORE_ROUNDS,
            "The stage has no more rounds.",
            {"round": round_number, "rounds": published},
        )
    raise FormatError(
        FormatErrorCode.ROUND_NOT_DUE,
        f"Round {round_number} cannot be generated yet.",
        {"round": round_number, "waiting": list(waiting)},
    )


def rounds_to_json(rounds: Iterable[PlannedRound]) -> str:
    """The rounds as canonical JSON (sorted keys, no spaces): byte-identical for equal rounds."""
    data = [
        {
            "number": rnd.number,
            "byes": list(rnd.byes),
            "series": [
                {
                    "key": s.key,
                    "table": s.table,
                    "seats": list(s.seats),
                    "phase": s.phase.value,
                    "phase_round": s.phase_round,
                    "advance": s.advance,
                    "to": [None if slot is None else [slot.series, slot.seat] for slot in s.to],
                    "group": s.group,
                }
                for s in rnd.series
            ],
        }
        for rnd in rounds
    ]
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def rounds_from_json(text: str) -> tuple[PlannedRound, ...]:
    """The inverse of :func:`rounds_to_json` (for a stored stage state)."""
    return tuple(
        PlannedRound(
            number=rnd["number"],
            byes=tuple(rnd["byes"]),
            series=tuple(
                PlannedSeries(
                    key=s["key"],
                    table=s["table"],
                    seats=tuple(s["seats"]),
                    phase=Phase(s["phase"]),
                    phase_round=s["phase_round"],
                    advance=s["advance"],
                    to=tuple(None if t is None else Slot(t[0], t[1]) for t in s["to"]),
                    group=s["group"],
                )
                for s in rnd["series"]
            ),
        )
        for rnd in json.loads(text)
    )


def _shown(place: object) -> str:
    """A placing as a person reads it in a message: a dash for nobody."""
    return "—" if place is None else repr(place)
