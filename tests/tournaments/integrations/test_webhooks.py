"""Outbound webhooks: the signature (checked by an independent recomputation), the retry
schedule, which URLs may be registered, the outbox written in the transaction of what happened,
and signed events reaching a real local HTTP receiver through the Celery task (eager here)."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import socket
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import transaction
from django.utils import timezone

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from tests.conftest import play_open_series, record_result, snapszer_win
from tests.tournaments.integrations.webhook_receiver import Receiver
from tournaments.competitions.stages.advance import stage_advance
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.integrations.webhooks import signing, targets
from tournaments.integrations.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from tournaments.integrations.webhooks.schedule import retry_bounds, retry_delay
from tournaments.integrations.webhooks.services import (
    webhook_delivery_attempt,
    webhook_delivery_redeliver,
    webhook_endpoint_create,
    webhook_endpoint_secret_regenerate,
    webhook_endpoint_test,
    webhook_endpoint_update,
)
from tournaments.models import Club, Player, Series, Tournament
from tournaments.tasks import webhook_deliveries_reconcile_task, webhook_delivery_send_task

pytestmark = pytest.mark.django_db

ALL_EVENTS = ["result.confirmed", "round.published", "tournament.finished"]


@pytest.fixture
def local_network(settings: Any) -> Any:
    """Deliveries may go to 127.0.0.1 (the receiver); short timeouts and waits."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    settings.WEBHOOK_RETRY_BASE_SECONDS = 10
    settings.WEBHOOK_RETRY_MAX_SECONDS = 60
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    return settings


@pytest.fixture
def production_network(settings: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Production's rule (public addresses only), with a DNS the test controls."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    dns = {"hooks.example.com": ["93.184.216.34"], "sneaky.example.com": ["93.184.216.34", "10.0.0.7"]}

    def resolve(host: str, port: int) -> list[str]:
        if host not in dns:
            raise socket.gaierror("Name or service not known")
        return dns[host]

    monkeypatch.setattr(targets, "resolve", resolve)
    return dns


def _recompute(secret: str, header: str, body: bytes) -> tuple[int, str, str]:
    """The check docs/webhooks.md tells receivers to make, written out again here."""
    parts = dict(part.split("=", 1) for part in header.split(","))
    timestamp = parts["t"]
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return int(timestamp), parts["v1"], expected


# --- Signing, schedule, URLs (no database needed, but cheap) ----------------------------------------


def test_the_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    secret, body = signing.new_secret(), b'{"id":"x","type":"ping"}'
    header = signing.signature_header(secret, 1_800_000_000, body)
    timestamp, sent, expected = _recompute(secret, header, body)
    assert timestamp == 1_800_000_000 and sent == expected and len(sent) == 64
    assert signing.verify(secret, header, body, now=1_800_000_100)
    assert not signing.verify(secret, header, body + b" ", now=1_800_000_100)  # altered body
    assert not signing.verify(signing.new_secret(), header, body, now=1_800_000_100)  # other secret
    assert not signing.verify(secret, header, body, now=1_800_000_000 + 301)  # too old: a replay
    assert not signing.verify(secret, "v1=" + sent, body, now=1_800_000_000)  # no timestamp
    assert secret.startswith("whsec_") and secret != signing.new_secret()


def test_retry_waits_double_from_the_base_up_to_the_cap_with_jitter() -> None:
    rng = random.Random(7)
    base, cap = 30.0, 600.0
    for attempt in range(1, 12):
        low, high = retry_bounds(attempt, base=base, cap=cap)
        assert high == min(cap, base * 2 ** (attempt - 1)) and low == high / 2
        waits = {retry_delay(attempt, base=base, cap=cap, rng=rng) for _ in range(50)}
        assert all(low <= w <= high for w in waits)
        assert len(waits) > 40  # jitter: deliveries that failed together do not come back together
    assert retry_bounds(2, base=base, cap=cap)[0] > retry_bounds(1, base=base, cap=cap)[0]
    with pytest.raises(ValueError):
        retry_delay(0, base=base, cap=cap, rng=rng)


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://hooks.example.com/snapleague", True),
        ("https://hooks.example.com:8443/in?club=1", True),
        ("https://not-yet-in-dns.example.org/hook", True),  # each attempt checks again
        ("http://hooks.example.com/snapleague", False),  # not encrypted
        ("https://127.0.0.1/hook", False),
        ("https://localhost/hook", False),
        ("https://10.1.2.3/hook", False),
        ("https://169.254.169.254/latest/meta-data", False),  # a cloud's metadata service
        ("https://[::1]/hook", False),
        ("https://[::ffff:192.168.0.1]/hook", False),
        ("https://sneaky.example.com/hook", False),  # one of its addresses is private
        ("https://printer.local/hook", False),
        ("https://user:pw@hooks.example.com/hook", False),
        ("ftp://hooks.example.com/hook", False),
        ("hooks.example.com/hook", False),
        ("https://", False),
        ("https://hooks.example.com/" + "x" * 500, False),
    ],
)
def test_production_accepts_public_https_urls_only(production_network: Any, url: str, allowed: bool) -> None:
    if allowed:
        assert targets.url_check(url) == url
    else:
        with pytest.raises(targets.TargetRefused):
            targets.url_check(url)


