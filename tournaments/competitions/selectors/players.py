"""A player's page: the tournaments they entered and their series, newest first, game by game."""

from __future__ import annotations

from dataclasses import dataclass

from snapleague.users import AnyUser
from tournaments.clubs.selectors import player_get
from tournaments.competitions.results.values import PlayedResult, SnapszerMatchResult, VoidResult
from tournaments.competitions.selectors.tournaments import (
    tournaments_visible,
)
from tournaments.models import (
    Game,
    GameResult,
    Player,
    Series,
    Tournament,
)


@dataclass(frozen=True)
class PlayerGameLine:
    """One game of a series, as the player's page lists it."""

    game: Game
    result: GameResult
    place: int | None  # None for a void game
    points: int | None  # Snapszer: the player's game points in the match
    won: bool

    @property
    def counted(self) -> bool:
        return not self.result.void


@dataclass(frozen=True)
class PlayerSeriesLine:
    series: Series
    opponents: list[Player]
    placing: int | None
    games: list[PlayerGameLine]


def _player_game_line(game: Game, result: GameResult, player_id: int) -> PlayerGameLine | None:
    """The line of ``player_id`` in ``game``, or None when they did not play it (sudden death)."""
    value = result.value
    if isinstance(value, VoidResult):
        return PlayerGameLine(game, result, None, None, False) if player_id in game.seats else None
    played: PlayedResult = value
    if player_id not in played.players:
        return None
    points = played.score[player_id] if isinstance(played, SnapszerMatchResult) else None
    return PlayerGameLine(game, result, played.placings[player_id], points, played.winner == player_id)


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    tournaments: list[Tournament]
    history: list[PlayerSeriesLine]
    series_won: int
    series_decided: int
    games_won: int
    games_played: int


def player_page_get(*, user: AnyUser, player_id: int) -> PlayerPage:
    player = player_get(player_id=player_id)
    visible = tournaments_visible(user=user).values("pk")
    series_list = list(
        Series.objects.filter(seats__player=player, stage__tournament__in=visible)
        .select_related("round", "stage__tournament")
        .prefetch_related("seats__player")
        .order_by("-stage__tournament__starts_at", "stage__tournament_id", "round__number", "table")
    )
    lines: dict[int, list[PlayerGameLine]] = {}
    for result in (
        GameResult.objects.filter(game__series__in=series_list, confirmed=True)
        .select_related("game", "recorded_by")
        .order_by("game__series_id", "game__number")
    ):
        line = _player_game_line(result.game, result, player.pk)
        if line is not None:
            lines.setdefault(result.game.series_id, []).append(line)
    key = str(player.pk)
    history = []
    games_won = games_played = series_won = series_decided = 0
    for series in series_list:
        # A void game is listed (as voided) but counts for nothing.
        games = lines.get(series.pk, [])
        counted = [line for line in games if line.counted]
        games_played += len(counted)
        games_won += sum(1 for line in counted if line.won)
        placing = series.placings.get(key) if series.status == Series.Status.DECIDED else None
        series_decided += placing is not None
        series_won += placing == 1
        history.append(
            PlayerSeriesLine(
                series=series,
                opponents=[s.player for s in series.seats.all() if s.player_id != player.pk],
                placing=placing,
                games=games,
            )
        )
    return PlayerPage(
        player=player,
        tournaments=list(tournaments_visible(user=user).filter(entries__player=player)),
        history=history,
        series_won=series_won,
        series_decided=series_decided,
        games_won=games_won,
        games_played=games_played,
    )
