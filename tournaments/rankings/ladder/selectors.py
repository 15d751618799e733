"""Reads of ladders: the ladder with its places, who may challenge whom, a player's challenges,
the history (docs/ladder.md)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, user_is_organiser
from tournaments.clubs.selectors import club_get
from tournaments.models import Club, Ladder, LadderChallenge, LadderRung, Player
from tournaments.rankings.ladder.rules import challengeable
from tournaments.rows import row_by_id


def ladder_by_id(*, ladder_id: int, lock: bool = False) -> Ladder:
    """The ladder with its club; ``lock``: its row stays locked until the transaction ends (every
    write of a ladder, its places and its challenges locks it first). Raises NotFound."""
    return row_by_id(
        Ladder.objects.select_related("club", "season"),
        ladder_id,
        lock=lock,
        missing=NotFound(code="ladder_not_found", message=_("No such ladder.")),
    )


def ladder_fields(ladder: Ladder) -> dict[str, Any]:
    """The ladder's settings as its form and the API take them (its season as ``season``)."""
    return {
        "name": ladder.name,
        "game": ladder.game,
        "season": ladder.season_id,
        "reach": ladder.reach,
        "reply_days": ladder.reply_days,
        "best_of": ladder.best_of,
        "rematch_days": ladder.rematch_days,
    }


def ladder_manage_get(*, user: AnyUser, ladder_id: int) -> Ladder:
    """The ladder, for its club's organisers. Raises NotFound, PermissionDenied."""
    ladder = ladder_by_id(ladder_id=ladder_id)
    require_organiser(user, ladder.club)
    return ladder


def challenge_by_id(*, challenge_id: int) -> LadderChallenge:
    return row_by_id(
        LadderChallenge.objects.select_related("ladder__club", "challenger", "challenged"),
        challenge_id,
        lock=False,
        missing=NotFound(code="challenge_not_found", message=_("No such challenge.")),
    )


def ladder_order(*, ladder: Ladder) -> tuple[int, ...]:
    """The ladder's player ids, top first."""
    return tuple(
        LadderRung.objects.filter(ladder=ladder).order_by("place").values_list("player_id", flat=True)
    )


def rungs_list(*, ladder: Ladder) -> list[LadderRung]:
    return list(LadderRung.objects.filter(ladder=ladder).select_related("player").order_by("place"))


def open_challenges(*, ladder: Ladder) -> QuerySet[LadderChallenge]:
    return LadderChallenge.objects.filter(
        ladder=ladder, status__in=[LadderChallenge.Status.OPEN, LadderChallenge.Status.ACCEPTED]
    )


def user_player(*, user: AnyUser, club: Club) -> Player | None:
    """The player ``user`` is in ``club`` (an account linked to a player), or None."""
    if not signed_in(user):
        return None
    return Player.objects.filter(club=club, user=user).first()


def rematch_blocked(
    *, ladder: Ladder, challenger_id: int, now: datetime.datetime
) -> dict[int, datetime.datetime]:
    """Players ``challenger_id`` lost a challenge to lately: player id → when they may try again."""
    if ladder.rematch_days == 0:
        return {}
    since = now - datetime.timedelta(days=ladder.rematch_days)
    blocked: dict[int, datetime.datetime] = {}
    for challenged_id, decided_at in LadderChallenge.objects.filter(
        ladder=ladder,
        challenger_id=challenger_id,
        status=LadderChallenge.Status.DECIDED,
        challenger_won=False,
        decided_at__gt=since,
    ).values_list("challenged_id", "decided_at"):
        until = decided_at + datetime.timedelta(days=ladder.rematch_days)
        blocked[challenged_id] = max(until, blocked.get(challenged_id, until))
    return blocked


@dataclass
class RungLine:
    rung: LadderRung
    busy: LadderChallenge | None  # the player's open challenge
    can_challenge: bool
    blocked_until: datetime.datetime | None


@dataclass
class LadderPage:
    ladder: Ladder
    lines: list[RungLine]
    me: Player | None
    my_place: int | None
    my_open: LadderChallenge | None
    is_organiser: bool
    open_challenges: list[LadderChallenge] = field(default_factory=list)
    addable: list[Player] = field(default_factory=list)


