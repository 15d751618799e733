"""Join requests (issue 25 item 3, docs/accounts.md "Join requests"): a club that allows them lets
a signed-in person ask to join from the club page; an organiser approves (the person is linked to
one of the club's players: an unclaimed one chosen, or a new one named after them) or refuses (with
a reason the person sees). The services and the reads of the club page and the organisers' list."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from snapleague.names import name_clean, name_problem
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, user_is_organiser
from tournaments.accounts.selectors import user_display
from tournaments.audit import audit
from tournaments.models import AuditEntry, Club, JoinRequest, Player
from tournaments.notifications import senders as notifications_senders

MESSAGE_MAX = JoinRequest._meta.get_field("message").max_length or 500
REASON_MAX = JoinRequest._meta.get_field("reason").max_length or 300


@dataclass(frozen=True)
class JoinState:
    """What the club page offers the person looking at it."""

    can_ask: bool  # signed in, not a member, the club allows it, nothing pending
    latest: JoinRequest | None  # their newest request (pending, approved or refused)
    member: Player | None  # the club's player linked to them


def join_state_get(*, user: AnyUser, club: Club) -> JoinState:
    if not signed_in(user):
        return JoinState(can_ask=False, latest=None, member=None)
    member = Player.objects.filter(club=club, user_id=user.pk).first()
    latest = JoinRequest.objects.filter(club=club, user_id=user.pk).order_by("-created_at", "-pk").first()
    pending = latest is not None and latest.status == JoinRequest.Status.PENDING
    return JoinState(
        can_ask=club.join_requests_open and member is None and not pending, latest=latest, member=member
    )


def join_requests_pending(*, user: AnyUser, club: Club) -> QuerySet[JoinRequest]:
    """The club's pending requests, oldest first (organisers only)."""
    require_organiser(user, club)
    return JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING).select_related("user")


def join_request_club(*, user: AnyUser, request_id: int) -> Club:
    """The club of a join request its organiser looks at (NotFound for anyone else)."""
    request = JoinRequest.objects.select_related("club").filter(pk=request_id).first()
    if request is None or not user_is_organiser(user, request.club):
        raise NotFound(code="not_found", message=_("No such join request."))
    return request.club


def players_unclaimed(*, club: Club) -> QuerySet[Player]:
    """The club's players not linked to an account: what an approval may link the person to."""
    return Player.objects.filter(club=club, user__isnull=True).order_by("name")


@transaction.atomic
def club_join_requests_set(*, user: AnyUser, club: Club, open_: bool) -> Club:
    """Allow or stop join requests (organisers). Pending requests stay to be decided."""
    require_organiser(user, club)
    if club.join_requests_open != open_:
        Club.objects.filter(pk=club.pk).update(join_requests_open=open_)
        club.join_requests_open = open_
        audit(AuditEntry.Action.JOIN_REQUESTS_SET, user=user, club=club.name, open=open_)
    return club


