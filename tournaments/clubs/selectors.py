"""Reads of clubs and their players (docs/people.md): a club by slug or id, players by id, the
organiser's view of a player's link. A person's own page across their clubs is ``person_page.py``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound
from snapleague.users import AnyUser
from tournaments.access import user_is_organiser
from tournaments.models import Club, Player, PlayerClaim
from tournaments.rows import row_by_id


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


def clubs_list() -> QuerySet[Club]:
    """Every club, by name (the home page's list)."""
    return Club.objects.order_by("name")


def club_get(*, slug: str) -> Club:
    try:
        return Club.objects.get(slug=slug)
    except Club.DoesNotExist:
        raise NotFound(code="club_not_found", message=_("No such club.")) from None


def club_get_by_id(*, club_id: int) -> Club:
    try:
        return Club.objects.get(pk=club_id)
    except Club.DoesNotExist:
        raise NotFound(code="club_not_found", message=_("No such club.")) from None


def players_by_ids(*, player_ids: list[int]) -> list[Player]:
    """The players in the order given. Raises NotFound naming the first unknown id."""
    found = Player.objects.in_bulk(player_ids)
    for pid in player_ids:
        if pid not in found:
            raise NotFound(
                code="player_not_found", message=_("No player %(id)s.") % {"id": pid}, extra={"player": pid}
            )
    return [found[pid] for pid in player_ids]


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.select_related("club").get(pk=player_id)
    except Player.DoesNotExist:
        raise NotFound(code="player_not_found", message=_("No such player.")) from None
