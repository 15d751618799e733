"""The pages, per role: who sees what, who may do what, and that every write lands once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from snapleague.users import Account
from tests.conftest import record_result, snap_win
from tournaments.models import (
    GameKind,
    GameResult,
    Player,
    Round,
    Series,
    Stage,
    Tournament,
)


@pytest.fixture
def table(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:4])


@pytest.fixture
def duel(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:2], game=GameKind.SNAPSZER)


def _client(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _snap_taps(series: Series, *out_first_to_last: Player, key: str = "tap-1", **extra: Any) -> dict:
    data = {"game": 1, "expected_version": 0, "client_key": key, "ending": "last_player_standing"}
    data.update({f"out_{p.pk}": n for n, p in enumerate(out_first_to_last, start=1)})
    data.update(extra)
    return data


def _record_url(series: Series) -> str:
    return f"/series/{series.pk}/record/"


# --- Reading: anyone ----------------------------------------------------------------------------


def test_anyone_reads_the_club_series_standings_and_player_pages(
    table: Series, players: list[Player], referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]))
    client = _client()
    club = client.get(f"/clubs/{table.stage.tournament.club.slug}/")
    assert club.status_code == 200 and table.stage.tournament.name in club.content.decode()
    series = client.get(f"/series/{table.pk}/").content.decode()
    assert "Anna won" in series and "Next: game 2" in series
    assert "Record game" not in series  # not a referee: no record button
    standings = client.get(f"/stages/{table.stage_id}/standings/").content.decode()
    assert "Version 1" in standings and "Anna" in standings
    player = client.get(f"/players/{players[0].pk}/").content.decode()
    assert "1</strong>/1" in player  # one game won of one played


def test_a_draft_without_pairings_is_seen_by_its_organiser_and_referees_only(
    club: Any, organiser: Any, referee: Any, other_referee: Any
) -> None:
    draft = Tournament.objects.create(
        club=club, name="Secret draft", game=GameKind.SNAP, rules_profile="classic"
    )
    draft.referees.add(referee)
    assert _client().get(f"/tournaments/{draft.pk}/").status_code == 404
    assert _client(other_referee).get(f"/tournaments/{draft.pk}/").status_code == 404
    assert "Secret draft" not in _client().get(f"/clubs/{club.slug}/").content.decode()
    assert _client(referee).get(f"/tournaments/{draft.pk}/").status_code == 200
    page = _client(organiser).get(f"/tournaments/{draft.pk}/").content.decode()
    assert "Secret draft" in page and "Add players" in page


# --- Recording: referees ------------------------------------------------------------------------


def test_the_referee_taps_the_elimination_order_and_the_result_is_recorded(
    table: Series, players: list[Player], referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    a, b, c, d = players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(referee).post(_record_url(table), _snap_taps(table, d, c, b), follow=True)
    assert response.status_code == 200
    assert "Game 1 recorded." in response.content.decode()
    result = GameResult.objects.get()
    assert result.data["winner"] == a.pk
    assert result.data["eliminated"] == [[d.pk], [c.pk], [b.pk]]
    assert result.recorded_by == referee and result.client_key == "tap-1"
    assert Stage.objects.get(pk=table.stage_id).standings_version == 1


def test_tapping_every_player_makes_the_last_tapped_the_winner(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    _client(referee).post(_record_url(table), _snap_taps(table, d, c, b, a))
    assert GameResult.objects.get().data["winner"] == a.pk


def test_a_double_tap_records_once(table: Series, players: list[Player], referee: Any) -> None:
    client = _client(referee)
    first = client.post(_record_url(table), _snap_taps(table, *players[1:4]))
    again = client.post(_record_url(table), _snap_taps(table, *players[1:4]), follow=True)
    assert first.status_code == 302
    assert "already recorded" in again.content.decode()
    assert GameResult.objects.count() == 1
    assert Stage.objects.get(pk=table.stage_id).results_version == 1


def test_an_incomplete_order_is_refused_next_to_the_players(
    table: Series, players: list[Player], referee: Any
) -> None:
    response = _client(referee).post(_record_url(table), _snap_taps(table, players[3]))
    page = response.content.decode()
    assert response.status_code == 400
    # The service's message for the "eliminated" field sits in the order fieldset, before the tools end.
    order_section = page[page.index('class="order"') : page.index("Record result")]
    assert "List every player but the winner" in order_section
    assert not GameResult.objects.exists()
    assert 'value="tap-1"' in page  # the same key again: a retry after fixing still records once


def test_a_draw_puts_everyone_not_tapped_together_at_the_end(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    _client(referee).post(_record_url(table), _snap_taps(table, d, ending="draw"))
    data = GameResult.objects.get().data
    assert data["ending"] == "draw" and data["winner"] is None
    assert data["placings"] == {str(a.pk): 1, str(b.pk): 1, str(c.pk): 1, str(d.pk): 4}


def test_an_adjudication_takes_the_card_counts(table: Series, players: list[Player], referee: Any) -> None:
    a, b, c, d = players[:4]
    data = _snap_taps(table, d, ending="adjudicated")
    data.update({f"cards_{a.pk}": 20, f"cards_{b.pk}": 12, f"cards_{c.pk}": 5})
    _client(referee).post(_record_url(table), data)
    stored = GameResult.objects.get().data
    assert stored["winner"] == a.pk
    assert stored["placings"] == {str(a.pk): 1, str(b.pk): 2, str(c.pk): 3, str(d.pk): 4}


def test_a_snapszer_match_score_is_recorded(duel: Series, players: list[Player], referee: Any) -> None:
    a, b = players[:2]
    data = {"game": 1, "expected_version": 0, "client_key": "s1", "mode": "score"}
    data.update({f"score_{a.pk}": 4, f"score_{b.pk}": 7, "pot_carried": 0})
    assert _client(referee).post(_record_url(duel), data).status_code == 302
    stored = GameResult.objects.get().data
    assert stored["winner"] == b.pk and stored["score"] == {str(a.pk): 4, str(b.pk): 7}


def test_a_snapszer_match_hand_by_hand_is_folded_into_its_score(
    duel: Series, players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    data = {"game": 1, "expected_version": 0, "client_key": "h1", "mode": "hands"}
    # 3 + 2 for a, a hand nobody won (one point into the pot), then a's 1 + the pot: 7–0.
    hands = [(a, 3), (a, 2), ("tie", ""), (a, 1)]
    for index, (winner, points) in enumerate(hands):
        data[f"hand_{index}_winner"] = winner if winner == "tie" else winner.pk
        data[f"hand_{index}_points"] = points
    response = _client(referee).post(_record_url(duel), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    stored = GameResult.objects.get().data
    assert stored["score"] == {str(a.pk): 7, str(b.pk): 0}
    assert len(stored["hands"]) == 4


def test_an_impossible_snapszer_score_is_refused_next_to_the_score(
    duel: Series, players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    data = {"game": 1, "expected_version": 0, "client_key": "s2", "mode": "score"}
    data.update({f"score_{a.pk}": 4, f"score_{b.pk}": 5})  # nobody reached 7
    response = _client(referee).post(_record_url(duel), data)
    page = response.content.decode()
    assert response.status_code == 400
    score_section = page[page.index('class="score-entry"') : page.index('class="hands-entry"')]
    assert 'class="field-errors"' in score_section
    assert not GameResult.objects.exists()


@pytest.mark.parametrize("who", ["other_referee", "player_user"])
def test_others_may_not_open_or_post_the_record_form(
    table: Series, players: list[Player], who: str, request: Any
) -> None:
    client = _client(request.getfixturevalue(who))
    assert client.get(_record_url(table)).status_code == 403
    assert client.post(_record_url(table), _snap_taps(table, *players[1:4])).status_code == 403
    assert not GameResult.objects.exists()


def test_someone_not_logged_in_is_sent_to_the_login_page(table: Series, players: list[Player]) -> None:
    response = _client().post(_record_url(table), _snap_taps(table, *players[1:4]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not GameResult.objects.exists()


def test_the_referee_sees_record_buttons_and_no_organiser_forms(table: Series, referee: Any) -> None:
    page = _client(referee).get(f"/tournaments/{table.stage.tournament_id}/").content.decode()
    assert _record_url(table) in page
    assert "Add players" not in page and "New stage" not in page


def test_a_game_of_the_wrong_number_is_refused_with_the_next_one(
    table: Series, players: list[Player], referee: Any
) -> None:
    response = _client(referee).post(_record_url(table), _snap_taps(table, *players[1:4], game=2))
    assert response.status_code == 409
    assert "Game 1 is the next game" in response.content.decode()


# --- Organisers -----------------------------------------------------------------------------------


def test_the_organiser_sets_up_a_league_from_the_pages(
    club: Any, organiser: Any, players: list[Player]
) -> None:
    client = _client(organiser)
    response = client.post(
        f"/clubs/{club.slug}/tournaments/new/",
        {"name": "Friday Snapszer", "game": "snapszer", "series_format": "best_of_3", "target": 7},
    )
    tournament = Tournament.objects.get(name="Friday Snapszer")
    assert response.status_code == 302 and tournament.rules_options == {"match": 7}
    url = f"/tournaments/{tournament.pk}"
    client.post(f"{url}/players/", {"players": [p.pk for p in players[:4]], "new_names": "Zoé\nYves"})
    assert set(tournament.players.values_list("name", flat=True)) == {
        *(p.name for p in players[:4]),
        "Zoé",
        "Yves",
    }
    client.post(f"{url}/stages/new/", {"name": "League", "bye": "win"})
    stage = Stage.objects.get(tournament=tournament)
    response = client.post(f"/stages/{stage.pk}/rounds/", follow=True)
    assert "5 rounds published." in response.content.decode()  # 6 players: n - 1 rounds
    assert Series.objects.filter(stage=stage).count() == 15
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_adding_a_player_who_already_exists_shows_the_error(
    make_tournament: Callable[..., Tournament], organiser: Any, players: list[Player]
) -> None:
    tournament = make_tournament()
    response = _client(organiser).post(f"/tournaments/{tournament.pk}/players/", {"new_names": "Anna"})
    assert response.status_code == 400
    assert "already has a player called Anna" in response.content.decode()
    assert not tournament.entries.exists()


@pytest.mark.parametrize(("who", "draft_status"), [("referee", 403), ("player_user", 404)])
def test_only_organisers_may_set_up(
    club: Any, make_tournament: Callable[..., Tournament], who: str, draft_status: int, request: Any
) -> None:
    client = _client(request.getfixturevalue(who))
    tournament = make_tournament()
    response = client.post(
        f"/clubs/{club.slug}/tournaments/new/", {"name": "X", "game": "snap", "series_format": "best_of_3"}
    )
    assert response.status_code == 403
    # The draft is the referee's to see, but not to change; a player does not even see it.
    stage = client.post(f"/tournaments/{tournament.pk}/stages/new/", {"name": "L"})
    assert stage.status_code == draft_status
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_the_organiser_corrects_a_result_with_a_reason_kept_in_the_history(
    table: Series, players: list[Player], referee: Any, organiser: Any
) -> None:
    a, b, c, d = players[:4]
    record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(a, d, c, b))
    client = _client(organiser)
    url = f"/series/{table.pk}/games/1/correct/"
    form = client.get(url).content.decode()
    assert f'name="out_{d.pk}" value="1"' in form  # starts from the recorded result
    no_reason = client.post(url, _snap_taps(table, d, c, a, key="c1", expected_version=1))
    assert no_reason.status_code == 400 and "This field is required" in no_reason.content.decode()
    response = client.post(
        url,
        _snap_taps(table, d, c, a, key="c2", expected_version=1, reason="Bence won, not Anna"),
        follow=True,
    )
    assert "Game 1 corrected." in response.content.decode()
    versions = list(GameResult.objects.order_by("version"))
    assert [(v.version, v.confirmed) for v in versions] == [(1, False), (2, True)]
    assert versions[1].data["winner"] == b.pk
    page = _client().get(f"/series/{table.pk}/").content.decode()
    assert "Bence won, not Anna" in page and "superseded" in page


def test_a_referee_cannot_correct(table: Series, players: list[Player], referee: Any) -> None:
    record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]))
    assert _client(referee).get(f"/series/{table.pk}/games/1/correct/").status_code == 403


# --- Live updates -----------------------------------------------------------------------------------


def test_the_version_endpoints_tell_htmx_to_reload_only_when_something_changed(
    table: Series, players: list[Player], referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = _client()
    stage_url, series_url = f"/stages/{table.stage_id}/version/", f"/series/{table.pk}/version/"
    assert client.get(stage_url).json() == {"version": "0.0"}
    assert "HX-Trigger" not in client.get(stage_url, {"seen": "0.0"})
    assert "HX-Trigger" not in client.get(series_url, {"seen": "0"})
    with django_capture_on_commit_callbacks(execute=True):
        record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]))
    assert client.get(stage_url, {"seen": "0.0"})["HX-Trigger"] == "standings-changed"
    assert client.get(series_url, {"seen": "0"})["HX-Trigger"] == "series-changed"
    fragment = client.get(f"/stages/{table.stage_id}/standings/table/").content.decode()
    assert 'data-version="1.1"' in fragment and "seen=1.1" in fragment
    assert "<html" not in fragment


def test_round_pages_show_the_bye(
    make_series: Callable[..., Series], players: list[Player], referee: Any
) -> None:
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    Round.objects.filter(pk=series.round_id).update(bye=players[2])
    page = _client().get(f"/tournaments/{series.stage.tournament_id}/").content.decode()
    assert "Csilla has the bye" in page


def test_players_given_the_same_number_went_out_together(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    data = _snap_taps(table, d)
    data.update({f"out_{b.pk}": 2, f"out_{c.pk}": 2})  # "Next out together": b and c share a place
    _client(referee).post(_record_url(table), data)
    stored = GameResult.objects.get().data
    assert stored["eliminated"] == [[d.pk], [b.pk, c.pk]]
    assert stored["placings"] == {str(a.pk): 1, str(b.pk): 2, str(c.pk): 2, str(d.pk): 4}


def test_sudden_death_is_shown_and_only_the_tied_players_are_offered(
    table: Series, players: list[Player], referee: Any
) -> None:
    a, b, c, d = players[:4]
    # Best of 3 at a table of four: a, b and c win a game each, so the three of them play sudden death.
    for number, winner in enumerate((a, b, c), start=1):
        others = [p for p in (a, b, c, d) if p != winner]
        record_result(user=referee, series_id=table.pk, game_number=number, result=snap_win(winner, *others))
    series_page = _client().get(f"/series/{table.pk}/").content.decode()
    assert "Sudden death" in series_page and "Next: game 4" in series_page
    form = _client(referee).get(_record_url(table)).content.decode()
    assert "Sudden death" in form
    assert form.count('class="tap"') == 3 and f'name="out_{d.pk}"' not in form
    response = _client(referee).post(_record_url(table), _snap_taps(table, c, b, game=4))
    assert response.status_code == 302
    assert Series.objects.get(pk=table.pk).status == Series.Status.DECIDED
    assert "in sudden death" in _client().get(f"/series/{table.pk}/").content.decode()


def test_the_series_page_offers_each_role_only_its_own_actions(
    table: Series, players: list[Player], referee: Account, organiser: Account, player_user: Account
) -> None:
    record_result(user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4]))
    correct = f"/series/{table.pk}/games/1/correct/"
    pages = {
        who: _client(user).get(f"/series/{table.pk}/").content.decode()
        for who, user in (("organiser", organiser), ("referee", referee), ("player", player_user))
    }
    assert correct in pages["organiser"] and _record_url(table) in pages["organiser"]
    assert correct not in pages["referee"] and _record_url(table) in pages["referee"]
    assert correct not in pages["player"] and _record_url(table) not in pages["player"]


def test_a_two_game_snapszer_match_is_entered_game_by_game(
    duel: Series, players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    Tournament.objects.filter(pk=duel.stage.tournament_id).update(rules_profile="snapszer-hu")
    form = _client(referee).get(_record_url(duel)).content.decode()
    assert 'data-mode="games"' in form and f'name="game_2_{b.pk}"' in form
    data = {"game": 1, "expected_version": 0, "client_key": "g1", "mode": "games"}
    for index, (score_a, score_b) in enumerate([(7, 5), (2, 7), (7, 1)]):
        data.update({f"game_{index}_{a.pk}": score_a, f"game_{index}_{b.pk}": score_b})
    response = _client(referee).post(_record_url(duel), data)
    assert response.status_code == 302, response.content.decode()[-1500:]
    stored = GameResult.objects.get().data
    assert stored["winner"] == a.pk and len(stored["games"]) == 3
    assert stored["score"] == {str(a.pk): 16, str(b.pk): 13}
