"""Ladder pages, API and CSV (docs/ladder.md): translated field errors, 4xx never 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from snapleague.users import Account
from tournaments.models import Club, GameKind, Ladder, LadderChallenge, Player
from tournaments.rankings.ladder import services

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


def _record(client: Client, ladder: Ladder, challenger: Player | str, challenged: Player | str) -> Any:
    return client.post(
        reverse("tournaments:ladder-challenge-record", args=[ladder.pk]),
        {
            "challenger": getattr(challenger, "pk", challenger),
            "challenged": getattr(challenged, "pk", challenged),
        },
    )


def _errors_of(html: str, field: str) -> str:
    """The text of the form's block for ``field`` (its label, input and errors)."""
    start = html.index(f'for="record-{field}"')
    return html[start : html.index("</div>", start)]


def test_the_organiser_records_a_challenge_and_its_result_from_the_ladder_page(
    ladder: Ladder, organiser: Account, player_user: Account, players: list[Player]
) -> None:
    anna, bence = players[0], players[1]
    url = reverse("tournaments:ladder", args=[ladder.pk])
    assert 'id="record-challenge"' in signed(organiser).get(url).content.decode()
    assert 'id="record-challenge"' not in signed(player_user).get(url).content.decode()

    client = signed(organiser)
    response = _record(client, ladder, anna, bence)  # 4th challenges 1st: reach 3

    assert response.status_code == 302 and response["Location"].endswith("#open-challenges")
    challenge = LadderChallenge.objects.get()
    assert (challenge.challenger, challenge.challenged, challenge.status) == (anna, bence, "open")
    page = client.get(url).content.decode()
    assert "Challenge recorded: Anna challenges Bence." in page
    assert page.count(">Record the result</button>") == 1  # on the one open challenge
    signed(organiser).post(
        reverse("tournaments:ladder-result", args=[challenge.pk]),
        {"challenger_wins": "2", "challenged_wins": "1"},
    )
    challenge.refresh_from_db()
    assert (challenge.how, challenge.challenger_won, challenge.recorded_by) == ("played", True, organiser)
    assert [
        r["player_name"]
        for r in Client().get(reverse("tournaments_api:ladder-detail", args=[ladder.pk])).json()["rungs"]
    ] == ["Anna", "Bence", "Csilla", "Dániel"]


@pytest.mark.parametrize(
    ("challenger", "challenged", "field", "message"),
    [
        (1, 1, "challenged", "A player cannot challenge themselves."),
        (1, 2, "challenged", "Bence may only challenge a player above them on the ladder."),
        (2, 1, None, None),  # allowed: Csilla challenges Bence
        ("", 1, "challenger", "This field is required."),
        (1, "x", "challenged", "Select a valid choice."),
    ],
)
def test_a_refused_challenge_is_told_next_to_its_field_and_nothing_is_saved(
    *,
    ladder: Ladder,
    organiser: Account,
    players: list[Player],
    challenger: int | str,
    challenged: int | str,
    field: str | None,
    message: str | None,
) -> None:
    # The ladder: Bence 1st, Csilla 2nd, Dániel 3rd, Anna 4th.
    by_index = {1: players[1], 2: players[2]}
    response = _record(
        signed(organiser),
        ladder,
        by_index.get(challenger, challenger),
        by_index.get(challenged, challenged),  # type: ignore[arg-type]
    )
    if field is None:
        assert response.status_code == 302
        return
    assert response.status_code == 400
    html = response.content.decode()
    assert message in _errors_of(html, field)
    assert LadderChallenge.objects.count() == 0


def test_the_rules_refusals_are_the_apis_shown_as_form_errors_in_the_users_language(
    organiser: Account, club: Club, players: list[Player]
) -> None:
    anna, bence, csilla, daniel, eszter = players[:5]
    ladder = services.ladder_create(user=organiser, club=club, name="Short", game=GameKind.SNAPSZER, reach=1)
    for player in (anna, bence, csilla, daniel):
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)
    client = signed(organiser)

    response = _record(client, ladder, daniel, bence)  # two places above, reach 1
    assert response.status_code == 400
    assert "Dániel may challenge at most 1 place above them." in _errors_of(
        response.content.decode(), "challenged"
    )
    response = _record(client, ladder, eszter, daniel)  # the choices are the ladder's players
    assert "Select a valid choice." in _errors_of(response.content.decode(), "challenger")
    assert _record(client, ladder, bence, anna).status_code == 302
    response = _record(client, ladder, csilla, bence)  # Bence is in a challenge already
    assert "Bence has an open challenge already" in _errors_of(response.content.decode(), "challenged")
    response = _record(client, ladder, bence, anna)
    assert "Bence has an open challenge already" in _errors_of(response.content.decode(), "challenger")
    challenge = LadderChallenge.objects.get()
    services.challenge_result(user=organiser, challenge_id=challenge.pk, challenger_wins=0, challenged_wins=2)
    response = _record(client, ladder, bence, anna)  # lost: 7 days before trying Anna again
    assert response.status_code == 400
    assert "challenge them again from" in _errors_of(response.content.decode(), "challenged")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    response = _record(client, ladder, daniel, bence)
    hungarian = _errors_of(response.content.decode(), "challenged")
    assert "Dániel" in hungarian and "may challenge" not in hungarian
    assert LadderChallenge.objects.count() == 1


def test_the_ladder_csv_neutralises_a_formula_as_a_players_name(
    ladder: Ladder, players: list[Player]
) -> None:
    players[1].name = '=HYPERLINK("http://x","y")'
    players[1].save(update_fields=["name"])
    rows = Client().get(reverse("tournaments:ladder-csv", args=[ladder.pk])).content.decode("utf-8-sig")
    assert "'=HYPERLINK" in rows and ",=HYPERLINK" not in rows and '"=HYPERLINK' not in rows
