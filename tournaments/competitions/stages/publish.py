"""Preview and publish a stage's rounds, under the stage's row lock; the preview's rows for the API."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import Conflict
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.competitions.formats.base import (
    PlannedRound,
    PlannedSeries,
    StageState,
)
from tournaments.competitions.formats.registry import format_for
from tournaments.competitions.formats.state import effective_placings, stage_entrants
from tournaments.competitions.formats.stored import rounds_to_json
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.tournaments import stage_by_id
from tournaments.competitions.series.fold import seed_commitment
from tournaments.competitions.stages.queue import advance_enqueue, standings_enqueue
from tournaments.competitions.stages.state import (
    format_refusal,
    player_names,
    stage_state,
)
from tournaments.integrations.webhooks.events import (
    round_published_data,
    webhook_event_emit,
)
from tournaments.integrations.webhooks.models import WebhookEvent
from tournaments.models import (
    AuditEntry,
    BracketSlot,
    Round,
    Series,
    SeriesSeat,
    Stage,
    Tournament,
)
from tournaments.notifications import senders as notifications_senders

# --- Preview and publish --------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """The rounds a publish would store now (nothing is stored), with the players' names."""

    stage: Stage
    rounds: tuple[PlannedRound, ...]
    names: dict[str, str]
    problem: str = ""


def stage_preview(*, user: AnyUser, stage_id: int) -> Preview:
    """What publishing would store now: the first round (or, in review mode, the round due)."""
    stage = stage_by_id(stage_id=stage_id)
    require_organiser(user, stage.tournament.club)
    state = stage_state(stage)
    try:
        rounds = format_for(stage.format).next_rounds(state)
    except TournamentInputError as exc:
        return Preview(stage, (), player_names(state.entrants), str(format_refusal(exc, state).message))
    return Preview(stage, rounds, player_names(state.entrants))


@transaction.atomic
def stage_round_publish(*, user: AnyUser, stage_id: int, round_number: int | None = None) -> list[Round]:
    """Publish the rounds due now (``round_number``: the organiser asks for that one). The first
    publish fixes the stage's entrants and starts it. Raises Conflict with the format's reason
    (already generated, not due yet, no more rounds) and ApplicationError for a stage its players
    cannot fill."""
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    if stage.status == Stage.Status.FINISHED:
        raise Conflict(code="stage_finished", message=_("This stage is finished: it has no more rounds."))
    source = stage.seeded_from
    if (
        not stage.entrants
        and source is not None
        and (source.status != Stage.Status.FINISHED or source.standings_stale)
    ):
        # Its players come from the earlier stage's final standings.
        raise Conflict(
            code="seeding_stage_not_final",
            message=_(
                "%(stage)s is not finished yet (or its standings are being worked out): its final standings seed this stage."
            )
            % {"stage": source.name},
        )
    state = stage_state(stage)
    fmt = format_for(stage.format)
    try:
        due = fmt.next_rounds(state, round_number=round_number)
        if not due:
            # Nothing is due: the format says why (the series awaited, or no more rounds).
            fmt.next_rounds(state, round_number=len(state.rounds) + 1)
    except TournamentInputError as exc:
        raise format_refusal(exc, state, status=409 if str(exc.code) in _CONFLICTS else 400) from None
    if not due:
        raise Conflict(code="nothing_due", message=_("No round is due now."))
    return rounds_publish(stage, state, due, user=user)


# Refusals because of where the stage stands (409); the rest are the request's or the options' (400).
_CONFLICTS = frozenset(
    {"round_already_generated", "round_not_due", "no_more_rounds", "no_pairing_without_rematch"}
)


