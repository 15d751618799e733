"""Personal API tokens (issue 23, item 5): stored hashed, shown once, scoped, expiring, revocable,
last use recorded cheaply, refusals audited and throttled per address, bearer auth in the OpenAPI
schema, and the "API tokens" page. docs/api-tokens.md."""

from __future__ import annotations

import base64
import datetime
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from snapleague.users import Account
from tournaments.integrations.tokens import keys
from tournaments.integrations.tokens.models import ApiToken
from tournaments.integrations.tokens.services import api_token_create, api_token_revoke
from tournaments.models import AuditEntry, Club

pytestmark = pytest.mark.django_db


def _bearer(raw: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def _token(user: Account, scope: str = "write", **extra: Any) -> tuple[ApiToken, str]:
    return api_token_create(user=user, name="results script", scope=scope, **extra)


@pytest.fixture
def owner(make_user: Callable[..., Account]) -> Account:
    return make_user("scripter")


# --- Stored hashed, shown once -------------------------------------------------------------------


def test_the_database_keeps_the_digest_and_prefix_never_the_token(owner: Account) -> None:
    token, raw = _token(owner)
    assert keys.token_well_formed(raw) and len(raw) == 47
    assert token.digest == keys.token_digest(raw) and token.prefix == raw[:12]
    # Not in any column of the token's table nor of the audit log, in any form.
    with connection.cursor() as cursor:
        for table in (ApiToken._meta.db_table, AuditEntry._meta.db_table):
            cursor.execute(f"SELECT * FROM {table}")
            dumped = repr(cursor.fetchall())
            assert raw not in dumped and raw[12:] not in dumped
    assert keys.digests_match(token.digest, keys.token_digest(raw))
    other = "B" if raw.endswith("A") else "A"  # one character changed (a token may end in "A": 1 in 64)
    assert not keys.digests_match(token.digest, keys.token_digest(raw[:-1] + other))


def test_the_api_shows_the_token_in_the_creation_answer_only(client: Client, owner: Account) -> None:
    client.force_login(owner)
    made = client.post(
        "/api/tokens/", {"name": "nightly export", "scope": "read"}, content_type="application/json"
    )
    assert made.status_code == 201
    body = made.json()
    raw = body["token"]
    assert body["prefix"] == raw[:12] and body["scope"] == "read" and body["usable"] is True
    # 90 days by default.
    expires = datetime.datetime.fromisoformat(body["expires_at"])
    assert abs((expires - timezone.now()) - timedelta(days=90)) < timedelta(minutes=1)
    listed = client.get("/api/tokens/")
    one = client.get(f"/api/tokens/{body['id']}/")
    for answer in (listed, one):
        assert answer.status_code == 200
        assert raw not in answer.content.decode() and "token" not in (
            answer.json()[0] if isinstance(answer.json(), list) else answer.json()
        )
    assert listed.json()[0]["prefix"] == raw[:12]


def test_the_page_shows_a_new_token_once_with_a_copy_button(client: Client, owner: Account) -> None:
    client.force_login(owner)
    assert 'id="api-tokens-link"' in client.get("/me/").content.decode()  # reached from My page
    page = client.post("/me/tokens/", {"name": "phone script", "scope": "write", "expires": "30"})
    assert page.status_code == 200
    token = ApiToken.objects.get(user=owner)
    html = page.content.decode()
    raw = html.split('id="new-token-value" value="')[1].split('"')[0]
    assert keys.token_digest(raw) == token.digest and token.scope == "write"
    assert 'data-copy="#new-token-value"' in html and page["Cache-Control"] == "no-store"
    assert abs((token.expires_at - timezone.now()) - timedelta(days=30)) < timedelta(minutes=1)
    again = client.get("/me/tokens/").content.decode()
    assert raw not in again and token.prefix in again and "phone script" in again


def test_the_page_form_names_the_field_at_fault(client: Client, owner: Account) -> None:
    client.force_login(owner)
    no_date = client.post("/me/tokens/", {"name": "x", "scope": "read", "expires": "date"})
    assert no_date.status_code == 400
    assert "Choose the last day the token works." in no_date.content.decode()
    too_far = (timezone.localdate() + timedelta(days=400)).isoformat()
    far = client.post("/me/tokens/", {"name": "x", "scope": "read", "expires": "date", "expires_on": too_far})
    assert far.status_code == 400 and "up to one year ahead" in far.content.decode()
    nameless = client.post("/me/tokens/", {"name": "", "scope": "read", "expires": "90"})
    assert nameless.status_code == 400 and "Name the token" in nameless.content.decode()
    assert not ApiToken.objects.exists()


# --- Expiry ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"expires_in_days": 366}, "expires_in_days"),
        ({"expires_in_days": 0}, "expires_in_days"),
        ({"expires_on": "2000-01-01"}, "expires_on"),
        ({"expires_on": "far"}, "expires_on"),
        ({"scope": "admin"}, "scope"),
        ({"name": ""}, "name"),
    ],
)
def test_a_bad_creation_is_a_400_naming_the_field(
    client: Client, owner: Account, body: dict[str, Any], field: str
) -> None:
    client.force_login(owner)
    answer = client.post("/api/tokens/", {"name": "n", **body}, content_type="application/json")
    assert answer.status_code == 400
    assert field in answer.json()["fields"]
    assert not ApiToken.objects.exists()


