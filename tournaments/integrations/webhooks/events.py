"""The events' payloads, and the outbox's one writer.

:func:`webhook_event_emit` is called inside the transaction of the change an event tells of (the
result service, round publishing, the stage task): it writes a ``WebhookDelivery`` row for every
active endpoint of the club that subscribed to the event, and asks Celery to send them once the
transaction commits. A rolled-back change leaves no delivery; a committed one always has its rows,
even when the broker is down then (beat's reconciler sends them later).

Every body is one JSON object (docs/webhooks.md has the schema and examples)::

    {"id": "<event uuid>", "type": "result.confirmed", "created_at": "<ISO 8601>", "version": 1,
     "club": {"id": 1, "slug": "hatvan", "name": "..."}, "data": {...}}
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.competitions.results.values import stored_outcome
from tournaments.integrations.webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookEvent
from tournaments.models import Club, GameResult, Round, Series, Stage, Tournament

PAYLOAD_VERSION = 1


def body_json(payload: dict[str, Any]) -> str:
    """The exact text posted (and signed): compact, keys sorted, UTF-8 characters as they are."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=str)


def envelope(*, event_id: uuid.UUID, event: str, club: Club, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(event_id),
        "type": event,
        "created_at": timezone.now().isoformat(timespec="milliseconds"),
        "version": PAYLOAD_VERSION,
        "club": {"id": club.pk, "slug": club.slug, "name": club.name},
        "data": data,
    }


def webhook_event_emit(
    event: WebhookEvent, *, club_id: int, data: Callable[[], dict[str, Any]]
) -> list[WebhookDelivery]:
    """Queue ``event`` for the club's active endpoints that chose it (call inside the transaction of
    the change; ``data`` is only built when one did). Returns the deliveries written."""
    endpoints = [
        e for e in WebhookEndpoint.objects.filter(club_id=club_id, active=True) if event.value in e.events
    ]
    if not endpoints:
        return []
    event_id = uuid.uuid4()
    body = body_json(envelope(event_id=event_id, event=event.value, club=endpoints[0].club, data=data()))
    now = timezone.now()
    deliveries = [
        WebhookDelivery.objects.create(
            endpoint=endpoint, event_id=event_id, event=event.value, body=body, next_attempt_at=now
        )
        for endpoint in endpoints
    ]
    deliveries_enqueue_on_commit(d.pk for d in deliveries)
    return deliveries


def deliveries_enqueue_on_commit(delivery_ids: Iterable[int]) -> None:
    ids = list(delivery_ids)

    def send() -> None:
        from snapleague.celery import enqueue
        from tournaments.tasks import webhook_delivery_send_task

        for delivery_id in ids:
            # A broker that does not answer: logged, and beat's reconciler sends it later.
            enqueue(webhook_delivery_send_task, delivery_id)

    transaction.on_commit(send)


# --- Payloads ---------------------------------------------------------------------------------------


def _tournament(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "status": tournament.status,
        "url": f"/tournaments/{tournament.pk}/",
        "export_url": f"/api/tournaments/{tournament.pk}/export/",
    }


def _stage(stage: Stage) -> dict[str, Any]:
    return {"id": stage.pk, "name": stage.name, "format": stage.format, "status": stage.status}


def _series(series: Series) -> dict[str, Any]:
    return {
        "id": series.pk,
        "key": series.key,
        "round": series.round.number,
        "table": series.table,
        "status": series.status,
        "placings": {str(pid): place for pid, place in sorted(series.placings.items())},
        # By seat index, null for an empty seat (a bye): the API's shape (docs/formats.md).
        "players": [
            None if s is None else {"id": s.player_id, "name": s.player.name, "seat": s.seat}
            for s in series.seats_in_order
        ],
        "seat_count": series.seat_count,
        "url": f"/series/{series.pk}/",
    }


def result_confirmed_data(result_id: int) -> dict[str, Any]:
    """``data`` of ``result.confirmed``: the new confirmed version of a game's result (a first
    result, a correction — ``corrects`` — or a void version), with its series after it."""
    result = GameResult.objects.select_related(
        "game__series__round", "game__series__stage__tournament", "recorded_by"
    ).get(pk=result_id)
    series = (
        Series.objects.prefetch_related("seats__player").select_related("round").get(pk=result.game.series_id)
    )
    stage = result.game.series.stage
    outcome = stored_outcome(result.data)
    return {
        "tournament": _tournament(stage.tournament),
        "stage": _stage(stage),
        "series": _series(series),
        "game": {"number": result.game.number, "sudden_death": result.game.sudden_death},
        "result": {
            "id": result.pk,
            "version": result.version,
            "corrects": result.version - 1 if result.version > 1 else None,
            "void": result.void,
            "source": result.source,
            "recorded_by": result.recorded_by.get_username() if result.recorded_by else None,
            "reason": result.reason,
            "placings": {str(p): n for p, n in outcome.placings.items()} if outcome else {},
            "game_points": {str(p): n for p, n in (outcome.game_points or {}).items()} if outcome else None,
            "wrong_calls": {str(p): n for p, n in (outcome.wrong_calls or {}).items()} if outcome else None,
            "data": result.data,
            "created_at": result.created_at.isoformat(timespec="milliseconds"),
        },
    }


def round_published_data(round_ids: list[int]) -> dict[str, Any]:
    """``data`` of ``round.published``: the rounds a publish stored, each with its series (who
    sits where; seat 0 deals first) and the player who sits out."""
    rounds = list(
        Round.objects.filter(pk__in=round_ids)
        .select_related("stage__tournament", "bye")
        .prefetch_related("series__seats__player", "series__round")
        .order_by("number")
    )
    stage = rounds[0].stage
    return {
        "tournament": _tournament(stage.tournament),
        "stage": _stage(stage),
        "rounds": [
            {
                "number": rnd.number,
                "published_at": rnd.published_at.isoformat(timespec="milliseconds")
                if rnd.published_at
                else None,
                "bye": {"id": rnd.bye_id, "name": rnd.bye.name} if rnd.bye else None,
                "series": [_series(s) for s in sorted(rnd.series.all(), key=lambda s: s.table)],
                "url": f"/stages/{stage.pk}/rounds/{rnd.number}/",
            }
            for rnd in rounds
        ],
    }


def tournament_finished_data(tournament_id: int) -> dict[str, Any]:
    """``data`` of ``tournament.finished``: the tournament and each stage with its champion (null
    when its standings are still being worked out: fetch ``export_url`` for everything)."""
    from tournaments.competitions.selectors.stages import stage_champion

    tournament = Tournament.objects.get(pk=tournament_id)
    stages = []
    for stage in tournament.stages.order_by("order"):
        champion = stage_champion(stage)
        stages.append(
            {**_stage(stage), "champion": {"id": champion.pk, "name": champion.name} if champion else None}
        )
    return {"tournament": _tournament(tournament), "stages": stages}


def ping_data() -> dict[str, Any]:
    return {"message": "A test event from snapleague: your endpoint is reached and can check the signature."}
