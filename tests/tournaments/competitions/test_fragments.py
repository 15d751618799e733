"""Live fragments rendered once per version (issue 27 items 1 and 2, snapleague/fragments.py): one
rendering serves every watcher of a version, a conditional GET is a 304 without rendering, a new
result is a new version (never a stale table, whatever the order of results and reads), the language
and the reader's right to see the stage are kept, and the caching headers say who may keep a copy."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.signals import template_rendered

from snapleague.fragments import recent
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_round_publish
from tournaments.models import Series, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()
    recent.clear()


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


def test_with_a_shared_cache_each_process_keeps_the_fragments_it_served_last(
    league: Stage, referee: Account, settings: Any
) -> None:
    settings.FRAGMENT_LOCAL_ENTRIES = 2
    url = f"/stages/{league.pk}/standings/table/"
    seen = _renders("tournaments/_standings_table.html")
    try:
        first = Client().get(url).content
        cache.clear()  # the shared cache lost it (Redis restarted, evicted): this process kept it
        assert Client().get(url).content == first
        assert len(seen) == 1
        _win_next(league, referee)
        after = Client().get(url).content
        assert after != first and len(seen) == 2  # a new version is a new key: never the old copy
        # Two other fragments served since push it out of this process's two places.
        Client().get(f"/stages/{league.pk}/body/")
        Client(HTTP_ACCEPT_LANGUAGE="hu").get(url)
        assert len(seen) == 3
        cache.clear()
        assert Client().get(url).content == after
        assert len(seen) == 4
    finally:
        _stop("tournaments/_standings_table.html")


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
    for path in ("standings/table/", "body/", "", "standings/"):
        assert staff.get(f"/stages/{stage.pk}/{path}").status_code == 200
        assert Client().get(f"/stages/{stage.pk}/{path}").status_code == 404
    # Once its first round is out the draft is public, pages and all.
    stage_round_publish(user=organiser, stage_id=stage.pk)
    for path in ("standings/table/", "body/", "", "standings/"):
        assert Client().get(f"/stages/{stage.pk}/{path}").status_code == 200


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


# --- Whole public pages: the club, the tournament and the series page for anonymous visitors --------


def _main(url: str) -> str:
    """The page's ``<main>`` as an anonymous visitor gets it (what is outside it, the header and the
    footer's CSRF token, is the visitor's own)."""
    response = Client().get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    return html[html.index("<main>") : html.index("</main>")]


CSRF_VALUES = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+"')


def _page(url: str) -> str:
    """The whole page as an anonymous visitor gets it, the visitor's own CSRF token left out."""
    response = Client().get(url)
    assert response.status_code == 200, url
    return CSRF_VALUES.sub(r'\1"', response.content.decode())


def _follows(url: str, change: Callable[[], Any]) -> None:
    """After ``change`` the cached page (all of it: title, header, footer) shows exactly what a
    fresh rendering of that moment shows, and something else than before."""
    before = _page(url)
    change()
    after = _page(url)
    cache.clear()
    assert after == _page(url), f"{url}: the cache served a page older than {change.__name__}"
    assert after != before, f"{url}: {change.__name__} changed nothing on the page"


def _public_pages(stage: Stage) -> dict[str, str]:
    series = Series.objects.filter(stage=stage).order_by("pk").first()
    assert series is not None
    return {
        f"/clubs/{stage.tournament.club.slug}/": "tournaments/_club_main.html",
        f"/tournaments/{stage.tournament_id}/": "tournaments/_tournament_main.html",
        f"/series/{series.pk}/": "tournaments/_series_main.html",
    }


def test_a_crowd_on_the_club_tournament_and_series_pages_costs_one_rendering_per_version(
    league: Stage, organiser: Account
) -> None:
    for url, template in _public_pages(league).items():
        seen = _renders(template)
        try:
            first = _main(url)
            for _ in range(4):
                assert _main(url) == first
            assert len(seen) == 1, url
            # A signed-in reader's page is their own (an organiser's forms): rendered for them.
            staff = Client()
            staff.force_login(organiser)
            assert staff.get(url).status_code == 200
            assert len(seen) == 2, url
        finally:
            _stop(template)
    staff = Client()
    staff.force_login(organiser)
    tournament_url = f"/tournaments/{league.tournament_id}/"
    assert "Add players" in staff.get(tournament_url).content.decode()
    assert "Add players" not in _main(tournament_url)


def _whole_pages(stage: Stage) -> list[str]:
    """Every page an anonymous visitor gets whole from the cache."""
    return [*_public_pages(stage), f"/stages/{stage.pk}/", f"/stages/{stage.pk}/standings/"]


