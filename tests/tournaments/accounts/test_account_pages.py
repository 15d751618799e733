"""One's own account: settings (display name, mail language), one's data as JSON, deleting the
account (results stay with the club's player), and the organisers' nudge to a second factor."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.accounts.models import AccountProfile
from tournaments.accounts.selectors import recipient_language, user_display
from tournaments.integrations.tokens.models import ApiToken
from tournaments.integrations.tokens.services import api_token_create
from tournaments.models import AuditEntry, Club, GameResult, Player, Series

pytestmark = pytest.mark.django_db


def signed_in(user: Account) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_settings_set_the_display_name_and_the_language_of_mails(make_user: Callable[..., Account]) -> None:
    user = make_user("zoe", email="zoe@example.org")
    EmailAddress.objects.create(user=user, email="zoe@example.org", verified=True, primary=True)
    client = signed_in(user)
    page = client.get(reverse("accounts:settings"))
    assert page.status_code == 200 and "zoe@example.org" in page.content.decode()
    response = client.post(reverse("accounts:settings"), {"display_name": "  Zoé K.  ", "language": "it"})
    assert response.status_code == 302
    assert user_display(user) == "Zoé K."
    assert recipient_language("ZOE@example.org") == "it"
    # A language that is not one of the five is refused, the profile unchanged.
    bad = client.post(reverse("accounts:settings"), {"display_name": "X", "language": "xx"})
    assert bad.status_code == 400
    assert AccountProfile.objects.get(user=user).language == "it"


def test_my_data_is_a_json_file_of_what_is_about_me(
    make_user: Callable[..., Account], club: Club, players: list[Player]
) -> None:
    anna = players[0].user
    assert anna is not None
    api_token_create(user=anna, name="scores script", scope="read", expires_in_days=30)
    response = signed_in(anna).get(reverse("accounts:data"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["account"]["username"] == anna.username
    assert data["players"] == [
        {"club": club.name, "club_slug": club.slug, "player": "Anna", "player_id": players[0].pk}
    ]
    assert data["api_tokens"][0]["name"] == "scores script"
    text = response.content.decode()
    assert "pbkdf2" not in text and "md5$" not in text and anna.password not in text
    assert ApiToken.objects.get(user=anna).digest not in text


def test_deleting_my_account_keeps_my_results_with_the_club(
    club: Club, players: list[Player], make_series: Callable[..., Series]
) -> None:
    anna = players[0].user
    assert anna is not None
    series = make_series([players[0], players[1]], game="snapszer")
    record_result(
        user=club.organisers.get(),
        series_id=series.pk,
        game_number=1,
        result=snapszer_win(players[0], players[1]),
    )
    results_before = GameResult.objects.count()
    client = signed_in(anna)
    assert client.get(reverse("accounts:delete")).status_code == 200
    refused = client.post(reverse("accounts:delete"), {"confirm": "no"})
    assert refused.status_code == 400 and get_user_model().objects.filter(pk=anna.pk).exists()
    response = client.post(reverse("accounts:delete"), {"confirm": "delete"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not get_user_model().objects.filter(pk=anna.pk).exists()
    players[0].refresh_from_db()
    assert players[0].user is None and players[0].name == "Anna"
    assert GameResult.objects.count() == results_before
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_UNLINKED, detail__player="Anna").exists()
    assert "_auth_user_id" not in client.session


def test_the_only_organiser_of_a_club_cannot_delete_their_account_yet(club: Club) -> None:
    organiser = club.organisers.get()
    client = signed_in(organiser)
    page = client.get(reverse("accounts:delete"))
    assert club.name in page.content.decode()
    response = client.post(reverse("accounts:delete"), {"confirm": "DELETE"})
    assert response.status_code == 409
    assert get_user_model().objects.filter(pk=organiser.pk).exists()


def test_an_account_that_played_online_is_emptied_instead(make_user: Callable[..., Account]) -> None:
    from games.online.services import table_create

    user = make_user("ivo", email="ivo@example.org")
    EmailAddress.objects.create(user=user, email="ivo@example.org", verified=True, primary=True)
    table_create(user=user, kind="snapszer", options={}, seats=2)
    response = signed_in(user).post(reverse("accounts:delete"), {"confirm": "DELETE"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.username == f"deleted-{user.pk}" and user.email == "" and not user.is_active
    assert not user.has_usable_password()
    assert not EmailAddress.objects.filter(user=user).exists()


def test_organisers_without_a_second_factor_are_urged_to_set_one_up(
    club: Club, make_user: Callable[..., Account]
) -> None:
    organiser = club.organisers.get()
    page = signed_in(organiser).get(reverse("tournaments:club", args=[club.slug]))
    assert 'id="mfa-nudge"' in page.content.decode()
    Authenticator.objects.create(user=organiser, type=Authenticator.Type.TOTP, data={})
    page = signed_in(organiser).get(reverse("tournaments:club", args=[club.slug]))
    assert 'id="mfa-nudge"' not in page.content.decode()
    visitor = signed_in(make_user("visitor"))
    assert 'id="mfa-nudge"' not in visitor.get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert visitor.get(reverse("mfa_index")).status_code == 200  # offered to everyone
