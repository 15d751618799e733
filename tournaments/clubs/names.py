"""A name unique within a club (a ladder's, a season's): the field check and the save that turns a
clash two requests race into the same field error (not a 500)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.names import name_clean, name_problem
from tournaments.models import Club

NAME_MAX = 120


def club_name_checked(
    name: str,
    *,
    club: Club,
    model: type[models.Model],
    instance: models.Model | None,
    fields: dict[str, list[str | Promise]],
    missing: str | Promise,
    taken: str | Promise,
) -> str:
    """``name`` with its white space folded; a problem (``missing``, too long, ``taken`` by another
    of the club's ``model``, ``instance`` being the one edited) goes into ``fields["name"]``."""
    name = name_clean(name)
    if not name:
        fields["name"] = [missing]
    elif problem := name_problem(name):
        fields["name"] = [problem]
    elif len(name) > NAME_MAX:
        fields["name"] = [_("At most %(count)s characters.") % {"count": NAME_MAX}]
    else:
        clash: Any = model._default_manager.filter(club=club, name=name)
        if instance is not None:
            clash = clash.exclude(pk=instance.pk)
        if clash.exists():
            fields["name"] = [taken]
    return name


@contextmanager
def name_taken_on_clash(name_taken: Callable[[], ApplicationError]) -> Iterator[None]:
    """A savepoint around the save: the unique constraint's clash (a request at the same moment
    took the name) is raised as ``name_taken()``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise name_taken() from None
