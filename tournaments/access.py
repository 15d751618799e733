"""Who may do what. Services call these; entry points never decide permissions themselves.

Roles: an **organiser** manages their club's tournaments (and may correct results); a **referee**
records results in the tournaments they are assigned to; a **player** and anyone else read. Who
may *see* what (drafts) is a read: ``selectors.tournaments_visible`` and the ``*_get`` beside it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from snapleague.errors import PermissionDenied
from tournaments.models import Club, Tournament


def user_is_organiser(user: Any, club: Club) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or club.organisers.filter(pk=user.pk).exists()


def user_is_referee(user: Any, tournament: Tournament) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return tournament.referees.filter(pk=user.pk).exists()


def user_can_record(user: Any, tournament: Tournament) -> bool:
    return user_is_referee(user, tournament) or user_is_organiser(user, tournament.club)


def require_organiser(user: Any, club: Club) -> None:
    if not user_is_organiser(user, club):
        raise PermissionDenied(
            code="not_organiser",
            message=_("Only an organiser of %(club)s may do this.") % {"club": club.name},
        )


def require_recorder(user: Any, tournament: Tournament) -> None:
    if not user_can_record(user, tournament):
        raise PermissionDenied(
            code="not_referee",
            message=_("Only a referee of %(tournament)s or an organiser of its club may record results.")
            % {"tournament": tournament.name},
        )
