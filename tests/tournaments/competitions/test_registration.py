"""Tournament registration (issue 25 item 4, docs/tournaments.md "Registration"): a window, a cap,
a waiting list, automatic or approved entry, a question; withdrawals promote the first waiting in
one transaction, never over the cap even when everyone signs up at once (PostgreSQL)."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.utils import timezone

from snapleague.errors import ApplicationError
from snapleague.users import Account
from tests.browser import BROWSER_TEST, on_phone_and_desktop, signed_in_page
from tournaments.competitions import registration as reg
from tournaments.competitions.services import tournament_create
from tournaments.competitions.stages.create import stage_create
from tournaments.models import Club, Entry, GameKind, Player, Registration, Tournament

pytestmark = pytest.mark.django_db
Status = Registration.Status


def _open(organiser: Account, tournament: Tournament, **options: Any) -> None:
    now = timezone.now()
    reg.registration_window_set(
        user=organiser,
        tournament=tournament,
        opens_at=options.pop("opens_at", now - timedelta(hours=1)),
        closes_at=options.pop("closes_at", now + timedelta(days=1)),
        **options,
    )


@pytest.fixture
def cup(club: Club, organiser: Account) -> Tournament:
    return tournament_create(user=organiser, club=club, name="Spring Open", game=GameKind.SNAPSZER)


def _refused(call: Callable[[], Any], code: str) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


def test_places_then_the_waiting_list_and_a_withdrawal_promotes_the_first(
    cup: Tournament, organiser: Account, make_user: Callable[..., Account]
) -> None:
    _open(organiser, cup, cap=2, waiting_list=True)
    people = [make_user(f"p{i}") for i in range(4)]
    states = [reg.registration_create(user=p, tournament=cup).status for p in people]
    assert states == [Status.ACCEPTED, Status.ACCEPTED, Status.WAITING, Status.WAITING]
    # the accepted are entrants, with a player of the club named after them
    assert sorted(Entry.objects.filter(tournament=cup).values_list("player__user__username", flat=True)) == [
        "p0",
        "p1",
    ]
    page = reg.registration_page_get(user=people[3], tournament=cup)
    assert (page.places_left, page.waiting, page.waiting_place) == (0, 2, 2)
    promoted = reg.registration_withdraw(user=people[0], tournament=cup)
    assert [r.user for r in promoted] == [people[2]]  # first come, first served
    assert Registration.objects.get(tournament=cup, user=people[2]).status == Status.ACCEPTED
    assert not Entry.objects.filter(tournament=cup, player__user=people[0]).exists()
    assert Entry.objects.filter(tournament=cup).count() == 2
    # a raised cap gives the new place to the next in line at once
    _open(organiser, cup, cap=3, waiting_list=True)
    assert Registration.objects.get(tournament=cup, user=people[3]).status == Status.ACCEPTED
    assert Entry.objects.filter(tournament=cup).count() == 3


def test_approved_entry_and_the_question(
    cup: Tournament, organiser: Account, make_user: Callable[..., Account]
) -> None:
    _open(organiser, cup, cap=1, waiting_list=False, approval=True, question="Which night suits you?")
    ada, bea = make_user("ada"), make_user("bea")
    error = _refused(lambda: reg.registration_create(user=ada, tournament=cup), "invalid")
    assert "answer" in error.fields
    first = reg.registration_create(user=ada, tournament=cup, answer="Tuesday")
    second = reg.registration_create(user=bea, tournament=cup, answer="Friday")
    assert (first.status, second.status) == (Status.PENDING, Status.PENDING)
    assert not Entry.objects.filter(tournament=cup).exists()  # nobody has a place before approval
    assert (
        reg.registration_decide(user=organiser, registration_id=first.pk, approve=True).status
        == Status.ACCEPTED
    )
    _refused(
        lambda: reg.registration_decide(user=organiser, registration_id=second.pk, approve=True),
        "tournament_full",
    )
    assert (
        reg.registration_decide(user=organiser, registration_id=second.pk, approve=False).status
        == Status.REFUSED
    )
    _refused(
        lambda: reg.registration_decide(user=organiser, registration_id=second.pk, approve=True),
        "registration_decided",
    )
    _refused(lambda: reg.registration_decide(user=bea, registration_id=first.pk, approve=False), "not_found")


def test_every_bad_registration_is_refused_with_nothing_made(
    cup: Tournament, organiser: Account, make_user: Callable[..., Account]
) -> None:
    ada = make_user("ada")
    _refused(lambda: reg.registration_create(user=ada, tournament=cup), "registration_closed")  # never opened
    now = timezone.now()
    error = _refused(
        lambda: _open(organiser, cup, opens_at=now, closes_at=now - timedelta(hours=1)), "invalid"
    )
    assert "closes_at" in error.fields
    _refused(lambda: _open(organiser, cup, cap=0), "invalid")
    _open(organiser, cup, opens_at=now + timedelta(days=1), closes_at=now + timedelta(days=2))
    _refused(lambda: reg.registration_create(user=ada, tournament=cup), "registration_closed")  # not yet
    _open(organiser, cup, opens_at=now - timedelta(days=2), closes_at=now - timedelta(days=1))
    _refused(
        lambda: reg.registration_create(user=ada, tournament=cup), "registration_closed"
    )  # after closing
    _open(organiser, cup, cap=1, waiting_list=False)
    reg.registration_create(user=ada, tournament=cup)
    _refused(lambda: reg.registration_create(user=ada, tournament=cup), "already_registered")  # twice
    _refused(lambda: reg.registration_create(user=make_user("bea"), tournament=cup), "tournament_full")
    error = _refused(lambda: _open(organiser, cup, cap=None, question="x" * 201), "invalid")
    assert "question" in error.fields
    _refused(lambda: reg.registration_withdraw(user=make_user("cid"), tournament=cup), "not_registered")
    assert Registration.objects.filter(tournament=cup).count() == 1
    assert Entry.objects.filter(tournament=cup).count() == 1
    # started: no more withdrawing or registering
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.RUNNING)
    cup.refresh_from_db()
    _refused(lambda: reg.registration_withdraw(user=ada, tournament=cup), "tournament_started")
    _refused(lambda: reg.registration_create(user=make_user("dan"), tournament=cup), "registration_closed")


def test_registrations_become_entrants_a_stage_seeds_by_rating(
    cup: Tournament, organiser: Account, make_user: Callable[..., Account], club: Club
) -> None:
    _open(organiser, cup)
    known = Player.objects.create(club=club, name="Ada Known")
    ada = make_user("ada")
    known.user = ada
    known.save(update_fields=["user"])
    for person in (ada, make_user("bea"), make_user("cid"), make_user("dan")):
        reg.registration_create(user=person, tournament=cup)
    assert Registration.objects.get(user=ada).player == known  # their own player of the club, not a new one
    stage = stage_create(
        user=organiser, tournament=cup, name="League", format="round_robin", options={"seeding": "rating"}
    )
    assert stage.options["seeding"] == "rating"
    assert Entry.objects.filter(tournament=cup).count() == 4


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks under real concurrency: PostgreSQL")
def test_twenty_sign_ups_and_withdrawals_at_once_never_go_over_the_cap(
    club: Club, organiser: Account, make_user: Callable[..., Account]
) -> None:
    cup = tournament_create(user=organiser, club=club, name="Rush", game=GameKind.SNAP)
    _open(organiser, cup, cap=5, waiting_list=True)
    people = [make_user(f"r{i}") for i in range(20)]
    barrier = threading.Barrier(len(people))
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()

    def sign_up(person: Account) -> None:
        try:
            barrier.wait()
            status = reg.registration_create(user=person, tournament=cup).status
        except Exception as exc:
            status = type(exc).__name__
        finally:
            connections.close_all()
        with lock:
            outcomes[str(status)] += 1

    threads = [threading.Thread(target=sign_up, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcomes == {"accepted": 5, "waiting": 15}
    accepted = list(
        Registration.objects.filter(tournament=cup, status=Status.ACCEPTED).values_list("user", flat=True)
    )
    leaving = [p for p in people if p.pk in accepted][:4]
    in_line = list(
        Registration.objects.filter(tournament=cup, status=Status.WAITING)
        .order_by("created_at", "pk")
        .values_list("user", flat=True)
    )
    barrier2 = threading.Barrier(len(leaving) + 2)

    def withdraw(person: Account) -> None:
        try:
            barrier2.wait()
            reg.registration_withdraw(user=person, tournament=cup)
        finally:
            connections.close_all()

    def late(person: Account) -> None:
        try:
            barrier2.wait()
            reg.registration_create(user=person, tournament=cup)
        finally:
            connections.close_all()

    extra = [make_user("late1"), make_user("late2")]
    threads = [threading.Thread(target=withdraw, args=(p,)) for p in leaving]
    threads += [threading.Thread(target=late, args=(p,)) for p in extra]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert Registration.objects.filter(tournament=cup, status=Status.ACCEPTED).count() == 5
    assert Entry.objects.filter(tournament=cup).count() == 5
    # the promoted are the first four in line, whoever came late
    promoted = set(
        Registration.objects.filter(tournament=cup, status=Status.ACCEPTED).values_list("user", flat=True)
    )
    assert set(in_line[:4]) <= promoted
    assert not {u.pk for u in extra} & promoted


def test_the_page_for_a_visitor_a_person_and_the_organiser(
    cup: Tournament, organiser: Account, make_user: Callable[..., Account], club: Club
) -> None:
    url = f"/tournaments/{cup.pk}/registration/"
    assert Client().get(url).status_code == 404  # a draft without registration stays the staff's
    _open(organiser, cup, cap=3)
    visitor_page = Client().get(url).content.decode()
    assert "3 places left" in visitor_page
    assert f'href="/tournaments/{cup.pk}/"' not in visitor_page  # the draft's own page stays the staff's
    assert (
        cup.name in Client().get(f"/clubs/{club.slug}/").content.decode()
    )  # listed as open on the club page
    ada = Client()
    ada.force_login(make_user("ada"))
    assert ada.post(f"{url}register/", {}).status_code == 302
    page = ada.get(url).content.decode()
    assert "2 places left" in page and 'id="withdraw"' in page
    again = ada.post(f"{url}register/", {})
    assert again.status_code == 409
    staff = Client()
    staff.force_login(organiser)
    bad = staff.post(f"{url}window/", {"opens_at": "2027-01-02T10:00", "closes_at": "2027-01-01T10:00"})
    assert bad.status_code == 400 and "Registration must close after it opens." in bad.content.decode()
    assert 'id="registration-' in staff.get(url).content.decode()
    assert ada.post(f"{url}withdraw/").status_code == 302
    assert "3 places left" in Client().get(url).content.decode()


@BROWSER_TEST[0]
@BROWSER_TEST[1]
@pytest.mark.django_db(transaction=True)
@on_phone_and_desktop
def test_a_person_registers_sees_the_places_drop_and_withdraws(
    browser: Any, server: str, club: Club, make_user: Callable[..., Account], device: dict[str, Any]
) -> None:
    organiser = club.organisers.get()
    cup = tournament_create(user=organiser, club=club, name="Spring Open", game=GameKind.SNAPSZER)
    _open(organiser, cup, cap=8)
    make_user("zoe")
    tab = signed_in_page(browser, server, "zoe", device, then=f"/clubs/{club.slug}/")
    tab.click("#open-registrations a")
    tab.wait_for_url(re.compile(r"/registration/$"))
    assert "8 places left" in tab.locator("#places-left").inner_text()
    tab.click("#register")
    tab.get_by_text("You are registered.").wait_for()
    assert "7 places left" in tab.locator("#places-left").inner_text()
    tab.click("#withdraw")
    tab.get_by_text("You withdrew.").wait_for()
    assert "8 places left" in tab.locator("#places-left").inner_text()
    tab.context.close()
