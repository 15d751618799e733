"""Reads: an account's API tokens, one of them, and what the audit log says about them."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from snapleague.errors import NotFound, PermissionDenied
from snapleague.users import Account, AnyUser, signed_in
from tournaments.integrations.tokens.models import ApiToken
from tournaments.models import AuditEntry
from tournaments.rows import row_by_id

TOKEN_ACTIONS = (
    AuditEntry.Action.API_TOKEN_CREATED,
    AuditEntry.Action.API_TOKEN_REVOKED,
    AuditEntry.Action.API_TOKEN_REFUSED,
)
ACTIVITY_SIZE = 20


def account_required(user: AnyUser) -> Account:
    """``user`` as an account. Raises PermissionDenied for someone not signed in."""
    if not signed_in(user):
        raise PermissionDenied(code="not_authenticated", message=_("Log in to manage your API tokens."))
    return user


def api_tokens_list(*, user: AnyUser) -> QuerySet[ApiToken]:
    """The account's tokens, newest first: usable, expired and revoked alike."""
    return ApiToken.objects.filter(user=account_required(user))


def api_token_by_id(*, user: AnyUser, token_id: int, lock: bool = False) -> ApiToken:
    """One of the account's own tokens; anyone else's is "no such token". Raises NotFound."""
    return row_by_id(
        ApiToken.objects.filter(user=account_required(user)),
        token_id,
        lock=lock,
        missing=NotFound(code="api_token_not_found", message=_("No such API token.")),
    )


def api_token_activity(*, user: AnyUser) -> QuerySet[AuditEntry]:
    """The account's newest token events: created, revoked, and its tokens refused (expired or revoked)."""
    return AuditEntry.objects.filter(user=account_required(user), action__in=TOKEN_ACTIONS)[:ACTIVITY_SIZE]