def test_an_expiry_beyond_a_year_is_refused_and_a_date_lasts_through_its_day(
    client: Client, owner: Account
) -> None:
    client.force_login(owner)
    last = timezone.localdate() + timedelta(days=365)
    too_far = client.post(
        "/api/tokens/",
        {"name": "n", "expires_on": (last + timedelta(days=1)).isoformat()},
        content_type="application/json",
    )
    assert too_far.status_code == 400
    assert "one year ahead" in too_far.json()["fields"]["expires_on"][0]
    both = client.post(
        "/api/tokens/",
        {"name": "n", "expires_on": last.isoformat(), "expires_in_days": 3},
        content_type="application/json",
    )
    assert both.status_code == 400 and "not both" in both.json()["fields"]["expires_on"][0]
    ok = client.post(
        "/api/tokens/", {"name": "n", "expires_on": last.isoformat()}, content_type="application/json"
    )
    assert ok.status_code == 201
    expires = timezone.localtime(ApiToken.objects.get().expires_at)
    assert expires.date() == last + timedelta(days=1) and expires.time() == datetime.time(0, 0)


def test_an_expired_token_is_refused_and_the_refusal_audited_for_its_owner(
    client: Client, owner: Account
) -> None:
    token, raw = _token(owner)
    assert client.get("/api/tokens/", **_bearer(raw)).status_code == 200
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    refused = client.get("/api/tokens/", **_bearer(raw), REMOTE_ADDR="10.0.7.1")
    assert refused.status_code == 403
    assert refused.json()["code"] == "authentication_failed"
    assert "expired" in refused.json()["message"] and "API tokens page" in refused.json()["message"]
    entry = AuditEntry.objects.get(action=AuditEntry.Action.API_TOKEN_REFUSED)
    assert entry.user == owner
    assert entry.detail == {"reason": "expired", "prefix": token.prefix, "token": token.pk, "ip": "10.0.7.1"}


# --- Bearer authentication beside session and Basic, scope ------------------------------------------


def test_a_write_token_writes_as_its_owner_and_basic_and_session_still_work(
    client: Client, owner: Account
) -> None:
    _token_row, raw = _token(owner, scope="write")
    made = client.post("/api/clubs/", {"name": "Token Club"}, content_type="application/json", **_bearer(raw))
    assert made.status_code == 201, made.content
    assert Club.objects.get(name="Token Club").organisers.get() == owner
    basic = "Basic " + base64.b64encode(b"scripter:pw-for-tests-only").decode()
    assert client.get("/api/tokens/", HTTP_AUTHORIZATION=basic).status_code == 200
    client.force_login(owner)
    assert client.get("/api/tokens/").status_code == 200


