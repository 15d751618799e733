"""Join requests (issue 25 item 3, docs/accounts.md "Join requests"): a person asks from the club
page, an organiser approves (linking an unclaimed player or making one) or refuses with a reason;
every refusal is one clear message and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from snapleague.errors import ApplicationError
from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tournaments.clubs import join_requests as jr
from tournaments.models import AuditEntry, Club, JoinRequest, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_club(club: Club) -> Club:
    Club.objects.filter(pk=club.pk).update(join_requests_open=True)
    club.refresh_from_db()
    return club


def _refused(call: Callable[[], Any], code: str) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == code, caught.value
    assert str(caught.value.message)
    return caught.value


def test_a_request_approved_with_a_new_player_named_after_the_person(
    open_club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    zoe = make_user("zoe")
    request = jr.join_request_create(user=zoe, club=open_club, message="  I play on  Tuesdays ")
    assert (request.status, request.message) == (JoinRequest.Status.PENDING, "I play on Tuesdays")
    assert list(jr.join_requests_pending(user=organiser, club=open_club)) == [request]
    player = jr.join_request_approve(user=organiser, request_id=request.pk)
    assert (player.name, player.user, player.club) == ("zoe", zoe, open_club)
    request.refresh_from_db()
    assert (request.status, request.player, request.decided_by) == (
        JoinRequest.Status.APPROVED,
        player,
        organiser,
    )
    assert jr.join_state_get(user=zoe, club=open_club).member == player
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert AuditEntry.Action.JOIN_REQUESTED in actions and AuditEntry.Action.JOIN_APPROVED in actions


def test_an_approval_can_link_an_unclaimed_player_of_the_club(
    open_club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    zoe = make_user("zoe")
    existing = Player.objects.create(club=open_club, name="Zoé Kovács")
    request = jr.join_request_create(user=zoe, club=open_club)
    assert jr.join_request_approve(user=organiser, request_id=request.pk, player_id=existing.pk) == existing
    existing.refresh_from_db()
    assert existing.user == zoe
    assert Player.objects.filter(club=open_club).count() == 1


def test_a_refusal_shows_its_reason_and_the_person_may_ask_again(
    open_club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    zoe = make_user("zoe")
    request = jr.join_request_create(user=zoe, club=open_club)
    jr.join_request_refuse(user=organiser, request_id=request.pk, reason="Members only")
    state = jr.join_state_get(user=zoe, club=open_club)
    assert state.latest is not None and state.latest.reason == "Members only" and state.can_ask
    again = jr.join_request_create(user=zoe, club=open_club)
    assert again.pk != request.pk


def test_every_bad_request_is_refused_with_nothing_made(
    club: Club,
    organiser: Account,
    make_user: Callable[..., Account],
    players: list[Player],
    player_user: Account,
) -> None:
    zoe = make_user("zoe")
    _refused(lambda: jr.join_request_create(user=zoe, club=club), "join_requests_closed")
    jr.club_join_requests_set(user=organiser, club=club, open_=True)
    _refused(lambda: jr.join_request_create(user=player_user, club=club), "already_member")  # Anna's account
    error = _refused(lambda: jr.join_request_create(user=zoe, club=club, message="x" * 501), "invalid")
    assert "message" in error.fields
    request = jr.join_request_create(user=zoe, club=club)
    _refused(lambda: jr.join_request_create(user=zoe, club=club), "join_request_pending")
    assert JoinRequest.objects.count() == 1
    # Deciding: only the club's organisers, once; an approval's bad choice changes nothing.
    outsider = make_user("outsider")
    _refused(lambda: jr.join_request_approve(user=outsider, request_id=request.pk), "not_found")
    _refused(
        lambda: jr.join_request_approve(user=organiser, request_id=request.pk, player_id=players[0].pk),
        "player_claimed",
    )
    error = _refused(
        lambda: jr.join_request_approve(user=organiser, request_id=request.pk, name="Anna"), "invalid"
    )
    assert "Anna" in str(error.fields["name"][0])
    error = _refused(
        lambda: jr.join_request_approve(user=organiser, request_id=request.pk, name="Zoë\u202eevil"),
        "invalid",
    )
    assert "U+202E" in str(error.fields["name"][0])
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.PENDING and not Player.objects.filter(user=zoe).exists()
    jr.join_request_refuse(user=organiser, request_id=request.pk)
    _refused(lambda: jr.join_request_approve(user=organiser, request_id=request.pk), "join_request_decided")
    _refused(
        lambda: jr.join_request_refuse(user=organiser, request_id=request.pk, reason="again"),
        "join_request_decided",
    )


def test_the_pages_ask_list_and_decide(
    open_club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    zoe = make_user("zoe")
    person = Client()
    person.force_login(zoe)
    page = person.get(f"/clubs/{open_club.slug}/").content.decode()
    assert 'id="join"' in page
    response = person.post(f"/clubs/{open_club.slug}/join/", {"message": "Hi"})
    assert response.status_code == 302
    page = person.get(f"/clubs/{open_club.slug}/").content.decode()
    assert 'id="join-state"' in page and 'id="join"' not in page
    twice = person.post(f"/clubs/{open_club.slug}/join/", {"message": "Hi"})
    assert twice.status_code == 409 and "already" in twice.content.decode()
    staff = Client()
    staff.force_login(organiser)
    listing = staff.get(f"/clubs/{open_club.slug}/join-requests/").content.decode()
    request = JoinRequest.objects.get()
    assert f'id="join-request-{request.pk}"' in listing and "Hi" in listing
    bad = staff.post(f"/join-requests/{request.pk}/approve/", {f"a{request.pk}-name": "x" * 121})
    assert bad.status_code == 400 and "field-errors" in bad.content.decode()
    done = staff.post(f"/join-requests/{request.pk}/approve/", {f"a{request.pk}-name": "Zoé"})
    assert done.status_code == 302
    assert Player.objects.get(user=zoe).name == "Zoé"
    # closing join requests hides the form for the next person
    staff.post(f"/clubs/{open_club.slug}/join-requests/", {})
    other = Client()
    other.force_login(make_user("yann"))
    assert 'id="join"' not in other.get(f"/clubs/{open_club.slug}/").content.decode()


@BROWSER_TEST[0]
@BROWSER_TEST[1]
@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_person_asks_to_join_and_an_organiser_approves_with_the_button(
    browser: Any, server: str, open_club: Club, make_user: Callable[..., Account], device: dict[str, Any]
) -> None:
    organiser = open_club.organisers.get()
    make_user("zoe")
    tab = signed_in_page(browser, server, "zoe", device, then=f"/clubs/{open_club.slug}/")
    tab.fill("#join textarea[name=message]", "I am Zoé from Tuesdays")
    tab.click("#join button[type=submit]")
    tab.locator("#join-state").wait_for()
    tab.context.close()

    desk = signed_in_page(browser, server, organiser.username, device, then=f"/clubs/{open_club.slug}/")
    assert desk.locator("#club-join-requests .badge").inner_text() == "1"
    desk.click("#club-join-requests")
    desk.wait_for_url(re.compile(r"/join-requests/$"))
    row = desk.locator(".join-request")
    assert "I am Zoé from Tuesdays" in row.inner_text()
    row.locator("input[name$=-name]").fill("Zoé T.")
    row.get_by_role("button", name="Approve").click()
    desk.get_by_text("No request is waiting.").wait_for()
    assert Player.objects.get(club=open_club, name="Zoé T.").user.username == "zoe"  # type: ignore[union-attr]
    desk.context.close()
