"""Withdrawals from a stage, forfeits and no-shows of a series."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.competitions.selectors.tournaments import series_by_id, stage_by_id
from tournaments.competitions.stages.queue import advance_enqueue, standings_enqueue
from tournaments.competitions.stages.state import (
    stage_state,
)
from tournaments.models import (
    AuditEntry,
    Forfeit,
    Player,
    Round,
    Series,
    Stage,
    Withdrawal,
)

# --- Withdrawals and forfeits ---------------------------------------------------------------------


@transaction.atomic
def stage_withdraw(
    *, user: AnyUser, stage_id: int, player_id: int, from_round: int | None = None, reason: str = ""
) -> Withdrawal:
    """Withdraw a player from a stage from round ``from_round`` on (default: the first round in
    which they have a series not decided yet, or the next round to be published). Their series from
    then on are walkovers for the others; rounds published later leave them out.

    Raises ApplicationError (field ``player`` / ``from_round``), Conflict (already withdrawn).
    """
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    state = stage_state(stage)
    if int(player_id) not in {int(str(p)) for p in state.entrants}:
        raise ApplicationError(
            code="not_an_entrant",
            message=_("This player does not play in this stage."),
            fields={"player": [_("Choose a player of this stage.")]},
        )
    if Withdrawal.objects.filter(stage=stage, player_id=player_id).exists():
        raise Conflict(
            code="already_withdrawn", message=_("This player is already withdrawn from the stage.")
        )
    next_round = len(state.rounds) + 1
    if from_round is None:
        open_rounds = [
            rnd.number
            for rnd in state.rounds
            for s in rnd.series
            if player_id in s.players and s.key not in state.results and not s.walkover
        ]
        from_round = min(open_rounds, default=next_round)
    if isinstance(from_round, bool) or not isinstance(from_round, int) or not 1 <= from_round <= next_round:
        raise ApplicationError(
            code="invalid",
            message=_("A withdrawal takes effect from a round from 1 to %(next)s.") % {"next": next_round},
            fields={"from_round": [_("Choose a round from 1 to %(next)s.") % {"next": next_round}]},
        )
    withdrawal = Withdrawal.objects.create(
        stage=stage,
        player_id=player_id,
        from_round=from_round,
        reason=reason.strip(),
        recorded_by=user if user.is_authenticated else None,
    )
    audit(
        AuditEntry.Action.WITHDRAWAL,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        player=withdrawal.player.name,
        from_round=from_round,
        reason=withdrawal.reason,
    )
    stage_id = stage.pk
    transaction.on_commit(lambda: advance_enqueue(stage_id))
    return withdrawal


@transaction.atomic
def series_forfeit(*, user: AnyUser, series_id: int, player_ids: Sequence[int], reason: str = "") -> Series:
    """Record that ``player_ids`` did not come to a series: placed below everyone who played, they
    never go on. Allowed while no game of the series is recorded, and when it decides the series:
    the players who came are no more than those who go on (two seats: the opponent wins; everyone
    away: a double forfeit). Raises NotFound (no such series), ApplicationError, Conflict
    (``series_decided``, ``series_started``); nothing is written then."""
    series = series_by_id(series_id=series_id)  # NotFound for an unknown id
    stage = stage_by_id(stage_id=series.stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    return _forfeit_record(user=user, stage=stage, series_id=series_id, player_ids=player_ids, reason=reason)


@transaction.atomic
def series_forfeit_absent(*, series_id: int, player_ids: Sequence[int], reason: str) -> Series:
    """The same forfeit, recorded by the server for an online game whose ``player_ids`` were away
    longer than the table allows (games/online, docs/online.md "Absent players"): nobody signed
    in recorded it (the audit entry names no user). Raises as :func:`series_forfeit`."""
    series = series_by_id(series_id=series_id)
    stage = stage_by_id(stage_id=series.stage_id, lock=True)
    return _forfeit_record(user=None, stage=stage, series_id=series_id, player_ids=player_ids, reason=reason)


def series_forfeit_no_show(
    *, user: AnyUser, stage: Stage, series_id: int, player_ids: Sequence[int], reason: str, session_id: int
) -> Series:
    """The forfeit of players who did not check in for the session their series is played in
    (``tournaments.nights.checkin.session_check_in_close``): the caller holds ``stage``'s row
    lock and has checked that ``user`` organises it. The forfeits remember ``session_id`` (reopening
    its check-in withdraws them: :func:`series_no_show_withdraw`). Raises as :func:`series_forfeit`."""
    return _forfeit_record(
        user=user,
        stage=stage,
        series_id=series_id,
        player_ids=player_ids,
        reason=reason,
        session_id=session_id,
    )


def _series_no_show_store(
    user: Any,
    stage: Stage,
    series: Series,
    *,
    placings: dict[str, int],
    decided_at: datetime.datetime | None,
    action: str,
    **details: Any,
) -> None:
    """A no-show recorded (the series decided by it) or taken back (to be played): the series'
    placings, the stage's results version moved on, the audit entry, and standings and the
    stage's advance sent after the commit."""
    series.placings = placings
    series.status = Series.Status.PENDING if decided_at is None else Series.Status.DECIDED
    series.decided_at = decided_at
    series.save(update_fields=["placings", "status", "decided_at"])
    Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
    audit(
        action,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        series=series,
        before=stage.results_version,
        after=stage.results_version + 1,
        **details,
    )
    stage.results_version += 1
    stage_id = stage.pk
    transaction.on_commit(lambda: (standings_enqueue(stage_id), advance_enqueue(stage_id)))


