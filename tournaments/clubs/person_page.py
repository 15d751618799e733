"""A person's own page across their clubs: each club's player with its ratings, their series in every
club, and the next table. It gathers reads of several concerns (competitions, nights, rankings),
which sit above the clubs: it is kept apart from ``selectors.py`` so that the clubs' plain reads
import none of them."""

from __future__ import annotations

from dataclasses import dataclass

from snapleague.users import AnyUser, signed_in
from tournaments.competitions.selectors.players import PlayerSeriesLine, player_page_get
from tournaments.models import GAME_KIND_LABELS, GameKind, Player, PlayerRating
from tournaments.nights.selectors import NextTable, next_table_get
from tournaments.rankings.ratings.page import rating_text


@dataclass(frozen=True)
class PersonRating:
    game: GameKind
    label: str
    text: str
    played: int


@dataclass(frozen=True)
class PersonClub:
    player: Player
    ratings: list[PersonRating]
    series_won: int
    series_decided: int


@dataclass(frozen=True)
class PersonHistoryLine:
    player: Player
    line: PlayerSeriesLine


@dataclass(frozen=True)
class PersonPage:
    clubs: list[PersonClub]
    history: list[PersonHistoryLine]
    next_table: NextTable | None


def person_page_get(*, user: AnyUser) -> PersonPage:
    """Everything of the signed-in person across their clubs: each club's player with its ratings
    (club-scoped, as they are), their series in every club newest tournament first, and the next
    table among all their players."""
    if not signed_in(user):
        return PersonPage(clubs=[], history=[], next_table=None)
    players = list(Player.objects.filter(user=user).select_related("club").order_by("club__name", "name"))
    ratings: dict[int, list[PersonRating]] = {}
    for rating in PlayerRating.objects.filter(player__in=players).order_by("game"):
        game = GameKind(rating.game)
        ratings.setdefault(rating.player_id, []).append(
            PersonRating(
                game=game,
                label=str(GAME_KIND_LABELS[game]),
                text=rating_text(game, rating.value),
                played=rating.played,
            )
        )
    clubs = []
    history: list[tuple[tuple[float, int, int], PersonHistoryLine]] = []
    for player in players:
        page = player_page_get(user=user, player_id=player.pk)
        clubs.append(
            PersonClub(
                player=player,
                ratings=ratings.get(player.pk, []),
                series_won=page.series_won,
                series_decided=page.series_decided,
            )
        )
        for order, line in enumerate(page.history):
            starts = line.series.stage.tournament.starts_at
            key = (-(starts.timestamp() if starts else 0.0), player.pk, order)
            history.append((key, PersonHistoryLine(player=player, line=line)))
    history.sort(key=lambda item: item[0])
    return PersonPage(
        clubs=clubs,
        history=[line for _key, line in history],
        next_table=next_table_get(user=user, players=players),
    )
