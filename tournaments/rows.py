"""One row by primary key, optionally locked: the fetch every concern's by-id selectors share."""

from __future__ import annotations

from django.db.models import Model, QuerySet

from snapleague.errors import NotFound


def row_by_id[M: Model](queryset: QuerySet[M], pk: int, *, lock: bool, missing: NotFound) -> M:
    """The row ``pk`` of ``queryset``. ``lock``: that row (not the ones its select_related joins)
    stays locked until the transaction ends. Raises ``missing`` when there is no such row."""
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    try:
        return queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise missing from None
