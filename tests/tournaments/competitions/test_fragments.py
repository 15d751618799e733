"""Live fragments rendered once per version (issue 27 items 1 and 2, snapleague/fragments.py): one
rendering serves every watcher of a version, a conditional GET is a 304 without rendering, a new
result is a new version (never a stale table, whatever the order of results and reads), the language
and the reader's right to see the stage are kept, and the caching headers say who may keep a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.signals import template_rendered

from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Series, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def league(cup: Callable[..., Tournament], organiser: Account) -> Stage:
    tournament = cup(4)
    stage = stage_create(user=organiser, tournament=tournament, name="League", format="round_robin")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    return stage


def _renders(template: str) -> list[str]:
    seen: list[str] = []

    def count(sender: Any, template: Any, **kwargs: Any) -> None:
        if template.name == template_name:
            seen.append(template.name)

    template_name = template
    template_rendered.connect(count, weak=False, dispatch_uid=f"count-{template}")
    return seen


def _stop(template: str) -> None:
    template_rendered.disconnect(dispatch_uid=f"count-{template}")


def _win_next(stage: Stage, referee: Account) -> Series:
    series = Series.objects.filter(stage=stage).exclude(status=Series.Status.DECIDED).order_by("pk").first()
    assert series is not None
    a, b = (s.player for s in series.seats.select_related("player").order_by("seat"))
    record_result(
        user=referee, series_id=series.pk, game_number=series.games.count() + 1, result=snapszer_win(a, b)
    )
    return series


def test_one_rendering_serves_every_reader_of_a_version_and_a_304_renders_nothing(league: Stage) -> None:
    url = f"/stages/{league.pk}/standings/table/"
    seen = _renders("tournaments/_standings_table.html")
    try:
        first = Client().get(url)
        for _ in range(5):
            again = Client().get(url)
            assert again.content == first.content and again["ETag"] == first["ETag"]
        assert len(seen) == 1
        unchanged = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304 and unchanged.content == b"" and len(seen) == 1
    finally:
        _stop("tournaments/_standings_table.html")


def test_results_and_reads_interleaved_never_serve_a_stale_table(league: Stage, referee: Account) -> None:
    """After every result, a reader gets exactly what a fresh rendering of that moment gives."""
    url = f"/stages/{league.pk}/standings/table/"
    tags = set()
    for _ in range(6):
        before = Client().get(url)
        _win_next(league, referee)
        after = Client().get(url)
        cache.clear()
        fresh = Client().get(url)
        assert after.content == fresh.content, "the cache served something else than the table of now"
        assert after["ETag"] != before["ETag"]
        tags.add(after["ETag"])
        # A reader holding the old version is not told "not modified".
        assert Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200
    assert len(tags) == 6


def test_each_language_has_its_own_rendering(league: Stage) -> None:
    url = f"/stages/{league.pk}/standings/table/"
    english = Client().get(url)
    hungarian = Client(HTTP_ACCEPT_LANGUAGE="hu").get(url)
    assert english["ETag"] != hungarian["ETag"] and english.content != hungarian.content


def test_a_draft_stage_stays_hidden_even_when_its_fragment_is_cached(
    cup: Callable[..., Tournament], organiser: Account
) -> None:
    draft = cup(4)
    stage = stage_create(user=organiser, tournament=draft, name="League", format="round_robin")
    staff = Client()
    staff.force_login(organiser)
    for path in ("standings/table/", "body/"):
        assert staff.get(f"/stages/{stage.pk}/{path}").status_code == 200
        assert Client().get(f"/stages/{stage.pk}/{path}").status_code == 404


def test_anonymous_fragments_may_be_micro_cached_by_a_proxy_and_signed_in_ones_never(
    league: Stage, organiser: Account
) -> None:
    url = f"/stages/{league.pk}/body/"
    anonymous = Client().get(url)
    assert anonymous["Cache-Control"] == "public, max-age=0, s-maxage=1, must-revalidate"
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in anonymous["Vary"].split(",")}
    staff = Client()
    staff.force_login(organiser)
    assert staff.get(url)["Cache-Control"] == "private, no-cache"


def test_the_big_screen_is_rendered_once_for_the_room_and_fresh_for_its_officials(
    league: Stage, referee: Account
) -> None:
    url = f"/tournaments/{league.tournament_id}/screen/body/"
    seen = _renders("tournaments/_screen_body.html")
    try:
        for _ in range(3):
            assert Client().get(url).status_code == 200
        assert len(seen) == 1
        official = Client()
        official.force_login(referee)
        official.get(url)
        official.get(url)
        assert len(seen) == 3  # the officials' screen counts disputes against the clock: never cached
        _win_next(league, referee)
        Client().get(url)
        assert len(seen) == 4
    finally:
        _stop("tournaments/_screen_body.html")


def test_the_standings_and_stage_pages_take_their_live_fragment_from_the_cache(
    league: Stage, referee: Account, organiser: Account
) -> None:
    """The pages a crowd opens show the same fragment their fetch answers, rendered once per version:
    a second reader's page renders neither the table nor the rounds again, and after a result the
    pages show the new version. The organiser's stage page still has its forms."""
    pages = {
        f"/stages/{league.pk}/standings/": (
            "tournaments/_standings_table.html",
            f"/stages/{league.pk}/standings/table/",
        ),
        f"/stages/{league.pk}/": ("tournaments/_stage_body.html", f"/stages/{league.pk}/body/"),
    }
    for page, (template, fragment) in pages.items():
        seen = _renders(template)
        try:
            first = Client().get(page).content.decode()
            second = Client().get(page).content.decode()
            assert len(seen) == 1, page
            shown = Client().get(fragment).content.decode()
            assert shown in first and shown in second  # (each page has its visitor's CSRF token)
            assert len(seen) == 1, page
            _win_next(league, referee)
            stage = Stage.objects.get(pk=league.pk)
            after = Client().get(page).content.decode()
            assert f'data-version="{stage.results_version}.{stage.standings_version}"' in after
            assert len(seen) == 2, page
        finally:
            _stop(template)
    client = Client()
    client.force_login(organiser)
    assert "Withdraw a player" in client.get(f"/stages/{league.pk}/").content.decode()
    assert "Withdraw a player" not in Client().get(f"/stages/{league.pk}/").content.decode()
