"""Standings: the stored rows, the standings page, the groups' own tables, the stage's version."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.users import AnyUser
from tournaments.competitions import outcomes
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.tournaments import (
    stage_get,
)
from tournaments.models import (
    GameKind,
    Player,
    Round,
    Series,
    Stage,
    StandingRow,
    Tournament,
)


def stages_with_stale_standings() -> list[int]:
    return list(Stage.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True))


def stage_standings_list(*, stage: Stage) -> QuerySet[StandingRow]:
    return StandingRow.objects.filter(stage=stage).select_related("player").order_by("group", "position")


@dataclass(frozen=True)
class StandingsGroup:
    number: int  # a Snap table, or 0 for a two-seat stage
    series: Series | None
    rows: list[StandingRow]


@dataclass(frozen=True)
class GroupTableRow:
    """One player's line in a group's own table (groups → playoff), and whether and why they go
    to the playoff."""

    position: int
    rank: int
    player: Player
    values: dict[str, Any]
    separated_by: str
    qualified: bool  # goes to the playoff (while the group plays: would, if it ended now)
    withdrawn: bool  # withdrawn by the playoff: does not qualify
    reason: str  # translated: why they qualified, or why not; empty for the others

    @property
    def player_id(self) -> int:
        return self.player.pk


@dataclass(frozen=True)
class GroupTable:
    """A group's own table (groups → playoff): ``rows`` in the order that ranks the group, by
    the format's group tiebreaks (``chain``); ``qualifiers`` the player ids who go on, best first."""

    label: str
    advance: int
    complete: bool  # every group series decided: the qualifiers are final
    chain: list[str]
    rows: list[GroupTableRow]
    qualifiers: list[int]


@dataclass(frozen=True)
class StandingsPage:
    stage: Stage
    tournament: Tournament
    chain: list[str]
    groups: list[StandingsGroup]
    # Groups → playoff: each group's own table (empty for other formats, and before round 1).
    group_tables: list[GroupTable] = field(default_factory=list)

    @property
    def version(self) -> str:
        return f"{self.stage.results_version}.{self.stage.standings_version}"


def standings_chain(stage: Stage) -> list[str]:
    """The tiebreak names of ``stage``'s standings, in order (JSON keeps no order on PostgreSQL)."""
    from tournaments.competitions.formats.registry import format_for

    fmt = format_for(stage.format)
    game = GameKind(stage.tournament.game)
    chain_of = getattr(fmt, "standings_chain", None)  # a bracket's finish first (docs/formats.md)
    if callable(chain_of):
        return [str(t) for t in chain_of(game, stage.options, tuple(stage.tiebreaks or ()))]
    if stage.tiebreaks:
        return [str(t) for t in stage.tiebreaks]
    return [str(t) for t in fmt.default_tiebreaks(game, stage.options)]


def stage_standings_page_get(*, user: AnyUser, stage_id: int) -> StandingsPage:
    stage = stage_get(user=user, stage_id=stage_id)
    rows = list(stage_standings_list(stage=stage))
    tables = (
        {s.table: s for s in Series.objects.filter(stage=stage).order_by("round__number", "table")}
        if stage.tournament.game == GameKind.SNAP
        else {}
    )
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    return StandingsPage(
        stage=stage,
        tournament=stage.tournament,
        chain=standings_chain(stage),
        groups=[StandingsGroup(number=n, series=tables.get(n), rows=r) for n, r in sorted(groups.items())],
        group_tables=stage_group_tables(stage),
    )


def _group_reason(table: Any, position: int, qualified: bool, withdrawn: bool) -> str:
    if withdrawn:
        return str(_("Withdrawn: does not go to the playoff."))
    if not qualified:
        return ""
    values = {"n": table.advance, "group": table.label}
    if not table.complete:
        return str(_("In line: top %(n)s of group %(group)s so far (the group is still playing).") % values)
    if position > table.advance:
        return str(_("Through: top %(n)s of group %(group)s, in place of a player who withdrew.") % values)
    return str(_("Through: top %(n)s of group %(group)s.") % values)


def stage_group_tables(stage: Stage) -> list[GroupTable]:
    """Each group's own table and who goes to the playoff from it, for a format with groups (groups
    → playoff) once its groups are drawn (round 1 published); otherwise none. Worked out from the
    results now, by the very code that seeds the playoff (``GroupsPlayoff.group_tables``), so the
    qualifiers shown are the players the playoff seats."""
    from tournaments.competitions.formats.registry import format_for  # stages/ imports this package
    from tournaments.competitions.stages.state import stage_state

    tables_of = getattr(format_for(stage.format), "group_tables", None)
    if not callable(tables_of) or not Round.objects.filter(stage=stage).exists():
        return []
    try:
        tables = tables_of(stage_state(stage))
    except TournamentInputError:
        return []  # the stage cannot be read as its format (logged by the stage task)
    ids = [int(str(row.player)) for table in tables for row in table.standings.rows]
    players = Player.objects.in_bulk(ids)
    out = []
    for table in tables:
        qualifiers = {int(str(p)) for p in table.qualifiers}
        withdrawn = {int(str(p)) for p in table.withdrawn}
        rows = []
        for line in outcomes.standing_lines(table.standings, 0):
            qualified = line.player_id in qualifiers
            rows.append(
                GroupTableRow(
                    position=line.position,
                    rank=line.rank,
                    player=players[line.player_id],
                    values=line.values,
                    separated_by=line.separated_by,
                    qualified=qualified,
                    withdrawn=line.player_id in withdrawn,
                    reason=_group_reason(table, line.position, qualified, line.player_id in withdrawn),
                )
            )
        out.append(
            GroupTable(
                label=table.label,
                advance=table.advance,
                complete=table.complete,
                chain=[str(t) for t in table.standings.chain],
                rows=rows,
                qualifiers=[int(str(p)) for p in table.qualifiers],
            )
        )
    return out


def standings_body(page: StandingsPage) -> dict[str, Any]:
    """A stage's standings as the API and the export give them: the stored rows (every group or
    Snap table one after the other) and, for groups → playoff, each group's own table."""
    stage = page.stage
    return {
        "stage": stage.pk,
        "results_version": stage.results_version,
        "standings_version": stage.standings_version,
        "computed_at": stage.standings_computed_at,
        "stale": stage.standings_stale,
        "rows": [row for group in page.groups for row in group.rows],
        "groups": page.group_tables,
    }


def stage_version_get(*, user: AnyUser, stage_id: int) -> str:
    """``results_version.standings_version``: changes when a result comes in and when the table follows."""
    stage = stage_get(user=user, stage_id=stage_id)
    return f"{stage.results_version}.{stage.standings_version}"
