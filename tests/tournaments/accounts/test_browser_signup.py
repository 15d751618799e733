"""A newcomer with a claim link and no account, on a phone, by clicking only: the link asks for a
log-in, they create an account, open the confirmation mail from /outbox/, confirm, land on the claim
and make the player theirs (docs/accounts.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress

from snapleague.mail import OUTBOX_BACKEND
from tests.browser import BROWSER_TEST, PHONE
from tournaments.clubs.services import player_claim_create
from tournaments.models import Club, Player

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
def test_a_newcomer_signs_up_from_a_claim_link_confirms_from_the_outbox_and_claims(
    browser: Any,
    server: str,
    club: Club,
    settings: Any,
    tmp_path: Path,
) -> None:
    settings.OUTBOX_DIR = tmp_path
    settings.OUTBOX_PAGE = True
    settings.MAILERS = {"default": {"BACKEND": OUTBOX_BACKEND, "OPTIONS": {"folder": str(tmp_path)}}}
    player = Player.objects.create(club=club, name="Zoé Hatvan")
    _claim, token = player_claim_create(user=club.organisers.get(), player_id=player.pk)

    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{server}/claims/{token}/")
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.tap("#create-account")
    page.wait_for_url(re.compile(r"/accounts/signup/\?next="))
    page.fill("input[name=email]", "zoe@example.org")
    page.fill("input[name=password1]", "a-long-Passphrase-42")
    page.fill("input[name=display_name]", "Zoé")
    page.tap("#signup-form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))

    page.goto(f"{server}/outbox/")  # as a person on a fresh machine would, from the address bar
    page.locator("#outbox a").first.tap()
    page.wait_for_url(re.compile(r"/outbox/.+\.eml/$"))
    link = page.locator("#mail-text a[href*='/accounts/confirm-email/']")
    assert link.count() == 1
    link.tap()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/[^/]+/$"))
    page.locator("main form button[type=submit]").tap()
    page.wait_for_url(re.compile(rf"/claims/{re.escape(token)}/$"))  # back to the claim, signed in
    page.tap("#accept-claim button")
    page.wait_for_url(re.compile(r"/me/$"))
    page.locator("#my-clubs").get_by_text("Zoé Hatvan").wait_for()
    context.close()

    assert EmailAddress.objects.get(email="zoe@example.org").verified
    player.refresh_from_db()
    assert player.user is not None and player.user.email == "zoe@example.org"
