"""Schemathesis against the API's own OpenAPI schema (issue 16, "Input"), in-process, with each role.

What it checks, for every operation of ``/api/schema/`` and each of anonymous, a player, the
tournament's referee and the club's organiser: no answer is a 5xx; every status is one the schema
documents; every body matches the schema of its status; the content type is the documented one.

How:
- The schema is loaded from the app itself (``from_wsgi``, Django's WSGI handler, no server): the
  API's views are synchronous, and the same views answer under uvicorn.
- The people and the club are the permission matrix's world (tests/test_permission_matrix.py),
  built once for the module; each generated request runs in a savepoint rolled back after it, so
  examples are independent (a 201 in one is not there for the next).
- A path id is drawn half of the time from the world's real objects (the running tournament, a
  draft, its stages of several formats, a series with a game, one without), otherwise what
  Schemathesis generates (mostly a 404); so the bodies reach the services, not only the 404s.
- Time-bounded for CI: few examples per operation (``SCHEMA_FUZZ_EXAMPLES``, default 8), only the
  fuzzing phase (positive and negative data), no shrinking; ``SCHEMA_FUZZ_EXAMPLES=200`` digs deeper
  by hand. A failure prints the request as a curl command.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.test_permission_matrix import World, _build
from tournaments.models import Series

EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "8"))
ROLES = ("anon", "player", "referee_here", "organiser_here")
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]
CSRF_TOKEN = "f" * 32  # any 32 characters: the cookie and the header only have to agree

APP = WSGIHandler()
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/",
    APP,
    config=schemathesis.Config.from_dict(
        {
            "phases": {"examples": {"enabled": False}, "coverage": {"enabled": False}},
            "generation": {"mode": "all", "max-examples": EXAMPLES, "no-shrink": True, "database": "none"},
        }
    ),
)

# The path parameter of each route prefix, and the world's targets that fill it.
PATH_IDS = {
    "club_id": ("running",),
    "player_id": ("running",),
    "tournament_id": ("running", "draft"),
    "stage_id": ("running", "draft", "swiss", "knockout"),
    "series_id": ("running", "fresh", "online"),
    "session_id": ("running", "draft"),
}


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The permission matrix's world, built once, in a transaction rolled back at the end. Django
    closes "old" connections when a request starts and ends; inside the test's transaction that
    would break it (Django's test client turns it off too)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        with django_db_blocker.unblock(), transaction.atomic():
            yield _build()
            transaction.set_rollback(True)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ROLES)
@schema.parametrize()
@schema.given(real_ids=st.booleans(), pick=st.integers(min_value=0, max_value=3))
@hypothesis_settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_as_its_schema_says(
    case: schemathesis.Case, role: str, world: World, real_ids: bool, pick: int
) -> None:
    if real_ids:
        for name, targets in PATH_IDS.items():
            if name in (case.path_parameters or {}):
                target = world.targets[targets[pick % len(targets)]]
                case.path_parameters[name] = target[name]
    cookies = {settings.CSRF_COOKIE_NAME: CSRF_TOKEN}
    if role != "anon":
        cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    with transaction.atomic():
        response = case.call(cookies=cookies, headers={"X-CSRFToken": CSRF_TOKEN})
        transaction.set_rollback(True)
    case.validate_response(response, checks=CHECKS)


# --- What the fuzzing found, one regression test each -----------------------------------------------


def test_an_api_address_that_names_no_route_answers_the_error_shape(client: Any) -> None:
    """``/api/stages/-1/`` matches no route (ids are positive numbers): it answered Django's HTML
    404 page, not the API's JSON error that the schema documents."""
    response = client.get("/api/stages/-1/standings/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"code": "not_found", "message": "Not found.", "fields": {}, "extra": {}}
    page = client.get("/no-such-page/")  # a page address still gets the page
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def test_the_schema_documents_the_refusals_every_operation_can_give() -> None:
    """A list answered 404 (a page past the end) and 400 (``?stage=x``), any operation 403 (wrong
    credentials in an ``Authorization`` header), a write 415, none of them documented."""
    paths = schema.raw_schema["paths"]
    assert set(paths["/api/series/"]["get"]["responses"]) == {"200", "400", "403", "404"}
    assert set(paths["/api/series/{series_id}/"]["get"]["responses"]) == {"200", "403", "404"}
    assert set(paths["/api/players/"]["post"]["responses"]) == {"201", "400", "403", "404", "415"}
    # What a view declares itself stays, with its codes.
    publish = paths["/api/stages/{stage_id}/rounds/"]["post"]["responses"]
    assert "round_not_due" in publish["409"]["description"]
    assert publish["404"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_an_id_or_number_past_the_database_s_range_is_a_400_naming_the_field(
    client: Any, world: World
) -> None:
    """``{"players": [-3924275024940314654872174592]}`` was a 500 on SQLite (OverflowError: the
    integer does not fit in 64 bits), and a game number past 2**31 one on PostgreSQL."""
    running = world.targets["running"]
    client.force_login(world.users["organiser_here"])
    response = client.post(
        f"/api/tournaments/{running['tournament_id']}/players/",
        {"players": [2**70]},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert set(response.json()["fields"]) == {"players.0"}
    series = Series.objects.get(pk=world.targets["fresh"]["series_id"])
    a, b = (str(seat.player_id) for seat in series.seats.order_by("seat"))
    client.force_login(world.users["referee_here"])
    body = {"game": 2**40, "result": {"score": {a: 7, b: 3}}}
    response = client.post(f"/api/series/{series.pk}/results/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert "game" in response.json()["fields"]
    assert series.games.count() == 0


def test_basic_credentials_with_a_nul_are_refused_before_the_database(client: Any) -> None:
    """``Authorization: Basic`` of a user name with a NUL was a 500 on PostgreSQL (it cannot take
    NUL in a text parameter: psycopg's DataError), on any operation; now a 403, and the user table
    is not asked."""
    credentials = base64.b64encode(b"referee\x00:pw").decode()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/clubs/", HTTP_AUTHORIZATION=f"Basic {credentials}")
    assert response.status_code == 403
    assert response.json()["code"] == "authentication_failed"
    assert not [q for q in queries.captured_queries if "auth_user" in q["sql"]]