def series_no_show_withdraw(*, user: AnyUser, stage: Stage, series_id: int, session_id: int) -> Series:
    """Take back the no-show forfeits that closing ``session_id``'s check-in recorded on a series
    (``tournaments.nights.checkin.session_check_in_reopen``): the series is not started again,
    its forfeits are deleted, the stage's results version goes up and its tasks run on commit, as
    for the forfeit itself. The caller holds ``stage``'s row lock and has checked that ``user``
    organises it.

    Refused, nothing written, when the series has moved on since (Conflict ``series_moved_on``):
    it is no longer decided by those forfeits alone (a game, another forfeit, a correction), the
    stage is finished, or a round was published from its result (published pairings never change,
    so the forfeit stays as they were made from it)."""
    series = Series.objects.select_related("round").prefetch_related("forfeits").get(pk=series_id)
    forfeits = list(series.forfeits.all())
    ours = [f for f in forfeits if f.session_id == session_id]
    paired_from = (
        Round.objects.filter(stage=stage, number__gt=series.round.number, inputs__has_key=series.key).exists()
        if series.key
        else False
    )
    if (
        not ours
        or len(ours) != len(forfeits)
        or series.status != Series.Status.DECIDED
        or series.walkover
        or series.games.exists()
        or stage.status == Stage.Status.FINISHED
        or paired_from
    ):
        raise Conflict(
            code="series_moved_on",
            message=_("The tournament has moved on from this no-show: it stays recorded."),
        )
    names = sorted(Player.objects.filter(forfeits__in=ours).values_list("name", flat=True))
    Forfeit.objects.filter(pk__in=[f.pk for f in ours]).delete()
    _series_no_show_store(
        user,
        stage,
        series,
        placings={},
        decided_at=None,
        action=AuditEntry.Action.FORFEIT_WITHDRAWN,
        players=names,
        session=session_id,
    )
    return series


def _forfeit_record(
    *,
    user: AnyUser | None,
    stage: Stage,
    series_id: int,
    player_ids: Sequence[int],
    reason: str,
    session_id: int | None = None,
) -> Series:
    series = Series.objects.prefetch_related("seats").get(pk=series_id)
    seated = {s.player_id: s.seat for s in series.seats.all()}
    away = {int(p) for p in player_ids}
    if not away or not away <= set(seated):
        raise ApplicationError(
            code="invalid",
            message=_("Choose the players of this series who did not come."),
            fields={"players": [_("Choose at least one player seated in this series.")]},
        )
    if series.status == Series.Status.DECIDED and not series.games.exists():
        # A walkover, a forfeit already recorded, a withdrawal: no game was recorded to blame.
        raise Conflict(code="series_decided", message=_("This series is already decided."))
    if series.status != Series.Status.PENDING or series.games.exists():
        raise Conflict(
            code="series_started",
            message=_("Games of this series are already recorded: record the rest, or correct them."),
        )
    came = [pid for pid, _seat in sorted(seated.items(), key=lambda item: item[1]) if pid not in away]
    goes_on = max(series.advance, 1)
    if len(came) > goes_on:
        raise ApplicationError(
            code="forfeit_not_deciding",
            message=_(
                "%(n)s players are still here: they play the series. A no-show can be recorded when "
                "it leaves no more players than go on; otherwise withdraw the player from the stage."
            )
            % {"n": len(came)},
            fields={"players": [_("Choose the players who did not come.")]},
        )
    Forfeit.objects.bulk_create(
        Forfeit(
            series=series,
            player_id=pid,
            reason=reason.strip(),
            recorded_by=user if user is not None and user.is_authenticated else None,
            session_id=session_id,
        )
        for pid in sorted(away)
    )
    _series_no_show_store(
        user,
        stage,
        series,
        placings={str(pid): place for place, pid in enumerate(came, start=1)},
        decided_at=timezone.now(),
        action=AuditEntry.Action.FORFEIT,
        players=sorted(Player.objects.filter(pk__in=away).values_list("name", flat=True)),
        reason=reason.strip(),
    )
    return series
