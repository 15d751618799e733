"""Every write of seasons: one transaction each, the organiser check inside (docs/seasons.md)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.clubs.names import club_name_checked, name_taken_on_clash
from tournaments.models import Club, GameKind, Season, SeasonTournament, Tournament
from tournaments.rankings.seasons.selectors import season_by_id
from tournaments.rankings.seasons.table import (
    DEFAULT_SCALE,
    SCALE_MAX_LENGTH,
    SCALE_MAX_POINTS,
    scale_problem,
)

BEST_RESULTS_MAX = 1000


def scale_message(problem: str) -> str:
    """The translated words for a ``scale_problem`` code (worded when called: in the request's language)."""
    messages = {
        "empty": _("Give the points of at least 1st place."),
        "too_long": _("At most %(count)s places can score.") % {"count": SCALE_MAX_LENGTH},
        "not_whole": _("Each place scores a whole number of points from 0 to %(max)s.")
        % {"max": SCALE_MAX_POINTS},
        "increasing": _("A place cannot score more than the place above it."),
        "no_points": _("1st place must score some points."),
    }
    return str(messages[problem])


class Choice:
    """What the organiser says of one tournament: by its date, always in, always out."""

    AUTOMATIC = "auto"
    INCLUDED = "in"
    EXCLUDED = "out"
    ALL = (AUTOMATIC, INCLUDED, EXCLUDED)


def _checked(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    game: str,
    points_scale: Sequence[Any] | None,
    best_results: int | None,
    season: Season | None = None,
) -> dict[str, Any]:
    """The season's fields as they will be stored. Raises ApplicationError ``invalid`` with every
    field's problem at once."""
    fields: dict[str, list[Promise | str]] = {}
    name = club_name_checked(
        name,
        club=club,
        model=Season,
        instance=season,
        fields=fields,
        missing=_("A season needs a name."),
        taken=_("The club has a season of that name already."),
    )
    if starts_on is None:
        fields["starts_on"] = [_("When does the season start?")]
    if ends_on is None:
        fields["ends_on"] = [_("When does the season end?")]
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        fields["ends_on"] = [_("The season cannot end before it starts.")]
    if game and game not in GameKind:
        fields["game"] = [_("Choose Snap, Snapszer or both.")]
    scale = list(points_scale) if points_scale is not None else None
    if scale is None:
        scale = list(DEFAULT_SCALE)
    problem = scale_problem(scale) if isinstance(scale, list) else "not_whole"
    if problem is not None:
        fields["points_scale"] = [scale_message(problem)]
    if best_results is not None and not 1 <= best_results <= BEST_RESULTS_MAX:
        fields["best_results"] = [
            _("Count at least 1 result, at most %(max)s (blank: every result).") % {"max": BEST_RESULTS_MAX}
        ]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The season cannot be saved as it is."), fields=fields
        )
    return {
        "name": name,
        "starts_on": starts_on,
        "ends_on": ends_on,
        "game": game or "",
        "points_scale": scale,
        "best_results": best_results,
    }


def _name_taken() -> ApplicationError:
    return ApplicationError(
        code="invalid",
        message=_("The season cannot be saved as it is."),
        fields={"name": [_("The club has a season of that name already.")]},
    )


@transaction.atomic
def season_create(
    *,
    user: AnyUser,
    club: Club,
    name: str,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    game: str = "",
    points_scale: Sequence[Any] | None = None,
    best_results: int | None = None,
) -> Season:
    """A new season of ``club`` (its organisers). Raises PermissionDenied, ApplicationError
    ``invalid`` with field errors (``name``, ``starts_on``, ``ends_on``, ``game``, ``points_scale``,
    ``best_results``)."""
    require_organiser(user, club)
    values = _checked(
        club=club,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        game=game,
        points_scale=points_scale,
        best_results=best_results,
    )
    with name_taken_on_clash(_name_taken):
        return Season.objects.create(club=club, created_by=user if user.is_authenticated else None, **values)


@transaction.atomic
def season_update(
    *,
    user: AnyUser,
    season_id: int,
    name: str,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    game: str = "",
    points_scale: Sequence[Any] | None = None,
    best_results: int | None = None,
) -> Season:
    """Change every field of a season (a form sends them all). Raises NotFound, PermissionDenied,
    ApplicationError ``invalid`` as :func:`season_create`."""
    season = season_by_id(season_id=season_id, lock=True)
    require_organiser(user, season.club)
    values = _checked(
        club=season.club,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        game=game,
        points_scale=points_scale,
        best_results=best_results,
        season=season,
    )
    for field, value in values.items():
        setattr(season, field, value)
    with name_taken_on_clash(_name_taken):
        season.save()
    return season


@transaction.atomic
def season_tournament_set(*, user: AnyUser, season_id: int, tournament_id: int, choice: str) -> Season:
    """Include a tournament of the club in the season whatever its date (``in``), exclude it
    (``out``), or leave it to its date (``auto``). Raises NotFound, PermissionDenied,
    ApplicationError ``invalid`` (field ``choice``, or ``tournament``: not the club's)."""
    season = season_by_id(season_id=season_id, lock=True)
    require_organiser(user, season.club)
    if choice not in Choice.ALL:
        raise ApplicationError(
            code="invalid",
            message=_("Choose by date, always in or always out."),
            fields={"choice": [_("Choose by date, always in or always out.")]},
        )
    tournament = Tournament.objects.filter(pk=tournament_id, club=season.club).first()
    if tournament is None:
        raise ApplicationError(
            code="invalid",
            message=_("That tournament is not one of %(club)s’s.") % {"club": season.club.name},
            fields={"tournament": [_("Choose one of the club’s tournaments.")]},
        )
    if choice == Choice.AUTOMATIC:
        SeasonTournament.objects.filter(season=season, tournament=tournament).delete()
    else:
        SeasonTournament.objects.update_or_create(
            season=season, tournament=tournament, defaults={"included": choice == Choice.INCLUDED}
        )
    return season
