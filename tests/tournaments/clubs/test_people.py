"""People, not rows (docs/people.md): claiming a club's player by invitation, every refusal, unlinking,
the audit, the pages and the API, and a person's page across clubs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from snapleague.errors import ApplicationError
from snapleague.users import Account
from tournaments.clubs import person_page as person_page_selectors
from tournaments.clubs import selectors, services
from tournaments.models import AuditEntry, Club, Player, PlayerClaim, PlayerRating, Series, Tournament

pytestmark = pytest.mark.django_db


def _api(user: Account | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _page(user: Account | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def zoe(make_user: Callable[..., Account]) -> Account:
    return make_user("zoe")


@pytest.fixture
def free(club: Club) -> Player:
    return Player.objects.create(club=club, name="Zoé")


def _refused(call: Callable[[], object]) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    return caught.value


# --- Services -----------------------------------------------------------------------------------


def test_a_claim_links_the_player_to_the_person_once_and_is_audited(
    organiser: Account, zoe: Account, free: Player, make_user: Callable[..., Account]
) -> None:
    claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    assert claim.expires_at > timezone.now()
    assert services.player_claim_accept(user=zoe, token=token) == free
    free.refresh_from_db()
    claim.refresh_from_db()
    assert free.user == zoe and claim.accepted_by == zoe and claim.accepted_at is not None
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "user__username"))
    assert actions == [
        (AuditEntry.Action.PLAYER_CLAIM_INVITED, "organiser"),
        (AuditEntry.Action.PLAYER_CLAIMED, "zoe"),
    ]
    used = _refused(lambda: services.player_claim_accept(user=make_user(), token=token))
    assert used.code == "claim_used" and used.status == 409
    free.refresh_from_db()
    assert free.user == zoe


def test_only_an_organiser_of_the_players_club_invites(
    free: Player, zoe: Account, make_user: Callable[..., Account]
) -> None:
    elsewhere = make_user()
    Club.objects.create(name="Other", slug="other").organisers.add(elsewhere)
    for user in (zoe, elsewhere):
        refusal = _refused(lambda user=user: services.player_claim_create(user=user, player_id=free.pk))
        assert refusal.code == "not_organiser" and refusal.status == 403
    assert not PlayerClaim.objects.exists()


def test_an_expired_claim_is_refused_with_its_date(organiser: Account, zoe: Account, free: Player) -> None:
    claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    PlayerClaim.objects.filter(pk=claim.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    refusal = _refused(lambda: services.player_claim_accept(user=zoe, token=token))
    assert refusal.code == "claim_expired" and refusal.status == 410
    assert "Hatvan Card Club" in str(refusal.message)
    free.refresh_from_db()
    assert free.user is None


def test_a_forged_or_altered_token_is_refused(zoe: Account, organiser: Account, free: Player) -> None:
    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    for bad in ("not-a-token", token[:-2] + "xx", ""):
        refusal = _refused(lambda bad=bad: services.player_claim_accept(user=zoe, token=bad))
        assert refusal.code == "claim_invalid" and refusal.status == 400


def test_a_new_link_withdraws_the_open_one(organiser: Account, zoe: Account, free: Player) -> None:
    _first, old = services.player_claim_create(user=organiser, player_id=free.pk)
    _second, new = services.player_claim_create(user=organiser, player_id=free.pk)
    refusal = _refused(lambda: services.player_claim_accept(user=zoe, token=old))
    assert refusal.code == "claim_withdrawn" and refusal.status == 409
    assert services.player_claim_accept(user=zoe, token=new).user == zoe


def test_a_player_linked_to_someone_else_is_refused(
    organiser: Account, zoe: Account, free: Player, make_user: Callable[..., Account]
) -> None:
    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    someone = make_user()
    Player.objects.filter(pk=free.pk).update(user=someone)  # linked meanwhile (e.g. by the admin)
    refusal = _refused(lambda: services.player_claim_accept(user=zoe, token=token))
    assert refusal.code == "player_claimed" and refusal.status == 409
    free.refresh_from_db()
    assert free.user == someone
    assert PlayerClaim.objects.get().accepted_at is None  # still open for the right person after an unlink
    # and an organiser cannot make a link for a linked player
    again = _refused(lambda: services.player_claim_create(user=organiser, player_id=free.pk))
    assert again.code == "player_claimed"


def test_one_player_per_account_per_club(
    organiser: Account, players: list[Player], player_user: Account, free: Player
) -> None:
    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    refusal = _refused(lambda: services.player_claim_accept(user=player_user, token=token))
    assert refusal.code == "one_player_per_club" and refusal.status == 409
    assert players[0].name in str(refusal.message)  # Anna: the player the account has already
    free.refresh_from_db()
    assert free.user is None


def test_not_signed_in_is_asked_to_log_in(organiser: Account, free: Player) -> None:
    from django.contrib.auth.models import AnonymousUser

    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    refusal = _refused(lambda: services.player_claim_accept(user=AnonymousUser(), token=token))
    assert refusal.code == "not_signed_in" and refusal.status == 403


def test_an_organiser_unlinks_and_open_links_stop(
    organiser: Account, zoe: Account, free: Player, make_user: Callable[..., Account]
) -> None:
    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    services.player_claim_accept(user=zoe, token=token)
    refusal = _refused(lambda: services.player_unlink(user=zoe, player_id=free.pk))
    assert refusal.code == "not_organiser"
    assert services.player_unlink(user=organiser, player_id=free.pk).user is None
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_UNLINKED).get()
    assert entry.detail["account"] == "zoe" and entry.detail["player"] == "Zoé"
    not_linked = _refused(lambda: services.player_unlink(user=organiser, player_id=free.pk))
    assert not_linked.code == "not_linked" and not_linked.status == 409
    # A link made, then an unlink of someone else's account: the open link is withdrawn.
    _claim, pending = services.player_claim_create(user=organiser, player_id=free.pk)
    Player.objects.filter(pk=free.pk).update(user=make_user())
    services.player_unlink(user=organiser, player_id=free.pk)
    assert _refused(lambda: services.player_claim_accept(user=zoe, token=pending)).code == "claim_withdrawn"


def test_link_state_for_organisers_only(organiser: Account, zoe: Account, free: Player) -> None:
    link = selectors.player_link_get(user=organiser, player=free)
    assert link is not None and link.pending is None
    claim, _token = services.player_claim_create(user=organiser, player_id=free.pk)
    link = selectors.player_link_get(user=organiser, player=free)
    assert link is not None and link.pending == claim
    assert selectors.player_link_get(user=zoe, player=free) is None


# --- Pages --------------------------------------------------------------------------------------


def test_the_pages_from_the_player_page_to_the_person(organiser: Account, zoe: Account, free: Player) -> None:
    player_url = reverse("tournaments:player", args=[free.pk])
    page = _page(organiser).get(player_url).content.decode()
    assert "Invite this player to claim" in page and "Not linked to an account." in page
    assert "Invite this player to claim" not in _page(zoe).get(player_url).content.decode()

    response = _page(organiser).post(reverse("tournaments:player-claim", args=[free.pk]))
    assert response.status_code == 200 and "<svg" in response.content.decode()
    path = response.context["claim_url"].removeprefix("http://testserver")
    assert path.startswith("/claims/")
    assert "Invitation pending" in _page(organiser).get(player_url).content.decode()

    anonymous = _page().get(path)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("account_login"))
    assert "next=/claims/" in anonymous["Location"]  # back here after logging in
    client = _page(zoe)
    shown = client.get(path)
    assert shown.status_code == 200 and "I am Zoé" in shown.content.decode()
    free.refresh_from_db()
    assert free.user is None  # opening it changes nothing
    accepted = client.post(path)
    assert accepted.status_code == 302 and accepted["Location"] == reverse("tournaments:me")
    free.refresh_from_db()
    assert free.user == zoe
    assert "Claimed by zoe" in _page(organiser).get(player_url).content.decode()

    again = client.post(path)
    assert again.status_code == 409 and "already been used" in again.content.decode()

    unlinked = _page(organiser).post(reverse("tournaments:player-unlink", args=[free.pk]))
    assert unlinked.status_code == 302
    free.refresh_from_db()
    assert free.user is None


def test_the_claim_page_says_why_not_before_the_button(
    organiser: Account, players: list[Player], player_user: Account, free: Player
) -> None:
    _claim, token = services.player_claim_create(user=organiser, player_id=free.pk)
    response = _page(player_user).get(reverse("tournaments:claim", args=[token]))
    body = response.content.decode()
    assert response.status_code == 409 and 'id="accept-claim"' not in body
    assert "one player per club" in body and "Anna" in body
    bad = _page(player_user).get(reverse("tournaments:claim", args=["nonsense"]))
    assert bad.status_code == 400 and "not valid" in bad.content.decode()


@pytest.fixture
def two_clubs(
    club: Club,
    organiser: Account,
    zoe: Account,
    make_series: Callable[..., Series],
    make_user: Callable[..., Account],
) -> tuple[Player, Player, Series, Series]:
    """Zoé plays in Hatvan and in Gyöngyös: a decided series in each, one rated."""
    here = Player.objects.create(club=club, name="Zoé H", user=zoe)
    mate = Player.objects.create(club=club, name="Mate")
    other_club = Club.objects.create(name="Gyöngyös Snap Kör", slug="gyongyos")
    other_club.organisers.add(organiser)
    there = Player.objects.create(club=other_club, name="Zoé G", user=zoe)
    rival = Player.objects.create(club=other_club, name="Rival")
    cup = Tournament.objects.create(
        club=other_club, name="Gyöngyös Cup", game="snap", rules_profile="classic"
    )
    series_here = make_series([here, mate])
    series_there = make_series([there, rival], tournament=cup)
    PlayerRating.objects.create(
        club=other_club, player=there, game="snap", value=21.5, mu=25, sigma=1.2, played=3
    )
    return here, there, series_here, series_there


def test_the_person_page_shows_every_club(
    zoe: Account, two_clubs: tuple[Player, Player, Series, Series]
) -> None:
    here, there, series_here, series_there = two_clubs
    page = person_page_selectors.person_page_get(user=zoe)
    assert [c.player for c in page.clubs] == [there, here]  # by club name: Gyöngyös, Hatvan
    assert page.clubs[0].ratings[0].text == "21.5" and page.clubs[1].ratings == []
    assert {line.line.series for line in page.history} == {series_here, series_there}
    assert page.next_table is not None and page.next_table.player in (here, there)

    body = _page(zoe).get(reverse("tournaments:me")).content.decode()
    for text in ("Hatvan Card Club", "Gyöngyös Snap Kör", "Gyöngyös Cup", "Zoé H", "Zoé G", "next-table"):
        assert text in body
    assert reverse("tournaments:me") in _page(zoe).get(reverse("home")).content.decode()  # header link
    assert _page().get(reverse("tournaments:me")).status_code == 302


def test_the_person_page_of_someone_without_players(make_user: Callable[..., Account]) -> None:
    body = _page(make_user()).get(reverse("tournaments:me")).content.decode()
    assert 'id="no-clubs"' in body


# --- API ----------------------------------------------------------------------------------------


def test_the_api_creates_accepts_and_unlinks(
    organiser: Account, zoe: Account, free: Player, players: list[Player], player_user: Account
) -> None:
    created = _api(organiser).post(reverse("tournaments_api:player-claim", args=[free.pk]))
    assert created.status_code == 201 and created.data["player"] == free.pk
    token = created.data["token"]
    assert _api(zoe).post(reverse("tournaments_api:player-claim", args=[free.pk])).status_code == 403
    refused = _api(player_user).post(reverse("tournaments_api:claim-accept"), {"token": token})
    assert refused.status_code == 409 and refused.data["code"] == "one_player_per_club"
    missing = _api(zoe).post(reverse("tournaments_api:claim-accept"), {})
    assert missing.status_code == 400 and "token" in missing.data["fields"]
    accepted = _api(zoe).post(reverse("tournaments_api:claim-accept"), {"token": token})
    assert accepted.status_code == 200 and accepted.data["user"] == zoe.pk
    assert accepted.data["username"] == "zoe"
    unlink = _api(organiser).post(reverse("tournaments_api:player-unlink", args=[free.pk]))
    assert unlink.status_code == 200 and unlink.data["user"] is None
    assert _api(organiser).post(reverse("tournaments_api:player-unlink", args=[free.pk])).status_code == 409
    assert _api(organiser).post(reverse("tournaments_api:player-claim", args=[999999])).status_code == 404
