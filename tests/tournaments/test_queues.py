"""Celery queues and coalescing (issue 23, item 4; docs/reliability.md, "Queues").

- Routing: the stage task and the standings land in the ``stages`` queue, everything else in
  ``background``, through a real broker (kombu's file broker, the embedded default).
- Coalescing: a burst of N results queues N stage tasks and N standings tasks, but the stage is
  advanced and its standings computed once or a few times, never losing the last result; a burst of
  ratings requests for a club is computed once, from the newest versions.
- With real workers (``worker`` marker, PostgreSQL + Redis): a flood of ratings tasks does not hold
  up a round's publishing (asserted on order: the round is out while the flood is still queued).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from snapleague.celery import app
from tests.conftest import record_result, snapszer_win
from tests.tournaments.conftest import NEEDS_A_DATABASE_FILE
from tournaments import tasks
from tournaments.competitions import outcomes
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import ClubRatings, Round, Series, Stage, StandingRow, Tournament
from tournaments.rankings.ratings import services as ratings_services
from tournaments.rankings.ratings.services import club_results_versions

STAGES, BACKGROUND = settings.CELERY_STAGES_QUEUE, settings.CELERY_BACKGROUND_QUEUE

# Every task and the queue it belongs in: the first two publish rounds and their standings.
EXPECTED_QUEUE = {
    "tournaments.tasks.stage_advance_task": STAGES,
    "tournaments.tasks.stage_standings_recompute_task": STAGES,
    "tournaments.tasks.club_ratings_recompute_task": BACKGROUND,
    "tournaments.tasks.standings_reconcile_task": BACKGROUND,
    "tournaments.tasks.webhook_delivery_send_task": BACKGROUND,
    "tournaments.tasks.webhook_deliveries_reconcile_task": BACKGROUND,
    "tournaments.tasks.ladder_challenges_expire_task": BACKGROUND,
    "games.tasks.analyse_game_task": BACKGROUND,
    "tournaments.accounts.tasks.mail_send_task": BACKGROUND,
    "tournaments.accounts.tasks.mails_reconcile_task": BACKGROUND,
    "tournaments.accounts.tasks.mail_send_batch_task": BACKGROUND,
    # Notifications (docs/notifications.md) and players' reports (docs/results.md).
    "tournaments.notifications.tasks.notifications_dispatch_task": BACKGROUND,
    "tournaments.notifications.tasks.push_delivery_send_task": BACKGROUND,
    "tournaments.notifications.tasks.notifications_reconcile_task": BACKGROUND,
    "tournaments.tasks.reports_sweep_task": BACKGROUND,
}


def _our_tasks() -> set[str]:
    app.autodiscover_tasks(force=True)
    return {name for name in app.tasks if not name.startswith("celery.")}


def test_every_task_has_its_expected_queue() -> None:
    """A new task must be placed deliberately: this list is the whole of them."""
    assert _our_tasks() == set(EXPECTED_QUEUE)
    for name, queue in EXPECTED_QUEUE.items():
        assert app.amqp.router.route({}, name, (), {})["queue"].name == queue, name


def test_a_worker_started_without_queues_consumes_both() -> None:
    """An older process layout (``celery worker`` with no ``--queues``) keeps publishing rounds."""
    assert set(app.amqp.queues) == {STAGES, BACKGROUND}


def test_each_task_lands_in_its_queue_on_the_file_broker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedded default (kombu's file broker) keeps a queue per file suffix: a message sent
    for the stage task is read from ``stages`` only, a ratings message from ``background`` only."""
    monkeypatch.setitem(app.conf, "task_always_eager", False)  # really sent
    (tmp_path / "control").mkdir()
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
    }
    sent = {
        "tournaments.tasks.club_ratings_recompute_task": (tasks.club_ratings_recompute_task, (7, 1)),
        "tournaments.tasks.stage_advance_task": (tasks.stage_advance_task, (3, 4)),
        "tournaments.tasks.stage_standings_recompute_task": (tasks.stage_standings_recompute_task, (3, 4)),
        "tournaments.tasks.webhook_delivery_send_task": (tasks.webhook_delivery_send_task, (9,)),
    }
    with app.connection_for_write("filesystem://", transport_options=options) as connection:
        for task, args in sent.values():
            task.apply_async(args, connection=connection)
        found: dict[str, str] = {}
        for queue in (STAGES, BACKGROUND):
            simple = connection.SimpleQueue(queue)
            while True:
                try:
                    message = simple.get(timeout=0.5)
                except simple.Empty:
                    break
                found[message.headers["task"]] = queue
                message.ack()
            simple.close()
    assert found == {name: EXPECTED_QUEUE[name] for name in sent}


