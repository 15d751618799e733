"""The "API tokens" page in headless Chromium, on a phone and a desktop: reached from My page, a
token made (a field error first), copied with its button and shown once, used by a script, then
revoked after a confirmation (docs/api-tokens.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tournaments.integrations.tokens import keys
from tournaments.integrations.tokens.models import ApiToken

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_player_makes_copies_uses_and_revokes_a_token(
    browser: Any,
    server: str,
    player_user: Any,
    device: dict[str, Any],
) -> None:
    page = signed_in_page(browser, server, player_user.username, device)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)

    # From the header's name to My page, and from there to the tokens page.
    page.click("#me-link")
    page.wait_for_url(re.compile(r"/me/$"))
    page.click("#api-tokens-link")
    page.wait_for_url(re.compile(r"/me/tokens/$"))
    page.wait_for_selector("#no-tokens")

    # "On a date" without a date: told so next to the field, nothing made.
    page.fill("input[name=name]", "results script")
    page.check("input[name=scope][value=write]")
    page.select_option("select[name=expires]", "date")
    page.click("button:has-text('Create the token')")
    page.wait_for_selector("text=Choose the last day the token works.")
    assert not ApiToken.objects.exists()

    page.select_option("select[name=expires]", "30")
    page.click("button:has-text('Create the token')")
    shown = page.locator("#new-token-value").input_value()
    token = ApiToken.objects.get()
    assert keys.token_digest(shown) == token.digest and token.scope == "write"
    assert token.name == "results script"

    # The copy button puts it on the clipboard (and says so).
    page.click("#copy-token")
    page.wait_for_selector("#copy-told:has-text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == shown

    # Shown once: not on the page any more, the list names it by its prefix.
    page.goto(f"{server}/me/tokens/")
    assert page.locator("#new-token-value").count() == 0
    assert shown not in page.content()
    card = page.locator(f"#token-{token.pk}")
    assert token.prefix in card.inner_text()

    # A script uses it; the page then shows when it was last used.
    used = page.request.get(f"{server}/api/tokens/", headers={"Authorization": f"Bearer {shown}"})
    assert used.status == 200 and used.json()[0]["prefix"] == token.prefix
    page.reload()
    assert "never" not in page.locator(f"#token-{token.pk} .token-dates").inner_text()

    # Revoke, after a confirmation.
    card.locator("summary", has_text="Revoke").click()
    card.locator("button:has-text('Revoke the token')").click()
    page.wait_for_selector("text=revoked: requests that send it are refused from now on")
    token.refresh_from_db()
    assert token.revoked_at is not None
    refused = page.request.get(f"{server}/api/tokens/", headers={"Authorization": f"Bearer {shown}"})
    assert refused.status == 403 and "revoked" in refused.json()["message"]
    page.context.close()
