"""Reads of seasons: which tournaments a season holds, their final placings, the season table.

The table is worked out when it is read (docs/seasons.md, "Computed on read"): a handful of
queries over stored stage standings, then the pure function of ``table.py``. Nothing is stored, so
nothing can lag behind a correction.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import AnyUser
from tournaments.access import require_organiser, user_is_organiser
from tournaments.clubs.selectors import club_get
from tournaments.competitions.selectors.stages import stage_champion
from tournaments.competitions.selectors.tournaments import tournaments_visible
from tournaments.models import Club, Player, Season, SeasonTournament, Stage, StandingRow, Tournament
from tournaments.rankings.seasons.table import (
    SeasonRow,
    SeasonTable,
    StageStandings,
    TournamentPlacings,
    final_placings,
    season_table,
)
from tournaments.rows import row_by_id

# How long a tournament's final placings stay memoised (they are keyed by its stages' versions).
PLACINGS_CACHE_SECONDS = 24 * 3600


def season_by_id(*, season_id: int, lock: bool = False) -> Season:
    """The season with its club; ``lock``: its row stays locked until the transaction ends.
    Raises NotFound."""
    return row_by_id(
        Season.objects.select_related("club"),
        season_id,
        lock=lock,
        missing=NotFound(code="season_not_found", message=_("No such season.")),
    )


def season_fields(season: Season) -> dict[str, Any]:
    """The season's editable fields as its form and the API take them (season_update's keywords)."""
    return {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "game": season.game,
        "points_scale": season.points_scale,
        "best_results": season.best_results,
    }


def season_manage_get(*, user: AnyUser, season_id: int) -> Season:
    """The season, for its club's organisers. Raises NotFound, PermissionDenied."""
    season = season_by_id(season_id=season_id)
    require_organiser(user, season.club)
    return season


def club_seasons_list(*, club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club).order_by("-starts_on", "name"))


def tournament_day(tournament: Tournament) -> datetime.date:
    """The day a tournament counts on for a season: the day it starts, or was created when it has
    no start, in the site's time zone."""
    return timezone.localdate(tournament.starts_at or tournament.created_at)


@dataclass(frozen=True)
class SeasonCandidate:
    """A tournament of the club as the season's form lists it."""

    tournament: Tournament
    day: datetime.date
    by_date: bool  # its day is in the season's range (and its game the season's)
    choice: bool | None  # the organiser's: True in, False out, None by date

    @property
    def included(self) -> bool:
        return self.by_date if self.choice is None else self.choice

    @property
    def choice_value(self) -> str:
        return "auto" if self.choice is None else ("in" if self.choice else "out")


def season_candidates(
    *, season: Season, tournaments: list[Tournament] | None = None
) -> list[SeasonCandidate]:
    """Every tournament of the season's club (of its game, when it has one), oldest first, with
    whether it is in the season and why."""
    if tournaments is None:
        tournaments = list(Tournament.objects.filter(club=season.club_id))
    choices = dict(SeasonTournament.objects.filter(season=season).values_list("tournament_id", "included"))
    found = []
    for tournament in tournaments:
        day = tournament_day(tournament)
        right_game = not season.game or tournament.game == season.game
        if not right_game and tournament.pk not in choices:
            continue
        by_date = right_game and season.starts_on <= day <= season.ends_on
        found.append(SeasonCandidate(tournament, day, by_date, choices.get(tournament.pk)))
    return sorted(found, key=lambda c: (c.day, c.tournament.name, c.tournament.pk))


@dataclass(frozen=True)
class SeasonColumn:
    tournament: Tournament
    day: datetime.date
    provisional: bool  # not finished, or its standings lag its results


@dataclass(frozen=True)
class SeasonLine:
    """A row of the table with its player and, per column, the result (None: did not play)."""

    row: SeasonRow
    player: Player
    cells: list[object]


@dataclass(frozen=True)
class SeasonPage:
    season: Season
    columns: list[SeasonColumn]
    table: SeasonTable
    lines: list[SeasonLine]
    is_organiser: bool

    @property
    def provisional(self) -> bool:
        return any(c.provisional for c in self.columns)


def _public_ids(club: Club) -> set[int]:
    """The club's tournaments everyone may see: a season table is the same for every reader."""
    return set(tournaments_visible(user=AnonymousUser()).filter(club=club).values_list("pk", flat=True))


