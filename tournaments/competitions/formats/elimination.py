"""Single and double elimination behind the format interface (the brackets are in ``bracket.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.protocol import GameKind
from tournaments.competitions.formats.base import FormatError, FormatErrorCode, FormatKey, StageState
from tournaments.competitions.formats.bracket import (
    BracketFormat,
    BracketProgress,
    BracketSeries,
    bracket_rounds,
    double_elimination,
    single_elimination,
    tables_elimination,
)
from tournaments.competitions.formats.options import (
    SEEDING,
    OptionSpec,
    Whole,
    YesNo,
    checked_options,
    require_advance_below,
    require_entrants,
)
from tournaments.competitions.formats.state import checked_results, stage_entrants
from tournaments.competitions.standings.chain import Tiebreak


def check_table_options(checked: Mapping[str, object], game: GameKind) -> None:
    """Tables need Snap, a top k below the table size, and no third-place series.

    Raises FormatError: "tables_not_for_game", "advance_not_below_table_size",
    "option_needs_two_seats".
    """
    size, advance = int(str(checked["table_size"])), int(str(checked["advance"]))
    if size > 2 and game is not GameKind.SNAP:
        raise FormatError(
            FormatErrorCode.TABLES_NOT_FOR_GAME,
            f"{game} is played by two players.",
            {"field": "table_size", "game": str(game)},
        )
    require_advance_below(advance, size)
    if size > 2 and checked.get("third_place"):
        raise FormatError(
            FormatErrorCode.OPTION_NEEDS_TWO_SEATS,
            "A third-place series needs two-seat series.",
            {"field": "third_place", "table_size": size},
        )


class _Bracketed(BracketFormat):
    """A stage that is one bracket from its seeds (its standings follow the bracket)."""

    key: FormatKey
    finish_first = True

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        raise NotImplementedError

    def bracket(self, entrants: int, options: Mapping[str, object]) -> tuple[BracketSeries, ...]:
        raise NotImplementedError

    def progress(self, state: StageState) -> BracketProgress:
        """Where the stage's bracket stands (rounds due, series awaited, champion)."""
        options = self.check_options(state.options, game=state.game)
        players = stage_entrants(state, options)
        options = self.check_options(state.options, game=state.game, entrants=len(players))
        results = checked_results(state, draws=False)
        return bracket_rounds(state, self.bracket(len(players), options), players, results)


class SingleElimination(_Bracketed):
    """Single elimination. Options: ``table_size`` (2, or 3-6 for Snap tables), ``advance`` (the
    top k of a table; 1 for two seats), ``third_place`` (two seats), ``seeding``."""

    key = FormatKey.SINGLE_ELIMINATION
    SPECS: dict[str, OptionSpec] = {
        "table_size": Whole(2, 2, 6),
        "advance": Whole(1, 1, 5),
        "third_place": YesNo(False),
        "seeding": SEEDING,
    }

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        checked = checked_options(options, self.SPECS)
        check_table_options(checked, game)
        require_entrants(entrants, 2)
        return checked

    def bracket(self, entrants: int, options: Mapping[str, object]) -> tuple[BracketSeries, ...]:
        size = int(str(options["table_size"]))
        if size == 2:
            return single_elimination(entrants, third_place=bool(options["third_place"]))
        return tables_elimination(entrants, table_size=size, advance=int(str(options["advance"])))

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        if options.get("table_size", 2) != 2:
            return (
                Tiebreak.FINISH,
                Tiebreak.DEPTH,
                Tiebreak.PLACEMENT_POINTS,
                Tiebreak.FIRSTS,
                Tiebreak.AVERAGE_PLACING,
                Tiebreak.COIN_FLIP,
            )
        return elimination_tiebreaks(game)


class DoubleElimination(_Bracketed):
    """Double elimination (two seats). Options: ``grand_final_reset`` (default true), ``seeding``."""

    key = FormatKey.DOUBLE_ELIMINATION
    SPECS: dict[str, OptionSpec] = {"grand_final_reset": YesNo(True), "seeding": SEEDING}

    def check_options(
        self, options: Mapping[str, object], *, game: GameKind, entrants: int | None = None
    ) -> dict[str, object]:
        checked = checked_options(options, self.SPECS)
        require_entrants(entrants, 2)
        return checked

    def bracket(self, entrants: int, options: Mapping[str, object]) -> tuple[BracketSeries, ...]:
        return double_elimination(entrants, reset=bool(options["grand_final_reset"]))

    def default_tiebreaks(self, game: GameKind, options: Mapping[str, object]) -> tuple[Tiebreak, ...]:
        return elimination_tiebreaks(game)


def elimination_tiebreaks(game: GameKind) -> tuple[Tiebreak, ...]:
    """The finish by the bracket, depth of elimination, then series and games won, then the game's
    own, then the coin."""
    by_game = Tiebreak.PLACING_SUM if game is GameKind.SNAP else Tiebreak.GAME_POINT_DIFFERENCE
    return (
        Tiebreak.FINISH,
        Tiebreak.DEPTH,
        Tiebreak.SERIES_WON,
        Tiebreak.GAMES_WON,
        by_game,
        Tiebreak.COIN_FLIP,
    )
