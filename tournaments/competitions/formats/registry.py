"""The format registry: one object per stage format (Tabbycat's ``DRAW_MANAGER_CLASSES``).

Services look a stage's format up here and call its methods; they hold no ``if format ==``
branches. Every object implements :class:`~tournaments.competitions.formats.base.Format`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tournaments.competitions.formats.base import Format, FormatError, FormatErrorCode, FormatKey
from tournaments.competitions.formats.elimination import DoubleElimination, SingleElimination
from tournaments.competitions.formats.groups import GroupsPlayoff
from tournaments.competitions.formats.heats import Heats
from tournaments.competitions.formats.round_robin_stage import RoundRobin
from tournaments.competitions.formats.swiss import Swiss
from tournaments.competitions.formats.swiss_tables import SwissTables

_ALL: tuple[Format, ...] = (
    RoundRobin(),
    Swiss(),
    SwissTables(),
    SingleElimination(),
    DoubleElimination(),
    GroupsPlayoff(),
    Heats(),
)

FORMATS: Mapping[FormatKey, Format] = MappingProxyType({f.key: f for f in _ALL})


def format_for(key: object) -> Format:
    """The format object for a stage's ``format`` value.

    Raises FormatError("unknown_format", field "format").
    """
    if isinstance(key, str) and key in FORMATS:
        return FORMATS[FormatKey(key)]
    raise FormatError(
        FormatErrorCode.UNKNOWN_FORMAT,
        "No such stage format.",
        {"field": "format", "value": repr(key), "allowed": [str(k) for k in FormatKey]},
    )