def _placings_key(tournament: Tournament, stages: list[Stage]) -> str:
    """Everything a tournament's final placings are made of: a new result, a recomputed table, a
    finished stage or another stage is a new key (nothing to invalidate, on any cache backend)."""
    parts = ",".join(f"{s.pk}.{s.results_version}.{s.standings_version}.{s.status}" for s in stages)
    # The creation time too: a test database (SQLite) hands a rolled-back row's id out again.
    made = tournament.created_at.timestamp()
    return f"season-placings:{tournament.pk}:{made}:{tournament.status}:{parts}"


def tournament_placings_list(tournaments: list[Tournament]) -> list[TournamentPlacings]:
    """Each tournament's final placings from its stages' stored standings (``table.final_placings``),
    memoised by its stages' versions (docs/seasons.md): one query for the stages, and for the
    tournaments not memoised one for their standings plus a finished knockout's own reads for
    its champion."""
    stages_by_tournament: dict[int, list[Stage]] = {}
    for stage in (
        Stage.objects.filter(tournament__in=tournaments)
        .select_related("tournament")
        .order_by("tournament", "order")
    ):
        stages_by_tournament.setdefault(stage.tournament_id, []).append(stage)
    keys = {t.pk: _placings_key(t, stages_by_tournament.get(t.pk, [])) for t in tournaments}
    known = cache.get_many(list(keys.values()))
    missing = [t for t in tournaments if keys[t.pk] not in known]
    if missing:
        rows_by_stage: dict[int, list[tuple[int, int, int]]] = {}
        for stage_id, player_id, group, rank in (
            StandingRow.objects.filter(stage__tournament__in=missing)
            .order_by("stage", "group", "position")
            .values_list("stage_id", "player_id", "group", "rank")
        ):
            rows_by_stage.setdefault(stage_id, []).append((player_id, group, rank))
        made = {
            keys[t.pk]: _tournament_placings(t, stages_by_tournament.get(t.pk, []), rows_by_stage)
            for t in missing
        }
        cache.set_many(made, PLACINGS_CACHE_SECONDS)
        known.update(made)
    return [TournamentPlacings(t.pk, *known[keys[t.pk]]) for t in tournaments]


def _tournament_placings(
    tournament: Tournament, stages: list[Stage], rows_by_stage: dict[int, list[tuple[int, int, int]]]
) -> tuple[dict[int, int], bool]:
    standings = []
    for stage in stages:
        rows = rows_by_stage.get(stage.pk, [])
        champion = stage_champion(stage) if rows and stage.status == Stage.Status.FINISHED else None
        standings.append(StageStandings(rows=rows, champion=champion.pk if champion else None))
    finished = tournament.status == Tournament.Status.FINISHED or (
        bool(stages) and all(s.status == Stage.Status.FINISHED for s in stages)
    )
    provisional = not finished or any(s.standings_stale for s in stages)
    return {int(str(p)): place for p, place in final_placings(standings).items()}, provisional


def season_page_get(*, user: AnyUser, season_id: int) -> SeasonPage:
    """The season, its tournaments (public ones, oldest first) and its table. Raises NotFound."""
    season = season_by_id(season_id=season_id)
    public = _public_ids(season.club)
    candidates = [c for c in season_candidates(season=season) if c.included and c.tournament.pk in public]
    tournaments = [c.tournament for c in candidates]
    placings = tournament_placings_list(tournaments)
    players = {p.pk: p for p in Player.objects.filter(pk__in={p for t in placings for p in t.placings})}
    # A player deleted since (no entries left) is left out rather than failing the page.
    placings = [
        TournamentPlacings(t.tournament, {p: n for p, n in t.placings.items() if p in players}, t.provisional)
        for t in placings
    ]
    table = season_table(
        placings,
        scale=season.points_scale,
        best_of=season.best_results,
        name=lambda pid: players[pid].name.casefold(),  # type: ignore[index]
    )
    columns = [
        SeasonColumn(c.tournament, c.day, one.provisional)
        for c, one in zip(candidates, placings, strict=True)
    ]
    lines = []
    for row in table.rows:
        by_tournament = {r.tournament: r for r in row.results}
        lines.append(
            SeasonLine(
                row=row,
                player=players[row.player],  # type: ignore[index]
                cells=[by_tournament.get(c.tournament.pk) for c in columns],
            )
        )
    return SeasonPage(
        season=season,
        columns=columns,
        table=table,
        lines=lines,
        is_organiser=user_is_organiser(user, season.club),
    )


@dataclass(frozen=True)
class ClubSeasonsPage:
    club: Club
    seasons: list[Season]
    is_organiser: bool


def club_seasons_page_get(*, user: AnyUser, slug: str) -> ClubSeasonsPage:
    club = club_get(slug=slug)
    return ClubSeasonsPage(
        club=club, seasons=club_seasons_list(club=club), is_organiser=user_is_organiser(user, club)
    )
