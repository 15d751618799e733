"""The API's HTTP Basic authentication."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions


class BasicAuthentication(authentication.BasicAuthentication):
    """DRF's HTTP Basic, refusing a user name or password with a NUL character before it reaches
    the database: PostgreSQL cannot take NUL in a text parameter, and the user lookup was a 500 on
    every API operation (found by tests/test_api_schema_fuzz.py). The login page's form already
    refuses NUL (Django's ``ProhibitNullCharactersValidator``)."""

    def authenticate_credentials(self, userid: str, password: str, request: Any = None) -> Any:
        if "\x00" in userid or "\x00" in password:
            raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        return super().authenticate_credentials(userid, password, request)
