"""An organiser registers a webhook endpoint and reads its delivery log, in headless Chromium on a
phone and a desktop; the events reach a real local receiver (Celery runs eagerly in the server)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tests.conftest import record_result, snapszer_win
from tests.tournaments.integrations.webhook_receiver import Receiver
from tournaments.integrations.webhooks import signing
from tournaments.integrations.webhooks.models import WebhookDelivery, WebhookEndpoint
from tournaments.models import Club, GameKind, Player

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_the_organiser_registers_an_endpoint_and_sees_the_delivery_log(  # noqa: PLR0917
    browser: Any,
    server: str,
    club: Club,
    players: list[Player],
    receiver: Receiver,
    make_series: Any,
    settings: Any,
    device: dict[str, Any],
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the receiver listens on 127.0.0.1
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    organiser = club.organisers.get()
    page = signed_in_page(browser, server, organiser.username, device, then=f"/clubs/{club.slug}/")

    page.click("text=Webhooks and their delivery log")
    page.wait_for_url(re.compile(r"/webhooks/$"))
    # A URL that is not one: told so, nothing saved.
    page.fill("input[name=url]", "ftp://hooks.example.com/in")  # a URL to the browser, not to us
    page.check("input[name=events][value='result.confirmed']")
    page.click("button:has-text('Add endpoint')")
    page.wait_for_selector("text=Enter a full URL")
    assert not WebhookEndpoint.objects.exists()

    page.fill("input[name=url]", receiver.url)
    page.check("input[name=events][value='result.confirmed']")
    page.click("button:has-text('Add endpoint')")
    secret = page.locator("#webhook-secret").input_value()
    endpoint = WebhookEndpoint.objects.get()
    assert secret == endpoint.secret and secret.startswith("whsec_")

    page.click("button:has-text('Send a test event')")
    page.wait_for_selector("text=Test event queued")
    (ping,) = receiver.wait_for(1)
    assert json.loads(ping.body)["type"] == "ping"
    attempt = page.locator("#delivery-log table.attempts tbody tr").first
    attempt.locator("td.status-code", has_text="200").wait_for()
    assert page.locator("#secret").count() == 0  # the secret is not shown again

    # A result confirmed at a table reaches the receiver, signed, and shows in the log.
    anna, bence = players[:2]
    series = make_series([anna, bence], game=GameKind.SNAPSZER, tournament=None)
    record_result(user=organiser, series_id=series.pk, game_number=1, result=snapszer_win(anna, bence))
    got = receiver.wait_for(2)[1]
    header = got.headers["Snapleague-Signature"]
    assert signing.verify(secret, header, got.body, now=int(header.split(",")[0][2:]))
    page.reload()
    page.locator("#delivery-log summary", has_text="Result confirmed").first.wait_for()
    assert WebhookDelivery.objects.filter(status="delivered").count() == 2

    # Redeliver the test event from its log entry.
    page.locator("details.delivery", has_text="Test event").locator("summary").click()
    page.locator("details.delivery", has_text="Test event").locator("button:has-text('Redeliver')").click()
    page.wait_for_selector("text=Delivery queued to be sent again")
    assert len(receiver.wait_for(3)) == 3
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], f"the page is {width} px wide"
    page.context.close()
