"""Languages in headless Chromium, phone and desktop: the browser's language chooses the page's,
the footer's switcher changes it (and keeps it across pages), and a Snapszer table names its cards
as the Hungarian deck does (alsó, felső, ász…) while the lobby speaks Hungarian."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from snapleague.chromium import CHROMIUM
from tests.browser import PHONE, signed_in_page

DESKTOP = {"viewport": {"width": 1280, "height": 800}}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _in(language: str, message: str) -> str:
    with translation.override(language):
        return translation.gettext(message)


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_browsers_language_then_the_switcher_choose_the_pages_language(
    browser: Any,
    server: str,
    device: dict[str, Any],
) -> None:
    context = browser.new_context(locale="es-ES", **device)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{server}/play/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("link", name=_in("es", "Log in")).is_visible()
    # The switcher sends itself when a language is chosen (static/js/language.js), back to this page.
    page.select_option("#language", "pt")
    page.wait_for_function("() => document.documentElement.lang === 'pt'")
    assert page.url.endswith("/play/")
    assert page.get_by_role("link", name=_in("pt", "Log in")).is_visible()
    page.goto(f"{server}/")  # the choice is kept: a cookie
    assert page.locator("html").get_attribute("lang") == "pt"
    footer = page.locator(".lang-switch").bounding_box()
    assert footer is not None and footer["x"] + footer["width"] <= device["viewport"]["width"]
    context.close()


def test_a_snapszer_table_in_hungarian_names_the_hungarian_decks_cards(
    browser: Any,
    server: str,
    django_user_model: Any,
) -> None:
    django_user_model.objects.create_user("zsofi", password="pw-for-tests-only")
    page = signed_in_page(browser, server, "zsofi", PHONE, then="/play/")
    page.select_option("#language", "hu")
    page.wait_for_function("() => document.documentElement.lang === 'hu'")
    # A Snapszer table against a bot, from the lobby's form.
    page.locator("#new-table button[type=submit]").click()
    page.wait_for_selector("#hand .pcard")
    titles = page.eval_on_selector_all("#hand .pcard", "els => els.map(e => e.title)")
    assert len(titles) >= 5
    hungarian = ("alsó", "felső", "király", "tízes", "ász", "kilences")
    suits = ("piros", "tök", "zöld", "makk")
    for title in titles:
        assert any(rank in title for rank in hungarian) and any(s in title for s in suits), titles
    labels = page.eval_on_selector_all("#hand .pcard", "els => els.map(e => e.textContent)")
    assert not any(label.startswith(("J", "Q")) for label in labels), labels  # A(lsó), F(első)
