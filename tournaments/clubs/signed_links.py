"""A link's token that names one row (an organiser invitation, a player claim): its id, signed with
a salt of its own, so that it cannot be guessed or altered."""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db.models import QuerySet

from snapleague.errors import ApplicationError


def signed_token(key: str, pk: int, *, salt: str) -> str:
    return signing.dumps({key: pk}, salt=salt)


def signed_row(
    token: str, *, key: str, salt: str, queryset: QuerySet[Any], lock: bool, invalid: ApplicationError
) -> Any:
    """The row of ``queryset`` the token names (locked when ``lock``). Raises ``invalid`` for a
    token that is not ours or names a row that is gone."""
    try:
        pk = int(signing.loads(token, salt=salt)[key])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise invalid from None
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    row = queryset.filter(pk=pk).first()
    if row is None:  # deleted (its club, its player)
        raise invalid
    return row
