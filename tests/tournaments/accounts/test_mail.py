"""Mail: EMAIL_URL, the outbox, and sending through a real SMTP server on loopback — once, in the
recipient's language, with a plain-text part, retried when the server is away (docs/accounts.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core import mail as django_mail
from django.test import Client, override_settings

from snapleague.mail import OUTBOX_BACKEND, SMTP_BACKEND, email_settings, outbox_get, outbox_list
from tests.tournaments.accounts.smtp_server import SmtpServer, self_signed, smtp_mailers
from tournaments.accounts.mail import mail_key, mail_queue, mail_send
from tournaments.accounts.models import OutgoingMail
from tournaments.accounts.tasks import mail_send_task

pytestmark = pytest.mark.django_db


def options(url: str) -> dict[str, Any]:
    config = email_settings(url, Path("/tmp/outbox"))["MAILERS"]["default"]
    assert config["BACKEND"] == SMTP_BACKEND
    return dict(config["OPTIONS"])


def test_email_url_names_the_smtp_server() -> None:
    assert options("smtp://me%40club.org:p%2Fss@mail.example.org") == {
        "host": "mail.example.org",
        "port": 587,
        "username": "me@club.org",
        "password": "p/ss",
        "use_ssl": False,
        "use_tls": True,  # submission: STARTTLS
        "timeout": 10.0,
    }
    assert options("smtps://u:p@mail.example.org")["port"] == 465
    assert options("smtps://u:p@mail.example.org")["use_ssl"] is True
    assert options("smtps://u:p@mail.example.org")["use_tls"] is False
    assert options("smtp://relay:25")["use_tls"] is False
    assert options("smtp://relay:25?tls=1&timeout=3") | {} == options("smtp://relay:25?tls=1&timeout=3")
    assert options("smtp://relay:25?tls=1&timeout=3")["timeout"] == 3.0
    assert (
        email_settings("smtp://h?from=club%40example.org", Path("/x"))["DEFAULT_FROM_EMAIL"]
        == "club@example.org"
    )
    outbox = email_settings("", Path("/srv/var/outbox"))["MAILERS"]["default"]
    assert outbox == {"BACKEND": OUTBOX_BACKEND, "OPTIONS": {"folder": "/srv/var/outbox"}}


@pytest.mark.parametrize(
    "url", ["http://mail.example.org", "smtp://", "smtps://h?tls=1", "smtp://h?verify=0", "smtp://h:notaport"]
)
def test_an_unusable_email_url_stops_the_start(url: str) -> None:
    with pytest.raises(ValueError):
        email_settings(url, Path("/x"))


def queue(key: str = "k1", **extra: Any) -> OutgoingMail:
    return mail_queue(
        key=mail_key(key),
        to="zoe@example.org",
        subject="Round 1",
        text="Your table: 3 — https://club.example.org/series/1/",
        html="<p>Your table: 3</p>",
        **extra,
    )


def test_a_queued_mail_reaches_the_smtp_server_once(smtp: SmtpServer) -> None:
    queued = queue()
    (got,) = smtp.received
    assert got.rcpt_tos == ["zoe@example.org"]
    assert got.message["Subject"] == "Round 1"
    assert got.message["Message-ID"] == f"<{queued.key}@snapleague.invalid>"
    text = got.message.get_body(preferencelist=("plain",))
    html = got.message.get_body(preferencelist=("html",))
    assert text is not None and "Your table: 3" in text.get_content()  # type: ignore[attr-defined]
    assert html is not None and "<p>Your table: 3</p>" in html.get_content()  # type: ignore[attr-defined]
    queued.refresh_from_db()
    assert queued.status == OutgoingMail.Status.SENT and queued.attempts == 1

    # The same mail queued again, and its task run twice more (a retry, a duplicated message):
    assert queue().pk == queued.pk
    assert mail_send_task.delay(queued.pk).get() == "sent"
    assert mail_send(mail_id=queued.pk).status == "sent"
    assert len(smtp.received) == 1
    assert OutgoingMail.objects.count() == 1


def test_bulk_mail_carries_one_click_unsubscription(smtp: SmtpServer, settings: Any) -> None:
    settings.DEBUG = False
    queue(unsubscribe_url="https://club.example.org/unsubscribe/abc/")
    message = smtp.received[0].message
    assert message["List-Unsubscribe"] == "<https://club.example.org/unsubscribe/abc/>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    with pytest.raises(ValueError):
        queue("k2", unsubscribe_url="http://club.example.org/unsubscribe/abc/")  # RFC 8058: https


def test_a_server_away_leaves_the_mail_queued_then_it_is_sent_once(settings: Any) -> None:
    server = SmtpServer()  # not started: connections are refused
    settings.MAIL_MAX_ATTEMPTS = 3
    with override_settings(MAILERS=smtp_mailers(server)):
        queued = queue()  # the eager task runs: refused, left for a retry
        queued.refresh_from_db()
        assert queued.status == OutgoingMail.Status.QUEUED and queued.attempts == 1
        assert "ConnectionRefusedError" in queued.last_error
        outcome = mail_send(mail_id=queued.pk)
        assert outcome.status == "queued" and outcome.retry_in == settings.MAIL_RETRY_BASE_SECONDS * 2
        server.start()
        try:
            assert mail_send(mail_id=queued.pk).status == "sent"
            assert mail_send(mail_id=queued.pk).status == "sent"
            assert len(server.received) == 1
        finally:
            server.stop()


def test_a_mail_that_never_gets_through_is_marked_failed(settings: Any) -> None:
    settings.MAIL_MAX_ATTEMPTS = 2
    with override_settings(MAILERS=smtp_mailers(SmtpServer())):
        queued = queue()
        assert mail_send(mail_id=queued.pk).status == "failed"
        assert mail_send(mail_id=queued.pk).status == "failed"  # and is not tried again
    queued.refresh_from_db()
    assert queued.attempts == 2


def test_submission_with_starttls_and_a_login(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cert, key = self_signed(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the client trusts the test certificate
    server = SmtpServer(tls=(cert, key), login=("club", "s3cret")).start()
    url = f"smtp://club:s3cret@localhost:{server.port}?tls=1"
    try:
        with override_settings(**email_settings(url, tmp_path)):
            queue()
        assert len(server.received) == 1
        with override_settings(**email_settings(url.replace("s3cret", "wrong"), tmp_path)):
            refused = queue("k2")
        refused.refresh_from_db()
        assert refused.status == OutgoingMail.Status.QUEUED and refused.last_error.startswith("SMTP")
        assert len(server.received) == 1
    finally:
        server.stop()


def test_the_sign_up_mail_is_in_the_language_of_the_page(smtp: SmtpServer, client: Client) -> None:
    client.post(
        "/accounts/signup/",
        {"email": "hu@example.org", "password1": "a-long-Passphrase-42"},
        HTTP_ACCEPT_LANGUAGE="hu",
    )
    (got,) = smtp.received
    assert got.message["Subject"] == "[snapleague] Erősítsd meg az e-mail-címedet"
    text = got.message.get_body(preferencelist=("plain",))
    assert text is not None and "Üdvözlet a snapleague-től" in text.get_content()  # type: ignore[attr-defined]


def test_the_outbox_keeps_each_mail_and_the_page_shows_it(
    tmp_path: Path, settings: Any, client: Client
) -> None:
    settings.OUTBOX_DIR = tmp_path
    settings.OUTBOX_PAGE = True
    with override_settings(
        MAILERS={"default": {"BACKEND": OUTBOX_BACKEND, "OPTIONS": {"folder": str(tmp_path)}}}
    ):
        queue()
    (listed,) = outbox_list()
    assert listed.subject == "Round 1" and "Your table: 3" in listed.text
    assert outbox_get(listed.name) == listed
    page = client.get("/outbox/")
    assert page.status_code == 200 and "Round 1" in page.content.decode()
    shown = client.get(f"/outbox/{listed.name}/")
    assert shown.status_code == 200
    assert '<a href="https://club.example.org/series/1/"' in shown.content.decode()
    assert client.get("/outbox/..%2Fsnapleague.sqlite3/").status_code == 404
    assert client.get("/outbox/20260101T000000000000-000000000000.eml/").status_code == 404
    settings.OUTBOX_PAGE = False
    assert client.get("/outbox/").status_code == 404
    assert client.get(f"/outbox/{listed.name}/").status_code == 404
    assert django_mail.outbox == []  # nothing went by the test mailer


def test_a_mail_whose_task_was_lost_is_sent_by_the_reconciler(
    smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.accounts.tasks import mails_reconcile_task

    monkeypatch.setattr(
        "tournaments.accounts.mail.after_commit", lambda callback: None
    )  # the message is lost
    lost = queue()
    assert mails_reconcile_task() == []  # too fresh: its task may still come
    OutgoingMail.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    assert mails_reconcile_task() == [lost.pk]
    assert len(smtp.received) == 1
    assert mails_reconcile_task() == []


def test_many_mails_are_queued_at_once_and_each_sent_once_by_its_batch(
    smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.accounts import mail as mail_module
    from tournaments.accounts.mail import MailSpec, mail_queue_many
    from tournaments.accounts.tasks import mail_send_batch_task

    monkeypatch.setattr(mail_module, "MAIL_BATCH", 2)
    specs = [
        MailSpec(key=mail_key(f"many-{i}"), to=f"p{i}@example.org", subject="Round 1", text="t")
        for i in range(5)
    ]
    ids = mail_queue_many([*specs, specs[0]])  # the same mail twice: stored once
    assert len(ids) == 5 == OutgoingMail.objects.count()
    assert sorted(r.rcpt_tos[0] for r in smtp.received) == [f"p{i}@example.org" for i in range(5)]
    # The batches again (a retry, a duplicate): nothing more is sent.
    assert mail_send_batch_task.delay(ids).get() == {OutgoingMail.Status.SENT: 5}
    assert len(smtp.received) == 5
    assert mail_queue_many(specs) == []  # all sent: nothing queued again
