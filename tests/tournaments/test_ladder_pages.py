"""Ladder pages, API and CSV (docs/ladder.md): translated field errors, 4xx never 500."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from snapleague.users import Account
from tournaments.ladder import services
from tournaments.models import Club, GameKind, Ladder, LadderChallenge, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(
    organiser: Account, club: Club, players: list[Player], make_user: Callable[..., Account]
) -> Ladder:
    ladder = services.ladder_create(user=organiser, club=club, name="Ladder", game=GameKind.SNAPSZER)
    for player in [players[1], players[2], players[3], players[0]]:  # Anna (player_user) 4th
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)
    players[1].user = make_user("bence")
    players[1].save()
    return ladder


def signed(user: Account) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_ladder_page_shows_challenge_buttons_to_eligible_rungs(ladder: Ladder, player_user: Account) -> None:
    html = signed(player_user).get(reverse("tournaments:ladder", args=[ladder.pk])).content.decode()
    assert html.count('class="small primary challenge"') == 3
    anon = Client().get(reverse("tournaments:ladder", args=[ladder.pk])).content.decode()
    assert "challenge" not in anon.split('id="ladder"')[1].split("</ol>")[0].lower().replace("challenged", "")


def test_challenge_accept_report_through_pages(
    ladder: Ladder, player_user: Account, players: list[Player]
) -> None:
    anna_client = signed(player_user)
    response = anna_client.post(
        reverse("tournaments:ladder-challenge", args=[ladder.pk]), {"challenged": players[1].pk}
    )
    assert response.status_code == 302
    challenge = LadderChallenge.objects.get()
    bence = signed(players[1].user)
    mine = bence.get(reverse("tournaments:ladder-mine", args=[ladder.pk])).content.decode()
    assert 'value="accept"' in mine
    bence.post(reverse("tournaments:ladder-answer", args=[challenge.pk]), {"action": "accept"})
    for client in (anna_client, bence):
        client.post(
            reverse("tournaments:ladder-result", args=[challenge.pk]),
            {"challenger_wins": "2", "challenged_wins": "0"},
        )
    challenge.refresh_from_db()
    assert challenge.challenger_won
    csv = Client().get(reverse("tournaments:ladder-csv", args=[ladder.pk])).content.decode()
    assert csv.splitlines()[1].startswith("1,Anna,")
    history = Client().get(reverse("tournaments:ladder-history", args=[ladder.pk])).content.decode()
    assert "Anna moved up" in history


def test_refusal_is_a_translated_message_not_a_500(
    ladder: Ladder, player_user: Account, players: list[Player]
) -> None:
    client = signed(player_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    response = client.post(
        reverse("tournaments:ladder-challenge", args=[ladder.pk]),
        {"challenged": players[3].pk + 999},
        follow=True,
    )
    assert response.status_code == 200
    assert "Ez a játékos nem a(z) Hatvan Card Club tagja." in response.content.decode()
    response = client.post(
        reverse("tournaments:ladder-result", args=[999999]), {"challenger_wins": "x", "challenged_wins": "0"}
    )
    assert response.status_code == 404


def test_organiser_form_field_errors(ladder: Ladder, organiser: Account, club: Club) -> None:
    client = signed(organiser)
    response = client.post(
        reverse("tournaments:ladder-create", args=[club.slug]),
        {
            "name": "Ladder",
            "game": "snap",
            "reach": "3",
            "reply_days": "7",
            "best_of": "4",
            "rematch_days": "7",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The club has a ladder of that name already." in html
    assert "An odd number of games from 1 to 9." in html
    assert Ladder.objects.count() == 1


def test_api_challenge_refusals_and_result(
    ladder: Ladder, player_user: Account, players: list[Player], organiser: Account
) -> None:
    client = signed(player_user)
    url = reverse("tournaments_api:ladder-challenges", args=[ladder.pk])
    response = client.post(url, {"challenged": players[0].pk}, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "self"
    response = client.post(url, {"challenged": "x"}, content_type="application/json")
    assert response.status_code == 400
    response = client.post(url, {"challenged": players[1].pk}, content_type="application/json")
    assert response.status_code == 201
    challenge_id = response.json()["id"]
    result = reverse("tournaments_api:ladder-result", args=[challenge_id])
    response = signed(organiser).post(
        result, {"challenger_wins": 1, "challenged_wins": 1}, content_type="application/json"
    )
    assert response.status_code == 400 and "score" in response.json()["fields"]
    response = signed(organiser).post(
        result, {"challenger_wins": 1, "challenged_wins": 2}, content_type="application/json"
    )
    assert response.status_code == 200 and response.json()["challenger_won"] is False
    detail = Client().get(reverse("tournaments_api:ladder-detail", args=[ladder.pk])).json()
    assert [r["player_name"] for r in detail["rungs"]] == ["Bence", "Csilla", "Dániel", "Anna"]
