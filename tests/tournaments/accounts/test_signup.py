"""Sign-up, e-mail confirmation, log-in by name or address, password reset, the claim link through a
sign-up, and the bad inputs: a taken address, forged or used links, floods (docs/accounts.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from snapleague.users import Account
from tournaments.accounts.models import AccountProfile, OutgoingMail
from tournaments.clubs.services import player_claim_create
from tournaments.models import Club, Player

PASSWORD = "a-long-Passphrase-42"
LINK = re.compile(r"http://testserver(/accounts/[^\s]+/)")

pytestmark = pytest.mark.django_db


def sign_up(client: Client, email: str, *, next_url: str = "", **extra: str) -> Any:
    data = {"email": email, "password1": PASSWORD, "display_name": "Zoé", **extra}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("account_signup"), data)


def link_in(message: Any) -> str:
    match = LINK.search(message.body)
    assert match, message.body
    return match.group(1)


def test_a_sign_up_mails_a_link_and_nobody_logs_in_before_confirming(client: Client) -> None:
    response = sign_up(client, "zoe@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    user = get_user_model().objects.get(email="zoe@example.org")
    assert AccountProfile.objects.get(user=user).display_name == "Zoé"
    assert not EmailAddress.objects.get(user=user).verified
    assert "_auth_user_id" not in client.session
    # The mail went through the queue (eager here), once, with a plain-text and an HTML part.
    (message,) = mail.outbox
    assert message.to == ["zoe@example.org"]
    assert "Confirm your e-mail address" in message.subject
    assert message.alternatives and message.alternatives[0][1] == "text/html"
    assert OutgoingMail.objects.get().status == OutgoingMail.Status.SENT

    # Logging in before confirming: the "confirm first" page, not a session.
    other = Client()
    response = other.post(reverse("account_login"), {"username": "zoe@example.org", "password": PASSWORD})
    assert "_auth_user_id" not in other.session

    # The link opens a page with a button (a GET changes nothing), the button confirms and logs in.
    path = link_in(message)
    assert client.get(path).status_code == 200
    assert not EmailAddress.objects.get(user=user).verified
    response = client.post(path)
    assert response.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert client.session["_auth_user_id"] == str(user.pk)


def test_log_in_by_user_name_or_address_and_accounts_without_an_address_still_log_in(
    client: Client, make_user: Callable[..., Account]
) -> None:
    legacy = make_user("legacy")  # made before sign-up existed: no address at all
    response = client.post(reverse("account_login"), {"username": "legacy", "password": "pw-for-tests-only"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(legacy.pk)

    confirmed = make_user("carla", email="carla@example.org")
    EmailAddress.objects.create(user=confirmed, email="carla@example.org", verified=True, primary=True)
    for login in ("carla", "CARLA@example.org"):
        browser = Client()
        response = browser.post(
            reverse("account_login"), {"username": login, "password": "pw-for-tests-only"}
        )
        assert response.status_code == 302, login
        assert browser.session["_auth_user_id"] == str(confirmed.pk)


def test_a_wrong_password_is_refused_and_audited(client: Client, make_user: Callable[..., Account]) -> None:
    make_user("dora")
    response = client.post(reverse("account_login"), {"username": "dora", "password": "nope"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert b"error-box" in response.content


def test_a_taken_address_gets_the_same_answer_and_its_owner_a_mail(make_user: Callable[..., Account]) -> None:
    owner = make_user("owner", email="owner@example.org")
    EmailAddress.objects.create(user=owner, email="owner@example.org", verified=True, primary=True)
    known = sign_up(Client(), "owner@example.org")
    unknown = sign_up(Client(), "new@example.org")
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert get_user_model().objects.filter(email__iexact="owner@example.org").count() == 1
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert "You already have an account" in subjects["owner@example.org"]
    assert "Confirm your e-mail address" in subjects["new@example.org"]


def test_password_reset_answers_alike_for_known_and_unknown_addresses(
    client: Client, make_user: Callable[..., Account]
) -> None:
    user = make_user("erik", email="erik@example.org")
    EmailAddress.objects.create(user=user, email="erik@example.org", verified=True, primary=True)
    known = client.post(reverse("account_reset_password"), {"email": "erik@example.org"})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    by_to = {m.to[0]: m for m in mail.outbox}
    assert "Reset your password" in by_to["erik@example.org"].subject
    assert "No account with this address" in by_to["nobody@example.org"].subject

    # The link sets a new password once; used again, or forged, it is refused.
    path = link_in(by_to["erik@example.org"])
    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    set_path = form_page.redirect_chain[-1][0] if form_page.redirect_chain else path
    response = client.post(
        set_path, {"password1": "Another-long-pass-77", "password2": "Another-long-pass-77"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Another-long-pass-77")
    again = Client().get(path, follow=True)
    assert b"password1" not in again.content  # the used link no longer offers a form
    forged = Client().get(path[:-6] + "xxxxx/", follow=True)
    assert forged.status_code == 200 and b"password1" not in forged.content


def test_a_forged_or_used_confirmation_link_confirms_nothing(client: Client) -> None:
    sign_up(client, "fay@example.org")
    path = link_in(mail.outbox[0])
    forged = path[:-4] + "abc/"
    response = Client().post(forged)
    assert response.status_code in (200, 404)
    assert not EmailAddress.objects.get(email="fay@example.org").verified
    assert client.post(path).status_code == 302
    assert EmailAddress.objects.get(email="fay@example.org").verified


def test_a_sign_up_flood_is_throttled_with_retry_after(settings: Any) -> None:
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "3/m/ip"}
    answers = [sign_up(Client(), f"flood{n}@example.org") for n in range(5)]
    assert [a.status_code for a in answers[:3]] == [302, 302, 302]
    assert answers[3].status_code == 429 and int(answers[3]["Retry-After"]) > 0
    assert get_user_model().objects.filter(email__startswith="flood").count() == 3


def test_a_reset_flood_is_throttled_with_retry_after(settings: Any, client: Client) -> None:
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/m/ip"}
    codes = [client.post(reverse("account_reset_password"), {"email": f"x{n}@example.org"}) for n in range(3)]
    assert [c.status_code for c in codes] == [302, 302, 429]
    assert int(codes[2]["Retry-After"]) > 0


@pytest.fixture
def claim_path(club: Club) -> tuple[Player, str]:
    player = Player.objects.create(club=club, name="Zoé Hatvan")
    _claim, token = player_claim_create(user=club.organisers.get(), player_id=player.pk)
    return player, reverse("tournaments:claim", args=[token])


def test_a_claim_link_works_for_someone_without_an_account(
    client: Client, claim_path: tuple[Player, str]
) -> None:
    player, path = claim_path
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    login_page = client.get(response["Location"])
    assert f'href="{reverse("account_signup")}?next=' in login_page.content.decode()
    sign_up(client, "zoe@example.org", next_url=path)
    response = client.post(link_in(mail.outbox[0]))
    assert response.status_code == 302 and response["Location"] == path  # back to the claim
    assert client.post(path).status_code == 302
    player.refresh_from_db()
    assert player.user is not None and player.user.email == "zoe@example.org"


def test_the_claim_survives_confirming_in_another_browser(claim_path: tuple[Player, str]) -> None:
    player, path = claim_path
    sign_up(Client(), "yan@example.org", next_url=path)
    phone = Client()  # the mail opened on another device: no session of the sign-up there
    assert phone.post(link_in(mail.outbox[0])).status_code == 302
    assert EmailAddress.objects.get(email="yan@example.org").verified
    response = phone.post(reverse("account_login"), {"username": "yan@example.org", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == path
    # Once: the next log-in goes where it would anyway.
    later = Client().post(reverse("account_login"), {"username": "yan@example.org", "password": PASSWORD})
    assert later["Location"] == "/"
    assert phone.post(path).status_code == 302
    player.refresh_from_db()
    assert player.user is not None and player.user.email == "yan@example.org"


def test_a_sign_up_with_an_external_next_is_not_followed(client: Client) -> None:
    sign_up(client, "ext@example.org", next_url="https://evil.example/")
    assert AccountProfile.objects.get(user__email="ext@example.org").pending_next == ""


def test_an_organiser_with_an_authenticator_app_logs_in_with_a_code(club: Club) -> None:
    from allauth.mfa.totp.internal.auth import (
        TOTP,
        format_hotp_value,
        generate_totp_secret,
        hotp_value,
        yield_hotp_counters_from_time,
    )

    organiser = club.organisers.get()
    secret = generate_totp_secret()
    TOTP.activate(organiser, secret)
    client = Client()
    response = client.post(
        reverse("account_login"), {"username": organiser.username, "password": "pw-for-tests-only"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("mfa_authenticate")
    assert "_auth_user_id" not in client.session  # the password alone is not enough
    code = format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))
    wrong = client.post(reverse("mfa_authenticate"), {"code": f"{(int(code) + 1) % 1_000_000:06d}"})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    response = client.post(reverse("mfa_authenticate"), {"code": code})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)
    page = client.get(reverse("tournaments:club", args=[club.slug]))
    assert 'id="mfa-nudge"' not in page.content.decode()
