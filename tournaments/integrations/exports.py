"""Exports (issue 15): a stage's standings and a tournament's results as CSV, for spreadsheets,
and the whole tournament as JSON with a documented schema (the API's own serializers, so OpenAPI
documents it: ``GET /api/tournaments/<id>/export/``). docs/exports.md.

The CSV files are what a club secretary opens in a spreadsheet: a header row of translated column
names, one row per standing or per game, names rather than ids (ids follow, for joining).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from snapleague.users import AnyUser
from tournaments.competitions.results.values import stored_outcome
from tournaments.competitions.selectors.standings import (
    StandingsPage,
    stage_standings_page_get,
    standings_body,
)
from tournaments.competitions.selectors.tournaments import stages_visible, tournament_get
from tournaments.models import GameResult, Ladder, Round, Series, Tournament
from tournaments.rankings.ladder.selectors import ladder_by_id, open_challenges, rungs_list
from tournaments.rankings.seasons.selectors import SeasonPage, season_page_get
from tournaments.templatetags.league import season_separated_by, tiebreak_long, tiebreak_value

EXPORT_FORMAT = "snapleague.tournament"
EXPORT_VERSION = 1


# A cell a spreadsheet could take for a formula (OWASP, "CSV Injection"): = + - @, a tab or a
# carriage return first. A plain number (-3, +1.5) is no formula and stays a number.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def csv_cell(value: Any) -> Any:
    """``value`` as it may go into a cell: text that a spreadsheet would evaluate
    (``=HYPERLINK(...)`` as a player's name) gets a leading apostrophe, so it shows as typed."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV with a byte-order mark, so that spreadsheet programs read the names' accents right;
    every cell, the header's too (it names tournaments), through :func:`csv_cell`."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(cell) for cell in header])
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def standings_csv(*, user: AnyUser, stage_id: int) -> tuple[StandingsPage, str]:
    """The stage's standings as the page shows them: group, rank, position, player, each
    tiebreak of its chain (the page's column meaning as the header), series played, why below."""
    page = stage_standings_page_get(user=user, stage_id=stage_id)
    header = [_("Group"), _("Rank"), _("Position"), _("Player"), _("Player id")]
    header += [tiebreak_long(name) for name in page.chain]
    header += [_("Series played"), _("Separated from the player above by")]
    rows = [
        [
            group.number,
            row.rank,
            row.position,
            row.player.name,
            row.player_id,
            *[tiebreak_value(row.values.get(name), name) for name in page.chain],
            row.values.get("series_played", ""),
            tiebreak_long(row.separated_by) if row.separated_by else "",
        ]
        for group in page.groups
        for row in group.rows
    ]
    return page, csv_text(header, rows)


def season_csv(*, user: AnyUser, season_id: int) -> tuple[SeasonPage, str]:
    """The season table as its page shows it: rank, player, points, results counted of played,
    wins, why below the player above, then per tournament (oldest first) the place and the points
    (empty: did not play; the points in brackets: not counted among the best; a * after the
    place: the tournament has not finished)."""
    page = season_page_get(user=user, season_id=season_id)
    header = [_("Rank"), _("Player"), _("Player id"), _("Points"), _("Counted"), _("Played"), _("Wins")]
    header += [_("Separated from the player above by")]
    for column in page.columns:
        header += [
            _("%(tournament)s: place") % {"tournament": column.tournament.name},
            _("%(tournament)s: points") % {"tournament": column.tournament.name},
        ]
    rows = []
    for line in page.lines:
        row = line.row
        cells: list[Any] = [
            row.rank,
            line.player.name,
            line.player.pk,
            row.points,
            row.counted,
            row.played,
            row.wins,
            season_separated_by(row.separated_by) if row.separated_by else "",
        ]
        for result in line.cells:
            if result is None:
                cells += ["", ""]
            else:
                place = f"{result.place}*" if result.provisional else result.place  # type: ignore[attr-defined]
                points = result.points if result.counted else f"({result.points})"  # type: ignore[attr-defined]
                cells += [place, points]
        rows.append(cells)
    return page, csv_text(header, rows)


def results_csv(*, user: AnyUser, tournament_id: int) -> tuple[Tournament, str]:
    """Every game of the tournament with its confirmed result, in play order: stage, round, table,
    series, game, who sat where, the places, Snapszer's game points or Snap's wrong calls, whether
    it is void, and who recorded it when."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    results = (
        GameResult.objects.filter(game__series__stage__tournament=tournament, confirmed=True)
        .select_related("game__series__stage", "game__series__round", "recorded_by")
        .prefetch_related("game__series__seats__player")
        .order_by(
            "game__series__stage__order", "game__series__round__number", "game__series__table", "game__number"
        )
    )
    header = [
        _("Stage"),
        _("Round"),
        _("Table"),
        _("Series"),
        _("Game"),
        _("Sudden death"),
        _("Players (first dealer first)"),
        _("Places"),
        _("Game points"),
        _("Wrong calls"),
        _("Void"),
        _("Source"),
        _("Recorded by"),
        _("Recorded at"),
        _("Version"),
        _("Series id"),
    ]
    rows = []
    for result in results:
        series = result.game.series
        names = {seat.player_id: seat.player.name for seat in series.seats.all()}
        seated = [seat.player.name for seat in sorted(series.seats.all(), key=lambda s: s.seat)]
        stored = stored_outcome(result.data)
        places = "; ".join(
            f"{place}. {names.get(pid, pid)}"
            for pid, place in sorted((stored.placings if stored else {}).items(), key=lambda item: item[1])
        )
        points = _per_player(stored.game_points if stored else None, names)
        calls = _per_player(stored.wrong_calls if stored else None, names)
        rows.append(
            [
                series.stage.name,
                series.round.number,
                series.table if series.table is not None else "",
                series.key,
                result.game.number,
                _("yes") if result.game.sudden_death else "",
                " – ".join(seated),
                places,
                points,
                calls,
                _("void") if result.void else "",
                result.get_source_display(),
                result.recorded_by.username if result.recorded_by else "",
                result.created_at.isoformat(timespec="seconds"),
                result.version,
                series.pk,
            ]
        )
    return tournament, csv_text(header, rows)


def _per_player(values: dict[int, int] | None, names: dict[int, str]) -> str:
    if not values:
        return ""
    return "; ".join(f"{names.get(pid, pid)} {value}" for pid, value in values.items())


def tournament_export_data(*, user: AnyUser, tournament_id: int) -> dict[str, Any]:
    """The whole tournament as plain objects for ``TournamentExportOutputSerializer``: the
    tournament, its players, and each stage with its rounds, their series, each series' confirmed
    results (void ones included, marked), and the stage's standings."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    confirmed = GameResult.objects.filter(confirmed=True).select_related("game__series", "recorded_by")
    stages = []
    # The stages its pages show to ``user`` (a draft stage only to its organisers and referees).
    for stage in stages_visible(user=user).filter(tournament=tournament).order_by("order", "pk"):
        series = (
            Series.objects.filter(stage=stage)
            .select_related("round", "stage__tournament")
            .prefetch_related("seats__player", Prefetch("games__results", queryset=confirmed))
            .order_by("round__number", "table")
        )
        by_round: dict[int, list[dict[str, Any]]] = {}
        for one in series:
            results = [
                r for game in sorted(one.games.all(), key=lambda g: g.number) for r in game.results.all()
            ]
            by_round.setdefault(one.round_id, []).append({"series": one, "results": results})
        page = stage_standings_page_get(user=user, stage_id=stage.pk)
        stages.append(
            {
                "stage": stage,
                "rounds": [
                    {"round": r, "series": by_round.get(r.pk, [])}
                    for r in Round.objects.filter(stage=stage).order_by("number")
                ],
                "standings": standings_body(page),
            }
        )
    players = [entry.player for entry in tournament.entries.select_related("player").order_by("player__name")]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "tournament": tournament,
        "players": players,
        "stages": stages,
    }


def ladder_csv(*, ladder_id: int) -> tuple[Ladder, str]:
    """The ladder as its page shows it: place, player, player id, the open challenge if any."""
    ladder = ladder_by_id(ladder_id=ladder_id)
    header = [_("Place"), _("Player"), _("Player id"), _("Open challenge")]
    busy: dict[int, str] = {}
    for challenge in open_challenges(ladder=ladder).select_related("challenger", "challenged"):
        busy[challenge.challenger_id] = _("challenges %(player)s") % {"player": challenge.challenged.name}
        busy[challenge.challenged_id] = _("challenged by %(player)s") % {"player": challenge.challenger.name}
    rows = [
        [r.place, r.player.name, r.player_id, busy.get(r.player_id, "")] for r in rungs_list(ladder=ladder)
    ]
    return ladder, csv_text(header, rows)