def test_an_attempt_never_connects_to_a_private_address_the_name_resolves_to_later(
    production_network: dict[str, list[str]],
) -> None:
    """DNS rebinding: saved while public, the name now answers a private address."""
    assert targets.target_for("https://hooks.example.com/x").address == "93.184.216.34"
    production_network["hooks.example.com"] = ["127.0.0.1"]
    with pytest.raises(targets.TargetRefused):
        targets.target_for("https://hooks.example.com/x")
    with pytest.raises(targets.TargetRefused):
        targets.target_for("https://gone.example.com/x")  # does not resolve


def test_local_development_allows_http_and_loopback(local_network: Any) -> None:
    assert targets.url_check("http://127.0.0.1:9000/hook") == "http://127.0.0.1:9000/hook"
    assert targets.target_for("http://localhost:9000/hook").address in ("127.0.0.1", "::1")


# --- Endpoints ----------------------------------------------------------------------------------------


def test_an_organiser_registers_an_endpoint_and_sees_its_secret_once(
    club: Club, organiser: Any, production_network: Any
) -> None:
    endpoint, secret = webhook_endpoint_create(
        user=organiser, club=club, url=" https://hooks.example.com/in ", events=["round.published"]
    )
    assert endpoint.url == "https://hooks.example.com/in" and endpoint.events == ["round.published"]
    assert endpoint.secret == secret and endpoint.active
    _, new = webhook_endpoint_secret_regenerate(user=organiser, endpoint_id=endpoint.pk)
    assert new != secret and WebhookEndpoint.objects.get(pk=endpoint.pk).secret == new


def test_bad_endpoint_input_names_each_field_and_saves_nothing(
    club: Club, organiser: Any, referee: Any, production_network: Any
) -> None:
    with pytest.raises(ApplicationError) as exc:
        webhook_endpoint_create(
            user=organiser, club=club, url="http://10.0.0.1/x", events=["result.confirmed", "nonsense"]
        )
    assert set(exc.value.fields) == {"url", "events"} and exc.value.status == 400
    with pytest.raises(ApplicationError) as exc:
        webhook_endpoint_create(user=organiser, club=club, url="https://hooks.example.com/", events=[])
    assert set(exc.value.fields) == {"events"}
    with pytest.raises(PermissionDenied):
        webhook_endpoint_create(
            user=referee, club=club, url="https://hooks.example.com/", events=["round.published"]
        )
    assert not WebhookEndpoint.objects.exists()
    endpoint, _ = webhook_endpoint_create(
        user=organiser, club=club, url="https://hooks.example.com/", events=["round.published"]
    )
    with pytest.raises(ApplicationError):
        webhook_endpoint_update(
            user=organiser, endpoint_id=endpoint.pk, url="https://127.0.0.1/", active=False
        )
    endpoint.refresh_from_db()
    assert endpoint.url == "https://hooks.example.com/" and endpoint.active  # nothing half-written


# --- The outbox -----------------------------------------------------------------------------------------


def _endpoint(club: Club, organiser: Any, url: str, events: list[str] | None = None) -> WebhookEndpoint:
    endpoint, _ = webhook_endpoint_create(user=organiser, club=club, url=url, events=events or ALL_EVENTS)
    return endpoint


