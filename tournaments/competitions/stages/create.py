"""Creating a stage (its format's options checked, its players and seeding fixed); online or at the tables."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.engine_messages import problem_messages
from snapleague.errors import ApplicationError, Conflict
from snapleague.names import name_clean, name_problem
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.competitions import outcomes
from tournaments.competitions.formats.base import (
    Format,
    FormatErrorCode,
)
from tournaments.competitions.formats.registry import format_for
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.tournaments import stage_by_id
from tournaments.competitions.series.fold import seed_commitment
from tournaments.competitions.stages.state import (
    format_refusal,
    stage_entrants_before_draw,
)
from tournaments.models import (
    AuditEntry,
    Entry,
    GameKind,
    Stage,
    StandingRow,
    Tournament,
)

# --- Creating a stage -----------------------------------------------------------------------------


@transaction.atomic
def stage_create(
    *,
    user: AnyUser,
    tournament: Tournament,
    name: str,
    format: str,
    options: Mapping[str, Any] | None = None,
    publishing: str = Stage.Publishing.AUTOMATIC,
    tiebreaks: Sequence[str] | None = None,
    seeded_from: Stage | None = None,
    seeded_take: int | None = None,
    online_play: bool = False,
    players: Sequence[int] | None = None,
) -> Stage:
    """A stage of ``format`` with ``options`` (checked by the format, against the players entered,
    the ``players`` chosen among them, or those taken from ``seeded_from``). ``players`` None: all
    the tournament's players. The stage seed is drawn and its SHA-256 committed to now (revealed
    when round 1 is published). Raises ApplicationError naming the field at fault; nothing is
    created then."""
    require_organiser(user, tournament.club)
    game = GameKind(tournament.game)
    fields: dict[str, list[Any]] = {}
    name = name_clean(name)
    if not name:
        fields["name"] = [_("A stage needs a name, e.g. “League” or “Playoff”.")]
    elif problem := name_problem(name):
        fields["name"] = [problem]
    if options is not None and not isinstance(options, Mapping):
        fields["options"] = [_("Give the stage options as an object: option names and their values.")]
    if publishing not in Stage.Publishing.values:
        fields["publishing"] = [_("Choose automatic or review before publishing.")]
    if seeded_from is not None and seeded_from.tournament_id != tournament.pk:
        fields["seeded_from"] = [_("Choose an earlier stage of this tournament.")]
    if seeded_take is not None and (
        isinstance(seeded_take, bool) or not isinstance(seeded_take, int) or seeded_take < 2
    ):
        fields["seeded_take"] = [_("Take at least 2 players, or leave it empty to take everyone.")]
    elif seeded_take is not None and seeded_from is None:
        # Stored, it would say players were taken from a stage that does not exist.
        fields["seeded_take"] = [
            _("Players are taken from an earlier stage: choose it too, or leave this empty.")
        ]
    if players is not None:
        if seeded_from is not None:
            fields["players"] = [
                _(
                    "The players of a stage seeded from an earlier stage are that stage's best: "
                    "choose players or an earlier stage, not both."
                )
            ]
        else:
            problem = _chosen_players_problem(tournament, players)
            if problem:
                fields["players"] = [problem]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The stage cannot be created as it is."), fields=fields
        )
    options = dict(options or {})
    if seeded_from is not None:
        options.setdefault("seeding", "standings")
    order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    seed = secrets.token_hex(32)
    stage = Stage(
        tournament=tournament,
        name=str(name).strip(),
        format=format,
        order=order,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        players=list(players) if players is not None else [],
        publishing=publishing,
        seeded_from=seeded_from,
        seeded_take=seeded_take,
        online_play=bool(online_play),
    )
    if seeded_from is not None:
        ranked = StandingRow.objects.filter(stage=seeded_from).count()
        entrants = min(seeded_take, ranked) if seeded_take else ranked
        if seeded_take and seeded_take > ranked:
            raise ApplicationError(
                code="invalid",
                message=_("%(stage)s ranks %(n)s players; it cannot send on %(take)s.")
                % {"stage": seeded_from.name, "n": ranked, "take": seeded_take},
                fields={"seeded_take": [_("Take at most %(n)s players.") % {"n": ranked}]},
            )
    else:
        entrants = len(stage_entrants_before_draw(stage))
    try:
        fmt = format_for(format)
        # Before the draw the entry list may still grow: the entrant checks run at publishing time
        # too; here they run against the players entered now only once there are some.
        stage.options = fmt.check_options(
            options, game=game, entrants=entrants if entrants >= 2 or players is not None else None
        )
    except TournamentInputError as exc:
        refusal = format_refusal(exc)
        if players is not None and exc.code is FormatErrorCode.NOT_ENOUGH_ENTRANTS:
            refusal.fields = {"players": [refusal.message]}  # the players chosen are too few
        raise refusal from None
    stage.tiebreaks = _checked_tiebreaks(fmt, game, stage.options, tiebreaks)
    size = stage.options.get("table_size")
    if game is GameKind.SNAP and isinstance(size, int) and size > 2:
        problems = outcomes.rules_problems(
            tournament.game, tournament.rules_profile, tournament.rules_options, table_size=size
        )
        if problems:
            raise ApplicationError(
                code="invalid_rules",
                message=_("The tournament's rules cannot be played at tables of %(size)s.") % {"size": size},
                fields={"table_size": problem_messages(problems)},
            )
    stage.save()
    return stage


def _chosen_players_problem(tournament: Tournament, players: Sequence[int]) -> str:
    """What is wrong with the ``players`` chosen for a stage of ``tournament`` ("" when nothing):
    each must be one of its players (entered, not withdrawn), each once, at least two."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        return str(_("Choose the players as a list of player ids."))
    ids = [p for p in players if isinstance(p, int) and not isinstance(p, bool)]
    if len(ids) != len(players):
        return str(_("Choose the players as a list of player ids."))
    repeated = sorted({p for p in ids if ids.count(p) > 1})
    if repeated:
        return str(
            _("Each player can be chosen once; listed more than once: %(ids)s.")
            % {"ids": ", ".join(map(str, repeated))}
        )
    entered = set(
        Entry.objects.filter(tournament=tournament, withdrawn=False, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    strangers = [p for p in ids if p not in entered]
    if strangers:
        return str(
            _("Choose among the tournament's players; these are not entered in it: %(ids)s.")
            % {"ids": ", ".join(map(str, strangers))}
        )
    if len(ids) < 2:
        return str(_("Choose at least 2 players."))
    return ""


def _checked_tiebreaks(
    fmt: Format, game: GameKind, options: Mapping[str, object], tiebreaks: Sequence[str] | None
) -> list[str]:
    """The organiser's tiebreak list (empty: the format's default). Raises ApplicationError (field
    ``tiebreaks``) naming what does not apply."""
    if not tiebreaks:
        return []
    if isinstance(tiebreaks, str) or not isinstance(tiebreaks, Sequence):
        tiebreaks = [str(tiebreaks)]
    allowed = fmt.tiebreak_choices(game, options)
    wrong = [str(t) for t in tiebreaks if t not in {str(a) for a in allowed}]
    repeated = sorted({str(t) for t in tiebreaks if list(tiebreaks).count(t) > 1})
    if wrong or repeated:
        message = _(
            "These tiebreaks cannot be listed for this format, or are listed twice: %(wrong)s. Choose from: %(allowed)s."
        ) % {
            "wrong": ", ".join(wrong + repeated),
            "allowed": ", ".join(sorted(str(a) for a in allowed)),
        }
        raise ApplicationError(code="invalid_tiebreaks", message=message, fields={"tiebreaks": [message]})
    return [str(t) for t in tiebreaks]


@transaction.atomic
def stage_online_set(*, user: AnyUser, stage_id: int, online: bool) -> Stage:
    """Mark a stage's series as played online (each game an online game; the seated players see
    "Play") or at the tables. Games already recorded stay as they are: a series can mix both."""
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    if stage.status == Stage.Status.FINISHED:
        raise Conflict(code="stage_finished", message=_("This stage is finished."))
    stage.online_play = bool(online)
    stage.save(update_fields=["online_play"])
    audit(
        AuditEntry.Action.STAGE_ONLINE,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        online=stage.online_play,
    )
    return stage
