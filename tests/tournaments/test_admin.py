"""The admin for organisers: their own clubs only; what has a service is read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client

from snapleague.users import Account
from tests.conftest import record_result, snap_win
from tournaments.models import Club, GameKind, Player, Series, Tournament


def _staff_client(user: Account) -> Client:
    user.is_staff = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_sees_their_clubs_rows_only(
    club: Club, organiser: Any, make_user: Callable[..., Any], make_tournament: Callable[..., Tournament]
) -> None:
    mine = make_tournament()
    elsewhere = Club.objects.create(name="Other Club", slug="other")
    elsewhere.organisers.add(make_user("someone_else"))
    theirs = Tournament.objects.create(
        club=elsewhere, name="Not yours", game=GameKind.SNAP, rules_profile="classic"
    )
    client = _staff_client(organiser)
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert mine.name in listing and theirs.name not in listing
    assert client.get(f"/admin/tournaments/tournament/{theirs.pk}/change/").status_code == 302  # not found
    assert client.get(f"/admin/tournaments/tournament/{mine.pk}/change/").status_code == 200
    assert client.get("/admin/tournaments/tournament/?game__exact=snap").status_code == 200


def test_results_are_read_only_in_the_admin(
    make_series: Callable[..., Series], players: list[Player], referee: Any, organiser: Any
) -> None:
    series = make_series(players[:4])
    record, _ = record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(*players[:4]))
    client = _staff_client(organiser)
    assert client.get("/admin/tournaments/gameresult/").status_code == 200
    page = client.get(f"/admin/tournaments/gameresult/{record.pk}/change/").content.decode()
    assert 'name="_save"' not in page  # view only
    assert client.get("/admin/tournaments/gameresult/add/").status_code == 403


def test_a_staff_account_that_organises_nothing_sees_no_club_data(make_user: Callable[..., Any]) -> None:
    client = _staff_client(make_user("staff_only"))
    assert client.get("/admin/tournaments/tournament/").status_code == 403
