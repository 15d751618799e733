"""Club nights (tournaments/sessions/): the pure planning, sessions, stations, check-in and its close,
the tonight page's and the next-table card's reads, and their pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tournaments import stages
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Forfeit,
    GameKind,
    Player,
    Round,
    Series,
    Session,
    Tournament,
)
from tournaments.services import tournament_players_add
from tournaments.sessions import planning, selectors, services

# --- Pure planning ------------------------------------------------------------------------------


def test_stations_in_order_fills_tables_in_order_and_keeps_what_is_taken() -> None:
    assert planning.stations_in_order([3, 1, 2], [7, 5]) == {1: 7, 2: 5}
    assert planning.stations_in_order([1, 2, 3], [1, 2, 3], taken={1: 3}) == {1: 3, 2: 1, 3: 2}
    assert planning.stations_in_order([1], []) == {}
    # A table no longer in the round keeps nothing.
    assert planning.stations_in_order([2], [1, 2], taken={1: 1}) == {2: 2}


def test_current_round_is_the_first_with_an_open_series_else_the_last() -> None:
    rounds = [planning.RoundStatus(10, 1, 0), planning.RoundStatus(11, 2, 2), planning.RoundStatus(12, 3, 2)]
    assert planning.current_round(rounds) == 11
    assert planning.current_round([planning.RoundStatus(10, 1, 0), planning.RoundStatus(12, 3, 0)]) == 12
    assert planning.current_round([]) is None


def test_next_series_prefers_the_earliest_scheduled() -> None:
    early = datetime(2030, 1, 1, 19, 0).timestamp()
    late = early + 3600
    assert (
        planning.next_series(
            [
                planning.Upcoming(1, None, 1, 1),
                planning.Upcoming(2, late, 2, 1),
                planning.Upcoming(3, early, 3, 2),
            ]
        )
        == 3
    )
    assert planning.next_series([planning.Upcoming(5, None, 2, 1), planning.Upcoming(4, None, 1, 3)]) == 4
    assert planning.next_series([]) is None


# --- A tournament with a round robin of four, played on a club night ----------------------------------


@pytest.fixture
def league(
    make_tournament: Callable[..., Tournament], players: list[Player], organiser: Account
) -> tuple[Tournament, list[Player]]:
    tournament = make_tournament(game=GameKind.SNAPSZER)
    four = players[:4]
    tournament_players_add(user=organiser, tournament=tournament, players=four)
    stage = stages.stage_create(user=organiser, tournament=tournament, name="League", format="round_robin")
    stages.stage_round_publish(user=organiser, stage_id=stage.pk)
    return tournament, four


def _soon(hours: int = 2) -> datetime:
    return timezone.now() + timedelta(hours=hours)


def _session(user: Account, tournament: Tournament, **extra: Any) -> Session:
    return services.session_create(
        user=user, tournament=tournament, name="Thursday night", starts_at=_soon(), venue="Back room", **extra
    )


def test_session_in_the_past_is_refused_with_a_field_error(league: Any, organiser: Account) -> None:
    tournament, _four = league
    with pytest.raises(ApplicationError) as exc:
        services.session_create(
            user=organiser,
            tournament=tournament,
            name="Yesterday",
            starts_at=timezone.now() - timedelta(hours=1),
        )
    assert exc.value.code == "session_in_past"
    assert "starts_at" in exc.value.fields
    assert not Session.objects.exists()


def test_session_needs_a_name_and_an_organiser(league: Any, organiser: Account, referee: Account) -> None:
    tournament, _four = league
    with pytest.raises(ApplicationError) as exc:
        services.session_create(user=organiser, tournament=tournament, name="  ", starts_at=_soon())
    assert exc.value.fields.keys() == {"name"}
    with pytest.raises(PermissionDenied):
        _session(referee, tournament)
    naive = services.session_create(
        user=organiser, tournament=tournament, name="Naive", starts_at=datetime.now() + timedelta(days=1)
    )
    assert timezone.is_aware(naive.starts_at)
    assert (
        AuditEntry.objects.filter(action=AuditEntry.Action.SESSION_CREATED, tournament=tournament).count()
        == 1
    )


def test_schedule_gives_stations_in_table_order_and_swaps_on_a_change(
    league: Any, organiser: Account
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    services.session_stations_set(
        user=organiser, session_id=session.pk, stations=services.parse_stations("5 Window\n6\nBar")
    )
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    first.refresh_from_db()
    assert first.session == session and first.starts_at == session.starts_at
    series = list(Series.objects.filter(round=first).order_by("table").select_related("station"))
    assert [(s.station.number, s.station.name) for s in series] == [(5, "Window"), (6, "")]
    # Moving table 1 to station 6 swaps it with table 2.
    services.series_station_set(user=organiser, series_id=series[0].pk, station_id=series[1].station_id)
    moved = {s.table: s.station.number for s in Series.objects.filter(round=first).select_related("station")}
    assert moved == {1: 6, 2: 5}
    # A station of another session is refused.
    other = _session(organiser, tournament)
    services.session_stations_set(user=organiser, session_id=other.pk, stations=[(1, "")])
    foreign = other.stations.get()
    with pytest.raises(ApplicationError) as exc:
        services.series_station_set(user=organiser, series_id=series[0].pk, station_id=foreign.pk)
    assert "station" in exc.value.fields


@pytest.mark.parametrize(
    ("text", "problem"),
    [("3\n3", "twice"), ("0 zero", "start at 1"), ("1 " + "x" * 61, "at most")],
)
def test_bad_station_lines_are_refused(text: str, problem: str) -> None:
    with pytest.raises(ApplicationError) as exc:
        services.parse_stations(text)
    assert problem in str(exc.value.message)
    assert "stations" in exc.value.fields


def test_schedule_refuses_a_round_of_another_tournament(
    league: Any, organiser: Account, make_tournament: Callable[..., Tournament]
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    with pytest.raises(ApplicationError) as exc:
        services.session_round_schedule(user=organiser, session_id=session.pk, round_id=999999)
    assert "round" in exc.value.fields


def test_check_in_is_idempotent_and_checked(
    league: Any, organiser: Account, player_user: Account, referee: Account
) -> None:
    tournament, four = league
    anna, bence = four[0], four[1]
    session = _session(organiser, tournament)
    first, created = services.session_check_in(user=referee, session_id=session.pk, player_id=bence.pk)
    again, created_again = services.session_check_in(
        user=organiser, session_id=session.pk, player_id=bence.pk
    )
    assert created and not created_again and again.pk == first.pk
    assert CheckIn.objects.filter(session=session).count() == 1
    # Anna checks herself in; she may not check Bence in.
    _mine, created = services.session_check_in(user=player_user, session_id=session.pk, player_id=anna.pk)
    assert created
    with pytest.raises(PermissionDenied):
        services.session_check_in_undo(user=player_user, session_id=session.pk, player_id=bence.pk)
    # A player of the club who does not play in the tournament.
    outsider = Player.objects.create(club=tournament.club, name="Outsider")
    with pytest.raises(ApplicationError) as exc:
        services.session_check_in(user=organiser, session_id=session.pk, player_id=outsider.pk)
    assert exc.value.code == "not_entered" and "player" in exc.value.fields
    assert services.session_check_in_undo(user=organiser, session_id=session.pk, player_id=bence.pk)
    assert not services.session_check_in_undo(user=organiser, session_id=session.pk, player_id=bence.pk)
    actions = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions.count(AuditEntry.Action.CHECKED_IN) == 2
    assert actions.count(AuditEntry.Action.CHECK_IN_UNDONE) == 1


def test_a_stranger_may_not_check_anyone_in(
    league: Any, organiser: Account, make_user: Callable[..., Account]
) -> None:
    tournament, four = league
    session = _session(organiser, tournament)
    with pytest.raises(PermissionDenied):
        services.session_check_in(user=make_user("stranger"), session_id=session.pk, player_id=four[1].pk)
    assert not CheckIn.objects.exists()


def test_closing_check_in_forfeits_the_no_shows(
    league: Any, organiser: Account, referee: Account, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    series = list(Series.objects.filter(round=first).prefetch_related("seats").order_by("table"))
    one, two = ([seat.player_id for seat in s.seats.all()] for s in series)
    # Table 1: both here. Table 2: one of them here (the other is a no-show).
    for pid in [*one, two[0]]:
        services.session_check_in(user=organiser, session_id=session.pk, player_id=pid)
    with django_capture_on_commit_callbacks(execute=True):
        report = services.session_check_in_close(user=organiser, session_id=session.pk)
    assert [s.pk for s in report.forfeited] == [series[1].pk]
    decided = Series.objects.get(pk=series[1].pk)
    assert decided.status == Series.Status.DECIDED
    assert decided.placings == {str(two[0]): 1}
    assert list(Forfeit.objects.filter(series=decided).values_list("player_id", flat=True)) == [two[1]]
    assert Series.objects.get(pk=series[0].pk).status == Series.Status.PENDING
    session.refresh_from_db()
    assert not session.check_in_open
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN_CLOSED).count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.FORFEIT, series=decided).count() == 1
    # Closed: a second close and a late check-in are conflicts; nothing else changes.
    with pytest.raises(Conflict):
        services.session_check_in_close(user=organiser, session_id=session.pk)
    with pytest.raises(Conflict) as exc:
        services.session_check_in(user=organiser, session_id=session.pk, player_id=two[1])
    assert exc.value.code == "check_in_closed"


def test_closing_with_nobody_here_is_a_double_forfeit_and_started_series_are_left(
    league: Any, organiser: Account, referee: Account
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    started, empty = Series.objects.filter(round=first).order_by("table")
    a, b = (seat.player for seat in started.seats.order_by("seat"))
    record_result(user=referee, series_id=started.pk, game_number=1, result=snapszer_win(a, b))
    services.session_check_in_close(user=organiser, session_id=session.pk)
    empty.refresh_from_db()
    assert empty.status == Series.Status.DECIDED and empty.placings == {}
    assert Forfeit.objects.filter(series=empty).count() == 2
    assert not Forfeit.objects.filter(series=started).exists()


def test_only_organisers_close_check_in(league: Any, organiser: Account, referee: Account) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    with pytest.raises(PermissionDenied):
        services.session_check_in_close(user=referee, session_id=session.pk)
    session.refresh_from_db()
    assert session.check_in_open


def test_tonight_and_next_table(league: Any, organiser: Account, player_user: Account) -> None:
    tournament, four = league
    anna = four[0]
    session = _session(organiser, tournament)
    services.session_stations_set(user=organiser, session_id=session.pk, stations=[(1, "Window"), (2, "")])
    for rnd in Round.objects.filter(stage__tournament=tournament).order_by("number"):
        services.session_round_schedule(
            user=organiser,
            session_id=session.pk,
            round_id=rnd.pk,
            starts_at=session.starts_at + timedelta(minutes=40 * rnd.number),
        )
    page = selectors.session_tonight_get(user=player_user, session_id=session.pk)
    assert page.current is not None and page.current.round.number == 1
    assert {line.station.number for line in page.current.lines if line.station} == {1, 2}
    assert page.expected == 4 and page.checked_in == 0
    assert page.my_players == [anna]
    card = selectors.user_next_table_get(user=player_user)
    assert card is not None and card.player == anna
    assert card.series.round.number == 1
    assert card.station is not None
    assert card.starts_at == session.starts_at + timedelta(minutes=40)
    assert card.check_in_due
    assert len(card.opponents) == 1
    # After a game, the score is on the card; the version of the tonight page moved.
    before = selectors.session_version_get(user=player_user, session_id=session.pk)
    opponent = card.opponents[0]
    record_result(
        user=organiser, series_id=card.series.pk, game_number=1, result=snapszer_win(anna, opponent)
    )
    card = selectors.user_next_table_get(user=player_user)
    assert card is not None
    assert dict((p.pk, won) for p, won in card.seat_scores) == {anna.pk: 1, opponent.pk: 0}
    assert selectors.session_version_get(user=player_user, session_id=session.pk) != before


# --- Pages --------------------------------------------------------------------------------------


def _client(user: Account) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_pages_create_a_session_and_refuse_the_past(league: Any, organiser: Account) -> None:
    tournament, _four = league
    client = _client(organiser)
    url = reverse("tournaments:session-create", args=[tournament.pk])
    past = (timezone.localtime() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(url, {"name": "Old", "starts_at": past})
    assert response.status_code == 400
    assert "Choose a time from now on." in response.content.decode()
    future = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(url, {"name": "Friday", "starts_at": future, "venue": "Hall"})
    session = Session.objects.get(name="Friday")
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:session", args=[session.pk]
    )
    page = client.get(reverse("tournaments:tournament", args=[tournament.pk])).content.decode()
    assert "Friday" in page


def test_desk_searches_and_checks_in_with_and_without_htmx(league: Any, organiser: Account) -> None:
    tournament, four = league
    session = _session(organiser, tournament)
    client = _client(organiser)
    desk = reverse("tournaments:session-desk", args=[session.pk])
    body = client.get(desk, {"q": "ben"}).content.decode()
    assert "Bence" in body and "Csilla" not in body
    rows = client.get(desk, {"q": "csi"}, headers={"HX-Request": "true"}).content.decode()
    assert rows.startswith('<div id="desk-rows">') and "Csilla" in rows
    url = reverse("tournaments:session-checkin", args=[session.pk])
    response = client.post(url, {"player": four[1].pk, "next": desk})
    assert response.status_code == 302 and response["Location"] == desk
    again = client.post(url, {"player": four[1].pk}, headers={"HX-Request": "true"})
    assert again.status_code == 200
    assert "already checked in" in again.content.decode()
    assert CheckIn.objects.filter(session=session).count() == 1
    bad = client.post(url, {"player": "abc"}, headers={"HX-Request": "true"})
    assert bad.status_code == 400


def test_tonight_page_and_version(league: Any, organiser: Account, player_user: Account) -> None:
    tournament, four = league
    session = _session(organiser, tournament)
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    client = _client(player_user)
    page = client.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert "Check in as Anna" in page and 'data-live-topic="stage:' in page
    version = client.get(reverse("tournaments:session-version", args=[session.pk])).json()["version"]
    services.session_check_in(user=organiser, session_id=session.pk, player_id=four[1].pk)
    moved = client.get(reverse("tournaments:session-version", args=[session.pk]), {"seen": version})
    assert moved.json()["version"] != version and moved["HX-Trigger"] == "tonight-changed"
    home = client.get(reverse("home")).content.decode()
    assert 'id="next-table"' in home and "Your next table" in home


# --- API ----------------------------------------------------------------------------------------


def test_api_sessions_checkins_and_close(league: Any, organiser: Account, player_user: Account) -> None:
    tournament, four = league
    client = _client(organiser)
    url = reverse("tournaments_api:tournament-sessions", args=[tournament.pk])
    past = client.post(
        url,
        {"name": "Old", "starts_at": (timezone.now() - timedelta(hours=1)).isoformat()},
        content_type="application/json",
    )
    assert past.status_code == 400
    assert past.json()["code"] == "session_in_past" and "starts_at" in past.json()["fields"]
    made = client.post(
        url, {"name": "Friday", "starts_at": _soon().isoformat()}, content_type="application/json"
    )
    assert made.status_code == 201
    session_id = made.json()["id"]
    first = Round.objects.get(stage__tournament=tournament, number=1)
    scheduled = client.post(
        reverse("tournaments_api:session-rounds", args=[session_id]),
        {"round": first.pk},
        content_type="application/json",
    )
    assert scheduled.status_code == 200 and scheduled.json()["session"] == session_id
    detail = client.get(reverse("tournaments_api:session-detail", args=[session_id])).json()
    assert [r["id"] for r in detail["rounds"]] == [first.pk] and detail["check_in"] == "open"
    checkins = reverse("tournaments_api:session-checkins", args=[session_id])
    anna = _client(player_user)
    mine = anna.post(checkins, {"player": four[0].pk}, content_type="application/json")
    assert mine.status_code == 201 and mine.json()["created"] is True
    twice = anna.post(checkins, {"player": four[0].pk}, content_type="application/json")
    assert (
        twice.status_code == 200
        and twice.json()["created"] is False
        and twice.json()["id"] == mine.json()["id"]
    )
    other = anna.post(checkins, {"player": four[1].pk}, content_type="application/json")
    assert other.status_code == 403
    bad = client.post(checkins, {"player": "x"}, content_type="application/json")
    assert bad.status_code == 400 and "player" in bad.json()["fields"]
    assert [c["player"] for c in client.get(checkins).json()] == [four[0].pk]
    closed = client.post(reverse("tournaments_api:session-close", args=[session_id]))
    assert closed.status_code == 200
    assert len(closed.json()["forfeited"]) == 2  # Anna's opponent away; the other table both away
    again = client.post(reverse("tournaments_api:session-close", args=[session_id]))
    assert again.status_code == 409 and again.json()["code"] == "check_in_closed"
    late = client.post(checkins, {"player": four[2].pk}, content_type="application/json")
    assert late.status_code == 409


def test_api_unknown_session_is_404(organiser: Account, db: Any) -> None:
    response = _client(organiser).get(reverse("tournaments_api:session-detail", args=[999999]))
    assert response.status_code == 404 and response.json()["code"] == "session_not_found"


def test_round_page_and_table_sheets_show_the_station(league: Any, organiser: Account) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    services.session_stations_set(user=organiser, session_id=session.pk, stations=[(7, "Window"), (8, "Bar")])
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    client = _client(organiser)
    page = client.get(reverse("tournaments:round", args=[first.stage_id, 1])).content.decode()
    assert "Table 7 · Window" in page and "Table 8 · Bar" in page
    sheets = client.get(reverse("tournaments:round-sheets", args=[first.stage_id, 1])).content.decode()
    assert "Table 7 · Window" in sheets and "Table 8 · Bar" in sheets
    # The organiser's "who sits where" form is on the session page.
    tonight = client.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert 'name="station"' in tonight


def test_admin_lists_sessions_and_club_tables(league: Any, organiser: Account) -> None:
    tournament, _four = league
    organiser.is_staff = True
    organiser.save()
    session = _session(organiser, tournament)
    client = _client(organiser)
    assert session.name in client.get(reverse("admin:tournaments_session_changelist")).content.decode()
    assert client.get(reverse("admin:tournaments_station_changelist")).status_code == 200
    assert client.get(reverse("admin:tournaments_checkin_changelist")).status_code == 200


# --- Calendars ----------------------------------------------------------------------------------


def test_calendar_feeds(league: Any, organiser: Account, player_user: Account) -> None:
    from icalendar import Calendar

    tournament, four = league
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    session = _session(organiser, tournament)
    services.session_stations_set(user=organiser, session_id=session.pk, stations=[(1, "Window"), (2, "")])
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    anon = Client()
    response = anon.get(reverse("tournaments:tournament-calendar", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    cal = Calendar.from_ical(response.content)
    events = cal.walk("VEVENT")
    assert [str(e["uid"]) for e in events] == [f"session-{session.pk}@testserver"]
    assert events[0].decoded("dtstart") == session.starts_at.replace(microsecond=0)  # iCal: seconds
    assert "dtstamp" in events[0] and cal.walk("VTIMEZONE")
    again = Calendar.from_ical(
        anon.get(reverse("tournaments:tournament-calendar", args=[tournament.pk])).content
    )
    assert [str(e["uid"]) for e in again.walk("VEVENT")] == [f"session-{session.pk}@testserver"]
    club_feed = anon.get(reverse("tournaments:club-calendar", args=[tournament.club.slug]))
    assert f"session-{session.pk}@testserver" in club_feed.content.decode()
    # Anna's private feed: the link is on her own page only.
    page = _client(player_user).get(reverse("tournaments:player", args=[four[0].pk])).content.decode()
    token = four[0].calendar_token.token
    assert reverse("tournaments:player-calendar", args=[token]) in page
    assert (
        token not in _client(organiser).get(reverse("tournaments:player", args=[four[0].pk])).content.decode()
    )
    mine = Calendar.from_ical(anon.get(reverse("tournaments:player-calendar", args=[token])).content)
    annas = Series.objects.get(round=first, seats__player=four[0])
    series_events = [e for e in mine.walk("VEVENT") if str(e["uid"]).startswith("series-")]
    assert [str(e["uid"]) for e in series_events] == [f"series-{annas.pk}@testserver"]
    assert "Table" in str(series_events[0]["summary"])
    missing = anon.get(reverse("tournaments:player-calendar", args=["no-such-token"]))
    assert missing.status_code == 404 and "No calendar at this address" in missing.content.decode()
    # A draft's feed is not found.
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert anon.get(reverse("tournaments:tournament-calendar", args=[tournament.pk])).status_code == 404


def test_the_card_checks_the_player_in_and_links_play_for_an_online_series(
    league: Any, organiser: Account, player_user: Account
) -> None:
    tournament, four = league
    session = _session(organiser, tournament)
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    client = _client(player_user)
    player_url = reverse("tournaments:player", args=[four[0].pk])
    page = client.get(player_url).content.decode()
    assert 'id="self-check-in"' in page and 'id="next-play"' not in page
    response = client.post(
        reverse("tournaments:session-checkin", args=[session.pk]), {"player": four[0].pk, "next": player_url}
    )
    assert response.status_code == 302 and response["Location"] == player_url
    assert CheckIn.objects.filter(session=session, player=four[0]).exists()
    page = client.get(player_url).content.decode()
    assert 'id="self-check-in"' not in page and "Checked in" in page
    # A foreign "next" is not followed.
    away = client.post(
        reverse("tournaments:session-checkin", args=[session.pk]),
        {"player": four[0].pk, "next": "https://evil.example/"},
    )
    assert away["Location"] == reverse("tournaments:session", args=[session.pk])
    stages.stage_online_set(user=organiser, stage_id=first.stage_id, online=True)
    assert 'id="next-play"' in client.get(reverse("home")).content.decode()
    # Someone else looking at Anna's page sees her next table, without her buttons.
    other = _client(organiser).get(player_url).content.decode()
    assert "Anna’s next table" in other and 'id="next-play"' not in other


# --- The session's big screen -----------------------------------------------------------------------


def _win_series(referee: Account, series: Series) -> None:
    first, second = [seat.player for seat in series.seats.order_by("seat")]
    for number in (1, 2):
        record_result(
            user=referee, series_id=series.pk, game_number=number, result=snapszer_win(first, second)
        )


def test_session_screen_shows_its_current_round_at_its_stations_and_moves_on(
    league: Any, organiser: Account, referee: Account
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    services.session_stations_set(
        user=organiser, session_id=session.pk, stations=services.parse_stations("5 Window\n6")
    )
    anyone = Client()
    url = reverse("tournaments:session-screen", args=[session.pk])
    # Before a round is scheduled in it, the screen says so (the tournament's screen has round 1).
    empty = anyone.get(url).content.decode()
    assert "No round is scheduled in this session yet." in empty and 'data-table="' not in empty
    assert "Window" not in anyone.get(reverse("tournaments:screen", args=[tournament.pk])).content.decode()
    # Rounds 1 and 2 scheduled into the session: the screen shows round 1 at the session's tables,
    rounds = list(Round.objects.filter(stage__tournament=tournament).order_by("number"))
    for one in rounds[:2]:
        services.session_round_schedule(user=organiser, session_id=session.pk, round_id=one.pk)
    html = anyone.get(url).content.decode()
    assert "Thursday night" in html and "Round 1" in html
    assert "Table 5 · Window" in html and "Table 6" in html
    for series in Series.objects.filter(round=rounds[0]):
        for seat in series.seats.all():
            assert seat.player.name in html
    assert f'hx-get="{reverse("tournaments:session-screen-body", args=[session.pk])}"' in html
    assert re.findall(r'data-panel="([^"]+)"', html) == ["tables-1", "standings-0-1"]
    # and once every table of round 1 has finished, round 2 (the fragment as the page reloads it).
    for series in Series.objects.filter(round=rounds[0]):
        _win_series(referee, series)
    body = anyone.get(reverse("tournaments:session-screen-body", args=[session.pk])).content.decode()
    assert "Round 2" in body and "Round 1" not in body and "2 of 2 tables still to finish" in body
    assert 'id="screen-body"' in body and "<html" not in body
    # The session page links to it.
    page = _client(organiser).get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert f'href="{url}"' in page


def test_session_screen_of_a_draft_is_not_found_for_the_public(
    make_tournament: Callable[..., Tournament], organiser: Account
) -> None:
    draft = make_tournament(game=GameKind.SNAPSZER, status=Tournament.Status.DRAFT)
    session = _session(organiser, draft)
    url = reverse("tournaments:session-screen", args=[session.pk])
    assert Client().get(url).status_code == 404
    assert _client(organiser).get(url).status_code == 200
    assert Client().get(reverse("tournaments:session-screen", args=[987654])).status_code == 404