def test_the_whole_page_is_rendered_once_per_version_and_each_visitor_gets_their_own_csrf_token(
    league: Stage,
) -> None:
    for url in _whole_pages(league):
        cache.clear()
        seen = _renders("base.html")
        try:
            visitors = [Client(enforce_csrf_checks=True) for _ in range(3)]
            pages = [visitor.get(url) for visitor in visitors]
            assert len(seen) == 1, f"{url}: rendered {len(seen)} times for three visitors"
        finally:
            _stop("base.html")
        tokens = [
            re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()) for page in pages
        ]
        assert all(tokens), url
        assert len({t.group(1) for t in tokens if t}) == 3, f"{url}: visitors share a CSRF token"
        assert all("csrf-slot" not in page.content.decode() for page in pages)
        # Each token is the visitor's own: the footer's language form posts with it.
        for visitor, token in zip(visitors, tokens, strict=True):
            assert token is not None
            answer = visitor.post(
                "/i18n/setlang/", {"language": "hu", "next": url, "csrfmiddlewaretoken": token.group(1)}
            )
            assert answer.status_code == 302, f"{url}: the cached page's CSRF token was refused"
        stranger = Client(enforce_csrf_checks=True)
        refused = stranger.post(
            "/i18n/setlang/", {"language": "hu", "csrfmiddlewaretoken": tokens[0].group(1)}
        )
        assert refused.status_code == 403


def test_a_visitor_with_a_message_or_a_query_string_gets_a_page_of_their_own(league: Stage) -> None:
    url = f"/tournaments/{league.tournament_id}/"
    Client().get(url)  # the cached copy exists
    visitor = Client()
    visitor.get(url)
    # A message waiting for this visitor (a sign-out's "You have signed out.") is shown to them.
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(messages.INFO, "Goodbye for tonight.")
    carrier = HttpResponse()
    storage.update(carrier)
    visitor.cookies["messages"] = carrier.cookies["messages"].value
    assert "Goodbye for tonight." in visitor.get(url).content.decode()
    assert "Goodbye for tonight." not in Client().get(url).content.decode()
    # The page repeats its query string (the login link's next, the language form's): not shared.
    tagged = Client().get(url + "?from=poster").content.decode()
    assert "from%3Dposter" in tagged or "from=poster" in tagged
    assert "from=poster" not in Client().get(url).content.decode()


