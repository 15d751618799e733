"""Deploy-ready settings from the environment: ``check --deploy`` is clean on production-like
settings (DEBUG off, a real secret, ALLOWED_HOSTS, behind a TLS proxy), and development keeps plain
http."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "TLS_PROXY", "HTTPS", "DJANGO_SETTINGS_MODULE"}
    }
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        check=False,
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "club.example.org"}


def test_check_deploy_is_clean_behind_a_tls_proxy() -> None:
    result = _check_deploy(**PRODUCTION, TLS_PROXY="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_names_what_is_missing_without_tls() -> None:
    result = _check_deploy(**PRODUCTION)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def test_development_serves_plain_http_with_ordinary_cookie_names() -> None:
    assert not settings.HTTPS
    assert not getattr(settings, "SECURE_SSL_REDIRECT", False)
    assert settings.SESSION_COOKIE_NAME == "sessionid" and not settings.SESSION_COOKIE_SECURE


@pytest.mark.django_db
def test_behind_the_proxy_https_is_trusted_and_cookies_are_host_only(settings: Any) -> None:
    """The settings the TLS env turns on, applied to a request as the proxy forwards it."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.CSRF_COOKIE_SECURE = True
    settings.CSRF_COOKIE_NAME = "__Host-csrftoken"
    client = Client()
    assert client.get("/accounts/login/").status_code == 301  # plain http is sent to https
    response = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200
    assert response["Strict-Transport-Security"].startswith("max-age=3600")
    cookie = response.cookies["__Host-csrftoken"]
    assert cookie["secure"] and cookie["path"] == "/" and not cookie["domain"]
    assert client.get("/healthz").status_code == 200  # the supervisor's probe stays on http
