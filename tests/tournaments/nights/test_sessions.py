"""Club nights (tournaments/nights/): the pure planning, sessions, stations, check-in and its close,
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
from tournaments.competitions.services import tournament_players_add
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.competitions.stages import withdrawals as stages_withdrawals
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
from tournaments.nights import checkin, planning, selectors, services

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
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin"
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
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
    first, created = checkin.session_check_in(user=referee, session_id=session.pk, player_id=bence.pk)
    again, created_again = checkin.session_check_in(user=organiser, session_id=session.pk, player_id=bence.pk)
    assert created and not created_again and again.pk == first.pk
    assert CheckIn.objects.filter(session=session).count() == 1
    # Anna checks herself in; she may not check Bence in.
    _mine, created = checkin.session_check_in(user=player_user, session_id=session.pk, player_id=anna.pk)
    assert created
    with pytest.raises(PermissionDenied):
        checkin.session_check_in_undo(user=player_user, session_id=session.pk, player_id=bence.pk)
    # A player of the club who does not play in the tournament.
    outsider = Player.objects.create(club=tournament.club, name="Outsider")
    with pytest.raises(ApplicationError) as exc:
        checkin.session_check_in(user=organiser, session_id=session.pk, player_id=outsider.pk)
    assert exc.value.code == "not_entered" and "player" in exc.value.fields
    assert checkin.session_check_in_undo(user=organiser, session_id=session.pk, player_id=bence.pk)
    assert not checkin.session_check_in_undo(user=organiser, session_id=session.pk, player_id=bence.pk)
    actions = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions.count(AuditEntry.Action.CHECKED_IN) == 2
    assert actions.count(AuditEntry.Action.CHECK_IN_UNDONE) == 1


def test_a_stranger_may_not_check_anyone_in(
    league: Any, organiser: Account, make_user: Callable[..., Account]
) -> None:
    tournament, four = league
    session = _session(organiser, tournament)
    with pytest.raises(PermissionDenied):
        checkin.session_check_in(user=make_user("stranger"), session_id=session.pk, player_id=four[1].pk)
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
        checkin.session_check_in(user=organiser, session_id=session.pk, player_id=pid)
    with django_capture_on_commit_callbacks(execute=True):
        report = checkin.session_check_in_close(user=organiser, session_id=session.pk)
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
        checkin.session_check_in_close(user=organiser, session_id=session.pk)
    with pytest.raises(Conflict) as exc:
        checkin.session_check_in(user=organiser, session_id=session.pk, player_id=two[1])
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
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    empty.refresh_from_db()
    assert empty.status == Series.Status.DECIDED and empty.placings == {}
    assert Forfeit.objects.filter(series=empty).count() == 2
    assert not Forfeit.objects.filter(series=started).exists()


def test_only_organisers_close_check_in(league: Any, organiser: Account, referee: Account) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    with pytest.raises(PermissionDenied):
        checkin.session_check_in_close(user=referee, session_id=session.pk)
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
    # The answer to a tap carries the desk's counter, swapped out of band (htmx), after a tap and
    # after an undo alike.
    tap = client.post(url, {"player": four[2].pk}, headers={"HX-Request": "true"}).content.decode()
    assert re.search(r'id="desk-count" hx-swap-oob="true"[^>]*>2 of 4 players checked in', tap)
    undo = client.post(url, {"player": four[2].pk, "undo": "1"}, headers={"HX-Request": "true"})
    assert re.search(
        r'id="desk-count" hx-swap-oob="true"[^>]*>1 of 4 players checked in', undo.content.decode()
    )
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
    checkin.session_check_in(user=organiser, session_id=session.pk, player_id=four[1].pk)
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
    stages_create.stage_online_set(user=organiser, stage_id=first.stage_id, online=True)
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


# --- Reopening check-in ---------------------------------------------------------------------------


def _no_show_night(tournament: Tournament, organiser: Account) -> tuple[Session, Series, Series, int]:
    """A session with round 1 scheduled: table 1 both here, table 2 one of them away (returned)."""
    session = _session(organiser, tournament)
    first = Round.objects.get(stage__tournament=tournament, number=1)
    services.session_round_schedule(user=organiser, session_id=session.pk, round_id=first.pk)
    here, missing = Series.objects.filter(round=first).order_by("table")
    one = [seat.player_id for seat in here.seats.all()]
    two = [seat.player_id for seat in missing.seats.order_by("seat")]
    for pid in [*one, two[0]]:
        checkin.session_check_in(user=organiser, session_id=session.pk, player_id=pid)
    return session, here, missing, two[1]


def test_reopening_check_in_takes_the_no_shows_back_and_closing_again_works(
    league: Any, organiser: Account, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a closed check-in that recorded a no-show,
    tournament, _four = league
    session, _here, missing, late = _no_show_night(tournament, organiser)
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    stage = missing.stage
    stage.refresh_from_db()
    version = stage.results_version
    # when the organiser reopens it (the standings task runs on commit),
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report = checkin.session_check_in_reopen(user=organiser, session_id=session.pk)
    # then the series is to be played again, its forfeit gone, the stage's results moved on,
    assert [s.pk for s in report.withdrawn] == [missing.pk] and report.kept == []
    assert callbacks
    missing.refresh_from_db()
    assert missing.status == Series.Status.PENDING and missing.placings == {} and missing.decided_at is None
    assert not Forfeit.objects.filter(series=missing).exists()
    stage.refresh_from_db()
    assert stage.results_version == version + 1
    session.refresh_from_db()
    assert session.check_in_open and session.check_in_closed_at is None
    reopened = AuditEntry.objects.get(action=AuditEntry.Action.CHECK_IN_REOPENED)
    assert reopened.detail["withdrawn"] == [missing.key] and reopened.detail["kept"] == []
    assert AuditEntry.objects.filter(action=AuditEntry.Action.FORFEIT_WITHDRAWN, series=missing).exists()
    # the late player checks in, and closing again records nobody.
    _check_in, created = checkin.session_check_in(user=organiser, session_id=session.pk, player_id=late)
    assert created
    again = checkin.session_check_in_close(user=organiser, session_id=session.pk)
    assert again.forfeited == [] and again.left == []
    assert Series.objects.get(pk=missing.pk).status == Series.Status.PENDING


def test_reopening_keeps_a_no_show_a_round_was_paired_from(
    make_tournament: Callable[..., Tournament],
    players: list[Player],
    organiser: Account,
    referee: Account,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Given a Swiss stage whose round 2 was published from round 1's results, a no-show among them,
    tournament = make_tournament(game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players[:4])
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 2}
    )
    stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    session, here, missing, _late = _no_show_night(tournament, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        checkin.session_check_in_close(user=organiser, session_id=session.pk)
    with django_capture_on_commit_callbacks(execute=True):
        _win_series(referee, here)
    assert Round.objects.filter(stage=stage, number=2).exists()
    # when check-in is reopened,
    report = checkin.session_check_in_reopen(user=organiser, session_id=session.pk)
    # then that no-show stays (the pairing was made from it), and the report says so.
    assert report.withdrawn == [] and [s.pk for s in report.kept] == [missing.pk]
    assert Forfeit.objects.filter(series=missing, session=session).count() == 1
    assert Series.objects.get(pk=missing.pk).status == Series.Status.DECIDED
    assert AuditEntry.objects.get(action=AuditEntry.Action.CHECK_IN_REOPENED).detail["kept"] == [missing.key]


def test_reopening_is_for_organisers_and_only_once_closed(
    league: Any, organiser: Account, referee: Account
) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    with pytest.raises(Conflict) as exc:
        checkin.session_check_in_reopen(user=organiser, session_id=session.pk)
    assert exc.value.code == "check_in_open"
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    with pytest.raises(PermissionDenied):
        checkin.session_check_in_reopen(user=referee, session_id=session.pk)
    session.refresh_from_db()
    assert not session.check_in_open
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN_REOPENED).exists()


def test_reopen_api_and_page(league: Any, organiser: Account, referee: Account) -> None:
    tournament, _four = league
    session, _here, missing, _late = _no_show_night(tournament, organiser)
    url = reverse("tournaments_api:session-reopen", args=[session.pk])
    client = _client(organiser)
    still_open = client.post(url)
    assert still_open.status_code == 409 and still_open.json()["code"] == "check_in_open"
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    tonight = reverse("tournaments:session", args=[session.pk])
    # The organiser's page offers it, behind a confirmation; a referee's does not.
    page = client.get(tonight).content.decode()
    assert 'id="reopen-check-in"' in page and "Yes, reopen check-in" in page
    assert 'id="reopen-check-in"' not in _client(referee).get(tonight).content.decode()
    assert _client(referee).post(url).status_code == 403
    answer = client.post(url)
    assert answer.status_code == 200
    assert answer.json()["withdrawn"] == [missing.pk] and answer.json()["kept"] == []
    assert answer.json()["session"]["check_in"] == "open"
    # The page: close again, reopen by the button's form, and the message says what happened.
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    response = client.post(reverse("tournaments:session-reopen", args=[session.pk]), follow=True)
    assert "Check-in reopened: 1 no-show taken back" in response.content.decode()
    assert 'id="close-check-in"' in response.content.decode()


def test_reopening_moves_the_tonight_version_on(league: Any, organiser: Account) -> None:
    tournament, _four = league
    session = _session(organiser, tournament)
    seen = [selectors.session_version_get(user=organiser, session_id=session.pk)]
    checkin.session_check_in_close(user=organiser, session_id=session.pk)
    seen.append(selectors.session_version_get(user=organiser, session_id=session.pk))
    checkin.session_check_in_reopen(user=organiser, session_id=session.pk)
    seen.append(selectors.session_version_get(user=organiser, session_id=session.pk))
    assert len(set(seen)) == 3


# --- Replacing a player's calendar address ---------------------------------------------------------


def test_the_player_replaces_their_calendar_address(
    league: Any, organiser: Account, player_user: Account, make_user: Callable[..., Account]
) -> None:
    from tournaments.integrations import calendar

    _tournament, four = league
    anna = four[0]
    old = calendar.calendar_token_get_or_create(user=player_user, player=anna)
    assert old is not None
    old_token = old.token
    # Nobody but Anna may replace it: not the organiser, not another player's account.
    for someone in (organiser, make_user("bence")):
        with pytest.raises(PermissionDenied):
            calendar.calendar_token_replace(user=someone, player_id=anna.pk)
    assert anna.__class__.objects.get(pk=anna.pk).calendar_token.token == old_token
    new = calendar.calendar_token_replace(user=player_user, player_id=anna.pk)
    assert new.token != old_token and new.player_id == anna.pk
    anon = Client()
    gone = anon.get(reverse("tournaments:player-calendar", args=[old_token]))
    assert gone.status_code == 404 and "the link may have been replaced" in gone.content.decode()
    assert anon.get(reverse("tournaments:player-calendar", args=[new.token])).status_code == 200
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CALENDAR_REPLACED)
    assert entry.user == player_user and entry.detail["player"] == anna.name


def test_calendar_replace_api_and_page(league: Any, organiser: Account, player_user: Account) -> None:
    _tournament, four = league
    anna = four[0]
    anna_client = _client(player_user)
    player_url = reverse("tournaments:player", args=[anna.pk])
    page = anna_client.get(player_url).content.decode()
    first = Player.objects.get(pk=anna.pk).calendar_token.token
    assert 'id="calendar-replace"' in page
    assert 'id="calendar-replace"' not in _client(organiser).get(player_url).content.decode()
    # The page's button: a new address on her page, the old one gone.
    response = anna_client.post(reverse("tournaments:player-calendar-replace", args=[anna.pk]), follow=True)
    second = Player.objects.get(pk=anna.pk).calendar_token.token
    body = response.content.decode()
    assert second != first and "Your calendar has a new address" in body
    assert reverse("tournaments:player-calendar", args=[second]) in body
    assert reverse("tournaments:player-calendar", args=[first]) not in body
    # The API: the new address for her; 403 for anyone else, signed in or not.
    api = reverse("tournaments_api:player-calendar-replace", args=[anna.pk])
    answer = anna_client.post(api)
    third = Player.objects.get(pk=anna.pk).calendar_token.token
    assert answer.status_code == 200
    assert answer.json() == {
        "player": anna.pk,
        "url": "http://testserver" + reverse("tournaments:player-calendar", args=[third]),
    }
    assert _client(organiser).post(api).status_code == 403
    assert Client().post(api).status_code == 403
    assert (
        _client(organiser).post(reverse("tournaments_api:player-calendar-replace", args=[999999])).status_code
        == 404
    )
    assert Player.objects.get(pk=anna.pk).calendar_token.token == third


# --- Rounds scheduled into sessions as they are published ---------------------------------------------


def test_session_for_round_takes_the_earliest_with_room_never_before_the_previous_round() -> None:
    hour = 3600.0
    rooms = [
        planning.SessionRoom(1, 0.0, 2, (0.0, hour)),  # full
        planning.SessionRoom(2, 24 * hour, 2, (24 * hour,)),
        planning.SessionRoom(3, 48 * hour, None, ()),  # plans nothing
        planning.SessionRoom(4, 72 * hour, 1, ()),
    ]
    assert planning.session_for_round(rooms, now=0.0) == (2, 25 * hour)
    # Never earlier than the previous round's session.
    assert planning.session_for_round(rooms, now=0.0, not_before=48 * hour) == (4, 72 * hour)
    # A session that is over takes nothing: session 2 ended 3 hours after it started.
    assert planning.session_for_round(rooms, now=27 * hour) == (4, 72 * hour)
    assert planning.session_for_round(rooms[:3], now=0.0, not_before=30 * hour) is None
    assert planning.session_end(0.0, [5 * hour]) == 6 * hour and planning.session_end(0.0, []) == 3 * hour


def _three_nights(organiser: Account, tournament: Tournament, planned: int = 2) -> list[Session]:
    return [
        services.session_create(
            user=organiser,
            tournament=tournament,
            name=name,
            starts_at=timezone.now() + timedelta(days=day, hours=2),
            rounds_planned=planned,
        )
        for day, name in enumerate(["Monday", "Tuesday", "Wednesday"])
    ]


def _schedule(stage_id: int) -> list[tuple[int, int | None, datetime | None]]:
    return list(
        Round.objects.filter(stage_id=stage_id)
        .order_by("number")
        .values_list("number", "session_id", "starts_at")
    )


def _expected(nights: list[Session], rounds: int) -> list[tuple[int, int | None, datetime | None]]:
    hour = timedelta(hours=1)
    return [
        (n, nights[(n - 1) // 2].pk, nights[(n - 1) // 2].starts_at + hour * ((n - 1) % 2))
        if n <= 6
        else (n, None, None)
        for n in range(1, rounds + 1)
    ]


def test_a_round_robin_published_at_once_fills_the_planned_sessions_in_order(
    make_tournament: Callable[..., Tournament],
    players: list[Player],
    organiser: Account,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Given three nights of two rounds each, the first with its own tables,
    tournament = make_tournament(game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players)
    nights = _three_nights(organiser, tournament)
    services.session_stations_set(
        user=organiser, session_id=nights[0].pk, stations=[(11, "Window"), (12, ""), (13, ""), (14, "")]
    )
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="League", format="round_robin"
    )
    # when the organiser publishes the round robin of eight (seven rounds at once),
    with django_capture_on_commit_callbacks(execute=True):
        stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    # then rounds 1-6 go two a night (the second an hour after the first); round 7 finds no room,
    assert _schedule(stage.pk) == _expected(nights, 7)
    # the first night's rounds sit at its tables in table order, as scheduling by hand gives them,
    first = (
        Series.objects.filter(round__stage=stage, round__number=1).order_by("table").select_related("station")
    )
    assert [s.station.number for s in first] == [11, 12, 13, 14]
    # and each is audited as scheduled by nobody (the publish did it).
    scheduled = AuditEntry.objects.filter(action=AuditEntry.Action.ROUND_SCHEDULED, tournament=tournament)
    assert scheduled.count() == 6 and all(e.user is None and e.detail["automatic"] for e in scheduled)


def _forfeit_round(organiser: Account, stage_id: int, number: int, capture: Any) -> None:
    """Decide round ``number`` by no-shows (the first seat away); the last forfeit's commit runs the
    stage task (Celery, eager in tests), which publishes the next round."""
    open_series = list(
        Series.objects.filter(stage_id=stage_id, round__number=number, status=Series.Status.PENDING).order_by(
            "table"
        )
    )
    for index, series in enumerate(open_series):
        away = series.seats.order_by("seat").first()
        assert away is not None
        if index < len(open_series) - 1:
            stages_withdrawals.series_forfeit(
                user=organiser, series_id=series.pk, player_ids=[away.player_id]
            )
        else:
            with capture(execute=True):
                stages_withdrawals.series_forfeit(
                    user=organiser, series_id=series.pk, player_ids=[away.player_id]
                )


def test_swiss_rounds_published_by_the_stage_task_go_into_the_sessions_one_by_one(
    make_tournament: Callable[..., Tournament],
    club: Any,
    organiser: Account,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Given a Swiss of sixteen over six rounds and three nights of two rounds each,
    tournament = make_tournament(game=GameKind.SNAPSZER)
    sixteen = [Player.objects.create(club=club, name=f"Player {n:02}") for n in range(16)]
    tournament_players_add(user=organiser, tournament=tournament, players=sixteen)
    nights = _three_nights(organiser, tournament)
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 6}
    )
    # when the organiser publishes round 1 and each later round is published by the stage task
    # after the last result of the round before,
    with django_capture_on_commit_callbacks(execute=True):
        stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    assert _schedule(stage.pk) == _expected(nights, 1)
    for number in range(1, 6):
        _forfeit_round(organiser, stage.pk, number, django_capture_on_commit_callbacks)
        # then each goes into its night as it is published.
        assert _schedule(stage.pk) == _expected(nights, number + 1)


def test_a_round_goes_no_earlier_than_the_previous_rounds_session_and_none_without_room(
    make_tournament: Callable[..., Tournament],
    players: list[Player],
    organiser: Account,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = make_tournament(game=GameKind.SNAPSZER)
    tournament_players_add(user=organiser, tournament=tournament, players=players)
    monday, tuesday, _wednesday = _three_nights(organiser, tournament, planned=1)
    services.session_update(
        user=organiser,
        session_id=_wednesday.pk,
        name="Wednesday",
        venue="",
        online=False,
        rounds_planned=None,
    )
    stage = stages_create.stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 3}
    )
    with django_capture_on_commit_callbacks(execute=True):
        stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    first = Round.objects.get(stage=stage, number=1)
    assert first.session_id == monday.pk
    # The organiser moves round 1 to Tuesday: Monday has room again, but round 2 comes after it.
    services.session_round_schedule(user=organiser, session_id=tuesday.pk, round_id=first.pk)
    _forfeit_round(organiser, stage.pk, 1, django_capture_on_commit_callbacks)
    # Tuesday is full and Wednesday plans nothing: round 2 stays unscheduled, as before; round 3
    # still comes no earlier than round 1's Tuesday.
    assert Round.objects.get(stage=stage, number=2).session_id is None
    services.session_update(
        user=organiser, session_id=tuesday.pk, name="Tuesday", venue="", online=False, rounds_planned=2
    )
    _forfeit_round(organiser, stage.pk, 2, django_capture_on_commit_callbacks)
    third = Round.objects.get(stage=stage, number=3)
    assert third.session_id == tuesday.pk and third.starts_at == tuesday.starts_at + timedelta(hours=1)


def test_rounds_planned_on_the_forms_and_the_api(league: Any, organiser: Account, referee: Account) -> None:
    tournament, _four = league
    client = _client(organiser)
    future = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    create = reverse("tournaments:session-create", args=[tournament.pk])
    bad = client.post(create, {"name": "Friday", "starts_at": future, "rounds_planned": "-1"})
    assert bad.status_code == 400 and not Session.objects.exists()
    client.post(create, {"name": "Friday", "starts_at": future, "rounds_planned": "2"})
    session = Session.objects.get(name="Friday")
    assert session.rounds_planned == 2
    tonight = client.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert 'id="rounds-planned"' in tonight and 'name="rounds_planned" value="2"' in tonight
    edit = reverse("tournaments:session-edit", args=[session.pk])
    refused = client.post(edit, {"name": "", "rounds_planned": "3"})
    assert refused.status_code == 400
    client.post(edit, {"name": "Friday club night", "venue": "Hall", "rounds_planned": "3"})
    session.refresh_from_db()
    assert (session.name, session.venue, session.rounds_planned) == ("Friday club night", "Hall", 3)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SESSION_UPDATED).count() == 1
    # The API: set when created, changed by PATCH (the fields sent; the rest stay), refused when bad.
    made = client.post(
        reverse("tournaments_api:tournament-sessions", args=[tournament.pk]),
        {"name": "Saturday", "starts_at": _soon().isoformat(), "rounds_planned": 1},
        content_type="application/json",
    )
    assert made.status_code == 201 and made.json()["rounds_planned"] == 1
    detail = reverse("tournaments_api:session-detail", args=[made.json()["id"]])
    patched = client.patch(detail, {"rounds_planned": 4}, content_type="application/json")
    assert patched.status_code == 200 and patched.json()["rounds_planned"] == 4
    assert patched.json()["name"] == "Saturday"
    cleared = client.patch(detail, {"rounds_planned": None}, content_type="application/json")
    assert cleared.json()["rounds_planned"] is None
    wrong = client.patch(detail, {"rounds_planned": 99}, content_type="application/json")
    assert wrong.status_code == 400 and "rounds_planned" in wrong.json()["fields"]
    assert (
        _client(referee).patch(detail, {"rounds_planned": 1}, content_type="application/json").status_code
        == 403
    )