def ladder_page_get(*, user: AnyUser, ladder_id: int) -> LadderPage:
    """The ladder as its page shows it: each place, its player, whether they are in a challenge,
    and whether ``user``'s player may challenge them now."""
    ladder = ladder_by_id(ladder_id=ladder_id)
    rungs = rungs_list(ladder=ladder)
    opens = list(open_challenges(ladder=ladder).select_related("challenger", "challenged").order_by("due_at"))
    busy: dict[int, LadderChallenge] = {}
    for challenge in opens:
        busy[challenge.challenger_id] = challenge
        busy[challenge.challenged_id] = challenge
    me = user_player(user=user, club=ladder.club)
    order = tuple(rung.player_id for rung in rungs)
    my_place = order.index(me.pk) + 1 if me is not None and me.pk in order else None
    targets: set[int] = set()
    blocked: dict[int, datetime.datetime] = {}
    my_open = busy.get(me.pk) if me is not None else None
    if me is not None and my_place is not None:
        blocked = rematch_blocked(ladder=ladder, challenger_id=me.pk, now=timezone.now())
        if my_open is None:
            targets = {
                p
                for p in challengeable(order, me.pk, reach=ladder.reach)
                if p not in busy and p not in blocked
            }
    lines = [
        RungLine(
            rung=rung,
            busy=busy.get(rung.player_id),
            can_challenge=rung.player_id in targets,
            blocked_until=blocked.get(rung.player_id),
        )
        for rung in rungs
    ]
    is_organiser = user_is_organiser(user, ladder.club)
    addable = []
    if is_organiser:
        addable = list(Player.objects.filter(club=ladder.club).exclude(pk__in=order).order_by("name"))
    return LadderPage(
        ladder=ladder,
        lines=lines,
        me=me,
        my_place=my_place,
        my_open=my_open,
        is_organiser=is_organiser,
        open_challenges=opens,
        addable=addable,
    )


@dataclass
class ClubLaddersPage:
    club: Club
    ladders: list[Ladder]
    is_organiser: bool


def club_ladders_page_get(*, user: AnyUser, slug: str) -> ClubLaddersPage:
    club = club_get(slug=slug)
    return ClubLaddersPage(
        club=club,
        ladders=list(Ladder.objects.filter(club=club).order_by("name")),
        is_organiser=user_is_organiser(user, club),
    )


def challenges_list(*, ladder: Ladder, player: Player | None = None) -> list[LadderChallenge]:
    """The ladder's challenges, newest first (``player``: theirs only)."""
    queryset = LadderChallenge.objects.filter(ladder=ladder).select_related(
        "challenger", "challenged", "ladder"
    )
    if player is not None:
        queryset = queryset.filter(Q(challenger=player) | Q(challenged=player))
    return list(queryset.order_by("-created_at", "-pk"))


def challenges_overdue(*, now: datetime.datetime) -> list[int]:
    """Open or accepted challenges past their day, oldest first (the beat task's work)."""
    return list(
        LadderChallenge.objects.filter(
            status__in=[LadderChallenge.Status.OPEN, LadderChallenge.Status.ACCEPTED], due_at__lt=now
        )
        .order_by("due_at", "pk")
        .values_list("pk", flat=True)
    )


def challenge_party_get(*, user: AnyUser, challenge_id: int) -> LadderChallenge:
    """The challenge, for its two players and the club's organisers (who may act on it at all;
    which of them may do what is the service's check). Raises NotFound, PermissionDenied."""
    challenge = challenge_by_id(challenge_id=challenge_id)
    if signed_in(user) and user.pk in (challenge.challenger.user_id, challenge.challenged.user_id):
        return challenge
    if user_is_organiser(user, challenge.ladder.club):
        return challenge
    raise PermissionDenied(
        code="not_in_challenge",
        message=_("Only the two players or an organiser of %(club)s may do this.")
        % {"club": challenge.ladder.club.name},
    )


def challenger_check(*, user: AnyUser, ladder: Ladder) -> None:
    """Who may challenge on ``ladder`` at all: a player of its club (linked to the account) or an
    organiser (naming the challenger). Raises PermissionDenied ``no_player``."""
    if user_player(user=user, club=ladder.club) is None and not user_is_organiser(user, ladder.club):
        raise PermissionDenied(
            code="no_player",
            message=_("Only a player of %(club)s linked to your account may challenge.")
            % {"club": ladder.club.name},
        )
