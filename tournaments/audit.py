"""The audit log's one writer: every service that changes a tournament's results, pairings or players
calls :func:`audit` inside its own transaction, so an entry exists exactly when the change does.

Sign-ins come from Django's ``user_logged_in`` / ``user_login_failed`` signals (``apps.py``).
"""

from __future__ import annotations

from typing import Any

from snapleague.users import AnyUser, signed_in
from tournaments.models import AuditEntry, Series, Stage, Tournament


def audit(
    action: AuditEntry.Action,
    *,
    user: AnyUser | None,
    tournament: Tournament | int | None = None,
    stage: Stage | int | None = None,
    series: Series | int | None = None,
    before: int | None = None,
    after: int | None = None,
    username: str = "",
    **detail: Any,
) -> AuditEntry:
    """Record ``action`` (call inside the transaction of the change it records)."""
    account = user if user is not None and signed_in(user) else None
    return AuditEntry.objects.create(
        action=action,
        user=account,
        username=username or (account.get_username() if account is not None else ""),
        tournament_id=_pk(tournament),
        stage_id=_pk(stage),
        series_id=_pk(series),
        before_version=before,
        after_version=after,
        detail=detail,
    )


def _pk(value: object) -> int | None:
    if value is None:
        return None
    return value if isinstance(value, int) else value.pk  # type: ignore[attr-defined,no-any-return]
