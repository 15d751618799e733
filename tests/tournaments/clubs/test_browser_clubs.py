"""Creating a club and inviting a co-organiser, in headless Chromium on a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from snapleague.chromium import CHROMIUM
from snapleague.users import Account
from tests.browser import PHONE, signed_in_page
from tournaments.models import Club

DESKTOP = {"viewport": {"width": 1280, "height": 800}}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _signed_in(chromium: Any, base: str, username: str, device: dict[str, Any]) -> Any:
    return signed_in_page(chromium, base, username, device)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_user_creates_a_club_and_invites_a_co_organiser(
    browser: Any,
    server: str,
    make_user: Callable[..., Account],
    device: dict[str, Any],
) -> None:
    founder, friend = make_user("founder"), make_user("friend")
    page = _signed_in(browser, server, founder.username, device)

    # From home, "New club"; an empty name is not sent.
    page.click("#new-club")
    page.wait_for_url(re.compile(r"/clubs/new/$"))
    page.click("#club-new button[type=submit]")  # the browser's own check keeps an empty name
    assert page.url.endswith("/clubs/new/")
    page.fill("input[name=name]", "Győri Kártyások")
    page.click("#club-new button[type=submit]")
    page.wait_for_url(re.compile(r"/clubs/gyori-kartyasok/$"))
    assert page.locator(".role").inner_text() == "You organise this club."
    club = Club.objects.get(slug="gyori-kartyasok")
    assert list(club.organisers.all()) == [founder]
    # The page fits the screen: nothing wider than the viewport.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # An invitation link for the friend.
    page.click("#invite button[type=submit]")
    link = page.locator("#invitation-link").input_value()
    assert "/invitations/" in link

    friend_page = _signed_in(browser, server, friend.username, device)
    friend_page.goto(link)
    friend_page.click("#accept-invitation button[type=submit]")
    friend_page.wait_for_url(re.compile(r"/clubs/gyori-kartyasok/$"))
    assert "You now organise Győri Kártyások." in friend_page.locator(".messages").inner_text()
    assert set(club.organisers.all()) == {founder, friend}

    # Used once: opened again it says so.
    friend_page.goto(link)
    assert "already been used" in friend_page.locator(".error-box").inner_text()
    page.context.close()
    friend_page.context.close()
