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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from games.engine.protocol import GameKind
from tournaments.competitions.formats.round_robin import PlayerId
from tournaments.competitions.problems import TournamentErrorCode, TournamentInputError
from tournaments.competitions.standings.chain import (
    STAGE_TIEBREAKS,
    ByeScore,
    SeriesRecord,
    Standings,
    Tiebreak,
)
from tournaments.competitions.standings.stage import stage_standings

if TYPE_CHECKING:
    from tournaments.competitions.formats.options import OptionSpec

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
