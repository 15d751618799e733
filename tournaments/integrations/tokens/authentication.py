"""The API's bearer-token authentication: ``Authorization: Bearer <token>``, a personal API token
(docs/api-tokens.md). Session and HTTP Basic keep working beside it (settings.REST_FRAMEWORK).

It comes first among the API's authentication classes: a request that sends a token is judged by
the token (and its scope) even when it also carries a session cookie. One SHA-256 and one indexed
lookup per request, instead of HTTP Basic's password hash. The token's
scope is enforced here, for every API view whatever its permission classes: a read token gets 403
``token_read_only`` on any method but GET, HEAD and OPTIONS.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from snapleague.login_throttle import client_ip
from tournaments.integrations.tokens.models import ApiToken
from tournaments.integrations.tokens.services import TokenRefused, TokenThrottled, api_token_authenticate

KEYWORD = "Bearer"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``request.user`` the token's account, ``request.auth`` the ``ApiToken``."""

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None  # not ours: session or Basic may take it
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Send the token as “Authorization: Bearer <token>”, with nothing else in the header.")
            )
        try:
            raw = header[1].decode("ascii")
        except UnicodeDecodeError:
            raw = ""
        try:
            token = api_token_authenticate(raw=raw, ip=client_ip(request))
        except TokenThrottled as exc:
            raise exceptions.Throttled(wait=exc.extra["retry_after_s"], detail=str(exc.message)) from None
        except TokenRefused as exc:
            raise exceptions.AuthenticationFailed(str(exc.message)) from None
        if token.scope == ApiToken.Scope.READ and request.method not in SAFE_METHODS:
            raise exceptions.PermissionDenied(
                _(
                    "This API token may only read (GET). To change data, make a token with the "
                    "scope “read and write” on your API tokens page."
                ),
                code="token_read_only",
            )
        return token.user, token

    def authenticate_header(self, request: Any) -> None:
        """No challenge: DRF asks the first authentication class for one, and a challenge would
        turn every refusal of someone not signed in from 403 into 401 (the API answers 403, as
        session authentication sends no challenge; docs/web.md)."""
        return None


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI schema's security scheme: HTTP bearer, with where to get a token."""

    target_class = BearerTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A personal API token (snl_…), made on the “API tokens” page (/me/tokens/) or with "
                "POST /api/tokens/. Scope read: GET only; read and write: every operation your "
                "account may do. The way for scripts (docs/api-tokens.md)."
            ),
        }
