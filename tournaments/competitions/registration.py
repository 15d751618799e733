"""Tournament registration (issue 25 item 4, docs/tournaments.md "Registration"): an organiser
opens sign-ups (a window, a cap, a waiting list, automatic or approved entry, a question); a
signed-in person registers or withdraws before the start. Every change of who has a place happens
under the tournament's row lock, so places are never given twice, even under simultaneous
sign-ups, and a withdrawal gives its place to the first on the waiting list in the same
transaction. An accepted person is entered with their player of the club (made when they have
none), so stages take them like any entrant, and can seed them by rating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from snapleague.names import name_clean
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser, user_is_organiser
from tournaments.accounts.selectors import user_display
from tournaments.audit import audit
from tournaments.competitions.selectors.tournaments import tournaments_visible
from tournaments.models import AuditEntry, Club, Entry, Player, Registration, RegistrationWindow, Tournament
from tournaments.notifications import senders as notifications_senders

ANSWER_MAX = Registration._meta.get_field("answer").max_length or 300
QUESTION_MAX = RegistrationWindow._meta.get_field("question").max_length or 200
Status = Registration.Status


@dataclass(frozen=True)
class RegistrationPage:
    """What the tournament's registration page shows the person looking at it."""

    tournament: Tournament
    window: RegistrationWindow | None
    is_open: bool  # now within the window, and the tournament not started
    accepted: int
    waiting: int
    places_left: int | None  # None: no cap
    mine: Registration | None  # the person's active sign-up, else their latest
    waiting_place: int | None  # 1 for the first in line
    is_organiser: bool
    registrations: list[Registration]  # everyone's, for organisers; [] for others


def registration_tournament_get(*, user: AnyUser, tournament_id: int) -> Tournament:
    """The tournament of a registration page: one the person may see anyway, or a draft whose
    registration an organiser has opened (sign-ups happen before the start, while the rest of the
    draft stays its staff's). NotFound otherwise."""
    tournament = tournaments_visible(user=user).select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        tournament = (
            Tournament.objects.select_related("club")
            .filter(pk=tournament_id, registration_window__isnull=False)
            .first()
        )
    if tournament is None:
        raise NotFound(code="not_found", message=_("No such tournament."))
    return tournament


def registrations_open_in(*, club: Club) -> list[Tournament]:
    """The club's tournaments whose registration is open now (the club page lists them)."""
    now = timezone.now()
    return list(
        Tournament.objects.filter(
            club=club,
            status=Tournament.Status.DRAFT,
            registration_window__opens_at__lte=now,
            registration_window__closes_at__gt=now,
        ).order_by("registration_window__closes_at", "pk")
    )


def _counts(tournament: Tournament) -> tuple[int, int]:
    accepted = Registration.objects.filter(tournament=tournament, status=Status.ACCEPTED).count()
    waiting = Registration.objects.filter(tournament=tournament, status=Status.WAITING).count()
    return accepted, waiting


def _window_open(window: RegistrationWindow | None, tournament: Tournament, now: datetime) -> bool:
    return (
        window is not None
        and tournament.status == Tournament.Status.DRAFT
        and window.opens_at <= now < window.closes_at
    )


def registration_page_get(*, user: AnyUser, tournament: Tournament) -> RegistrationPage:
    window = RegistrationWindow.objects.filter(tournament=tournament).first()
    accepted, waiting = _counts(tournament)
    mine = None
    place = None
    if signed_in(user):
        mine = (
            Registration.objects.filter(tournament=tournament, user=user)
            .order_by("-created_at", "-pk")
            .first()
        )
        if mine is not None and mine.status == Status.WAITING:
            place = Registration.objects.filter(
                tournament=tournament, status=Status.WAITING, pk__lte=mine.pk
            ).count()
    organiser = user_is_organiser(user, tournament.club)
    return RegistrationPage(
        tournament=tournament,
        window=window,
        is_open=_window_open(window, tournament, timezone.now()),
        accepted=accepted,
        waiting=waiting,
        places_left=None if window is None or window.cap is None else max(0, window.cap - accepted),
        mine=mine,
        waiting_place=place,
        is_organiser=organiser,
        registrations=list(
            Registration.objects.filter(tournament=tournament).select_related("user", "player")
        )
        if organiser
        else [],
    )


def _locked(tournament_id: int) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise NotFound(code="not_found", message=_("No such tournament."))
    return tournament