def test_the_delivery_is_written_with_the_result_and_rolled_back_with_it(  # noqa: PLR0917
    make_series: Callable[..., Series],
    players: list[Player],
    club: Club,
    organiser: Any,
    referee: Any,
    local_network: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    endpoint = _endpoint(club, organiser, "http://127.0.0.1:9/never-called", ["result.confirmed"])
    anna, bence = players[:2]
    series = make_series([anna, bence], game="snapszer")
    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(anna, bence))
        assert WebhookDelivery.objects.count() == 1  # inside the transaction, beside the result
        raise RuntimeError("the request failed after the write")
    assert not WebhookDelivery.objects.exists() and not series.games.exists()
    assert callbacks == []  # nothing is sent for what was rolled back

    with django_capture_on_commit_callbacks() as callbacks:
        record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(anna, bence))
    delivery = WebhookDelivery.objects.get()
    assert delivery.endpoint == endpoint and delivery.status == "pending" and delivery.attempts == 0
    assert len(callbacks) >= 2  # the standings, and the delivery, after the commit
    body = json.loads(delivery.body)
    assert body["id"] == str(delivery.event_id) and body["type"] == "result.confirmed"
    data = body["data"]
    assert data["series"]["id"] == series.pk and data["game"]["number"] == 1
    assert data["result"]["placings"] == {str(anna.pk): 1, str(bence.pk): 2}
    assert data["result"]["game_points"] == {str(anna.pk): 7, str(bence.pk): 3}
    assert [p["name"] for p in data["series"]["players"]] == ["Anna", "Bence"]


def test_events_go_to_the_active_endpoints_of_the_club_that_chose_them(  # noqa: PLR0917
    make_series: Callable[..., Series],
    players: list[Player],
    club: Club,
    organiser: Any,
    referee: Any,
    make_user: Callable[..., Any],
    local_network: Any,
) -> None:
    wants = _endpoint(club, organiser, "http://127.0.0.1:9/a", ["result.confirmed"])
    _endpoint(club, organiser, "http://127.0.0.1:9/b", ["round.published"])
    off = _endpoint(club, organiser, "http://127.0.0.1:9/c")
    webhook_endpoint_update(user=organiser, endpoint_id=off.pk, active=False)
    elsewhere_organiser = make_user("elsewhere")
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    elsewhere.organisers.add(elsewhere_organiser)
    _endpoint(elsewhere, elsewhere_organiser, "http://127.0.0.1:9/d")
    anna, bence = players[:2]
    series = make_series([anna, bence], game="snapszer")
    record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(anna, bence))
    assert list(WebhookDelivery.objects.values_list("endpoint", flat=True)) == [wants.pk]


def test_a_tournament_tells_of_its_rounds_results_and_end(
    cup: Callable[..., Tournament], club: Club, organiser: Any, referee: Any, local_network: Any
) -> None:
    _endpoint(club, organiser, "http://127.0.0.1:9/all")
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="League", format="round_robin")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    for _round in range(3):
        play_open_series(stage.pk, organiser)
        stage_advance(stage_id=stage.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    events = list(WebhookDelivery.objects.order_by("pk").values_list("event", flat=True))
    assert events.count("tournament.finished") == 1 and events[-1] == "tournament.finished"
    assert events.count("round.published") == 1  # a round robin publishes every round at once
    assert events.count("result.confirmed") == 6 * 2  # six series, each won 2-0
    published = json.loads(WebhookDelivery.objects.filter(event="round.published").get().body)["data"]
    assert [r["number"] for r in published["rounds"]] == [1, 2, 3]
    assert all(len(r["series"]) == 2 for r in published["rounds"])
    finished = json.loads(WebhookDelivery.objects.filter(event="tournament.finished").get().body)["data"]
    assert finished["tournament"]["status"] == "finished" and finished["stages"][0]["status"] == "finished"
    stage_advance(stage_id=stage.pk)  # again: nothing new
    assert WebhookDelivery.objects.filter(event="tournament.finished").count() == 1


# --- Sending to a real receiver ----------------------------------------------------------------------------


def test_a_signed_event_reaches_a_local_receiver_through_the_task(  # noqa: PLR0917
    make_series: Callable[..., Series],
    players: list[Player],
    club: Club,
    organiser: Any,
    referee: Any,
    local_network: Any,
    receiver: Receiver,
    django_capture_on_commit_callbacks: Any,
) -> None:
    endpoint = _endpoint(club, organiser, receiver.url, ["result.confirmed"])
    anna, bence = players[:2]
    series = make_series([anna, bence], game="snapszer")
    with django_capture_on_commit_callbacks(execute=True):
        record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(bence, anna))
    (got,) = receiver.wait_for(1)
    delivery = WebhookDelivery.objects.get()
    assert got.path == "/hooks/snapleague" and got.body == delivery.body.encode()
    timestamp, sent, expected = _recompute(endpoint.secret, got.headers["Snapleague-Signature"], got.body)
    assert sent == expected and abs(timestamp - timezone.now().timestamp()) < 120
    assert got.headers["Snapleague-Event-Id"] == str(delivery.event_id) == json.loads(got.body)["id"]
    assert got.headers["Snapleague-Event"] == "result.confirmed"
    assert got.headers["Content-Type"].startswith("application/json")
    assert delivery.status == "delivered" and delivery.delivered_at is not None
    attempt = delivery.attempt_log.get()
    assert (attempt.number, attempt.status_code, attempt.failure, attempt.response_excerpt) == (
        1,
        200,
        "",
        "thanks",
    )
    # Safe to run twice: a delivered event is not posted again.
    assert webhook_delivery_send_task.delay(delivery.pk).get() == "skipped"
    assert len(receiver.wait_for(1)) == 1 and delivery.attempt_log.count() == 1