def rounds_publish(
    stage: Stage, state: StageState, due: Sequence[PlannedRound], *, user: AnyUser | None = None
) -> list[Round]:
    """Store ``due`` (under the stage lock): rounds with their plan, series, seats and bracket
    slots; walkovers decided at once. The first publish fixes the entrants and starts the stage.
    ``user``: the organiser who published, None for the stage task."""
    now = timezone.now()
    tournament = stage.tournament
    inputs = {key: list(result.placings) for key, result in sorted(state.results.items())}
    created: list[Round] = []
    for planned in due:
        if len(planned.byes) > 1:
            raise AssertionError(f"round {planned.number} gives {len(planned.byes)} byes; a round holds one")
        round_ = Round.objects.create(
            stage=stage,
            number=planned.number,
            bye_id=planned.byes[0] if planned.byes else None,
            plan=json.loads(rounds_to_json([planned]))[0],
            inputs=inputs,
            published_at=now,
        )
        for planned_series in planned.series:
            _series_create(stage, round_, planned_series, tournament.series_format, state)
        created.append(round_)
    # A new round changes the pages that follow the stage (and the standings' open series).
    Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
    stage.results_version += 1
    audit(
        AuditEntry.Action.ROUND_PUBLISHED,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        before=stage.results_version - 1,
        after=stage.results_version,
        rounds=[r.number for r in due],
        series_count=sum(len(r.series) for r in due),  # not `series`: that is the entry's series (an id)
    )
    round_ids = [r.pk for r in created]
    # Each seated player with an account is told their table (docs/notifications.md).
    notifications_senders.round_published(round_ids)
    webhook_event_emit(
        WebhookEvent.ROUND_PUBLISHED, club_id=tournament.club_id, data=lambda: round_published_data(round_ids)
    )
    update = ["status"]
    if not stage.entrants:
        stage.entrants = list(state.entrants)
        update.append("entrants")
    if not stage.seeding:
        # The draw, made once: round 1 is out, so the order is fixed and from now on read as is
        # (and the seed it was drawn from is revealed: docs/formats.md "Checking a random draw").
        drawn = replace(state, rounds=(*state.rounds, *due))
        stage.seeding = list(
            stage_entrants(drawn, format_for(stage.format).check_options(stage.options, game=drawn.game))
        )
        update.append("seeding")
    stage.status = Stage.Status.RUNNING
    stage.save(update_fields=update)
    if tournament.status != Tournament.Status.RUNNING:
        # A draft starts; a finished tournament given another stage runs again.
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    stage_id, version = stage.pk, stage.results_version
    # The standings for this version (a run that already read it makes this one return at once); the
    # stage task always (a withdrawn player in the new round leaves a walkover to decide).
    transaction.on_commit(lambda: (standings_enqueue(stage_id, version), advance_enqueue(stage_id)))
    # Into the tournament's sessions that plan rounds, after the commit: scheduling locks sessions,
    # and a session is always locked before a stage (the check-in close), never after.
    transaction.on_commit(lambda: _schedule_into_sessions(round_ids), robust=True)
    return created


def _schedule_into_sessions(round_ids: list[int]) -> None:
    from tournaments.nights.services import rounds_schedule_published

    rounds_schedule_published(round_ids=round_ids)


def _series_create(
    stage: Stage, round_: Round, planned: PlannedSeries, series_format: str, state: StageState
) -> Series:
    seed = secrets.token_hex(16)
    walkover = planned.walkover
    placings: dict[str, int] = {}
    if walkover:
        decided = effective_placings(state, {}, round_.number, planned) or ()
        placings = {
            str(p): place
            for p, place in zip(planned.seats, decided, strict=True)
            if p is not None and place is not None
        }
    series = Series.objects.create(
        stage=stage,
        round=round_,
        table=planned.table,
        format=series_format,
        seed=seed,
        seed_hash=seed_commitment(seed),
        key=planned.key,
        phase=planned.phase.value,
        phase_round=planned.phase_round,
        group=planned.group or "",
        advance=planned.advance,
        seat_count=len(planned.seats),
        walkover=walkover,
        status=Series.Status.DECIDED if walkover else Series.Status.PENDING,
        placings=placings,
        decided_at=timezone.now() if walkover else None,
    )
    SeriesSeat.objects.bulk_create(
        SeriesSeat(series=series, player_id=int(str(pid)), seat=index)
        for index, pid in enumerate(planned.seats)
        if pid is not None
    )
    BracketSlot.objects.bulk_create(
        BracketSlot(series=series, place=place, to_key=slot.series, to_seat=slot.seat)
        for place, slot in enumerate(planned.to, start=1)
        if slot is not None
    )
    return series


def preview_rows(preview: Preview) -> list[dict[str, Any]]:
    """The preview as plain rows for a page or the API: round, table, key, phase, players' names."""
    rows = []
    for rnd in preview.rounds:
        for s in rnd.series:
            rows.append(
                {
                    "round": rnd.number,
                    "table": s.table,
                    "key": s.key,
                    "phase": s.phase.value,
                    "group": s.group,
                    "players": [None if p is None else preview.names.get(str(p), str(p)) for p in s.seats],
                    "walkover": s.walkover,
                }
            )
        for bye in rnd.byes:
            rows.append(
                {
                    "round": rnd.number,
                    "table": None,
                    "key": "",
                    "phase": "bye",
                    "group": None,
                    "players": [preview.names.get(str(bye), str(bye))],
                    "walkover": False,
                }
            )
    return rows
