"""Notifications (issue 25 item 5, docs/notifications.md): one service, per-person preferences,
three channels (in-app, e-mail to a real SMTP server on loopback, Web Push to a push endpoint on
loopback that decrypts what it gets), delivered once per (event, person, channel)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from snapleague.users import Account
from tests.tournaments.accounts.smtp_server import SmtpServer
from tests.tournaments.integrations.webhook_receiver import Receiver
from tests.tournaments.notifications.push_endpoint import BrowserKeys, vapid_claims
from tournaments.accounts.models import AccountProfile, OutgoingMail
from tournaments.clubs import join_requests
from tournaments.competitions import registration as reg
from tournaments.competitions.services import tournament_create, tournament_players_enter
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Club, GameKind, Player, Series, Tournament
from tournaments.nights.services import session_create
from tournaments.notifications import senders, services
from tournaments.notifications.models import (
    Event,
    Notification,
    NotificationPreferences,
    PushDelivery,
    PushSubscription,
)
from tournaments.notifications.push import application_server_key
from tournaments.notifications.tasks import notifications_dispatch_task, push_delivery_send_task

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _vapid_key_of_this_test(settings: Any, tmp_path: Any) -> None:
    from tournaments.notifications.push import vapid

    settings.VAR_DIR = tmp_path
    vapid.cache_clear()


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run ``call`` and then what it left for after the commit (the dispatch, the sends)."""

    def run(call: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


@pytest.fixture
def _mail_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tournaments.accounts.mail.after_commit", lambda callback: callback())


def _person(make_user: Callable[..., Account], name: str, language: str = "") -> Account:
    user = make_user(name, email=f"{name}@example.org")
    AccountProfile.objects.create(user=user, language=language)
    return user


@pytest.fixture
def league(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> tuple[Tournament, list[Account]]:
    """A Snapszer league of four players, three with accounts (one reads Hungarian), one without."""
    tournament = tournament_create(user=organiser, club=club, name="Winter League", game=GameKind.SNAPSZER)
    people = [_person(make_user, "zoe"), _person(make_user, "bela", "hu"), _person(make_user, "ida")]
    names = ["Zoé", "Béla", "Ida"]
    players = [Player.objects.create(club=club, name=n, user=u) for n, u in zip(names, people, strict=True)]
    players.append(Player.objects.create(club=club, name="Walk-in"))
    tournament_players_enter(user=organiser, tournament=tournament, players=players)
    stage_create(user=organiser, tournament=tournament, name="League", format="swiss")
    return tournament, people


def _publish(organiser: Account, tournament: Tournament) -> Any:
    return stage_round_publish(user=organiser, stage_id=tournament.stages.get().pk)


def test_a_published_round_tells_each_seated_player_with_an_account_their_table_and_opponents(
    league: tuple[Tournament, list[Account]], organiser: Account
) -> None:
    tournament, people = league
    (round_,) = _publish(organiser, tournament)
    told = {n.user_id: n for n in Notification.objects.filter(event=Event.ROUND_PUBLISHED)}
    assert set(told) == {p.pk for p in people}  # the walk-in has no account: nobody to tell
    for person in people:
        n = told[person.pk]
        series = Series.objects.get(round=round_, seats__player__user=person)
        others = sorted(s.player.name for s in series.seats.all() if s.player.user_id != person.pk)
        assert n.params["table"] == series.table and sorted(n.params["opponents"]) == others
        assert n.params["round"] == 1 and n.url == f"/series/{series.pk}/"
    # Once per person and round: telling again makes nothing new.
    assert senders.round_published([round_.pk]) == 3
    assert Notification.objects.filter(event=Event.ROUND_PUBLISHED).count() == 3


def test_the_dispatch_mails_each_person_in_their_language_once_even_run_twice(
    league: tuple[Tournament, list[Account]],
    organiser: Account,
    smtp: SmtpServer,
    committed: Any,
    _mail_at_once: None,
    settings: Any,
) -> None:
    settings.SITE_URL = "https://club.example.org"
    tournament, people = league
    (round_,) = committed(lambda: _publish(organiser, tournament))
    assert {r.rcpt_tos[0] for r in smtp.received} == {p.email for p in people}
    by_to = {r.rcpt_tos[0]: r.message for r in smtp.received}
    assert by_to["zoe@example.org"]["Subject"] == "Round 1 of Winter League"
    hungarian = by_to["bela@example.org"]
    assert hungarian["Subject"] != "Round 1 of Winter League" and "Winter League" in hungarian["Subject"]
    body = by_to["zoe@example.org"].get_body(("plain",)).get_content()
    assert ("/series/" in body and "Walk-in" in body) or "Ida" in body or "Béla" in body
    assert by_to["zoe@example.org"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The task again (a retry, a duplicate): nothing more is queued or sent.
    committed(lambda: notifications_dispatch_task.delay(Event.ROUND_PUBLISHED, f"round:{round_.pk}"))
    assert len(smtp.received) == 3 and OutgoingMail.objects.count() == 3


def test_preferences_choose_the_channels_and_your_move_mails_only_when_asked(
    league: tuple[Tournament, list[Account]], organiser: Account, committed: Any, _mail_at_once: None
) -> None:
    tournament, (zoe, _bela, ida) = league
    services.preferences_set(user=zoe, enabled=[])  # everything off: in-app only
    committed(lambda: _publish(organiser, tournament))
    assert sorted(OutgoingMail.objects.values_list("to", flat=True)) == [
        "bela@example.org",
        "ida@example.org",
    ]
    assert Notification.objects.filter(user=zoe).count() == 1  # the list keeps it

    committed(lambda: senders.your_move(user_id=ida.pk, game_id=7, turn=1, opponents=["Béla"]))
    assert not OutgoingMail.objects.filter(to="ida@example.org", subject__contains="move").exists()
    services.preferences_set(user=ida, enabled=[f"{Event.YOUR_MOVE}:email"])
    committed(lambda: senders.your_move(user_id=ida.pk, game_id=7, turn=2, opponents=["Béla"]))
    assert OutgoingMail.objects.filter(to="ida@example.org", subject="Your move against Béla").count() == 1


def test_a_preference_that_is_no_switch_is_refused_with_a_field_error(player_user: Account) -> None:
    from snapleague.errors import ApplicationError

    with pytest.raises(ApplicationError) as caught:
        services.preferences_set(user=player_user, enabled=["round_published:pigeon"])
    assert "enabled" in caught.value.fields
    assert not NotificationPreferences.objects.exists()


def test_the_one_click_unsubscription_turns_that_mail_off_without_a_log_in(
    league: tuple[Tournament, list[Account]], client: Client
) -> None:
    _tournament, (zoe, _bela, _ida) = league
    token = services.unsubscribe_token(zoe.pk, Event.ROUND_PUBLISHED)
    page = client.get(f"/notifications/unsubscribe/{token}/")
    assert page.status_code == 200 and not NotificationPreferences.objects.exists()  # a GET changes nothing
    answer = client.post(f"/notifications/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    prefs = NotificationPreferences.objects.get(user=zoe)
    assert not services.wants(prefs, Event.ROUND_PUBLISHED, "email")
    assert services.wants(prefs, Event.CHECK_IN_OPEN, "email")
    assert client.post(f"/notifications/unsubscribe/{token[:-2]}xx/").status_code == 404


def _subscribe(user: Account, receiver: Receiver, keys: BrowserKeys, path: str = "") -> PushSubscription:
    info = keys.subscription(receiver.url + path)
    return services.push_subscribe(
        user=user, endpoint=info["endpoint"], p256dh=info["keys"]["p256dh"], auth=info["keys"]["auth"]
    )


def test_a_push_reaches_the_endpoint_encrypted_to_the_subscription_and_signed_once(
    league: tuple[Tournament, list[Account]],
    organiser: Account,
    receiver: Receiver,
    committed: Any,
    settings: Any,
) -> None:
    tournament, (zoe, _bela, _ida) = league
    keys = BrowserKeys()
    _subscribe(zoe, receiver, keys)
    committed(lambda: _publish(organiser, tournament))
    (got,) = receiver.wait_for(1)
    message = keys.decrypt(got.body)  # RFC 8291: only this subscription's keys open it
    series = Series.objects.get(seats__player__user=zoe)
    assert message["title"] == "Round 1 of Winter League"
    assert f"table {series.table}" in message["body"] and message["url"] == f"/series/{series.pk}/"
    claims = vapid_claims(got.headers, application_server_key())
    assert claims["aud"] == receiver.url.split("/hooks")[0] and claims["sub"] == settings.VAPID_SUBJECT
    headers = {k.lower(): v for k, v in got.headers.items()}
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    # The delivery's task again: nothing more is pushed.
    delivery = PushDelivery.objects.get()
    assert push_delivery_send_task.delay(delivery.pk).get() == PushDelivery.Status.SENT
    assert len(receiver.wait_for(2, timeout=0.5)) == 1


def test_a_revoked_subscription_is_dropped_on_the_first_410_and_a_failure_waits_to_retry(
    league: tuple[Tournament, list[Account]], organiser: Account, receiver: Receiver, committed: Any
) -> None:
    tournament, (zoe, bela, _ida) = league
    _subscribe(zoe, receiver, BrowserKeys(), "/zoe")
    _subscribe(bela, receiver, BrowserKeys(), "/bela")
    receiver.answers = [(410, 0.0), (500, 0.0)]
    committed(lambda: _publish(organiser, tournament))
    assert len(receiver.wait_for(2)) == 2
    gone, failed = sorted(PushDelivery.objects.all(), key=lambda d: d.status)[::-1]
    assert not PushSubscription.objects.filter(endpoint__endswith=receiver.received[0].path).exists()
    assert PushSubscription.objects.count() == 1
    assert {gone.status, failed.status} == {PushDelivery.Status.GONE, PushDelivery.Status.QUEUED}
    retry = services.push_delivery_send(delivery_id=failed.pk if failed.status == "queued" else gone.pk)
    assert retry.retry_in is not None and retry.retry_in > 0


def test_registration_and_its_waiting_list_tell_the_person(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    cup = tournament_create(user=organiser, club=club, name="Spring Open", game=GameKind.SNAPSZER)
    now = timezone.now()
    reg.registration_window_set(
        user=organiser,
        tournament=cup,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        cap=1,
        waiting_list=True,
    )
    first, second = make_user("first"), make_user("second")
    reg.registration_create(user=first, tournament=cup)
    reg.registration_create(user=second, tournament=cup)
    assert list(Notification.objects.values_list("user__username", "event")) == [
        ("first", Event.REGISTRATION_ACCEPTED)
    ]
    reg.registration_withdraw(user=first, tournament=cup)
    moved = Notification.objects.get(user=second)
    assert moved.event == Event.MOVED_UP and moved.url == f"/tournaments/{cup.pk}/registration/"


def test_a_new_session_and_a_reopened_check_in_tell_the_entrants(
    league: tuple[Tournament, list[Account]], organiser: Account
) -> None:
    tournament, people = league
    session = session_create(
        user=organiser, tournament=tournament, name="Friday", starts_at=timezone.now() + timedelta(days=2)
    )
    told = Notification.objects.filter(event=Event.CHECK_IN_OPEN)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(p.pk for p in people)
    assert told.first().url == f"/sessions/{session.pk}/"


def test_a_join_request_decided_tells_the_person(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    join_requests.club_join_requests_set(user=organiser, club=club, open_=True)
    person = make_user("newcomer")
    request = join_requests.join_request_create(user=person, club=club)
    join_requests.join_request_refuse(
        user=organiser, request_id=request.pk, reason="Members only on Fridays."
    )
    n = Notification.objects.get(user=person)
    assert n.event == Event.JOIN_DECIDED and n.params["approved"] is False
    assert n.params["reason"] == "Members only on Fridays."


def test_the_list_the_header_count_and_opening_one_marks_it_read(
    league: tuple[Tournament, list[Account]],
    organiser: Account,
    client: Client,
    make_user: Callable[..., Account],
) -> None:
    tournament, (zoe, _bela, _ida) = league
    _publish(organiser, tournament)
    client.force_login(zoe)
    page = client.get("/notifications/")
    html = page.content.decode()
    assert page.status_code == 200 and "Round 1 of Winter League" in html
    assert 'id="unread-count"' in html and ">1</span>" in html
    n = Notification.objects.get(user=zoe)
    opened = client.get(f"/notifications/{n.pk}/")
    assert opened.status_code == 302 and opened["Location"] == n.url
    n.refresh_from_db()
    assert n.read_at is not None
    assert 'id="unread-count"' not in client.get("/notifications/").content.decode()
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/notifications/{n.pk}/").status_code == 404


def test_settings_page_saves_the_switches(player_user: Account, client: Client) -> None:
    client.force_login(player_user)
    page = client.get("/notifications/settings/")
    assert page.status_code == 200 and 'value="round_published:email" checked' in page.content.decode()
    saved = client.post("/notifications/settings/", {"enabled": ["round_published:push"]})
    assert saved.status_code == 302
    prefs = NotificationPreferences.objects.get(user=player_user)
    assert not services.wants(prefs, Event.ROUND_PUBLISHED, "email")
    assert services.wants(prefs, Event.ROUND_PUBLISHED, "push")
    bad = client.post("/notifications/settings/", {"enabled": ["nonsense"]})
    assert bad.status_code == 400 and "field-errors" in bad.content.decode()


def test_a_push_subscription_is_kept_refused_with_field_errors_and_forgotten(
    player_user: Account, client: Client
) -> None:
    client.force_login(player_user)
    url = "/notifications/push/subscription/"
    keys = BrowserKeys()
    good = keys.subscription("https://push.example.net/send/abc")
    assert client.post(url, good, content_type="application/json").status_code == 201
    assert client.post(url, good, content_type="application/json").status_code == 201  # the same: kept once
    assert PushSubscription.objects.get().user == player_user
    bad = client.post(
        url, {"endpoint": "ftp://x", "keys": {"p256dh": "!!", "auth": ""}}, content_type="application/json"
    )
    assert bad.status_code == 400 and set(bad.json()["fields"]) == {"endpoint", "p256dh", "auth"}
    assert client.post(url, "not json", content_type="application/json").status_code == 400
    assert client.delete(url, good, content_type="application/json").status_code == 204
    assert not PushSubscription.objects.exists()


def test_the_sites_one_service_worker_shows_pushes(client: Client) -> None:
    """One registration per scope: the pushes are handled by the record form's worker at the root."""
    answer = client.get("/record-sw.js")
    assert answer.status_code == 200 and answer["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in answer.content and b'addEventListener("push"' in answer.content


def test_the_vapid_key_is_made_once_and_kept(settings: Any) -> None:
    from tournaments.notifications.push import vapid

    first = application_server_key()
    vapid.cache_clear()
    assert application_server_key() == first  # read back from var/, not made again
    assert (settings.VAR_DIR / "vapid_private.pem").exists()