def _due_now(delivery: WebhookDelivery) -> None:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now() - timedelta(seconds=1)
    )


def test_an_endpoint_that_fails_is_retried_with_backoff_then_marked_failed(
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
    django_capture_on_commit_callbacks: Any,
) -> None:
    receiver.answers = [(500, 0.0)]
    endpoint = _endpoint(club, organiser, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    first = delivery.attempt_log.get()
    assert (delivery.status, delivery.attempts, first.status_code, first.failure) == (
        "pending",
        1,
        500,
        "status",
    )
    low, high = retry_bounds(1, base=10, cap=60)
    wait = (delivery.next_attempt_at - first.started_at).total_seconds()
    assert low - 1 <= wait <= high + 1 and first.next_attempt_at == delivery.next_attempt_at
    # Not due yet: a second run of the task (a duplicate message) sends nothing.
    assert webhook_delivery_attempt(delivery_id=delivery.pk).status == "skipped"
    for number in (2, 3):
        _due_now(delivery)
        outcome = webhook_delivery_attempt(delivery_id=delivery.pk)
        assert outcome.attempt is not None and outcome.attempt.number == number
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.next_attempt_at is None and delivery.attempts == 3
    assert len(receiver.wait_for(3)) == 3
    _due_now_failed = webhook_delivery_attempt(delivery_id=delivery.pk)
    assert _due_now_failed.status == "skipped" and len(receiver.received) == 3

    # Redelivered by the organiser: the same event, a new run of attempts.
    receiver.answers = [(204, 0.0)]
    receiver.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        webhook_delivery_redeliver(user=organiser, delivery_id=delivery.pk)
    (got,) = receiver.wait_for(1)
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and got.headers["Snapleague-Event-Id"] == str(delivery.event_id)
    last = delivery.attempt_log.order_by("-number").first()
    assert last is not None and (last.number, last.status_code, last.manual) == (4, 204, True)
    with pytest.raises(Conflict):  # sent again while waiting: refused
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status="pending", next_attempt_at=timezone.now()
        )
        webhook_delivery_redeliver(user=organiser, delivery_id=delivery.pk)


def test_the_task_asks_celery_to_retry_after_the_recorded_wait(
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    receiver.answers = [(503, 0.0)]
    endpoint = _endpoint(club, organiser, receiver.url)
    delivery = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)  # on_commit not run
    asked: list[float] = []

    def retry(*, countdown: float, **_kw: Any) -> Retry:
        asked.append(countdown)
        return Retry(when=countdown)

    monkeypatch.setattr(webhook_delivery_send_task, "retry", retry)
    with pytest.raises(Retry):
        webhook_delivery_send_task.run(delivery.pk)  # as a worker runs it (not eager)
    delivery.refresh_from_db()
    (countdown,) = asked
    assert 5 <= countdown <= 10
    assert delivery.next_attempt_at is not None
    assert abs((delivery.next_attempt_at - timezone.now()).total_seconds() - countdown) < 5


@pytest.mark.parametrize("trouble", ["timeout", "refused"])
def test_an_endpoint_that_does_not_answer_is_a_logged_retry(  # noqa: PLR0917
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
    trouble: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    if trouble == "timeout":
        receiver.answers = [(200, 2.0)]  # answers after the 0.5 s timeout
        url = receiver.url
    else:
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/hook"  # bound, not listening
    endpoint = _endpoint(club, organiser, url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    attempt = delivery.attempt_log.get()
    assert delivery.status == "pending" and delivery.next_attempt_at is not None
    assert attempt.status_code is None and attempt.failure == trouble.replace("refused", "connection")
    assert attempt.error


def test_two_senders_at_once_post_once(
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
) -> None:
    endpoint = _endpoint(club, organiser, receiver.url)
    delivery = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)
    # Another sender holds it (it claimed it and is posting now).
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        claimed_until=timezone.now() + timedelta(seconds=30)
    )
    assert webhook_delivery_attempt(delivery_id=delivery.pk).status == "skipped"
    assert receiver.received == []
    # Its claim expired (it died while posting): the delivery is posted again, at least once.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert webhook_delivery_attempt(delivery_id=delivery.pk).status == "delivered"
    assert len(receiver.wait_for(1)) == 1


