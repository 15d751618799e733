"""What a live page follows: a topic names one versioned thing, ``stage:<id>`` or ``series:<id>``.

Pure: no Django. A topic's version is the one the page's fragment shows in ``data-version`` and its
version endpoint answers (``tournaments/competitions/selectors/``): ``results_version.standings_version`` for a
stage, the number of result versions for a series.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class TopicKind(StrEnum):
    STAGE = "stage"
    SERIES = "series"


_TOPIC = re.compile(r"(stage|series):([1-9][0-9]{0,17})")


@dataclass(frozen=True, slots=True)
class Topic:
    kind: TopicKind
    id: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    @property
    def group(self) -> str:
        """The channel-layer group of this topic's subscribers."""
        return f"live.{self.kind}.{self.id}"


def parse_topic(text: object) -> Topic | None:
    """``"stage:12"`` -> ``Topic(STAGE, 12)``; anything else (another kind, a sign, leading zeros,
    non-ASCII digits, not a string) -> None."""
    if not isinstance(text, str):
        return None
    match = _TOPIC.fullmatch(text)
    if match is None:
        return None
    return Topic(TopicKind(match.group(1)), int(match.group(2)))
