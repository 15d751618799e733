"""Every write of tournaments: create one, enter players, add referees; publish the rounds due;
store a stage's standings. One transaction each, permission checks inside.

Stages are created, published and advanced by their format (``stages/``); results are recorded by
``results/services.py`` (``result_record``, the one service every source of results uses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine_messages import problem_messages
from snapleague.errors import ApplicationError
from snapleague.names import name_clean, name_problem
from snapleague.users import Account, AnyUser
from tournaments.access import require_organiser
from tournaments.clubs.services import player_create
from tournaments.competitions import outcomes
from tournaments.competitions.stages import publish as stages_publish
from tournaments.models import (
    Club,
    Entry,
    GameKind,
    Player,
    Round,
    SeriesFormat,
    Stage,
    StandingRow,
    Tournament,
)
from tournaments.rankings.ratings.services import club_ratings_enqueue_on_commit

DEFAULT_PROFILE = {GameKind.SNAP: "classic", GameKind.SNAPSZER: "snapszer"}


@transaction.atomic
def tournament_create(
    *,
    user: AnyUser,
    club: Club,
    name: str,
    game: str,
    series_format: str = SeriesFormat.BEST_OF_3,
    rules_profile: str = "",
    rules_options: Mapping[str, Any] | None = None,
    starts_at: Any = None,
) -> Tournament:
    require_organiser(user, club)
    fields: dict[str, list[Any]] = {}
    name = name_clean(name)
    if not name:
        fields["name"] = [_("A tournament needs a name.")]
    elif problem := name_problem(name):
        fields["name"] = [problem]
    if game not in GameKind:
        fields["game"] = [_("Choose Snap or Snapszer.")]
    if series_format not in SeriesFormat.values:
        fields["series_format"] = [_("Choose best of 3, best of 5 or first to 3.")]
    if rules_options is not None and not isinstance(rules_options, Mapping):
        fields["rules_options"] = [_("Give the rules options as an object: option names and their values.")]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The tournament cannot be created as it is."), fields=fields
        )
    profile = rules_profile or DEFAULT_PROFILE[GameKind(game)]
    problems = outcomes.rules_problems(game, profile, dict(rules_options or {}))
    if problems:
        raise ApplicationError(
            code="invalid_rules",
            message=_("These rules cannot be played."),
            fields={"rules_profile": problem_messages(problems)},
        )
    return Tournament.objects.create(
        club=club,
        name=name,
        game=game,
        series_format=series_format,
        rules_profile=profile,
        rules_options=dict(rules_options or {}),
        starts_at=starts_at,
    )


@transaction.atomic
def tournament_players_add(
    *, user: AnyUser, tournament: Tournament, players: Iterable[Player]
) -> list[Entry]:
    require_organiser(user, tournament.club)
    entries = []
    next_seed = Entry.objects.filter(tournament=tournament).count() + 1
    for player in players:
        if player.club_id != tournament.club_id:
            raise ApplicationError(
                code="foreign_player",
                message=_("%(name)s is not a player of %(club)s.")
                % {"name": player.name, "club": tournament.club},
            )
        entry, created = Entry.objects.get_or_create(
            tournament=tournament, player=player, defaults={"seed": next_seed}
        )
        next_seed += created
        entries.append(entry)
    return entries


@transaction.atomic
def tournament_players_enter(
    *, user: AnyUser, tournament: Tournament, players: Iterable[Player] = (), new_names: Iterable[str] = ()
) -> list[Entry]:
    """Enter club players and new ones (created in the club) into ``tournament``, in one go.

    Raises PermissionDenied (not an organiser), ApplicationError ``duplicate_player`` /
    ``foreign_player`` (nothing is created then).
    """
    require_organiser(user, tournament.club)
    created = [player_create(user=user, club=tournament.club, name=name) for name in new_names]
    return tournament_players_add(user=user, tournament=tournament, players=[*players, *created])


@transaction.atomic
def tournament_referee_add(*, user: AnyUser, tournament: Tournament, username: str) -> Account:
    """Make the account ``username`` a referee of ``tournament``. Raises ApplicationError
    ``unknown_user`` (field ``username``) or PermissionDenied."""
    require_organiser(user, tournament.club)
    referee = get_user_model().objects.filter(username=username.strip()).first()
    if referee is None:
        raise ApplicationError(
            code="unknown_user",
            message=_("There is no account called %(name)s.") % {"name": username},
            fields={"username": [_("Check the spelling; the referee needs an account first.")]},
        )
    tournament.referees.add(referee)
    return referee


def stage_rounds_generate(*, user: AnyUser, stage_id: int) -> list[Round]:
    """Publish the rounds due (round robin: all of them; the other formats: the first round)."""
    return stages_publish.stage_round_publish(user=user, stage_id=stage_id)


# --- Standings ----------------------------------------------------------------------------------


def stage_standings_recompute(*, stage_id: int, version: int | None = None, claim: bool = False) -> bool:
    """Work out a stage's standings from its confirmed results and store them if newer.

    Reads ``results_version`` first, then the results: what is read is at least as new as that
    version, so stamping it is safe. Stores only if the stored standings are older
    (``UPDATE ... WHERE standings_version < v``): twice, in parallel or after a crash, the outcome is
    the same table. Returns whether it stored anything.

    Coalescing (docs/reliability.md, "Queues"): the task that ``standings_pending`` stands for
    (``claim``: the one a result sent, or the reconciler's stand-in) clears it first, so a result
    committed after that sends a task of its own; any other (a publish's, a withdrawal's) leaves it
    to the result's task still waiting. Then, when the stored standings are already at the
    current ``results_version``, an earlier run read every result: nothing to do, at the cost of two
    queries. ``version`` (the ``results_version`` a result's task was sent for) is at most the
    current one, so it needs no check of its own.
    """
    if claim:
        # Started: a result committed from now on sends a task of its own (it may not be read here).
        Stage.objects.filter(pk=stage_id, standings_pending=True).update(standings_pending=False)
    if Stage.objects.filter(pk=stage_id, standings_version__gte=F("results_version")).exists():
        return False  # an earlier run read every result there is (the one this was sent for too)
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)
    version = stage.results_version
    rows = outcomes.stage_standings(stage)
    with transaction.atomic():
        updated = Stage.objects.filter(pk=stage_id, standings_version__lt=version).update(
            standings_version=version, standings_computed_at=timezone.now()
        )
        if not updated:
            return False
        # New results in the stage: the club's ratings too (they read every stage's version).
        club_ratings_enqueue_on_commit(club_id=stage.tournament.club_id)
        StandingRow.objects.filter(stage_id=stage_id).delete()
        StandingRow.objects.bulk_create(
            StandingRow(
                stage_id=stage_id,
                group=row.group,
                player_id=row.player_id,
                rank=row.rank,
                position=row.position,
                values=row.values,
                separated_by=row.separated_by,
            )
            for row in rows
        )
    return True
