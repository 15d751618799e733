"""The hand entry's page and API (games/views/analysis.py ``hand_entry``, games/api.py): the deal form's
field errors, a step, undo and save through the page's hidden fields; the API's 400 field errors,
403 and 404, and the 201 of a saved hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import OnlineGame
from tests.conftest import record_result, snapszer_win
from tests.games.test_hand_entry import QUICK, QUICK_PLAY

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def deal_form(**changes: Any) -> dict[str, Any]:
    return {"op": "deal", **{k: v for k, v in QUICK.items() if k != "talon"}, **changes}


def test_the_deal_form_marks_each_wrong_field(make_user: Any) -> None:
    client = signed_in(make_user("anna"))
    page = client.get(reverse("games:hand_entry"))
    assert page.status_code == 200 and "the ace of hearts" in page.content.decode()
    response = client.post(reverse("games:hand_entry"), deal_form(trump="AH", hand_0=QUICK["hand_0"][:5]))
    assert response.status_code == 400
    errors = response.context["errors"]
    assert set(errors) == {"hand_0", "hand_1", "trump"}
    assert "Seat 1 holds 6 cards, not 5." in response.content.decode()
    assert not OnlineGame.objects.exists()


def test_a_hand_is_played_undone_and_saved_through_the_page(make_user: Any) -> None:
    anna = make_user("anna")
    client = signed_in(anna)
    response = client.post(reverse("games:hand_entry"), deal_form(name_0="Zoli", name_1="Anna", my_seat="1"))
    assert response.status_code == 200 and response.context["position"].actions == []
    for action in QUICK_PLAY:
        previous = response
        response = client.post(
            reverse("games:hand_entry"),
            {
                "op": "act",
                "deal": response.context["deal_json"],
                "actions": response.context["actions_json"],
                "action": json.dumps(action),
                "name_0": "Zoli",
                "name_1": "Anna",
                "my_seat": "1",
            },
        )
        assert response.status_code == 200, response.content.decode()
    assert response.context["position"].over and 'id="save-hand"' in response.content.decode()
    undo = client.post(
        reverse("games:hand_entry"),
        {"op": "undo", "deal": response.context["deal_json"], "actions": response.context["actions_json"]},
    )
    assert undo.context["actions_json"] == previous.context["actions_json"]
    # An illegal step: the same position again, with the reason (400).
    refused = client.post(
        reverse("games:hand_entry"),
        {
            "op": "act",
            "deal": undo.context["deal_json"],
            "actions": undo.context["actions_json"],
            "action": json.dumps({"type": "play", "seat": 0, "card": "AH"}),
        },
    )
    assert refused.status_code == 400 and "cannot be played here" in refused.content.decode()
    saved = client.post(
        reverse("games:hand_entry"),
        {
            "op": "save",
            "deal": response.context["deal_json"],
            "actions": response.context["actions_json"],
            "name_0": "Zoli",
            "name_1": "Anna",
            "my_seat": "1",
        },
    )
    game = OnlineGame.objects.get()
    assert saved.url == reverse("games:replay", args=[game.pk])
    assert game.seat_labels == ["Zoli", "Anna"] and game.seats.get(number=1).user == anna
    replay = client.get(saved.url)
    assert (
        "Analyse my decisions" in replay.content.decode()
        and "verify this deal" not in replay.content.decode()
    )


def test_saving_an_unfinished_hand_is_refused_on_the_page(make_user: Any) -> None:
    client = signed_in(make_user("anna"))
    deal = json.dumps({k: v for k, v in QUICK.items()})
    response = client.post(
        reverse("games:hand_entry"), {"op": "save", "deal": deal, "actions": json.dumps(QUICK_PLAY[:2])}
    )
    assert response.status_code == 409 and "only a finished hand can be saved" in response.content.decode()
    assert not OnlineGame.objects.exists()


def test_tampered_hidden_fields_are_refused_not_a_500(make_user: Any) -> None:
    client = signed_in(make_user("anna"))
    for deal, actions in (("[1, 2]", "[]"), ("not json", "[]"), (json.dumps(QUICK), '{"a": 1}')):
        response = client.post(reverse("games:hand_entry"), {"op": "act", "deal": deal, "actions": actions})
        assert response.status_code == 400
    response = client.post(
        reverse("games:hand_entry"),
        {"op": "act", "deal": json.dumps(QUICK), "actions": "[]", "action": "[3]"},
    )
    assert response.status_code == 400 and "cannot be played here" in response.content.decode()


def test_changing_the_deal_keeps_the_steps_that_still_fit(make_user: Any) -> None:
    client = signed_in(make_user("anna"))
    response = client.post(
        reverse("games:hand_entry"), {**deal_form(talon=["AS"]), "actions": json.dumps(QUICK_PLAY)}
    )
    assert response.status_code == 200 and len(response.context["position"].actions) == len(QUICK_PLAY)
    other = {
        **deal_form(),
        "hand_1": ["AH", "10H", "KH", "KS", "AC", "10C"],
        "actions": json.dumps(QUICK_PLAY),
    }
    response = client.post(reverse("games:hand_entry"), other)
    assert response.context["position"].actions == QUICK_PLAY[:1]  # the marriage is no longer held
    assert "no longer fit the deal" in response.content.decode()


# --- the API --------------------------------------------------------------------------------------


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_answers_the_position_and_field_errors(make_user: Any) -> None:
    client = api(make_user("anna"))
    ok = client.post(reverse("games_api:hand-position"), {**QUICK, "actions": QUICK_PLAY[:2]}, format="json")
    assert ok.status_code == 200
    assert ok.data["to_move"] == 0 and ok.data["closed"] and not ok.data["over"]
    assert {
        "seat": 0,
        "action": {"type": "play", "seat": 0, "card": "9C"},
        "label": "Play the nine of clubs",
    } in ok.data["legal"]
    bad = client.post(reverse("games_api:hand-position"), {**QUICK, "trump": "KH"}, format="json")
    assert (
        bad.status_code == 400
        and bad.data["code"] == "bad_deal"
        and set(bad.data["fields"]) == {"hand_1", "trump"}
    )
    illegal = client.post(
        reverse("games_api:hand-position"),
        {**QUICK, "actions": [{"type": "exchange", "seat": 0}]},
        format="json",
    )
    assert illegal.status_code == 400 and illegal.data["fields"]["actions"]
    missing = client.post(reverse("games_api:hand-position"), {"profile": "snapszer"}, format="json")
    assert missing.status_code == 400 and "hand_0" in missing.data["fields"]
    assert api().post(reverse("games_api:hand-position"), QUICK, format="json").status_code == 403


def test_the_api_saves_a_finished_hand(make_user: Any) -> None:
    client = api(make_user("anna"))
    created = client.post(reverse("games_api:hand-create"), {**QUICK, "actions": QUICK_PLAY}, format="json")
    assert created.status_code == 201
    assert created.data["replay"] == reverse("games:replay", args=[created.data["id"]])
    unfinished = client.post(
        reverse("games_api:hand-create"), {**QUICK, "actions": QUICK_PLAY[:3]}, format="json"
    )
    assert unfinished.status_code == 409 and unfinished.data["code"] == "hand_not_over"
    assert OnlineGame.objects.count() == 1


def test_the_api_refuses_a_tournament_game_to_others_403_and_an_unknown_one_404(
    make_series: Any, players: list[Any], referee: Any, make_user: Any, player_user: Any
) -> None:
    series = make_series(players[:2], game="snapszer")
    record_result(
        user=referee, series_id=series.pk, game_number=1, result=snapszer_win(players[0], players[1])
    )
    game = series.games.get(number=1)
    body = {**QUICK, "actions": QUICK_PLAY, "table_game": game.pk}
    assert (
        api(make_user("stranger")).post(reverse("games_api:hand-create"), body, format="json").status_code
        == 403
    )
    lost = api(player_user).post(
        reverse("games_api:hand-create"), {**body, "table_game": 999999}, format="json"
    )
    assert lost.status_code == 404
    assert api(player_user).post(reverse("games_api:hand-create"), body, format="json").status_code == 201
    # The series page lists it and offers its players to enter more.
    page = signed_in(player_user).get(reverse("tournaments:series", args=[series.pk]))
    assert "Enter a hand of this game" in page.content.decode()
    assert page.context["page"].entered_hands == {1: [OnlineGame.objects.get().pk]}


def test_the_deal_form_names_the_cards_in_the_readers_language(make_user: Any) -> None:
    client = signed_in(make_user("anna"))
    page = client.get(reverse("games:hand_entry"), HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Asztalnál játszott leosztás rögzítése" in page
    assert "piros ász" in page and "makk alsó" in page  # the Hungarian deck's own names
    refused = client.post(reverse("games:hand_entry"), deal_form(trump="AH"), HTTP_ACCEPT_LANGUAGE="hu")
    assert refused.status_code == 400 and "többször szerepel" in refused.content.decode()
