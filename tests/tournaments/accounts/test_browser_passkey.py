"""Passkeys in Chromium (a virtual authenticator through the DevTools protocol): a person adds a
passkey on /accounts/2fa/, logs out, and logs in with it alone — under the site's CSP."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from allauth.mfa.models import Authenticator

from snapleague.users import Account
from tests.browser import BROWSER_TEST, PHONE

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
def test_a_passkey_is_added_and_logs_in_alone(
    browser: Any,
    server: str,
    make_user: Callable[..., Account],
) -> None:
    user = make_user("pia")
    base = server.replace("127.0.0.1", "localhost")  # a passkey's site is a name, never an address
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    violations: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))

    page.goto(f"{base}/accounts/login/?next=/accounts/2fa/webauthn/add/")
    page.fill("input[name=username]", "pia")
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("button[type=submit]")
    # Adding a second factor asks for the password again (allauth's re-authentication).
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    page.fill("main input[name=password]", "pw-for-tests-only")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/2fa/webauthn/add/$"))
    page.check("input[name=passwordless]")
    page.click("#mfa_webauthn_add")
    page.wait_for_function("() => !location.pathname.endsWith('/add/')")
    assert Authenticator.objects.filter(user=user, type=Authenticator.Type.WEBAUTHN).count() == 1

    page.goto(f"{base}/accounts/logout/")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/accounts/login/")
    page.click("#passkey_login")
    page.wait_for_url(f"{base}/")
    assert page.locator("#me-link").inner_text() == "pia"
    assert violations == []
    context.close()
