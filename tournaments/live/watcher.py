"""Each web process's version watcher: the one sender of live-page pushes.

While at least one socket of this process follows a topic, the watcher reads the versions of every
followed topic every ``LIVE_WATCH_SECONDS`` (0.15 s) and tells the followers of each topic that
moved, through the process's own in-memory ``live`` channel layer. With nobody following it does
nothing at all (its task ends and its database connection is given back).

It reads the database because that is the one place every writer reaches, in both set-ups: a
result committed in any web process, standings stored by a Celery worker in another process (which
in the embedded default could not reach this process's in-memory channel layer), the beat's
reconcile, the admin. So no writer announces anything and nothing is missed when one forgets.

One tick is one primary-key query on the followed stages (a series' results all move its stage's
``results_version``); a followed series' results are counted only when its stage moved since its
last count. Cost and the alternatives weighed: docs/architecture.md, "Live updates".
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from tournaments.live.fragments import fragments_render
from tournaments.live.selectors import StageVersion, series_versions, stage_versions
from tournaments.live.topics import Topic, TopicKind

logger = logging.getLogger(__name__)

# The watcher's reads run in one thread of their own, which keeps its database connection between
# ticks (and gives it back when nobody follows anything): no connect per tick, and never a wait
# behind the request threads.
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-watcher")


@dataclass
class _Watch:
    followers: int  # sockets of this process following the topic
    version: str  # the version its followers were last told (or the first one read for them)
    stage_id: int  # the stage, or the series' stage
    counted_at: int | None = None  # series: the stage's results_version when the series was last counted
    # (fragment, language) -> how many followers asked for it: rendered into each "changed" frame
    wanted: Counter[tuple[str, str]] = field(default_factory=Counter)


@dataclass(frozen=True)
class _Reading:
    stages: dict[int, StageVersion]
    series: dict[int, int]  # only the series counted in this tick


def _read(stage_ids: set[int], series_counted_at: Mapping[int, tuple[int, int | None]]) -> _Reading:
    """In the watcher's thread: the stages' versions, then the result counts of the series whose
    stage moved since they were last counted (``series id -> (stage id, counted at)``). The stages
    are read first, so a count is at least as new as the stage version it is filed under."""
    try:
        stages = stage_versions(stage_ids=stage_ids)
        due = [
            series_id
            for series_id, (stage_id, counted_at) in series_counted_at.items()
            if stage_id in stages and stages[stage_id].results != counted_at
        ]
        return _Reading(stages, series_versions(series_ids=due) if due else {})
    except Exception:
        connection.close()  # never reuse a connection that failed; the next tick opens another
        raise


def _render(moved: list[tuple[Topic, frozenset[tuple[str, str]]]]) -> dict[Topic, dict[str, str]]:
    """In the watcher's thread: the fragments the followers of each moved topic asked for. One that
    fails is left out (its followers fetch it, as without the socket's help) and logged."""
    rendered: dict[Topic, dict[str, str]] = {}
    for topic, wanted in moved:
        try:
            rendered[topic] = fragments_render(topic, wanted)
        except Exception:
            logger.exception("Live updates: the fragments of %s could not be rendered.", topic)
            connection.close()
    return rendered


def _close_connection() -> None:
    connection.close()


class VersionWatcher:
    """The topics this process's sockets follow, and the task that watches them.

    ``watch``/``unwatch`` count followers per topic; the first ``watch`` starts the task, which
    ends by itself when the last follower has gone. Runs on one event loop (see ``get_watcher``).
    """

    def __init__(self, *, interval: float, layer_alias: str) -> None:
        self.interval = interval
        self.layer_alias = layer_alias
        self._watches: dict[Topic, _Watch] = {}
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    @property
    def topics(self) -> frozenset[Topic]:
        return frozenset(self._watches)

    @property
    def running(self) -> bool:
        return self._task is not None

    def watch(
        self, topic: Topic, *, version: str, stage_id: int, wants: frozenset[tuple[str, str]] = frozenset()
    ) -> None:
        """One more follower of ``topic``; ``version`` is what that follower was just told (a change
        after it was read is pushed on the next tick), ``stage_id`` the stage that moves with it,
        ``wants`` the (fragment, language) pairs its "changed" frames should carry."""
        watch = self._watches.get(topic)
        if watch is None:
            watch = self._watches[topic] = _Watch(followers=1, version=version, stage_id=stage_id)
        else:
            watch.followers += 1
        watch.wanted.update(wants)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="live-version-watcher")

    def unwatch(self, topic: Topic, *, wants: frozenset[tuple[str, str]] = frozenset()) -> None:
        watch = self._watches.get(topic)
        if watch is None:
            return
        watch.followers -= 1
        watch.wanted.subtract(wants)
        watch.wanted = +watch.wanted  # drop what nobody asks for any more
        if watch.followers <= 0:
            del self._watches[topic]

    async def _run(self) -> None:
        try:
            while self._watches:
                await asyncio.sleep(self.interval)
                if self._watches:
                    await self.tick()
        finally:
            self._task = None  # a watch() from here on starts a new task
            # Give the thread's connection back (closed, or to the pool) while nobody follows
            # anything, and when the loop shuts down and cancels this task: not awaited, so that it
            # happens then too. A new task's first read queues behind it and reconnects.
            _EXECUTOR.submit(_close_connection)

    async def tick(self) -> list[tuple[Topic, str]]:
        """Read every followed topic's version once and tell the followers of each one that moved.
        Returns what was pushed. A failed read is logged (once, until reads work again) and tried
        again on the next tick: a change is pushed late, never lost, since each reading is compared
        with what the followers were last told."""
        stage_ids = {watch.stage_id for watch in self._watches.values()}
        series = {
            topic.id: (watch.stage_id, watch.counted_at)
            for topic, watch in self._watches.items()
            if topic.kind is TopicKind.SERIES
        }
        try:
            reading = await asyncio.get_running_loop().run_in_executor(_EXECUTOR, _read, stage_ids, series)
        except Exception:
            if not self._failing:
                logger.exception("Live updates: the version watcher cannot read the database.")
            self._failing = True
            return []
        if self._failing:
            logger.warning("Live updates: the version watcher reads the database again.")
            self._failing = False
        moved: list[tuple[Topic, str]] = []
        for topic, watch in self._watches.items():  # a topic followed since the read waits a tick
            if topic.kind is TopicKind.STAGE:
                stage = reading.stages.get(topic.id)
                version = None if stage is None else str(stage)
            else:
                count = reading.series.get(topic.id)
                version = None if count is None else str(count)
                if count is not None:
                    watch.counted_at = reading.stages[watch.stage_id].results
            if version is not None and version != watch.version:
                watch.version = version
                moved.append((topic, version))
        wanted = [(topic, frozenset(self._watches[topic].wanted)) for topic, _v in moved]
        wanted = [(topic, pairs) for topic, pairs in wanted if pairs]
        fragments = (
            await asyncio.get_running_loop().run_in_executor(_EXECUTOR, _render, wanted) if wanted else {}
        )
        layer = get_channel_layer(self.layer_alias)
        assert layer is not None, f"CHANNEL_LAYERS has no {self.layer_alias!r} layer"
        for topic, version in moved:
            event = {"type": "live.changed", "topic": str(topic), "version": version}
            if fragments.get(topic):
                event["html"] = fragments[topic]
            await layer.group_send(topic.group, event)
        return moved


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, VersionWatcher] = weakref.WeakKeyDictionary()


def get_watcher() -> VersionWatcher:
    """The watcher of the running event loop: one per web process (uvicorn runs one loop); tests
    that run a loop each get one each."""
    loop = asyncio.get_running_loop()
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = VersionWatcher(
            interval=settings.LIVE_WATCH_SECONDS, layer_alias=settings.LIVE_CHANNEL_LAYER
        )
    return watcher
