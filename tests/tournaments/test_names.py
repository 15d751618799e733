"""Names refuse hidden and control characters and keep every script (issue 27 item 5, second half):
``Zoë\\u202eevil`` shows as another name; accents, Greek, Hungarian, Arabic with its joiners stay.
Each service that takes a name: players, clubs, tournaments, stages, ladders, seasons, club nights,
the CSV import and the players API."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from snapleague.errors import ApplicationError
from snapleague.names import name_clean, name_problem
from tournaments.clubs.player_import import players_create_many
from tournaments.clubs.services import club_create, player_create
from tournaments.competitions.services import tournament_create
from tournaments.competitions.stages.create import stage_create
from tournaments.models import Club, GameKind, Player, Tournament
from tournaments.nights.services import session_create
from tournaments.rankings.ladder.services import ladder_create
from tournaments.rankings.seasons.services import season_create

pytestmark = pytest.mark.django_db

SPOOFED = [
    ("Zoë\u202eevil", "U+202E"),  # right-to-left override
    ("Anna\u2066x\u2069", "U+2066"),  # left-to-right isolate
    ("Bence\u200b", "U+200B"),  # zero-width space
    ("Tab\tname", None),  # folded to a space, not refused
    ("Csilla\u0007", "U+0007"),  # bell
    ("\ufeffDániel", "U+FEFF"),  # byte-order mark
    ("Line\u2028break", None),  # a line separator is white space: folded
]
KEPT = ["Zoë", "Ödön Győri", "Ελένη", "محمد\u200cرضا", "李雷", "O'Brien-Smith", "👩\u200d💻 Eszter"]


@pytest.mark.parametrize(("name", "code"), SPOOFED)
def test_a_hidden_character_is_named_in_the_refusal(name: str, code: str | None) -> None:
    problem = name_problem(name_clean(name))
    if code is None:
        assert problem is None and " " in name_clean(name)
    else:
        assert problem is not None and code in problem


@pytest.mark.parametrize("name", KEPT)
def test_every_script_and_its_joiners_are_kept(name: str) -> None:
    assert name_problem(name_clean(name)) is None
    assert name_clean(name) == name


def test_the_composed_and_decomposed_forms_are_one_name() -> None:
    assert name_clean("Zoe\u0308") == "Zoë"


def _refused(call: Callable[[], Any], field: str = "name") -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    assert "U+202E" in str(caught.value.fields[field][0]), caught.value.fields
    return caught.value


def test_every_service_that_takes_a_name_refuses_the_override(organiser: Any, club: Club) -> None:
    bad = "Zoë\u202eevil"
    tournament = tournament_create(user=organiser, club=club, name="Cup", game=GameKind.SNAPSZER)
    _refused(lambda: club_create(user=organiser, name=bad))
    _refused(lambda: player_create(user=organiser, club=club, name=bad))
    _refused(lambda: tournament_create(user=organiser, club=club, name=bad, game=GameKind.SNAP))
    _refused(
        lambda: stage_create(
            user=organiser, tournament=tournament, name=bad, format="round_robin", options={}
        )
    )
    _refused(lambda: ladder_create(user=organiser, club=club, name=bad, game=GameKind.SNAPSZER))
    _refused(
        lambda: season_create(
            user=organiser,
            club=club,
            name=bad,
            starts_on=datetime.date(2027, 1, 1),
            ends_on=datetime.date(2027, 6, 30),
        )
    )
    _refused(
        lambda: session_create(
            user=organiser,
            tournament=tournament,
            name=bad,
            starts_at=timezone.now() + datetime.timedelta(days=1),
        )
    )
    with pytest.raises(ApplicationError) as caught:
        players_create_many(user=organiser, club=club, names=["Fine", bad])
    assert "U+202E" in str(caught.value.fields["players.1.name"][0])
    # nothing half-made: not the club, not "Fine" of the list, not the tournament
    assert not Player.objects.filter(name__in=["Fine", bad]).exists()
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Cup"]
    assert Club.objects.count() == 1


def test_the_api_answers_400_with_the_field_error(organiser: Any, club: Club) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post("/api/players/", {"club": club.pk, "name": "Zoë\u202eevil"}, format="json")
    assert response.status_code == 400, response.content
    assert "U+202E" in response.json()["fields"]["name"][0]
    kept = client.post("/api/players/", {"club": club.pk, "name": "Ödön Győri"}, format="json")
    assert kept.status_code == 201 and kept.json()["name"] == "Ödön Győri"
