"""The ratings pages, the API and seeding by rating, on a club with a rated history."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from snapleague.users import Account
from tests.tournaments.rankings.ratings.test_services import _build, _enter
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Entry, GameKind, Player, PlayerRating, StageFormat, Tournament
from tournaments.rankings.ratings.plot import PlotPoint, rating_plot_svg

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(organiser: Account) -> tuple[Any, dict[str, Player]]:
    club, players, jobs = _build(organiser, "rated")
    _enter(organiser, jobs, None)
    return club, players


def _snapszer_order(club: Any) -> list[str]:
    return [
        r.player.name
        for r in PlayerRating.objects.filter(club=club, game=GameKind.SNAPSZER).order_by("-value")
    ]


def test_the_club_ratings_page_lists_players_best_first(rated: Any) -> None:
    club, _ = rated
    html = Client().get(f"/clubs/{club.slug}/ratings/").content.decode()

    order = _snapszer_order(club)
    assert order[0] == "Csilla"
    snapszer_part = html[html.index("Snapszer") : html.index("<h2>Snap</h2>")]
    positions = [snapszer_part.index(f">{name}</a>") for name in order]
    assert positions == sorted(positions)
    assert "μ − 3σ" in html


def test_the_player_page_plots_the_history_and_lists_what_moved_it(rated: Any) -> None:
    _club, players = rated
    anna = players["Anna"]
    html = Client().get(f"/players/{anna.pk}/").content.decode()

    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="rating-plot"') == 2  # Snapszer, Snap
    # Two Snapszer club days, four Snap games: each a point linking to its line in the list.
    assert len(re.findall(r'href="#rating-snapszer-\d"', html)) == 2
    assert len(re.findall(r'href="#rating-snap-\d"', html)) == 4
    assert 'id="rating-snapszer-2"' in html and 'id="rating-snap-4"' in html
    day_two = html[html.index('id="rating-snapszer-2"') :]
    day_two = day_two[: day_two.index("</ul>")]
    assert "Bence" in day_two and "Csilla" in day_two  # her two series on 2026-11-21
    assert "<script" not in html[html.index("rating-history") : html.index("</main>")]


def test_the_api_gives_club_ratings_and_a_players_history(rated: Any) -> None:
    club, players = rated
    client = APIClient()

    body = client.get(f"/api/clubs/{club.pk}/ratings/", {"game": "snapszer"}).json()
    history = client.get(f"/api/players/{players['Anna'].pk}/ratings/").json()

    assert [r["name"] for r in body["ratings"]] == _snapszer_order(club)
    assert body["stale"] is False and all(r["volatility"] for r in body["ratings"])
    snapszer = next(h for h in history["ratings"] if h["game"] == "snapszer")
    assert [p["period"] for p in snapszer["history"]] == ["2026-11-14", "2026-11-21"]
    assert snapszer["history"][-1]["rating"] == pytest.approx(snapszer["current"]["rating"])
    assert len(snapszer["history"][0]["moves"]) == 2


def test_the_api_refuses_an_unknown_game_with_a_field_error(rated: Any) -> None:
    club, _ = rated
    response = APIClient().get(f"/api/clubs/{club.pk}/ratings/", {"game": "poker"})

    assert response.status_code == 400
    assert "game" in response.json()["fields"]


def test_seeding_by_rating_puts_the_best_rated_first_and_the_unrated_last(
    rated: Any, organiser: Account
) -> None:
    club, players = rated
    newcomer = Player.objects.create(club=club, name="Zoltán")
    cup = Tournament.objects.create(club=club, name="Cup", game=GameKind.SNAPSZER, rules_profile="snapszer")
    entered = [newcomer, *sorted(players.values(), key=lambda p: p.name)]
    for seed, player in enumerate(entered, start=1):
        Entry.objects.create(tournament=cup, player=player, seed=seed)

    stage = stage_create(
        user=organiser,
        tournament=cup,
        name="Knockout",
        format=StageFormat.SINGLE_ELIMINATION,
        options={"seeding": "rating"},
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    stage.refresh_from_db()

    names = {p.pk: p.name for p in entered}
    assert [names[pk] for pk in stage.entrants] == [*_snapszer_order(club), "Zoltán"]


def test_the_plot_escapes_its_texts_and_covers_its_values() -> None:
    points = [
        PlotPoint(1500, "2026-11-14", "<b>", "a", (1400, 1600)),
        PlotPoint(1540, "2026-11-21", "x", 'b"><script>', (1450, 1630)),
    ]
    svg = rating_plot_svg(points, title="Anna & <Bence>")

    assert "<script" not in svg and "&lt;b&gt;" in svg and "Anna &amp; &lt;Bence&gt;" in svg
    ticks = [float(t.replace("\u2212", "-")) for t in re.findall(r'class="tick"[^>]*>([^<]+)<', svg)]
    assert min(ticks) <= 1400 and max(ticks) >= 1630
    assert rating_plot_svg([], title="empty") == ""