def _player_for(user: Account, tournament: Tournament) -> Player:
    """The person's player of the tournament's club, made (named after them) when they have none;
    a name the club has already gets their username after it."""
    player = Player.objects.filter(club=tournament.club, user=user).first()
    if player is not None:
        return player
    name = name_clean(user_display(user))[:120] or user.get_username()
    if Player.objects.filter(club=tournament.club, name=name).exists():
        name = f"{name} ({user.get_username()})"[:120]
    return Player.objects.create(club=tournament.club, name=name, user=user)


def _accept(registration: Registration, tournament: Tournament, *, moved_up: bool = False) -> None:
    """Give ``registration`` its place: an entrant of the tournament (under the tournament's lock),
    and tell the person (``moved_up``: from the waiting list)."""
    player = _player_for(registration.user, tournament)
    next_seed = Entry.objects.filter(tournament=tournament).count() + 1
    entry, created = Entry.objects.get_or_create(
        tournament=tournament, player=player, defaults={"seed": next_seed}
    )
    if not created and entry.withdrawn:
        Entry.objects.filter(pk=entry.pk).update(withdrawn=False)
    registration.status = Status.ACCEPTED
    registration.player = player
    registration.save(update_fields=["status", "player", "changed_at"])
    notifications_senders.registration_accepted(registration, moved_up=moved_up)


def _has_place(window: RegistrationWindow, tournament: Tournament) -> bool:
    return window.cap is None or _counts(tournament)[0] < window.cap


def _promote(tournament: Tournament, window: RegistrationWindow) -> list[Registration]:
    """Give free places to the waiting list, first come first served (under the tournament's lock)."""
    promoted = []
    while _has_place(window, tournament):
        first = (
            Registration.objects.filter(tournament=tournament, status=Status.WAITING)
            .select_related("user")
            .order_by("created_at", "pk")
            .first()
        )
        if first is None:
            break
        _accept(first, tournament, moved_up=True)
        promoted.append(first)
    return promoted


@transaction.atomic
def registration_window_set(
    *,
    user: AnyUser,
    tournament: Tournament,
    opens_at: datetime,
    closes_at: datetime,
    cap: int | None = None,
    waiting_list: bool = True,
    approval: bool = False,
    question: str = "",
) -> RegistrationWindow:
    """Open registration, or change it (organisers; before the tournament starts). A higher cap
    gives the new places to the waiting list at once. Raises ApplicationError ``invalid`` with the
    fields at fault, PermissionDenied, Conflict ``tournament_started``."""
    require_organiser(user, tournament.club)
    tournament = _locked(tournament.pk)
    if tournament.status != Tournament.Status.DRAFT:
        raise Conflict(
            code="tournament_started",
            message=_("%(tournament)s has started: registration is over.") % {"tournament": tournament.name},
        )
    fields: dict[str, list[str]] = {}
    if closes_at <= opens_at:
        fields["closes_at"] = [_("Registration must close after it opens.")]
    accepted, _waiting = _counts(tournament)
    if cap is not None and (isinstance(cap, bool) or cap < 1):
        fields["cap"] = [_("At least one place, or leave it empty for no limit.")]
    elif cap is not None and cap < accepted:
        fields["cap"] = [
            _("%(count)s people have a place already: the cap cannot be lower.") % {"count": accepted}
        ]
    question = " ".join(str(question or "").split())
    if len(question) > QUESTION_MAX:
        fields["question"] = [_("At most %(count)s characters.") % {"count": QUESTION_MAX}]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("Registration cannot be opened as it is."), fields=fields
        )
    window, _created = RegistrationWindow.objects.update_or_create(
        tournament=tournament,
        defaults={
            "opens_at": opens_at,
            "closes_at": closes_at,
            "cap": cap,
            "waiting_list": waiting_list,
            "approval": approval,
            "question": question,
        },
    )
    _promote(tournament, window)
    audit(AuditEntry.Action.REGISTRATION_SET, user=user, tournament=tournament, cap=cap, approval=approval)
    return window


