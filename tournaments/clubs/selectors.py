"""Reads of people and their players (docs/people.md): the organiser's view of a player's link,
and a person's own page across their clubs."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import AnyUser, signed_in
from tournaments.access import user_is_organiser
from tournaments.models import GAME_KIND_LABELS, GameKind, Player, PlayerClaim, PlayerRating
from tournaments.nights.selectors import NextTable, next_table_get
from tournaments.rankings.ratings.page import rating_text
from tournaments.selectors import PlayerSeriesLine, player_page_get, row_by_id


def player_by_id(*, player_id: int, lock: bool = False) -> Player:
    """The player with their club and account. Raises NotFound."""
    return row_by_id(
        Player.objects.select_related("club", "user"),
        player_id,
        lock=lock,
        missing=NotFound(code="player_not_found", message=_("No such player.")),
    )


@dataclass(frozen=True)
class PlayerLink:
    """What an organiser sees of a player's link: the account, or the open invitation."""

    player: Player
    pending: PlayerClaim | None


def player_link_get(*, user: AnyUser, player: Player) -> PlayerLink | None:
    """The link state for an organiser of the player's club (None for anyone else)."""
    if not user_is_organiser(user, player.club):
        return None
    pending = (
        PlayerClaim.objects.filter(
            player=player,
            accepted_at__isnull=True,
            withdrawn_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    return PlayerLink(player=player, pending=pending if player.user_id is None else None)


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
