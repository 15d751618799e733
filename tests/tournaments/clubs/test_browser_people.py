"""An organiser invites a person to claim their player; the person opens the link, logs in, is sent
back, accepts, and their page shows their players of both clubs — in headless Chromium on a phone and
a desktop (docs/people.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tournaments.models import Club, Player

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_an_organiser_invites_and_the_person_claims_their_player(
    browser: Any,
    server: str,
    club: Club,
    make_user: Callable[..., Account],
    device: dict[str, Any],
) -> None:
    organiser = club.organisers.get()
    zoe = make_user("zoe")
    zoe_here = Player.objects.create(club=club, name="Zoé Hatvan")
    other = Club.objects.create(name="Gyöngyös Snap Kör", slug="gyongyos")
    Player.objects.create(club=other, name="Zoé Gyöngyös", user=zoe)

    page = signed_in_page(browser, server, organiser.username, device, then=f"/players/{zoe_here.pk}/")
    page.click("#invite-claim")
    link = page.locator("#claim-link")
    link.wait_for()
    assert page.locator(".claim-qr svg").count() == 1
    url = link.input_value()
    path = url.split("://", 1)[1].split("/", 1)[1]
    page.context.close()

    person = browser.new_context(**device)
    person.set_default_timeout(15_000)
    tab = person.new_page()
    tab.goto(f"{server}/{path}")
    tab.wait_for_url(re.compile(r"/accounts/login/"))  # log in first, then back to the link
    tab.fill("input[name=username]", "zoe")
    tab.fill("input[name=password]", "pw-for-tests-only")
    tab.click("button[type=submit]")
    tab.wait_for_url(re.compile(r"/claims/"))
    tab.click("#accept-claim button")
    tab.wait_for_url(re.compile(r"/me/$"))
    clubs = tab.locator("#my-clubs")
    clubs.get_by_text("Zoé Hatvan").wait_for()
    clubs.get_by_text("Zoé Gyöngyös").wait_for()
    assert clubs.locator(".my-club").count() == 2
    assert "Hatvan Card Club" in clubs.inner_text() and "Gyöngyös Snap Kör" in clubs.inner_text()
    tab.click("#me-link")  # the header's link leads back to the page
    tab.wait_for_url(re.compile(r"/me/$"))
    person.close()
    zoe_here.refresh_from_db()
    assert zoe_here.user == zoe
