"""Who may do what. Services call these; entry points never decide permissions themselves.

Roles: an **organiser** manages their club's tournaments (and may correct results); a **referee**
records results in the tournaments they are assigned to; a **player** and anyone else read. Who
may *see* what (drafts) is a read: ``selectors.tournaments_visible`` and the ``*_get`` beside it.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.errors import PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.models import Club, Tournament


def clubs_organised(user: AnyUser) -> QuerySet[Club]:
    """The clubs ``user`` organises (none for an anonymous visitor; a superuser's own only)."""
    if not signed_in(user):
        return Club.objects.none()
    return Club.objects.filter(organisers=user)


def user_is_organiser(user: AnyUser, club: Club) -> bool:
    if not signed_in(user):
        return False
    return user.is_superuser or club.organisers.filter(pk=user.pk).exists()


def user_is_referee(user: AnyUser, tournament: Tournament) -> bool:
    if not signed_in(user):
        return False
    return tournament.referees.filter(pk=user.pk).exists()


def user_can_record(user: AnyUser, tournament: Tournament) -> bool:
    return user_is_referee(user, tournament) or user_is_organiser(user, tournament.club)


def require_organiser(user: AnyUser, club: Club) -> None:
    if not user_is_organiser(user, club):
        raise PermissionDenied(
            code="not_organiser",
            message=_("Only an organiser of %(club)s may do this.") % {"club": club.name},
        )


def require_recorder(user: AnyUser, tournament: Tournament) -> None:
    if not user_can_record(user, tournament):
        raise PermissionDenied(
            code="not_referee",
            message=_("Only a referee of %(tournament)s or an organiser of its club may record results.")
            % {"tournament": tournament.name},
        )