def test_a_read_token_reads_but_any_write_is_403_with_what_to_do(client: Client, owner: Account) -> None:
    _token_row, raw = _token(owner, scope="read")
    assert client.get("/api/tokens/", **_bearer(raw)).status_code == 200
    refused = client.post("/api/clubs/", {"name": "Nope"}, content_type="application/json", **_bearer(raw))
    assert refused.status_code == 403
    assert refused.json()["code"] == "token_read_only"
    assert "read and write" in refused.json()["message"]
    assert client.delete(f"/api/tokens/{_token_row.pk}/", **_bearer(raw)).status_code == 403
    assert not Club.objects.filter(name="Nope").exists()


def test_a_token_cannot_make_tokens(client: Client, owner: Account) -> None:
    _token_row, raw = _token(owner, scope="write")
    refused = client.post("/api/tokens/", {"name": "child"}, content_type="application/json", **_bearer(raw))
    assert refused.status_code == 403 and refused.json()["code"] == "token_cannot_create_tokens"
    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize(
    "header", ["Bearer", "Bearer a b", "Bearer snl_short", "Bearer " + "snl_" + "x" * 43]
)
def test_a_malformed_or_unknown_token_is_403_not_500(client: Client, header: str) -> None:
    answer = client.get("/api/tokens/", HTTP_AUTHORIZATION=header)
    assert answer.status_code == 403
    assert answer.json()["code"] == "authentication_failed"


def test_the_last_use_is_written_at_most_once_a_minute(client: Client, owner: Account) -> None:
    token, raw = _token(owner)

    def updates() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/tokens/", **_bearer(raw)).status_code == 200
        return sum(
            1 for q in queries if q["sql"].startswith("UPDATE") and ApiToken._meta.db_table in q["sql"]
        )

    assert updates() == 1
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    assert first is not None
    assert updates() == 0 and updates() == 0
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(minutes=2))
    assert updates() == 1
    assert ApiToken.objects.get(pk=token.pk).last_used_at > first  # type: ignore[operator]


# --- Revocation and audit -----------------------------------------------------------------------------


