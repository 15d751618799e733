"""The newcomer's whole way in (issue 25, "Done when"), by clicking only: sign up from a claim link,
open the confirmation mail from /outbox/, confirm, claim, register for the open tournament, turn
pushes on; when round 1 is published, the header counts the notification, the list names their
table, and the same notification arrives as a Web Push at a push endpoint on loopback, which
decrypts it with the subscription's keys (RFC 8291) and checks the VAPID signature (RFC 8292).

No push service can be reached from here, so the browser's ``PushManager`` hands the page a
subscription whose endpoint is the loopback one and whose keys the test holds; everything else (the
service worker's registration, the permission, the page's script, the server's encryption and
delivery) is the real thing."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from snapleague.mail import OUTBOX_BACKEND
from tests.browser import BROWSER_TEST, on_phone_and_desktop
from tests.tournaments.integrations.webhook_receiver import Receiver
from tests.tournaments.notifications.push_endpoint import BrowserKeys, unb64url, vapid_claims
from tournaments.clubs.services import player_claim_create
from tournaments.competitions.registration import registration_window_set
from tournaments.competitions.services import tournament_create, tournament_players_enter
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Club, GameKind, Player, Series
from tournaments.notifications.push import application_server_key, vapid

pytestmark = BROWSER_TEST

FAKE_PUSH_MANAGER = """
(() => {
  const sub = %s;
  let current = null;
  const subscription = {
    endpoint: sub.endpoint,
    toJSON() { return sub; },
    unsubscribe: async () => { current = null; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    window.__applicationServerKey = Array.from(new Uint8Array(options.applicationServerKey));
    current = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_newcomer_signs_up_registers_and_is_told_their_table_in_the_app_and_by_push(  # noqa: PLR0917
    browser: Any,
    server: str,
    club: Club,
    settings: Any,
    tmp_path: Path,
    receiver: Receiver,
    device: dict[str, Any],
) -> None:
    settings.OUTBOX_DIR = tmp_path
    settings.OUTBOX_PAGE = True
    settings.MAILERS = {"default": {"BACKEND": OUTBOX_BACKEND, "OPTIONS": {"folder": str(tmp_path)}}}
    settings.VAR_DIR = tmp_path
    vapid.cache_clear()
    organiser = club.organisers.get()
    zoe = Player.objects.create(club=club, name="Zoé Hatvan")
    _claim, token = player_claim_create(user=organiser, player_id=zoe.pk)
    cup = tournament_create(user=organiser, club=club, name="Spring Open", game=GameKind.SNAPSZER)
    tournament_players_enter(user=organiser, tournament=cup, new_names=["Ágnes", "Bori", "Cili"])
    stage = stage_create(user=organiser, tournament=cup, name="Swiss", format="swiss")
    now = timezone.now()
    registration_window_set(
        user=organiser,
        tournament=cup,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        cap=8,
    )
    keys = BrowserKeys()

    context = browser.new_context(**device)
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=server)
    context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(keys.subscription(receiver.url)))
    page = context.new_page()
    # Sign up from the claim link, confirm from the outbox, land on the claim and take it.
    page.goto(f"{server}/claims/{token}/")
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.click("#create-account")
    page.fill("input[name=email]", "zoe@example.org")
    page.fill("input[name=password1]", "a-long-Passphrase-42")
    page.fill("input[name=display_name]", "Zoé")
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
    page.goto(f"{server}/outbox/")
    page.locator("#outbox a").first.click()
    page.locator("#mail-text a[href*='/accounts/confirm-email/']").click()
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/claims/{re.escape(token)}/$"))
    page.click("#accept-claim button")
    page.wait_for_url(re.compile(r"/me/$"))
    # Register for the open tournament from the club page.
    page.goto(f"{server}/clubs/{club.slug}/")
    page.click("#open-registrations a")
    page.click("#register")
    page.get_by_text("You are registered.").wait_for()
    # Turn pushes on for this device.
    page.click("#notifications-link")
    page.click("#notification-settings-link")
    page.click("#push-on")
    page.get_by_text("Pushes are on for this device.").wait_for()
    assert bytes(page.evaluate("window.__applicationServerKey")) == unb64url(application_server_key())
    assert page.locator("#unread-count").count() == 0 or page.locator("#unread-count").inner_text() == "1"

    # The organiser publishes round 1.
    stage_round_publish(user=organiser, stage_id=stage.pk)
    series = Series.objects.get(stage=stage, seats__player=zoe)
    opponent = series.seats.exclude(player=zoe).get().player.name

    page.reload()
    counted = page.locator("#unread-count")
    assert int(counted.inner_text()) >= 1  # the round (and the registration, already read or not)
    page.click("#notifications-link")
    item = page.locator("#notifications li[data-event=round_published]")
    assert "Round 1 of Spring Open" in item.inner_text()
    assert f"table {series.table}" in item.inner_text() and opponent in item.inner_text()
    item.locator("a").click()
    page.wait_for_url(re.compile(rf"/series/{series.pk}/$"))
    context.close()

    # The same notification, pushed: encrypted to this subscription, signed with the server's key.
    pushed = [keys.decrypt(r.body) for r in receiver.wait_for(2)]
    (round_push,) = [p for p in pushed if p["title"] == "Round 1 of Spring Open"]
    assert f"table {series.table}" in round_push["body"] and opponent in round_push["body"]
    assert round_push["url"] == f"/series/{series.pk}/"
    assert vapid_claims(receiver.received[-1].headers, application_server_key())["aud"].startswith(
        "http://127.0.0.1:"
    )
