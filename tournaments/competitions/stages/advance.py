"""Advancing a stage (the Celery stage task): publish the rounds due, flag what a correction
changed, store walkovers, finish the stage and the tournament."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments.competitions.formats.base import (
    Format,
    StageState,
)
from tournaments.competitions.formats.registry import format_for
from tournaments.competitions.formats.state import effective_placings
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.tournaments import stage_by_id
from tournaments.competitions.stages.publish import rounds_publish
from tournaments.competitions.stages.queue import standings_enqueue
from tournaments.competitions.stages.state import (
    format_refusal,
    stage_state,
)
from tournaments.integrations.webhooks.events import (
    tournament_finished_data,
    webhook_event_emit,
)
from tournaments.integrations.webhooks.models import WebhookEvent
from tournaments.models import (
    Round,
    Series,
    Stage,
    Tournament,
)

logger = logging.getLogger(__name__)


# --- Advancing (the Celery stage task) --------------------------------------------------------------


@dataclass(frozen=True)
class Advance:
    """What :func:`stage_advance` did: the rounds it published, whether the stage is finished, the
    series flagged now, and the format's refusal (logged) if it could not go on."""

    published: tuple[int, ...] = ()
    finished: bool = False
    flagged: tuple[str, ...] = ()
    due_for_review: bool = False
    problem: str = ""
    skipped: bool = False  # an earlier run had seen the results this one was sent for


def stage_advance(*, stage_id: int, version: int | None = None, claim: bool = False) -> Advance:
    """Bring a running stage up to date with its results: decide the series a withdrawal leaves
    without opponents, flag the series a correction changed the pairing of, publish the rounds due
    (when the stage publishes automatically) and finish the stage after its last round.

    Idempotent: under the stage's row lock, and the format returns only rounds after the published
    ones; safe twice, in parallel and after a crash.

    ``version``: the ``results_version`` a result's task was sent for. A run that went through
    stamps ``advanced_version`` with the ``results_version`` it read under the lock (results are
    written under the same lock, so it saw every one of them). The task that ``advance_pending``
    stands for (``claim``: the one a result sent, or the reconciler's stand-in for a lost one) clears
    the flag first (a result committed after that sends a task of its own), then returns at once when
    the stamp is at the current ``results_version``: nothing came in since a run. Tasks sent for
    anything else (a withdrawal, a publish) carry no version, always run and leave the flag alone:
    a result's task that is still waiting keeps it, so results in the meantime send nothing more.
    A burst of results then costs a few runs instead of one each.
    """
    if claim:
        # Started: a result committed from now on sends a task of its own (it may not be read here).
        Stage.objects.filter(pk=stage_id, advance_pending=True).update(advance_pending=False)
    if (
        version is not None
        and Stage.objects.filter(pk=stage_id, advanced_version__gte=F("results_version")).exists()
    ):
        return Advance(skipped=True)  # an earlier run read every result there is
    with transaction.atomic():
        stage = stage_by_id(stage_id=stage_id, lock=True)
        if stage.status != Stage.Status.RUNNING:
            return Advance(finished=stage.status == Stage.Status.FINISHED)
        seen = stage.results_version
        fmt = format_for(stage.format)
        state = stage_state(stage)
        try:
            if _walkovers_store(stage, state):
                state = stage_state(stage)
            flagged = _flags_store(stage, fmt, state)
            due = fmt.next_rounds(state)
            published: tuple[int, ...] = ()
            if due and stage.publishing == Stage.Publishing.AUTOMATIC:
                rounds_publish(stage, state, due)
                published = tuple(r.number for r in due)
                state = stage_state(stage)
                due = ()
            finished = fmt.finished(state)
        except TournamentInputError as exc:
            message = str(format_refusal(exc, state).message)
            logger.warning("stage %s cannot go on: %s", stage_id, exc)
            return Advance(problem=message)
        if finished:
            stage.status = Stage.Status.FINISHED
            stage.save(update_fields=["status"])
            _tournament_finish_if_done(stage.tournament)
        Stage.objects.filter(pk=stage_id, advanced_version__lt=seen).update(advanced_version=seen)
        return Advance(published=published, finished=finished, flagged=flagged, due_for_review=bool(due))


def _tournament_finish_if_done(tournament: Tournament) -> None:
    """The tournament is finished when its last stage is: every stage it has is (a stage still
    being set up keeps it running). Tells the club's webhooks, in the stage's transaction."""
    if tournament.status == Tournament.Status.FINISHED:
        return
    if tournament.stages.exclude(status=Stage.Status.FINISHED).exists():
        return
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    tournament_id = tournament.pk
    webhook_event_emit(
        WebhookEvent.TOURNAMENT_FINISHED,
        club_id=tournament.club_id,
        data=lambda: tournament_finished_data(tournament_id),
    )


def _walkovers_store(stage: Stage, state: StageState) -> bool:
    """Decide the published series that withdrawals leave without a game to play (the format
    reads them as decided; the page should too). Returns whether any was."""
    decided_keys = set(state.results)
    changed = False
    for rnd in state.rounds:
        for planned in rnd.series:
            if planned.walkover or planned.key in decided_keys:
                continue
            if not any(state.withdrawn(p, rnd.number) for p in planned.players):
                continue
            placings = effective_placings(state, {}, rnd.number, planned)
            if placings is None:
                continue
            by_player = {
                str(p): place
                for p, place in zip(planned.seats, placings, strict=True)
                if p is not None and place is not None
            }
            updated = Series.objects.filter(stage=stage, key=planned.key).exclude(
                status=Series.Status.DECIDED
            )
            changed |= bool(
                updated.update(status=Series.Status.DECIDED, placings=by_player, decided_at=timezone.now())
            )
    if changed:
        Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
        stage.results_version += 1
        stage_id = stage.pk
        transaction.on_commit(lambda: standings_enqueue(stage_id))
    return changed


def _flags_store(stage: Stage, fmt: Format, state: StageState) -> tuple[str, ...]:
    """Flag the published series whose pairing a corrected result changed; unflag the rest."""
    stale_series = getattr(fmt, "stale_series", None)
    if callable(stale_series):
        flagged = set(stale_series(state))
    else:
        now = {key: list(result.placings) for key, result in state.results.items()}
        flagged = set()
        for rnd in Round.objects.filter(stage=stage).only("number", "inputs", "plan"):
            if any(now.get(key) != placings for key, placings in rnd.inputs.items()):
                flagged |= {s["key"] for s in rnd.plan.get("series", ())}
    Series.objects.filter(stage=stage, flagged=True).exclude(key__in=flagged).update(flagged=False)
    Series.objects.filter(stage=stage, key__in=flagged, flagged=False).update(flagged=True)
    return tuple(sorted(flagged))


def stages_due() -> list[int]:
    """Running stages (the beat reconciler advances them; a stage with nothing due is a no-op)."""
    return list(Stage.objects.filter(status=Stage.Status.RUNNING).values_list("pk", flat=True))