def test_every_change_the_tournament_page_shows_is_a_new_version(
    league: Stage, organiser: Account, referee: Account
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.competitions.results.reporting import tournament_result_mode_set
    from tournaments.competitions.services import tournament_players_add
    from tournaments.models import Player
    from tournaments.nights.services import session_create

    tournament = league.tournament
    url = f"/tournaments/{tournament.pk}/"

    def a_result() -> None:
        _win_next(league, referee)

    def a_new_entry() -> None:
        newcomer = Player.objects.create(club=tournament.club, name="Zoë Late")
        tournament_players_add(user=organiser, tournament=tournament, players=[newcomer])

    def a_session() -> None:
        session_create(
            user=organiser, tournament=tournament, name="Friday", starts_at=timezone.now() + timedelta(days=2)
        )

    def players_report() -> None:
        tournament_result_mode_set(
            user=organiser, tournament=Tournament.objects.get(pk=tournament.pk), result_mode="confirm"
        )

    for change in (a_result, a_new_entry, a_session, players_report, a_result):
        _follows(url, change)


def test_every_change_the_stage_and_standings_pages_show_is_a_new_version(
    league: Stage, organiser: Account, referee: Account
) -> None:
    stage_url, standings_url = f"/stages/{league.pk}/", f"/stages/{league.pk}/standings/"

    def a_result() -> None:
        _win_next(league, referee)

    def a_series_decided() -> None:
        series = _win_next(league, referee)
        while Series.objects.get(pk=series.pk).status != Series.Status.DECIDED:
            _win_next(league, referee)

    for url in (stage_url, standings_url):
        _follows(url, a_result)
        _follows(url, a_series_decided)


def test_every_change_the_series_and_club_pages_show_is_a_new_version(
    league: Stage, organiser: Account, referee: Account, make_user: Callable[..., Account], monkeypatch: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.competitions.registration import registration_window_set
    from tournaments.competitions.results import reporting
    from tournaments.competitions.results.selectors import result_target_get
    from tournaments.competitions.services import tournament_create
    from tournaments.models import Player

    tournament = league.tournament
    series = Series.objects.filter(stage=league).order_by("pk").first()
    assert series is not None
    a, b = (s.player for s in series.seats.select_related("player").order_by("seat"))
    url = f"/series/{series.pk}/"

    def game_one() -> None:
        record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(a, b))

    def a_players_report() -> None:
        reporting.tournament_result_mode_set(
            user=organiser, tournament=Tournament.objects.get(pk=tournament.pk), result_mode="confirm"
        )
        a.user = make_user("a-player")
        a.save()
        value = result_target_get(user=organiser, series_id=series.pk, game_number=2).parse(
            snapszer_win(a, b)
        )
        reporting.report_submit(user=a.user, series_id=series.pk, game_number=2, result=value)

    for change in (game_one, a_players_report):
        _follows(url, change)

    club = f"/clubs/{tournament.club.slug}/"

    def a_newcomer() -> None:
        Player.objects.create(club=tournament.club, name="Nadia")

    def a_registration_opening_in_an_hour() -> None:
        draft = tournament_create(user=organiser, club=tournament.club, name="Spring Open", game="snapszer")
        now = timezone.now()
        registration_window_set(
            user=organiser,
            tournament=draft,
            opens_at=now + timedelta(hours=1),
            closes_at=now + timedelta(days=3),
        )

    def an_hour_passes() -> None:
        """Nothing is written: the clock alone opens the registration, and the club page says so."""
        later = timezone.now() + timedelta(hours=2)
        monkeypatch.setattr(timezone, "now", lambda: later)

    _follows(club, a_newcomer)
    a_registration_opening_in_an_hour()
    assert "Spring Open" not in _main(club)
    _follows(club, an_hour_passes)
    assert "Spring Open" in _main(club)


def test_the_tonight_part_is_rendered_once_per_version_and_follows_the_room(
    league: Stage, organiser: Account, referee: Account
) -> None:
    """Every phone in the room follows the session's tonight part: one rendering per version, and
    each change it shows (a check-in, the tables' stations, the round's time, a result, the
    check-in closing) is a new version, whatever the order of changes and reads."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Round
    from tournaments.nights import checkin as session_checkin
    from tournaments.nights import services as session_services

    session = session_services.session_create(
        user=organiser,
        tournament=league.tournament,
        name="Friday",
        starts_at=timezone.now() + timedelta(days=1),
    )
    first = Round.objects.filter(stage=league).order_by("number").first()
    assert first is not None
    session_services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    url = f"/sessions/{session.pk}/body/"
    seen = _renders("tournaments/_session_tonight.html")
    try:
        shown = Client().get(url)
        staff = Client()
        staff.force_login(organiser)
        assert staff.get(url).content == shown.content  # the same for everyone
        assert len(seen) == 1
    finally:
        _stop("tournaments/_session_tonight.html")
    player = Series.objects.filter(round=first).first().seats.first().player  # type: ignore[union-attr]

    def body() -> str:
        return Client().get(url).content.decode()

    def follows(change: Callable[[], Any]) -> None:
        before = body()
        change()
        after = body()
        cache.clear()
        assert after == body(), f"the cache served a tonight part older than {change.__name__}"
        assert after != before, f"{change.__name__} changed nothing"

    def a_check_in() -> None:
        session_checkin.session_check_in(user=organiser, session_id=session.pk, player_id=player.pk)

    def named_tables() -> None:
        session_services.session_stations_set(
            user=organiser, session_id=session.pk, stations=[(1, "Window"), (2, "Bar")]
        )

    def renamed_tables() -> None:
        session_services.session_stations_set(
            user=organiser, session_id=session.pk, stations=[(1, "Garden"), (2, "Bar")]
        )

    def a_later_start() -> None:
        session_services.session_round_schedule(
            user=organiser,
            session_id=session.pk,
            round_id=first.pk,
            starts_at=session.starts_at + timedelta(minutes=45),
        )

    def a_result() -> None:
        _win_next(league, referee)

    def check_in_closes() -> None:
        session_checkin.session_check_in_close(user=organiser, session_id=session.pk)

    for change in (a_check_in, named_tables, renamed_tables, a_later_start, a_result, check_in_closes):
        follows(change)


def test_the_series_live_part_is_rendered_once_per_version_for_its_anonymous_watchers(
    league: Stage, referee: Account, organiser: Account
) -> None:
    from django.urls import reverse

    series = Series.objects.filter(stage=league).order_by("pk").first()
    assert series is not None
    a, b = (s.player for s in series.seats.select_related("player").order_by("seat"))
    url = reverse("tournaments:series-games", args=[series.pk])
    seen = _renders("tournaments/_series_games.html")
    try:
        first = Client().get(url)
        assert Client().get(url).content == first.content and len(seen) == 1
        assert first["Cache-Control"] == "public, max-age=0, s-maxage=1, must-revalidate"
        assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        staff = Client()
        staff.force_login(organiser)
        assert staff.get(url)["Cache-Control"] == "private, no-cache" and len(seen) == 2
        record_result(user=referee, series_id=series.pk, game_number=1, result=snapszer_win(a, b))
        after = Client().get(url)
        assert after["ETag"] != first["ETag"] and len(seen) == 3
        cache.clear()
        assert Client().get(url).content == after.content
    finally:
        _stop("tournaments/_series_games.html")