# --- Coalescing ---------------------------------------------------------------------------------


class Broker:
    """Stands in for the broker: ``enqueue`` keeps what it is sent, in order; ``drain`` runs it
    as a worker would (each task's own on-commit sends are kept too)."""

    def __init__(self, capture: Any) -> None:
        self.queued: list[tuple[Any, tuple[Any, ...]]] = []
        self.capture = capture

    def enqueue(self, task: Any, *args: Any) -> bool:
        self.queued.append((task, args))
        return True

    def drain(self) -> list[tuple[str, Any]]:
        ran = []
        while self.queued:
            task, args = self.queued.pop(0)
            with self.capture(execute=True):
                ran.append((task.name, task(*args)))
        return ran


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> Broker:
    fake = Broker(django_capture_on_commit_callbacks)
    monkeypatch.setattr("snapleague.celery.enqueue", fake.enqueue)
    return fake


@pytest.fixture
def computations(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times the standings and the ratings were really worked out."""
    counts = {"standings": 0, "ratings": 0}
    standings, ratings = outcomes.stage_standings, ratings_services.club_ratings_compute

    def counted_standings(stage: Stage) -> Any:
        counts["standings"] += 1
        return standings(stage)

    def counted_ratings(**kwargs: Any) -> Any:
        counts["ratings"] += 1
        return ratings(**kwargs)

    monkeypatch.setattr(outcomes, "stage_standings", counted_standings)
    monkeypatch.setattr(ratings_services, "club_ratings_compute", counted_ratings)
    return counts


@pytest.fixture
def swiss(cup: Callable[..., Tournament], organiser: Any, referee: Any, broker: Broker) -> Stage:
    """An 8-player Swiss with round 1 published (its own tasks already run)."""
    tournament = cup(8)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    with broker.capture(execute=True):
        stage_round_publish(user=organiser, stage_id=stage.pk)
    broker.drain()
    stage.refresh_from_db()
    return stage


def _results_of_round(stage: Stage, number: int) -> Iterator[tuple[Series, int, dict[str, Any]]]:
    """Every game result that decides round ``number``'s series (P-lower name wins 2-0)."""
    for series in Series.objects.filter(stage=stage, round__number=number, walkover=False).order_by("pk"):
        first, second = sorted(
            (s.player for s in series.seats.select_related("player")), key=lambda p: p.name
        )
        for game in (1, 2):
            yield series, game, snapszer_win(first, second)


def _play_round(stage: Stage, number: int, referee: Any, broker: Broker, *, drain_every: int = 0) -> int:
    count = 0
    for series, game, result in list(_results_of_round(stage, number)):
        with broker.capture(execute=True):
            record_result(user=referee, series_id=series.pk, game_number=game, result=result)
        count += 1
        if drain_every and count % drain_every == 0:
            broker.drain()
    return count


def _standings_as_computed_now(stage: Stage) -> list[tuple[int, int]]:
    return [(row.player_id, row.position) for row in outcomes.stage_standings(stage)]


def _standings_stored(stage: Stage) -> list[tuple[int, int]]:
    return list(
        StandingRow.objects.filter(stage=stage)
        .order_by("position", "player_id")
        .values_list("player_id", "position")
    )


@pytest.mark.django_db
def test_a_burst_of_results_is_advanced_and_ranked_once(
    swiss: Stage, referee: Any, broker: Broker, computations: dict[str, int]
) -> None:
    computations.update(standings=0, ratings=0)
    results = _play_round(swiss, 1, referee, broker)
    assert results == 8
    # The first result sent a stage task and a standings task; the other 7 found them waiting.
    queued = [task.name for task, _args in broker.queued]
    assert queued == [
        "tournaments.tasks.stage_advance_task",
        "tournaments.tasks.stage_standings_recompute_task",
    ]

    ran = broker.drain()

    advanced = [r for name, r in ran if name == "tournaments.tasks.stage_advance_task"]
    # The one sent saw all 8 results and published round 2. (The one more run is the publish's own
    # follow-up, sent without a version: walkovers in the new round.)
    assert [r["skipped"] for r in advanced] == [False, False]
    assert [r["published"] for r in advanced if r["published"]] == [[2]]
    assert computations["standings"] == 1
    assert computations["ratings"] == 1  # the one ratings request the stored standings made
    swiss.refresh_from_db()
    assert swiss.standings_version == swiss.results_version == swiss.advanced_version
    assert Round.objects.filter(stage=swiss).count() == 2
    assert _standings_stored(swiss) == sorted(_standings_as_computed_now(swiss), key=lambda r: (r[1], r[0]))


@pytest.mark.django_db
def test_results_arriving_while_tasks_run_never_lose_the_last_one(
    swiss: Stage, referee: Any, broker: Broker, computations: dict[str, int]
) -> None:
    """The worker catches up every third result: each catch-up is one computation, and the last
    result (its task sent after its commit, after the previous run) is computed too."""
    computations.update(standings=0, ratings=0)
    before = swiss.results_version
    _play_round(swiss, 1, referee, broker, drain_every=3)  # 8 results: runs after the 3rd and 6th
    swiss.refresh_from_db()
    assert swiss.results_version == before + 8
    assert swiss.standings_version == before + 6  # the last two results' tasks wait in the queue
    assert Round.objects.filter(stage=swiss).count() == 1
    broker.drain()
    swiss.refresh_from_db()
    assert swiss.standings_version == swiss.results_version == swiss.advanced_version
    assert computations["standings"] == 3  # not 8
    assert Round.objects.filter(stage=swiss).count() == 2  # the last result's advance published round 2
    assert _standings_stored(swiss) == sorted(_standings_as_computed_now(swiss), key=lambda r: (r[1], r[0]))


@pytest.mark.django_db
def test_a_task_sent_for_a_newer_version_than_the_stored_one_runs(
    swiss: Stage, referee: Any, broker: Broker, computations: dict[str, int]
) -> None:
    _play_round(swiss, 1, referee, broker)
    broker.queued.clear()  # every message lost but one: the last result's
    swiss.refresh_from_db()
    computations.update(standings=0)
    assert tasks.stage_standings_recompute_task(swiss.pk, swiss.results_version) is True
    assert tasks.stage_standings_recompute_task(swiss.pk, swiss.results_version) is False  # done
    assert computations["standings"] == 1
    assert tasks.stage_advance_task(swiss.pk, swiss.results_version)["published"] == [2]


@pytest.mark.django_db
def test_a_burst_of_ratings_requests_is_computed_once_from_the_newest_versions(
    swiss: Stage, referee: Any, broker: Broker, computations: dict[str, int]
) -> None:
    club_id = swiss.tournament.club_id
    _play_round(swiss, 1, referee, broker)
    broker.queued.clear()
    computations.update(ratings=0)
    for _ in range(5):
        ratings_services._enqueue(club_id)
    tickets = [args[1] for _task, args in broker.queued]
    assert tickets == sorted(tickets) and len(set(tickets)) == 5

    ran = broker.drain()

    assert [stored for _name, stored in ran] == [False, False, False, False, True]
    assert computations["ratings"] == 1
    assert ClubRatings.objects.get(club_id=club_id).versions == club_results_versions(club_id=club_id)
    # The reconciler's task carries no ticket and always looks.
    assert tasks.club_ratings_recompute_task(club_id) is False  # current already: nothing to store


# --- With real workers ------------------------------------------------------------------------


def _depth(queue: str) -> int:
    with app.connection_for_read() as connection:
        return connection.default_channel.queue_declare(queue=queue, passive=True).message_count


def _purge(queue: str) -> None:
    with app.connection_for_write() as connection:
        connection.default_channel.queue_purge(queue)


@pytest.mark.worker
@NEEDS_A_DATABASE_FILE
@pytest.mark.django_db(transaction=True)
def test_a_flood_of_ratings_tasks_does_not_hold_up_a_round(
    start_worker: Callable[..., subprocess.Popen[bytes]],
    cup: Callable[..., Tournament],
    organiser: Any,
    referee: Any,
) -> None:
    """Two workers as bin/run starts them. 500 ratings tasks are queued just before the round's
    deciding result: the round is published while most of them still wait in ``background``."""
    stages_worker = start_worker(queues=STAGES)
    background_worker = start_worker(queues=BACKGROUND)
    tournament = cup(4)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    results = list(_results_of_round(stage, 1))
    for series, game, result in results[:-1]:
        record_result(user=referee, series_id=series.pk, game_number=game, result=result)

    flood = 500
    with app.producer_or_acquire() as producer:
        for _ in range(flood):
            tasks.club_ratings_recompute_task.apply_async((tournament.club_id,), producer=producer)
    assert _depth(BACKGROUND) > flood // 2
    series, game, result = results[-1]
    record_result(user=referee, series_id=series.pk, game_number=game, result=result)  # deciding

    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not Round.objects.filter(stage=stage, number=2).exists():
            assert stages_worker.poll() is None and background_worker.poll() is None, "a worker exited"
            time.sleep(0.05)
        left = _depth(BACKGROUND)
    finally:
        _purge(BACKGROUND)  # the rest of the flood would delay the next test's background tasks
    assert Round.objects.filter(stage=stage, number=2).exists(), "round 2 was not published"
    assert left > 0, "the round waited until the background queue had drained"


@pytest.mark.django_db
def test_a_result_sends_no_task_while_one_waits_and_a_lost_one_is_repaired_by_the_reconciler(
    swiss: Stage, referee: Any, broker: Broker
) -> None:
    results = list(_results_of_round(swiss, 1))
    series, game, result = results[0]
    with broker.capture(execute=True):
        record_result(user=referee, series_id=series.pk, game_number=game, result=result)
    assert len(broker.queued) == 2
    broker.queued.clear()  # both messages lost with the broker
    for series, game, result in results[1:]:
        with broker.capture(execute=True):
            record_result(user=referee, series_id=series.pk, game_number=game, result=result)
    assert broker.queued == []  # the stage's tasks are taken to be waiting
    swiss.refresh_from_db()
    assert (swiss.advance_pending, swiss.standings_pending) == (True, True)

    with broker.capture(execute=True):
        tasks.standings_reconcile_task()  # beat: the lagging standings, every running stage's advance
    broker.drain()

    swiss.refresh_from_db()
    assert swiss.standings_version == swiss.results_version
    assert Round.objects.filter(stage=swiss).count() == 2
    assert (swiss.advance_pending, swiss.standings_pending) == (False, False)


@pytest.mark.django_db
def test_a_task_sent_for_something_else_leaves_a_waiting_result_task_its_flags(
    swiss: Stage, referee: Any, broker: Broker
) -> None:
    """A publish's or a withdrawal's task (it claims no flag) that runs while a result's tasks wait
    must leave the stage's pending flags up: were it to clear them, every later result would send
    tasks of its own and the stages queue would fill with duplicates (16-18 deep in the round
    publishing benchmark before this)."""
    results = list(_results_of_round(swiss, 1))
    series, game, result = results[0]
    with broker.capture(execute=True):
        record_result(user=referee, series_id=series.pk, game_number=game, result=result)
    waiting = list(broker.queued)
    assert [task.name for task, _args in waiting] == [
        "tournaments.tasks.stage_advance_task",
        "tournaments.tasks.stage_standings_recompute_task",
    ]
    broker.queued.clear()
    with broker.capture(execute=True):  # what a withdrawal or a publish sends: no version, no claim
        tasks.stage_advance_task(swiss.pk)
        tasks.stage_standings_recompute_task(swiss.pk)
    swiss.refresh_from_db()
    assert (swiss.advance_pending, swiss.standings_pending) == (True, True)

    for series, game, result in results[1:]:
        with broker.capture(execute=True):
            record_result(user=referee, series_id=series.pk, game_number=game, result=result)
    stage_tasks = {"tournaments.tasks.stage_advance_task", "tournaments.tasks.stage_standings_recompute_task"}
    assert [t for t, _args in broker.queued if t.name in stage_tasks] == []  # the waiting ones read these
    broker.queued.clear()  # the club's ratings, which the other run's standings asked for

    broker.queued.extend(waiting)
    broker.drain()
    swiss.refresh_from_db()
    assert swiss.standings_version == swiss.results_version
    assert Round.objects.filter(stage=swiss).count() == 2
    assert (swiss.advance_pending, swiss.standings_pending) == (False, False)


@pytest.mark.django_db
def test_a_send_that_failed_leaves_the_next_result_to_send_again(
    swiss: Stage, referee: Any, broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second, *_rest) = list(_results_of_round(swiss, 1))
    with monkeypatch.context() as down:
        down.setattr("snapleague.celery.enqueue", lambda *_args: False)  # the broker does not answer
        with broker.capture(execute=True):
            record_result(user=referee, series_id=first[0].pk, game_number=first[1], result=first[2])
    swiss.refresh_from_db()
    assert (swiss.advance_pending, swiss.standings_pending) == (False, False)
    with broker.capture(execute=True):
        record_result(user=referee, series_id=second[0].pk, game_number=second[1], result=second[2])
    assert [task.name for task, _args in broker.queued] == [
        "tournaments.tasks.stage_advance_task",
        "tournaments.tasks.stage_standings_recompute_task",
    ]