def test_revoking_refuses_the_token_from_then_on_and_is_audited(
    client: Client, owner: Account, make_user: Callable[..., Account]
) -> None:
    token, raw = _token(owner)
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.delete(f"/api/tokens/{token.pk}/").status_code == 404  # not theirs: no such token
    client.force_login(owner)
    revoked = client.delete(f"/api/tokens/{token.pk}/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] and not revoked.json()["usable"]
    assert client.delete(f"/api/tokens/{token.pk}/").status_code == 200  # again: nothing changes
    client.logout()
    refused = client.get("/api/tokens/", **_bearer(raw))
    assert refused.status_code == 403 and "revoked" in refused.json()["message"]
    actions = list(
        AuditEntry.objects.filter(user=owner, action__startswith="api_token")
        .order_by("pk")
        .values_list("action", "detail")
    )
    assert actions == [
        (
            "api_token_created",
            {
                "token": token.pk,
                "name": "results script",
                "prefix": token.prefix,
                "scope": "write",
                "expires_at": token.expires_at.isoformat(),
                "ip": "",
            },
        ),
        (
            "api_token_revoked",
            {"token": token.pk, "name": "results script", "prefix": token.prefix, "ip": "127.0.0.1"},
        ),
        (
            "api_token_refused",
            {"reason": "revoked", "prefix": token.prefix, "token": token.pk, "ip": "127.0.0.1"},
        ),
    ]


def test_the_page_revokes_after_confirmation_and_lists_the_activity(client: Client, owner: Account) -> None:
    token, _raw = _token(owner)
    client.force_login(owner)
    page = client.get("/me/tokens/").content.decode()
    assert f'action="/me/tokens/{token.pk}/revoke/"' in page and "Revoke the token" in page
    done = client.post(f"/me/tokens/{token.pk}/revoke/", follow=True)
    assert done.redirect_chain[-1][0] == "/me/tokens/"
    assert "revoked" in done.content.decode()
    assert ApiToken.objects.get().revoked_at is not None
    assert "API token revoked" in done.content.decode()  # the activity list


def test_an_account_holds_a_bounded_number_of_usable_tokens(owner: Account, settings: Any) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 2
    first, _ = _token(owner)
    _token(owner)
    with pytest.raises(Exception) as refused:
        _token(owner)
    assert getattr(refused.value, "code", "") == "too_many_tokens"
    api_token_revoke(user=owner, token_id=first.pk)
    _token(owner)  # a revoked one no longer counts


# --- Throttle ----------------------------------------------------------------------------------------


def test_many_refused_tokens_from_one_address_get_429_with_retry_after(
    client: Client, owner: Account, settings: Any
) -> None:
    settings.API_TOKEN_FAILURE_LIMIT = 3
    settings.API_TOKEN_FAILURE_WINDOW = timedelta(minutes=15)
    wrong = _bearer("snl_" + "W" * 43)
    for _ in range(3):
        assert client.get("/api/tokens/", **wrong, REMOTE_ADDR="10.0.9.1").status_code == 403
    throttled = client.get("/api/tokens/", **wrong, REMOTE_ADDR="10.0.9.1")
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled"
    assert "Try again in 15 minutes" in throttled.json()["message"]
    assert 14 * 60 < int(throttled["Retry-After"]) <= 15 * 60
    # The refusals during the pause are not counted (nor audited): it does not move.
    assert AuditEntry.objects.filter(action=AuditEntry.Action.API_TOKEN_REFUSED).count() == 3
    assert all(e.user is None for e in AuditEntry.objects.filter(action=AuditEntry.Action.API_TOKEN_REFUSED))
    # Another address is not paused; a real token still works from the paused one.
    assert client.get("/api/tokens/", **wrong, REMOTE_ADDR="10.0.9.2").status_code == 403
    _token_row, raw = _token(owner)
    assert client.get("/api/tokens/", **_bearer(raw), REMOTE_ADDR="10.0.9.1").status_code == 200
    # When the oldest refusal leaves the window, the address may try again.
    AuditEntry.objects.filter(action=AuditEntry.Action.API_TOKEN_REFUSED, detail__ip="10.0.9.1").update(
        created_at=timezone.now() - timedelta(minutes=16)
    )
    assert client.get("/api/tokens/", **wrong, REMOTE_ADDR="10.0.9.1").status_code == 403


# --- OpenAPI ------------------------------------------------------------------------------------------


def test_the_schema_documents_bearer_tokens(client: Client) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    assert {"tokenAuth": []} in schema["paths"]["/api/series/{series_id}/results/"]["post"]["security"]
    created = schema["paths"]["/api/tokens/"]["post"]["responses"]["201"]["content"]["application/json"]
    name = created["schema"]["$ref"].rsplit("/", 1)[1]
    assert "token" in schema["components"]["schemas"][name]["properties"]  # in the creation answer only
    assert "token" not in schema["components"]["schemas"]["ApiTokenOutput"]["properties"]


def test_a_token_sent_with_a_session_cookie_is_what_counts(client: Client, owner: Account) -> None:
    _token_row, raw = _token(owner, scope="read")
    client.force_login(owner)
    refused = client.post("/api/clubs/", {"name": "Nope"}, content_type="application/json", **_bearer(raw))
    assert refused.status_code == 403 and refused.json()["code"] == "token_read_only"
    wrong = client.get("/api/tokens/", **_bearer("snl_" + "Q" * 43))
    assert wrong.status_code == 403 and wrong.json()["code"] == "authentication_failed"
    assert client.get("/api/tokens/").status_code == 200  # the session alone still works


def test_someone_not_signed_in_still_gets_403_not_401(client: Client) -> None:
    answer = client.post("/api/clubs/", {"name": "Nope"}, content_type="application/json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_authenticated"
