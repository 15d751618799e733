"""Collecting stable error codes for the tests that check every code has an example and a message."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from enum import StrEnum
from types import ModuleType

import games
import tournaments
from games.engine.errors import Code

# Command-line tools: they may need packages the app does not (an oracle's own venv) and define no codes.
NOT_IMPORTED = ("games.cli",)


def import_all(
    modules: Iterable[str] = (), packages: Iterable[ModuleType] = (), skip: Iterable[str] = ()
) -> None:
    """Import ``modules`` and every module below ``packages`` (but none below a ``skip`` prefix), so
    their code enums exist."""
    skipped = tuple(skip)
    for name in modules:
        importlib.import_module(name)
    for package in packages:
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            if not module.name.startswith(skipped):
                importlib.import_module(module.name)


def subclass_members[E: StrEnum](base: type[E]) -> list[E]:
    """Every member of every subclass of ``base`` (at any depth), grouped by class name."""
    found: list[type[E]] = []
    pending = list(base.__subclasses__())
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending += cls.__subclasses__()
    return [code for cls in sorted(found, key=lambda c: c.__name__) for code in cls]


def all_codes() -> list[Code]:
    """Every member of every :class:`~games.engine.errors.Code` subclass: the engines' problem and
    action codes and the tournament modules' codes, found by importing all of ``games`` (but its
    command-line tools) and ``tournaments``, so a code added anywhere there is found unlisted."""
    import_all(packages=[games, tournaments], skip=NOT_IMPORTED)
    return subclass_members(Code)
