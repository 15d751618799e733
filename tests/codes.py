"""Collecting stable error codes for the tests that check every code has an example and a message."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from enum import StrEnum
from types import ModuleType


def import_all(modules: Iterable[str] = (), packages: Iterable[ModuleType] = ()) -> None:
    """Import ``modules`` and every module below ``packages``, so their code enums exist."""
    for name in modules:
        importlib.import_module(name)
    for package in packages:
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
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
