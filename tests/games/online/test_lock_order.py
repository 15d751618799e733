"""Batch writes of online games lock rows in one order (issue 27 item 7): two processes' log
writers whose batches share games, given in opposite orders, hold one game each and then wait for
the other's. Before, PostgreSQL answered ``deadlock detected`` to one of them; now both lock by id,
so the second waits for the first and finds its games written (a stale write, as designed)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from games.models import GameLease, GameLogEntry, OnlineGame
from games.online import services
from games.online.lease import lease_acquire, lease_renew_many
from games.online.services import table_create
from games.online.tables import Entry

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks and deadlocks: PostgreSQL's"),
]


def _rows(first: int) -> list[Entry]:
    return [Entry(first, {"type": "test", "n": first}, services.Sender(0, None), timezone.now(), [])]


def _both(first: Callable[[], Any], second: Callable[[], Any]) -> list[Any]:
    """Run two writers at once, each in its own thread and connection; their outcomes (or errors)."""
    outcomes: list[Any] = [None, None]

    def run(index: int, work: Callable[[], Any]) -> None:
        try:
            outcomes[index] = work()
        except Exception as exc:
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_two_log_writers_with_the_same_games_in_opposite_orders_do_not_deadlock(
    make_user: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    g1 = table_create(user=make_user("ada"), kind="snapszer", options={}, seats=2)
    g2 = table_create(user=make_user("bea"), kind="snapszer", options={}, seats=2)
    # Each writer pauses after its first game's row is locked until the other has locked one too
    # (or 2 s have passed: with one lock order the second writer is waiting on the first's lock).
    holding = threading.Barrier(2, timeout=2)
    real_move = services._VERSION_MOVE
    paused: set[int] = set()

    class MoveThenPause:
        def run(self, **keys: int) -> int:
            moved = real_move.run(**keys)  # this game's row is locked until the transaction ends
            me = threading.get_ident()
            if me not in paused:
                paused.add(me)
                with contextlib.suppress(threading.BrokenBarrierError):
                    holding.wait()
            return moved

    monkeypatch.setattr(services, "_VERSION_MOVE", MoveThenPause())
    outcomes = _both(
        lambda: services.log_append_many([(g1.pk, _rows(1)), (g2.pk, _rows(1))]),
        lambda: services.log_append_many([(g2.pk, _rows(1)), (g1.pk, _rows(1))]),
    )
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    # one writer wrote both games, the other found both written (stale), nothing twice
    assert sorted(len(o) for o in outcomes) == [0, 2], outcomes
    for game in (g1, g2):
        assert list(GameLogEntry.objects.filter(game=game).values_list("seq", flat=True)) == [1]
        assert OnlineGame.objects.get(pk=game.pk).version == 1


def test_lease_renewals_of_two_processes_over_the_same_games_do_not_deadlock(
    make_user: Callable[..., Any],
) -> None:
    games = [table_create(user=make_user(f"p{i}"), kind="snapszer", options={}, seats=2) for i in range(30)]
    for game in games:
        assert lease_acquire(game.pk, owner="one")
    ids = [game.pk for game in games]

    def renew(order: list[int]) -> set[int]:
        found: set[int] = set()
        for _ in range(20):
            found = lease_renew_many(order, owner="one")
        return found

    outcomes = _both(lambda: renew(ids), lambda: renew(ids[::-1]))
    assert outcomes == [set(ids), set(ids)], outcomes
    assert GameLease.objects.filter(owner="one").count() == 30


def test_creation_renewal_sweep_writes_and_close_at_once_never_deadlock(
    make_user: Callable[..., Any],
) -> None:
    """Every writer of online-game rows at once, as two hosts make them: tables created and leased
    by one process, renewed in batches, swept by another process when their lease lapses, logged
    in batches in random orders, and closed. PostgreSQL must never answer ``deadlock detected``."""
    import random
    from datetime import timedelta

    from games.online.lease import leases_expired

    users = [make_user(f"u{i}") for i in range(4)]
    games = [table_create(user=users[i % 4], kind="snapszer", options={}, seats=2) for i in range(16)]
    for game in games:
        lease_acquire(game.pk, owner="host-a")
    ids = [game.pk for game in games]
    made: list[int] = list(ids)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def guarded(work: Callable[[random.Random], None], seed: int) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(seed)
            try:
                for _ in range(25):
                    work(rng)
            except BaseException as exc:
                errors.append(exc)

        return run

    def create(rng: random.Random) -> None:
        game = table_create(user=users[rng.randrange(4)], kind="snapszer", options={}, seats=2)
        lease_acquire(game.pk, owner="host-a")
        with lock:
            made.append(game.pk)

    def renew(rng: random.Random) -> None:
        with lock:
            batch = list(made)
        rng.shuffle(batch)
        lease_renew_many(batch, owner="host-a")

    def sweep(rng: random.Random) -> None:
        with lock:
            some = rng.sample(made, 3)
        # Leases lapse with time, not by a write: this stand-in for time passing locks its rows in
        # id order too, or it would be the one writer here that could deadlock (an UPDATE of several
        # rows locks them in the table's physical order).
        with transaction.atomic():
            list(GameLease.objects.select_for_update().filter(game_id__in=some).order_by("game_id"))
            GameLease.objects.filter(game_id__in=some).update(
                expires_at=timezone.now() - timedelta(seconds=1)
            )
        for game_id in leases_expired():
            lease_acquire(game_id, owner="host-b")

    def write(rng: random.Random) -> None:
        with lock:
            chosen = rng.sample(made, 4)
        versions = dict(OnlineGame.objects.filter(pk__in=chosen).values_list("pk", "version"))
        batch = [(game_id, _rows(versions[game_id] + 1)) for game_id in chosen]
        rng.shuffle(batch)
        services.log_append_many(batch)

    def close(rng: random.Random) -> None:
        with lock:
            game_id = rng.choice(made)
        services.finish(game_id=game_id, result={"closed": True})

    outcomes = _both(
        lambda: _all(guarded(create, 1), guarded(renew, 2), guarded(sweep, 3)),
        lambda: _all(guarded(write, 4), guarded(close, 5), guarded(write, 6)),
    )
    assert outcomes == [None, None]
    assert not [e for e in errors if "deadlock" in str(e)], errors
    assert errors == [], errors


def _all(*works: Callable[[], None]) -> None:
    """Run ``works`` in threads of their own (connections of their own) and wait for them."""
    threads = [threading.Thread(target=_closing(work)) for work in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def _closing(work: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        try:
            work()
        finally:
            connections.close_all()

    return run
