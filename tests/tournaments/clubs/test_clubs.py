"""Club creation by a signed-in user (who becomes its organiser), limited per hour, and organiser
invitations by link: pages, API, and every way a link can be wrong."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from snapleague.errors import ApplicationError, PermissionDenied
from snapleague.users import Account
from tournaments.clubs.services import club_create, organiser_invitation_accept, organiser_invitation_create
from tournaments.models import Club, OrganiserInvitation

pytestmark = pytest.mark.django_db


def _api(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _page(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# --- Club creation ------------------------------------------------------------------------------


def test_the_creator_organises_the_new_club_and_its_slug_comes_from_the_name(
    make_user: Callable[..., Account],
) -> None:
    user = make_user()
    club = club_create(user=user, name="  Hatvani   Kártyaklub ")
    assert club.name == "Hatvani Kártyaklub"
    assert club.slug == "hatvani-kartyaklub"
    assert list(club.organisers.all()) == [user]
    assert club.created_by == user


def test_slugs_stay_unique_and_never_take_a_page_address(make_user: Callable[..., Account]) -> None:
    a, b = make_user(), make_user()
    assert club_create(user=a, name="Ász").slug == "asz"
    assert club_create(user=b, name="ÁSZ!").slug == "asz-2"
    assert club_create(user=b, name="Ász").slug == "asz-3"
    assert club_create(user=a, name="New").slug == "new-club"
    assert club_create(user=a, name="♠♣").slug == "club"


def test_an_anonymous_visitor_cannot_create_a_club() -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        club_create(user=AnonymousUser(), name="Ghost club")
    assert _api().post("/api/clubs/", {"name": "Ghost club"}, format="json").status_code in (401, 403)
    response = _page().get(reverse("tournaments:club-create"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Club.objects.exists()


def test_club_creation_is_limited_per_account_per_hour(
    settings: Any, make_user: Callable[..., Account]
) -> None:
    settings.CLUB_CREATE_PER_HOUR = 3
    user, other = make_user(), make_user()
    for number in range(3):
        club_create(user=user, name=f"Club {number}")
    with pytest.raises(ApplicationError) as refused:
        club_create(user=user, name="One too many")
    assert refused.value.code == "club_create_throttled" and refused.value.status == 429
    assert "3 clubs in the last hour" in str(refused.value.message)
    assert 0 < refused.value.extra["retry_after_s"] <= 3600
    club_create(user=other, name="Someone else's")  # the limit is per account
    # An hour after the oldest, one more is allowed.
    oldest = Club.objects.filter(created_by=user).order_by("created_at").first()
    assert oldest is not None
    Club.objects.filter(pk=oldest.pk).update(created_at=timezone.now() - timedelta(hours=1, seconds=1))
    club_create(user=user, name="Next hour")


def test_the_api_creates_a_club_and_answers_429_beyond_the_limit(
    settings: Any, make_user: Callable[..., Account]
) -> None:
    settings.CLUB_CREATE_PER_HOUR = 1
    user = make_user()
    response = _api(user).post("/api/clubs/", {"name": "Debreceni Snapszer Kör"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "debreceni-snapszer-kor"
    assert Club.objects.get(pk=response.json()["id"]).organisers.filter(pk=user.pk).exists()

    response = _api(user).post("/api/clubs/", {"name": "Another"}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "club_create_throttled"
    assert int(response["Retry-After"]) == response.json()["extra"]["retry_after_s"]

    response = _api(make_user()).post("/api/clubs/", {"name": "   "}, format="json")
    assert response.status_code == 400
    assert response.json()["fields"]["name"]


def test_the_new_club_page_creates_it_and_shows_errors_next_to_the_field(
    settings: Any, make_user: Callable[..., Account]
) -> None:
    settings.CLUB_CREATE_PER_HOUR = 1
    user = make_user()
    client = _page(user)
    assert 'id="new-club"' in client.get("/").content.decode()  # reachable from home
    assert client.get(reverse("tournaments:club-create")).status_code == 200
    response = client.post(reverse("tournaments:club-create"), {"name": ""})
    assert response.status_code == 400 and "has-error" in response.content.decode()
    response = client.post(reverse("tournaments:club-create"), {"name": "Szegedi Lapozó"})
    assert response.status_code == 302 and response["Location"] == "/clubs/szegedi-lapozo/"
    page = client.get(response["Location"]).content.decode()
    assert "You organise this club." in page and "Club created" in page
    response = client.post(reverse("tournaments:club-create"), {"name": "Second"})
    assert response.status_code == 429
    assert "You can create another in" in response.content.decode()


# --- Invitations ---------------------------------------------------------------------------------


def test_an_invitation_makes_its_user_an_organiser_once(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    invitation, token = organiser_invitation_create(user=organiser, club=club)
    newcomer, latecomer = make_user(), make_user()
    assert organiser_invitation_accept(user=newcomer, token=token) == club
    assert club.organisers.filter(pk=newcomer.pk).exists()
    invitation.refresh_from_db()
    assert invitation.accepted_by == newcomer and invitation.accepted_at is not None
    with pytest.raises(ApplicationError) as used:
        organiser_invitation_accept(user=latecomer, token=token)
    assert used.value.code == "invitation_used" and used.value.status == 409
    assert not club.organisers.filter(pk=latecomer.pk).exists()


def test_only_an_organiser_of_the_club_invites(club: Club, make_user: Callable[..., Account]) -> None:
    outsider = make_user()
    with pytest.raises(PermissionDenied):
        organiser_invitation_create(user=outsider, club=club)
    response = _api(outsider).post(f"/api/clubs/{club.pk}/invitations/")
    assert response.status_code == 403
    response = _page(outsider).post(reverse("tournaments:club-invitation", args=[club.slug]))
    assert response.status_code == 403
    assert not OrganiserInvitation.objects.exists()


@pytest.mark.parametrize(
    "case",
    [
        ("garbage", "invitation_invalid", 400, "not valid"),
        ("tampered", "invitation_invalid", 400, "not valid"),
        ("other_salt", "invitation_invalid", 400, "not valid"),
        ("expired", "invitation_expired", 410, "expired on"),
        ("used", "invitation_used", 409, "already been used"),
        ("deleted_club", "invitation_invalid", 400, "not valid"),
    ],
)
def test_a_bad_link_gets_a_clear_message_on_the_page_and_the_api_never_a_500(
    club: Club, organiser: Account, make_user: Callable[..., Account], case: tuple[str, str, int, str]
) -> None:
    spoil, code, status, words = case
    invitation, token = organiser_invitation_create(user=organiser, club=club)
    if spoil == "garbage":
        token = "not-a-token"
    elif spoil == "tampered":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    elif spoil == "other_salt":
        token = signing.dumps({"invitation": invitation.pk}, salt="something-else")
    elif spoil == "expired":
        OrganiserInvitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
    elif spoil == "used":
        organiser_invitation_accept(user=make_user(), token=token)
    elif spoil == "deleted_club":
        club.delete()
    user = make_user()

    response = _api(user).post("/api/invitations/accept/", {"token": token}, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code and words in response.json()["message"]

    client = _page(user)
    for method in (client.get, client.post):
        response = method(reverse("tournaments:invitation", args=[token]))
        assert response.status_code == status
        assert words in response.content.decode()
    if spoil != "deleted_club":
        assert not club.organisers.filter(pk=user.pk).exists()


def test_the_invitation_pages_from_the_club_page_to_a_new_organiser(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    response = _page(organiser).post(reverse("tournaments:club-invitation", args=[club.slug]))
    assert response.status_code == 200
    url = response.context["invitation_url"]
    assert url.startswith("http://testserver/invitations/")
    path = url.removeprefix("http://testserver")

    assert _page().get(path).status_code == 302  # sign in first, then back here
    newcomer = make_user()
    client = _page(newcomer)
    page = client.get(path)
    assert page.status_code == 200 and "Become an organiser" in page.content.decode()
    assert not club.organisers.filter(pk=newcomer.pk).exists()  # opening it changes nothing
    response = client.post(path)
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/"
    assert club.organisers.filter(pk=newcomer.pk).exists()
    assert "You now organise" in client.get(response["Location"]).content.decode()


def test_an_organiser_opening_the_link_is_told_and_leaves_it_for_another(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    _, token = organiser_invitation_create(user=organiser, club=club)
    client = _page(organiser)
    assert (
        "You already organise this club."
        in client.get(reverse("tournaments:invitation", args=[token])).content.decode()
    )
    response = _api(organiser).post("/api/invitations/accept/", {"token": token}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "already_organiser"
    newcomer = make_user()
    assert _api(newcomer).post("/api/invitations/accept/", {"token": token}, format="json").status_code == 200


def test_the_api_invites_and_accepts(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    response = _api(organiser).post(f"/api/clubs/{club.pk}/invitations/")
    assert response.status_code == 201
    body = response.json()
    assert body["club"] == club.pk and body["url"].endswith(f"/invitations/{body['token']}/")
    newcomer = make_user()
    response = _api(newcomer).post("/api/invitations/accept/", {"token": body["token"]}, format="json")
    assert response.status_code == 200 and response.json()["slug"] == club.slug
    assert club.organisers.filter(pk=newcomer.pk).exists()
    assert _api().post("/api/invitations/accept/", {"token": body["token"]}, format="json").status_code in (
        401,
        403,
    )
