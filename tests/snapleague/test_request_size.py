"""Oversized bodies get 413 with a clear message on the API and on the pages, and nothing is logged
as an error."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client
from rest_framework.test import APIClient

from snapleague.request_size import bad_request
from snapleague.users import Account
from tournaments.models import Series

BIG = 3 * 1024 * 1024  # over the 2.5 MB default


@pytest.mark.django_db
def test_the_api_answers_413_to_an_oversized_result(
    make_series: Any, players: Any, referee: Account, caplog: Any
) -> None:
    series: Series = make_series(players[:4])
    client = APIClient()
    client.force_authenticate(referee)
    body = json.dumps({"game_number": 1, "result": {"ending": "draw"}, "padding": "x" * BIG})
    with caplog.at_level(logging.WARNING):
        response = client.post(
            f"/api/series/{series.pk}/results/",
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="k1",
        )
    assert response.status_code == 413
    payload = response.json()
    assert payload["code"] == "too_large"
    assert "too large" in payload["message"] and "2560 kB" in payload["message"]
    assert payload["extra"]["max_bytes"] == 2_621_440
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not series.games.exists()


@pytest.mark.django_db
def test_a_page_form_answers_413_with_the_error_page(
    make_series: Any, players: Any, referee: Account, caplog: Any
) -> None:
    series: Series = make_series(players[:4])
    client = Client()
    client.force_login(referee)
    with caplog.at_level(logging.WARNING):
        response = client.post(f"/series/{series.pk}/record/", {"note": "x" * BIG})
    assert response.status_code == 413
    text = response.content.decode()
    assert "Too large" in text and "at most 2560 kB" in text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_a_body_under_the_limit_is_read_as_before(settings: Any, referee: Account) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = APIClient()
    client.force_authenticate(referee)
    response = client.post("/api/clubs/", {"name": "x" * 10}, format="json")
    assert response.status_code != 413
    response = client.post("/api/clubs/", {"name": "x" * 2000}, format="json")
    assert response.status_code == 413


def test_a_body_found_too_big_while_read_is_413_too(rf: Any) -> None:
    """A body sent without a length is only found too big when read: handler400 answers 413."""
    response = bad_request(rf.post("/api/series/1/results/"), RequestDataTooBig("too big"))
    assert response.status_code == 413
    assert json.loads(response.content)["code"] == "too_large"
    response = bad_request(rf.post("/series/1/record/"), ValueError("other"))
    assert response.status_code == 400