@transaction.atomic
def join_request_create(*, user: AnyUser, club: Club, message: str = "") -> JoinRequest:
    """Ask to join ``club``. Raises PermissionDenied ``not_signed_in``, ApplicationError
    ``join_requests_closed`` or ``invalid`` (field ``message``), Conflict ``already_member`` or
    ``join_request_pending``."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to ask to join the club."))
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not club.join_requests_open:
        raise ApplicationError(
            code="join_requests_closed",
            message=_("%(club)s does not take join requests: ask one of its organisers for a link.")
            % {"club": club.name},
        )
    member = Player.objects.filter(club=club, user_id=user.pk).first()
    if member is not None:
        raise Conflict(
            code="already_member",
            message=_("You are already %(player)s in %(club)s.") % {"player": member.name, "club": club.name},
        )
    message = _folded(message, field="message", limit=MESSAGE_MAX, too_long=_("The message is too long."))
    try:
        with transaction.atomic():  # a savepoint: a double tap is a refusal, not a 500
            request = JoinRequest.objects.create(club=club, user=user, message=message)
    except IntegrityError:
        raise Conflict(
            code="join_request_pending",
            message=_("You have asked to join %(club)s already: an organiser will answer.")
            % {"club": club.name},
        ) from None
    audit(AuditEntry.Action.JOIN_REQUESTED, user=user, club=club.name, request=request.pk)
    return request


def _folded(text: str, *, field: str, limit: int, too_long: str) -> str:
    """``text`` with its white space folded; ApplicationError ``invalid`` on ``field`` when longer
    than ``limit``."""
    folded = " ".join(str(text or "").split())
    if len(folded) > limit:
        raise ApplicationError(
            code="invalid",
            message=too_long,
            fields={field: [_("At most %(count)s characters.") % {"count": limit}]},
        )
    return folded


def _pending(*, user: AnyUser, request_id: int) -> JoinRequest:
    request = (
        JoinRequest.objects.select_for_update().select_related("club", "user").filter(pk=request_id).first()
    )
    if request is None or not user_is_organiser(user, request.club):
        raise NotFound(code="not_found", message=_("No such join request."))
    if request.status != JoinRequest.Status.PENDING:
        raise Conflict(
            code="join_request_decided",
            message=_("This request was decided already (%(status)s).")
            % {"status": request.get_status_display()},
        )
    return request


@transaction.atomic
def join_request_approve(
    *, user: AnyUser, request_id: int, player_id: int | None = None, name: str = ""
) -> Player:
    """Approve: link the person to the club's unclaimed player ``player_id``, or to a new player
    called ``name`` (their display name when empty). Raises NotFound, Conflict
    ``join_request_decided``/``player_claimed``/``already_member``, ApplicationError ``invalid``
    (fields ``player`` or ``name``); nothing is changed then."""
    request = _pending(user=user, request_id=request_id)
    club, person = request.club, request.user
    if Player.objects.filter(club=club, user=person).exists():
        raise Conflict(
            code="already_member",
            message=_("%(person)s is already a player of %(club)s.")
            % {"person": user_display(person), "club": club.name},
        )
    if player_id is not None:
        player = Player.objects.select_for_update().filter(pk=player_id, club=club).first()
        if player is None:
            raise ApplicationError(
                code="invalid",
                message=_("Choose one of the club's players."),
                fields={"player": [_("Not a player of this club.")]},
            )
        if player.user_id is not None:
            raise Conflict(
                code="player_claimed",
                message=_("%(player)s is already linked to someone else's account.")
                % {"player": player.name},
            )
        player.user = person
        player.save(update_fields=["user"])
    else:
        name = name_clean(name) or name_clean(user_display(person))
        problem = name_problem(name)
        if problem is None and len(name) > 120:
            problem = _("At most %(count)s characters.") % {"count": 120}
        if problem is None and Player.objects.filter(club=club, name=name).exists():
            problem = _(
                "%(club)s has a player called %(name)s: choose that player above, or another name."
            ) % {
                "club": club.name,
                "name": name,
            }
        if problem is not None:
            raise ApplicationError(code="invalid", message=problem, fields={"name": [problem]})
        player = Player.objects.create(club=club, name=name, user=person)
    request.status = JoinRequest.Status.APPROVED
    request.decided_by = user if signed_in(user) else None
    request.decided_at = timezone.now()
    request.player = player
    request.save(update_fields=["status", "decided_by", "decided_at", "player"])
    audit(AuditEntry.Action.JOIN_APPROVED, user=user, club=club.name, request=request.pk, player=player.name)
    notifications_senders.join_decided(request, approved=True)
    return player


@transaction.atomic
def join_request_refuse(*, user: AnyUser, request_id: int, reason: str = "") -> JoinRequest:
    """Refuse, with an optional ``reason`` the person sees on the club page. Raises NotFound,
    Conflict ``join_request_decided``, ApplicationError ``invalid`` (field ``reason``)."""
    request = _pending(user=user, request_id=request_id)
    reason = _folded(reason, field="reason", limit=REASON_MAX, too_long=_("The reason is too long."))
    request.status = JoinRequest.Status.REFUSED
    request.decided_by = user if signed_in(user) else None
    request.decided_at = timezone.now()
    request.reason = reason
    request.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    audit(AuditEntry.Action.JOIN_REFUSED, user=user, club=request.club.name, request=request.pk)
    notifications_senders.join_decided(request, approved=False)
    return request
