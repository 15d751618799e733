"""Who is asking: the type every permission check, service and selector takes for its user.

``AnyUser`` is what ``request.user`` is: a signed-in ``Account`` or an anonymous visitor. Accounts
are Django's ``auth.User`` (``AUTH_USER_MODEL`` is not swapped), which is also what django-stubs'
mypy plugin makes of ``request.user``, so entry points pass it on as it is. Only types are
imported from Django here, so any module may import this one at any time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

type Account = User
type AnyUser = User | AnonymousUser


def signed_in(user: AnyUser) -> TypeGuard[Account]:
    """Whether ``user`` is an account (and from here on typed as one), not an anonymous visitor."""
    return bool(user.is_authenticated)
