"""Login throttling (django-axes): per account and per address, a cool-off that ends, on the login
page and on the API's Basic authentication alike."""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from snapleague.users import Account

PASSWORD = "pw-for-tests-only"


def _cool_off_passes() -> None:
    """Every counted failure is now older than the cool-off, as if the time had gone by."""
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )


def _page_login(client: Client, username: str, password: str, ip: str = "10.0.0.1") -> Any:
    return client.post(reverse("account_login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def _basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.mark.django_db
def test_forty_wrong_passwords_then_the_right_one_is_refused_until_the_cool_off_ends(
    organiser: Account,
) -> None:
    client = Client()
    for _ in range(40):
        response = _page_login(client, "organiser", "wrong")
        assert response.status_code in (200, 429)  # the form again, then the cool-off page
    response = _page_login(client, "organiser", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    text = response.content.decode()
    assert "Too many failed log-ins" in text and "minutes" in text
    assert "You can log in again from" in text
    assert 1 <= int(response["Retry-After"]) <= settings.AXES_COOLOFF_TIME.total_seconds()

    _cool_off_passes()
    response = _page_login(client, "organiser", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)


@pytest.mark.django_db
def test_a_few_mistakes_do_not_lock_and_a_success_resets_the_count(organiser: Account) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _page_login(client, "organiser", "wrong").status_code == 200
    assert _page_login(client, "organiser", PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _page_login(client, "organiser", "wrong").status_code == 200
    assert _page_login(client, "organiser", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_account_is_throttled_from_every_address(organiser: Account) -> None:
    client = Client()
    for number in range(settings.AXES_FAILURE_LIMIT):
        _page_login(client, "organiser", "wrong", ip=f"10.0.1.{number}")
    assert _page_login(client, "organiser", PASSWORD, ip="10.9.9.9").status_code == 429


@pytest.mark.django_db
def test_an_address_guessing_many_accounts_is_throttled_for_all_of_them(
    make_user: Callable[..., Account],
) -> None:
    victims = [make_user() for _ in range(settings.AXES_FAILURE_LIMIT)]
    bystander = make_user()
    client = Client()
    for victim in victims:
        _page_login(client, victim.username, "wrong", ip="10.0.2.1")
    assert _page_login(client, bystander.username, PASSWORD, ip="10.0.2.1").status_code == 429
    # Someone else, elsewhere, is not affected.
    assert _page_login(Client(), bystander.username, PASSWORD, ip="10.0.2.2").status_code == 302


@pytest.mark.django_db
def test_the_api_basic_authentication_is_throttled_with_429_and_retry_after(organiser: Account) -> None:
    client = APIClient()
    for _ in range(40):
        response = client.get(
            "/api/tournaments/", HTTP_AUTHORIZATION=_basic("organiser", "wrong"), REMOTE_ADDR="10.0.3.1"
        )
        assert response.status_code in (401, 403, 429)  # 403: session auth comes first
    response = client.get(
        "/api/tournaments/", HTTP_AUTHORIZATION=_basic("organiser", PASSWORD), REMOTE_ADDR="10.0.3.1"
    )
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert "Too many failed log-ins" in body["message"]
    assert int(response["Retry-After"]) > 0

    _cool_off_passes()
    response = client.get(
        "/api/tournaments/", HTTP_AUTHORIZATION=_basic("organiser", PASSWORD), REMOTE_ADDR="10.0.3.1"
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_page_failures_count_against_the_api_too(organiser: Account) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _page_login(Client(), "organiser", "wrong", ip="10.0.4.1")
    response = APIClient().get(
        "/api/tournaments/", HTTP_AUTHORIZATION=_basic("organiser", PASSWORD), REMOTE_ADDR="10.0.4.2"
    )
    assert response.status_code == 429


def test_forwarded_for_is_ignored_unless_behind_the_tls_proxy(rf: Any, settings: Any) -> None:
    from snapleague.login_throttle import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    settings.TRUST_PROXY_HEADERS = False
    assert client_ip(request) == "10.0.0.9"
    settings.TRUST_PROXY_HEADERS = True
    assert client_ip(request) == "5.6.7.8"