@transaction.atomic
def registration_create(*, user: AnyUser, tournament: Tournament, answer: str = "") -> Registration:
    """Sign ``user`` up: a place (entered at once), the waiting list, or an organiser's approval.
    Raises PermissionDenied ``not_signed_in``, ApplicationError ``registration_closed`` or
    ``invalid`` (field ``answer``), Conflict ``already_registered`` or ``tournament_full``."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to register."))
    tournament = _locked(tournament.pk)
    window = RegistrationWindow.objects.filter(tournament=tournament).first()
    if window is None or not _window_open(window, tournament, timezone.now()):
        raise ApplicationError(
            code="registration_closed",
            message=_("Registration for %(tournament)s is not open.") % {"tournament": tournament.name},
        )
    if Registration.objects.filter(tournament=tournament, user=user, status__in=Registration.ACTIVE).exists():
        raise Conflict(
            code="already_registered",
            message=_("You have registered for %(tournament)s already.") % {"tournament": tournament.name},
        )
    answer = " ".join(str(answer or "").split())
    if window.question and not answer:
        raise ApplicationError(
            code="invalid", message=_("Answer the organisers' question."), fields={"answer": [_("Required.")]}
        )
    if len(answer) > ANSWER_MAX:
        raise ApplicationError(
            code="invalid",
            message=_("The answer is too long."),
            fields={"answer": [_("At most %(count)s characters.") % {"count": ANSWER_MAX}]},
        )
    place = _has_place(window, tournament)
    if window.approval:
        status = Status.PENDING
    elif place:
        status = Status.ACCEPTED
    elif window.waiting_list:
        status = Status.WAITING
    else:
        raise Conflict(
            code="tournament_full",
            message=_("%(tournament)s is full and has no waiting list.") % {"tournament": tournament.name},
        )
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                tournament=tournament, user=user, status=Status.WAITING, answer=answer
            )
    except IntegrityError:  # the lock makes this unreachable; kept as the constraint's answer
        raise Conflict(code="already_registered", message=_("You have registered already.")) from None
    if status == Status.ACCEPTED:
        _accept(registration, tournament)
    elif status != registration.status:
        registration.status = status
        registration.save(update_fields=["status", "changed_at"])
    audit(AuditEntry.Action.REGISTERED, user=user, tournament=tournament, status=str(registration.status))
    return registration


@transaction.atomic
def registration_withdraw(*, user: AnyUser, tournament: Tournament) -> list[Registration]:
    """Withdraw ``user``'s sign-up before the start; a place it held goes to the first on the waiting
    list in the same transaction (returned). Raises NotFound ``not_registered``, Conflict
    ``tournament_started``."""
    if not signed_in(user):
        raise PermissionDenied(code="not_signed_in", message=_("Log in to withdraw."))
    tournament = _locked(tournament.pk)
    if tournament.status != Tournament.Status.DRAFT:
        raise Conflict(
            code="tournament_started",
            message=_("%(tournament)s has started: ask an organiser to withdraw you.")
            % {"tournament": tournament.name},
        )
    registration = (
        Registration.objects.filter(tournament=tournament, user=user, status__in=Registration.ACTIVE)
        .select_for_update()
        .first()
    )
    if registration is None:
        raise NotFound(code="not_registered", message=_("You are not registered for this tournament."))
    had_place = registration.status == Status.ACCEPTED
    if had_place and registration.player_id is not None:
        entry = Entry.objects.filter(tournament=tournament, player_id=registration.player_id)
        if tournament.stages.exists():  # a stage may have taken the entrant: keep the row, withdrawn
            entry.update(withdrawn=True)
        else:
            entry.delete()
    registration.status = Status.WITHDRAWN
    registration.save(update_fields=["status", "changed_at"])
    audit(AuditEntry.Action.REGISTRATION_WITHDRAWN, user=user, tournament=tournament)
    window = RegistrationWindow.objects.get(tournament=tournament)
    return _promote(tournament, window) if had_place else []


@transaction.atomic
def registration_decide(*, user: AnyUser, registration_id: int, approve: bool) -> Registration:
    """An organiser approves (a place, or the waiting list when full) or refuses a pending sign-up.
    Raises NotFound, Conflict ``registration_decided`` or ``tournament_full``."""
    found = Registration.objects.select_related("tournament__club").filter(pk=registration_id).first()
    if found is None or not user_is_organiser(user, found.tournament.club):
        raise NotFound(code="not_found", message=_("No such registration."))
    tournament = _locked(found.tournament_id)
    registration = (
        Registration.objects.select_for_update(of=("self",)).select_related("user").get(pk=registration_id)
    )
    if registration.status != Status.PENDING:
        raise Conflict(
            code="registration_decided",
            message=_("This registration was decided already (%(status)s).")
            % {"status": registration.get_status_display()},
        )
    window = RegistrationWindow.objects.get(tournament=tournament)
    if not approve:
        registration.status = Status.REFUSED
        registration.save(update_fields=["status", "changed_at"])
    elif _has_place(window, tournament):
        _accept(registration, tournament)
    elif window.waiting_list:
        registration.status = Status.WAITING
        registration.save(update_fields=["status", "changed_at"])
    else:
        raise Conflict(
            code="tournament_full",
            message=_("%(tournament)s is full and has no waiting list.") % {"tournament": tournament.name},
        )
    audit(
        AuditEntry.Action.REGISTRATION_DECIDED,
        user=user,
        tournament=tournament,
        registration=registration.pk,
        status=str(registration.status),
    )
    return registration
