"""The versions live pages follow: one topic for a subscriber (visibility-checked), many at once
for the watcher (no user: it only tells subscribers who were checked when they subscribed)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Count

from snapleague.users import AnyUser
from tournaments.competitions.selectors.tournaments import series_get, stage_get
from tournaments.live.topics import Topic, TopicKind
from tournaments.models import GameResult, Stage


@dataclass(frozen=True, slots=True)
class StageVersion:
    """A stage's two counters; as text ``"results.standings"``, as its standings page shows it."""

    results: int
    standings: int

    def __str__(self) -> str:
        return f"{self.results}.{self.standings}"


@dataclass(frozen=True, slots=True)
class TopicState:
    version: str
    stage_id: int  # the stage itself, or the series' stage: every result of a series moves it


def topic_state_get(*, user: AnyUser, topic: Topic) -> TopicState:
    """The current version of ``topic`` for someone who may see it (the draft rule of
    ``selectors.tournaments_visible``). Raises NotFound (``stage_not_found``/``series_not_found``)
    when there is no such thing or ``user`` may not see it: the same answer, as a page gives."""
    if topic.kind is TopicKind.STAGE:
        stage = stage_get(user=user, stage_id=topic.id)
        return TopicState(str(StageVersion(stage.results_version, stage.standings_version)), stage.pk)
    series = series_get(user=user, series_id=topic.id)
    return TopicState(str(series_versions(series_ids=[series.pk])[series.pk]), series.stage_id)


def stage_versions(*, stage_ids: Collection[int]) -> dict[int, StageVersion]:
    """The versions of the stages that exist among ``stage_ids``: one primary-key query."""
    rows = Stage.objects.filter(pk__in=stage_ids).values_list("pk", "results_version", "standings_version")
    return {pk: StageVersion(results, standings) for pk, results, standings in rows}


def series_versions(*, series_ids: Collection[int]) -> dict[int, int]:
    """How many result versions each series has (0 for none): one grouped query."""
    counts = dict(
        GameResult.objects.filter(game__series_id__in=series_ids)
        .values_list("game__series_id")
        .annotate(n=Count("pk"))
        .values_list("game__series_id", "n")
        .order_by()
    )
    return {series_id: counts.get(series_id, 0) for series_id in series_ids}