def test_beat_sends_the_deliveries_whose_message_was_lost(
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
    settings: Any,
) -> None:
    settings.WEBHOOK_RECONCILE_SECONDS = 60
    endpoint = _endpoint(club, organiser, receiver.url)
    lost = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)  # its message never sent
    recent = webhook_endpoint_test(user=organiser, endpoint_id=endpoint.pk)
    WebhookDelivery.objects.filter(pk=lost.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=5))
    assert webhook_deliveries_reconcile_task.delay().get() == [lost.pk]
    (got,) = receiver.wait_for(1)
    assert got.headers["Snapleague-Delivery"] == str(lost.pk)
    assert WebhookDelivery.objects.get(pk=recent.pk).status == "pending"


def test_a_switched_off_endpoint_gets_nothing(
    club: Club,
    organiser: Any,
    local_network: Any,
    receiver: Receiver,
) -> None:
    endpoint = _endpoint(club, organiser, receiver.url)
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, event="round.published", body="{}", next_attempt_at=timezone.now()
    )
    webhook_endpoint_update(user=organiser, endpoint_id=endpoint.pk, active=False)
    assert webhook_delivery_attempt(delivery_id=delivery.pk).status == "failed"
    assert receiver.received == []
    assert WebhookAttempt.objects.get(delivery=delivery).failure == "inactive"


# --- Pages and API ------------------------------------------------------------------------------------------


def test_the_pages_register_an_endpoint_show_the_secret_once_and_refuse_bad_input(
    club: Club, organiser: Any, client: Any, production_network: Any
) -> None:
    client.force_login(organiser)
    bad = client.post(f"/clubs/{club.slug}/webhooks/", {"url": "https://10.0.0.1/x", "events": ["nope"]})
    assert bad.status_code == 400 and not WebhookEndpoint.objects.exists()
    assert (
        "private or local network" in bad.content.decode()
        or "not one of the available" in bad.content.decode()
    )
    bad = client.post(f"/clubs/{club.slug}/webhooks/", {"url": "http://[::1", "events": ["round.published"]})
    assert bad.status_code == 400 and "Enter a full URL" in bad.content.decode()
    made = client.post(
        f"/clubs/{club.slug}/webhooks/",
        {"url": "https://hooks.example.com/in", "events": ["round.published"]},
    )
    endpoint = WebhookEndpoint.objects.get()
    assert made.status_code == 200 and endpoint.secret in made.content.decode()
    again = client.get(f"/webhooks/{endpoint.pk}/")
    assert again.status_code == 200 and endpoint.secret not in again.content.decode()
    assert "Delivery log" in again.content.decode()


def test_the_api_registers_tests_and_lists_deliveries(  # noqa: PLR0917
    club: Club,
    organiser: Any,
    client: Any,
    local_network: Any,
    receiver: Receiver,
    django_capture_on_commit_callbacks: Any,
) -> None:
    client.force_login(organiser)
    made = client.post(
        f"/api/clubs/{club.pk}/webhooks/",
        {"url": receiver.url, "events": ["result.confirmed"]},
        content_type="application/json",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["secret"].startswith("whsec_")
    shown = client.get(f"/api/webhooks/{body['id']}/").json()
    assert "secret" not in shown and shown["events"] == ["result.confirmed"]
    bad = client.patch(f"/api/webhooks/{body['id']}/", {"url": "nonsense"}, content_type="application/json")
    assert bad.status_code == 400 and set(bad.json()["fields"]) == {"url"}
    with django_capture_on_commit_callbacks(execute=True):
        tested = client.post(f"/api/webhooks/{body['id']}/test/")
    assert tested.status_code == 201 and tested.json()["event"] == "ping"
    log = client.get(f"/api/webhooks/{body['id']}/deliveries/").json()
    assert log[0]["status"] == "delivered" and log[0]["attempt_log"][0]["status_code"] == 200
    assert log[0]["payload"]["type"] == "ping"
    (got,) = receiver.wait_for(1)
    _t, sent, expected = _recompute(body["secret"], got.headers["Snapleague-Signature"], got.body)
    assert sent == expected
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(f"/api/webhook-deliveries/{log[0]['id']}/redeliver/")
    assert again.status_code == 202 and len(receiver.wait_for(2)) == 2
