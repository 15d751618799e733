"""The stage pages an organiser and the players use: the new-stage form for every format, the
preview, publishing, the bracket and round pages, withdrawing and recording a no-show."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Forfeit, GameKind, Player, Round, Series, Stage, Tournament, Withdrawal

pytestmark = pytest.mark.django_db


def _client(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(
    "case",
    [
        (GameKind.SNAPSZER, "swiss", {"rounds": "3", "bye": "draw"}, {"rounds": 3, "bye": "draw"}),
        (GameKind.SNAPSZER, "single_elimination", {"third_place": "on"}, {"third_place": True}),
        (GameKind.SNAPSZER, "double_elimination", {}, {"grand_final_reset": False}),
        (GameKind.SNAPSZER, "groups_playoff", {"group_size": "4", "advance": "2"}, {"group_size": 4}),
        (GameKind.SNAP, "swiss_tables", {"table_size": "3"}, {"table_size": 3}),
        (GameKind.SNAP, "heats", {"table_size": "4", "advance": "2", "repechage": "on"}, {"repechage": True}),
    ],
)
def test_the_new_stage_form_creates_every_format_with_its_options(
    cup: Callable[..., Tournament], organiser: Any, case: tuple[str, str, dict[str, str], dict[str, Any]]
) -> None:
    game, format, options, expected = case
    tournament = cup(8, game=game)
    page = _client(organiser).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'value="{format}"' in page  # offered for this game
    response = _client(organiser).post(
        f"/tournaments/{tournament.pk}/stages/new/",
        {"name": "Stage", "format": format, "publishing": "review", **options},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    stage = Stage.objects.get(tournament=tournament)
    assert stage.format == format and stage.publishing == "review"
    assert expected.items() <= stage.options.items()


def test_formats_snapszer_cannot_play_are_not_offered(cup: Callable[..., Tournament], organiser: Any) -> None:
    page = _client(organiser).get(f"/tournaments/{cup(4).pk}/").content.decode()
    assert 'value="swiss"' in page and 'value="swiss_tables"' not in page and 'value="heats"' not in page


def test_an_impossible_configuration_is_a_form_error_and_creates_nothing(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    tournament = cup(5)
    response = _client(organiser).post(
        f"/tournaments/{tournament.pk}/stages/new/",
        {"name": "Groups", "format": "groups_playoff", "group_size": "4", "advance": "2"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "5 players cannot be split into groups of 4" in page
    # The message sits in the group size field's block.
    field = re.search(r'<div class="field has-error">.*?</div>', page, re.S)
    assert field is not None and 'name="group_size"' in field.group(0)
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_preview_stores_nothing_then_publishing_shows_the_round_with_table_numbers(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    tournament = cup(6)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    client = _client(organiser)
    preview = client.get(f"/stages/{stage.pk}/preview/").content.decode()
    assert preview.count("<tr>") == 1 + 3 and "Publish" in preview  # a header and three pairings
    assert not Round.objects.filter(stage=stage).exists()
    response = client.post(f"/stages/{stage.pk}/rounds/", follow=True)
    assert "Round 1 published." in response.content.decode()
    round_page = client.get(f"/stages/{stage.pk}/rounds/1/").content.decode()
    for series in Series.objects.filter(stage=stage):
        names = " – ".join(s.player.name for s in series.seats.order_by("seat"))
        assert f'<td class="table-no">{series.table}</td>' in round_page and names in round_page
    again = client.post(f"/stages/{stage.pk}/rounds/", follow=True).content.decode()
    assert "cannot be generated yet" in again  # round 2 waits for round 1's results
    assert Round.objects.filter(stage=stage).count() == 1


def test_the_bracket_page_draws_every_series_and_a_swiss_has_none(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    tournament = cup(8)
    tournament.referees.add(referee)
    knockout = stage_create(
        user=organiser,
        tournament=tournament,
        name="Cup",
        format="double_elimination",
        options={"seeding": "manual"},
    )
    stage_round_publish(user=organiser, stage_id=knockout.pk)
    first = Series.objects.filter(stage=knockout).order_by("table").first()
    assert first is not None
    seated = [s.player for s in first.seats.order_by("seat")]
    record_result(user=referee, series_id=first.pk, game_number=1, result=snapszer_win(seated[1], seated[0]))
    page = _client().get(f"/stages/{knockout.pk}/").content.decode()
    assert page.count('class="bracket-scroll"') == 1 and "<svg" in page
    for series in Series.objects.filter(stage=knockout):
        assert f'href="/series/{series.pk}/"' in page
    assert "bx-playing" in page  # the series in play is marked live
    swiss = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=swiss.pk)
    assert "<svg" not in _client().get(f"/stages/{swiss.pk}/").content.decode()


def test_withdrawing_from_the_page(cup: Callable[..., Tournament], organiser: Any) -> None:
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    gone = Player.objects.get(name="P004")
    client = _client(organiser)
    bad = client.post(f"/stages/{stage.pk}/withdraw/", {"player": gone.pk, "from_round": "9"})
    assert bad.status_code == 400 and "Choose a round from 1 to 2" in bad.content.decode()
    ok = client.post(f"/stages/{stage.pk}/withdraw/", {"player": gone.pk, "reason": "went home"})
    assert ok.status_code == 302
    assert Withdrawal.objects.get(stage=stage).from_round == 1


def test_a_no_show_from_the_series_page(cup: Callable[..., Tournament], organiser: Any, referee: Any) -> None:
    tournament = cup(2)
    stage = stage_create(user=organiser, tournament=tournament, name="Final", format="single_elimination")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    final = Series.objects.get(stage=stage)
    away = final.seats.get(seat=0).player
    assert "Record a no-show" in _client(organiser).get(f"/series/{final.pk}/").content.decode()
    assert "Record a no-show" not in _client(referee).get(f"/series/{final.pk}/").content.decode()
    refused = _client(referee).post(f"/series/{final.pk}/forfeit/", {"players": [away.pk]})
    assert refused.status_code == 403 and not Forfeit.objects.exists()
    _client(organiser).post(f"/series/{final.pk}/forfeit/", {"players": [away.pk], "reason": "ill"})
    final.refresh_from_db()
    assert final.status == Series.Status.DECIDED and Forfeit.objects.get().player == away


def test_only_the_organiser_previews_and_publishes(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    assert _client().get(f"/stages/{stage.pk}/preview/").status_code == 302  # to the login page
    assert _client(referee).get(f"/stages/{stage.pk}/preview/").status_code == 403
    assert _client(referee).post(f"/stages/{stage.pk}/rounds/").status_code == 403
    assert not Round.objects.filter(stage=stage).exists()


def test_a_swiss_standings_page_names_its_own_tiebreaks_and_why_each_row_is_below(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=stage.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for series in Series.objects.filter(stage=stage):
            a, b = (s.player for s in series.seats.order_by("seat"))
            for number in (1, 2):
                record_result(
                    user=referee, series_id=series.pk, game_number=number, result=snapszer_win(a, b)
                )
    page = _client().get(f"/stages/{stage.pk}/standings/").content.decode()
    assert "Median Buchholz" in page and "Sonneborn-Berger" in page
    assert page.count('class="why"') == 3  # every row but the first says why it is below


def test_the_organiser_lists_the_tiebreaks_in_order_and_one_that_does_not_apply_is_refused(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    tournament = cup(4)
    client = _client(organiser)
    url = f"/tournaments/{tournament.pk}/stages/new/"
    base = {"name": "Swiss", "format": "swiss"}
    refused = client.post(url, {**base, "tiebreak_1": "series_won", "tiebreak_2": "placing_sum"})
    assert refused.status_code == 400 and "placing_sum" in refused.content.decode()
    assert not Stage.objects.exists()
    client.post(
        url, {**base, "tiebreak_1": "series_won", "tiebreak_2": "sonneborn_berger", "tiebreak_3": "buchholz"}
    )
    assert Stage.objects.get().tiebreaks == ["series_won", "sonneborn_berger", "buchholz"]


def test_the_organiser_marks_a_stage_online_and_back(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    assert "Play this stage online" in _client(organiser).get(f"/stages/{stage.pk}/").content.decode()
    assert _client(referee).post(f"/stages/{stage.pk}/online/", {"online": "1"}).status_code == 403
    _client(organiser).post(f"/stages/{stage.pk}/online/", {"online": "1"})
    stage.refresh_from_db()
    assert stage.online_play
    _client(organiser).post(f"/stages/{stage.pk}/online/", {"online": "0"})
    stage.refresh_from_db()
    assert not stage.online_play
    created = _client(organiser).post(
        f"/tournaments/{tournament.pk}/stages/new/",
        {"name": "Online cup", "format": "swiss", "online_play": "on"},
    )
    assert created.status_code == 302 and Stage.objects.get(name="Online cup").online_play


def _knockout_with_every_first_round_game_won(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, players: int
) -> Stage:
    tournament = cup(players, prefix=f"K{players}-")
    tournament.referees.add(referee)
    knockout = stage_create(
        user=organiser, tournament=tournament, name="Cup", format="single_elimination", options={}
    )
    stage_round_publish(user=organiser, stage_id=knockout.pk)
    for series in Series.objects.filter(stage=knockout):
        seated = [s.player for s in series.seats.order_by("seat")]
        if len(seated) == 2:
            record_result(
                user=referee, series_id=series.pk, game_number=1, result=snapszer_win(seated[0], seated[1])
            )
    return knockout


def test_the_bracket_page_reads_a_fixed_number_of_queries_however_many_series_it_scores(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    """Every series' score is folded from prefetched seats: a bracket of 16 costs the queries of a
    bracket of 4 (it was three more queries per series: 43 for the demo's double elimination)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (4, 16):
        stage = _knockout_with_every_first_round_game_won(cup, organiser, referee, players)
        client = _client()
        assert client.get(f"/stages/{stage.pk}/").status_code == 200
        cache.clear()  # the page and its bracket rendered again, not taken from the cache
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/stages/{stage.pk}/")
        assert response.status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts
