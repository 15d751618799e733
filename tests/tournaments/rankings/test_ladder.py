"""Ladder services, selectors and the beat expiry (docs/ladder.md)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import Account
from tournaments.models import Club, GameKind, Ladder, LadderChallenge, Player
from tournaments.rankings.ladder import selectors, services
from tournaments.tasks import ladder_challenges_expire_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(
    organiser: Account, club: Club, players: list[Player], make_user: Callable[..., Account]
) -> Ladder:
    ladder = services.ladder_create(user=organiser, club=club, name="Autumn ladder", game=GameKind.SNAPSZER)
    for player in players[:6]:  # Anna … Ferenc, places 1 … 6
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=player.pk)
    for player in players[1:6]:
        player.user = make_user(player.name.lower())
        player.save()
    return ladder


def names(ladder: Ladder) -> list[str]:
    return [rung.player.name for rung in selectors.rungs_list(ladder=ladder)]


def user_of(player: Player) -> Any:
    return player.user


def test_create_refuses_bad_settings_with_field_errors(
    organiser: Account, club: Club, player_user: Account
) -> None:
    with pytest.raises(ApplicationError) as caught:
        services.ladder_create(
            user=organiser,
            club=club,
            name=" ",
            game="chess",
            reach=0,
            reply_days=0,
            best_of=4,
            rematch_days=-1,
        )
    assert set(caught.value.fields) == {"name", "game", "reach", "reply_days", "best_of", "rematch_days"}
    with pytest.raises(PermissionDenied):
        services.ladder_create(user=player_user, club=club, name="Mine", game=GameKind.SNAP)
    services.ladder_create(user=organiser, club=club, name="L", game=GameKind.SNAP)
    with pytest.raises(ApplicationError) as caught:
        services.ladder_create(user=organiser, club=club, name="L", game=GameKind.SNAP)
    assert "name" in caught.value.fields
    assert Ladder.objects.filter(club=club).count() == 1


def test_players_join_at_the_bottom_and_leave(
    ladder: Ladder, organiser: Account, players: list[Player]
) -> None:
    assert names(ladder) == ["Anna", "Bence", "Csilla", "Dániel", "Eszter", "Ferenc"]
    with pytest.raises(ApplicationError) as caught:
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=players[0].pk)
    assert "player" in caught.value.fields
    other = Player.objects.create(club=Club.objects.create(name="Other", slug="other"), name="Zoli")
    with pytest.raises(ApplicationError):
        services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=other.pk)
    services.ladder_player_remove(user=organiser, ladder_id=ladder.pk, player_id=players[1].pk)
    assert names(ladder) == ["Anna", "Csilla", "Dániel", "Eszter", "Ferenc"]
    assert [r.place for r in selectors.rungs_list(ladder=ladder)] == [1, 2, 3, 4, 5]
    services.ladder_player_add(user=organiser, ladder_id=ladder.pk, player_id=players[1].pk)
    assert names(ladder)[-1] == "Bence"


def test_challenge_refusals(
    ladder: Ladder, players: list[Player], organiser: Account, player_user: Account
) -> None:
    anna, bence, csilla, daniel, eszter, ferenc, gabi, _hanna = players
    cases = [
        (user_of(ferenc), bence.pk, "too_far"),  # 6th → 2nd: 4 places, reach 3
        (user_of(bence), csilla.pk, "below"),
        (user_of(bence), bence.pk, "self"),
        (user_of(ferenc), gabi.pk, "challenged_not_in_ladder"),
    ]
    for user, target, code in cases:
        with pytest.raises(ApplicationError) as caught:
            services.challenge_create(user=user, ladder_id=ladder.pk, challenged_id=target)
        assert caught.value.code == code
        assert "challenged" in caught.value.fields
    gabi.user = organiser
    gabi.save()  # the organiser plays too, but not on this ladder
    with pytest.raises(ApplicationError) as caught:
        services.challenge_create(user=organiser, ladder_id=ladder.pk, challenged_id=anna.pk)
    assert caught.value.code == "challenger_not_in_ladder"
    gabi.user = None
    gabi.save()
    with pytest.raises(PermissionDenied) as denied:
        services.challenge_create(user=organiser, ladder_id=ladder.pk, challenged_id=anna.pk)
    assert denied.value.code == "no_player"
    # One open challenge per player, on either side.
    services.challenge_create(user=user_of(eszter), ladder_id=ladder.pk, challenged_id=bence.pk)
    with pytest.raises(ApplicationError) as caught:
        services.challenge_create(user=user_of(eszter), ladder_id=ladder.pk, challenged_id=csilla.pk)
    assert caught.value.code == "challenger_busy"
    with pytest.raises(ApplicationError) as caught:
        services.challenge_create(user=user_of(daniel), ladder_id=ladder.pk, challenged_id=bence.pk)
    assert caught.value.code == "challenged_busy"
    assert LadderChallenge.objects.count() == 1
    # A player of another club's ladder or not a player at all may not challenge.
    with pytest.raises(PermissionDenied):
        services.challenge_create(
            user=user_of(ferenc), ladder_id=ladder.pk, challenged_id=eszter.pk, challenger_id=anna.pk
        )


def test_a_won_challenge_takes_the_place_everyone_between_moves_down(
    ladder: Ladder, players: list[Player]
) -> None:
    _anna, bence, _c, _d, eszter, _f = players[:6]
    challenge = services.challenge_create(user=user_of(eszter), ladder_id=ladder.pk, challenged_id=bence.pk)
    assert (challenge.challenger_place, challenge.challenged_place) == (5, 2)
    services.challenge_accept(user=user_of(bence), challenge_id=challenge.pk)
    # Both players report; the result counts when they agree.
    services.challenge_result(
        user=user_of(eszter), challenge_id=challenge.pk, challenger_wins=2, challenged_wins=1
    )
    challenge.refresh_from_db()
    assert challenge.status == LadderChallenge.Status.ACCEPTED
    assert names(ladder) == ["Anna", "Bence", "Csilla", "Dániel", "Eszter", "Ferenc"]
    services.challenge_result(
        user=user_of(bence), challenge_id=challenge.pk, challenger_wins=1, challenged_wins=2
    )
    challenge.refresh_from_db()
    assert challenge.status == LadderChallenge.Status.ACCEPTED  # they disagree: nothing yet
    services.challenge_result(
        user=user_of(bence), challenge_id=challenge.pk, challenger_wins=2, challenged_wins=1
    )
    challenge.refresh_from_db()
    assert challenge.status == LadderChallenge.Status.DECIDED and challenge.challenger_won
    assert (challenge.challenger_wins, challenge.challenged_wins) == (2, 1)
    assert names(ladder) == ["Anna", "Eszter", "Bence", "Csilla", "Dániel", "Ferenc"]
    with pytest.raises(Conflict):
        services.challenge_result(
            user=user_of(bence), challenge_id=challenge.pk, challenger_wins=0, challenged_wins=2
        )


def test_a_lost_challenge_changes_nothing_and_blocks_a_rematch(
    ladder: Ladder, players: list[Player], organiser: Account, player_user: Account
) -> None:
    anna, bence, csilla, daniel = players[:4]
    challenge = services.challenge_create(user=user_of(daniel), ladder_id=ladder.pk, challenged_id=anna.pk)
    with pytest.raises(PermissionDenied):  # a player not in the challenge
        services.challenge_result(
            user=user_of(csilla), challenge_id=challenge.pk, challenger_wins=0, challenged_wins=2
        )
    with pytest.raises(ApplicationError) as caught:
        services.challenge_result(
            user=organiser, challenge_id=challenge.pk, challenger_wins=1, challenged_wins=1
        )
    assert "score" in caught.value.fields
    services.challenge_result(user=organiser, challenge_id=challenge.pk, challenger_wins=0, challenged_wins=2)
    assert names(ladder)[:4] == ["Anna", "Bence", "Csilla", "Dániel"]
    with pytest.raises(ApplicationError) as caught:
        services.challenge_create(user=user_of(daniel), ladder_id=ladder.pk, challenged_id=anna.pk)
    assert caught.value.code == "rematch_too_soon"
    services.challenge_create(
        user=user_of(daniel), ladder_id=ladder.pk, challenged_id=bence.pk
    )  # another is fine
    LadderChallenge.objects.filter(pk=challenge.pk).update(
        decided_at=timezone.now() - datetime.timedelta(days=8)
    )
    page = selectors.ladder_page_get(user=user_of(daniel), ladder_id=ladder.pk)
    assert page.my_open is not None


def test_decline_is_a_forfeit_and_withdraw_is_nothing(ladder: Ladder, players: list[Player]) -> None:
    _a, bence, csilla, daniel = players[:4]
    challenge = services.challenge_create(user=user_of(daniel), ladder_id=ladder.pk, challenged_id=csilla.pk)
    with pytest.raises(PermissionDenied):
        services.challenge_decline(user=user_of(daniel), challenge_id=challenge.pk)  # only the challenged
    services.challenge_decline(user=user_of(csilla), challenge_id=challenge.pk)
    challenge.refresh_from_db()
    assert challenge.how == LadderChallenge.How.DECLINED and challenge.challenger_won
    assert names(ladder)[1:4] == ["Bence", "Dániel", "Csilla"]
    second = services.challenge_create(user=user_of(csilla), ladder_id=ladder.pk, challenged_id=bence.pk)
    services.challenge_withdraw(user=user_of(csilla), challenge_id=second.pk)
    second.refresh_from_db()
    assert second.status == LadderChallenge.Status.CANCELLED
    assert names(ladder)[1:4] == ["Bence", "Dániel", "Csilla"]


def test_removing_a_player_cancels_their_challenge(
    ladder: Ladder, players: list[Player], organiser: Account
) -> None:
    challenge = services.challenge_create(
        user=user_of(players[3]), ladder_id=ladder.pk, challenged_id=players[1].pk
    )
    services.ladder_player_remove(user=organiser, ladder_id=ladder.pk, player_id=players[1].pk)
    challenge.refresh_from_db()
    assert challenge.status == LadderChallenge.Status.CANCELLED


def test_beat_expires_overdue_challenges_once(ladder: Ladder, players: list[Player]) -> None:
    anna, bence, csilla, daniel, eszter, ferenc = players[:6]
    overdue = services.challenge_create(user=user_of(daniel), ladder_id=ladder.pk, challenged_id=anna.pk)
    accepted = services.challenge_create(user=user_of(ferenc), ladder_id=ladder.pk, challenged_id=csilla.pk)
    services.challenge_accept(user=user_of(csilla), challenge_id=accepted.pk)
    fresh = services.challenge_create(user=user_of(eszter), ladder_id=ladder.pk, challenged_id=bence.pk)
    past = timezone.now() - datetime.timedelta(minutes=1)
    LadderChallenge.objects.filter(pk__in=[overdue.pk, accepted.pk]).update(due_at=past)
    expired = ladder_challenges_expire_task.delay().get()
    assert sorted(expired) == sorted([overdue.pk, accepted.pk])
    assert ladder_challenges_expire_task.delay().get() == []  # twice: nothing more
    for challenge in (overdue, accepted, fresh):
        challenge.refresh_from_db()
    assert overdue.how == accepted.how == LadderChallenge.How.EXPIRED
    assert fresh.status == LadderChallenge.Status.OPEN
    # Dániel (4th) took Anna's 1st place, then Ferenc (6th) took Csilla's (now 4th).
    assert names(ladder) == ["Dániel", "Anna", "Bence", "Ferenc", "Csilla", "Eszter"]
    assert not services.challenge_expire(challenge_id=fresh.pk)


def test_ladder_page_marks_who_i_may_challenge(ladder: Ladder, players: list[Player]) -> None:
    page = selectors.ladder_page_get(user=user_of(players[4]), ladder_id=ladder.pk)  # Eszter, 5th
    assert page.my_place == 5
    assert [line.rung.player.name for line in page.lines if line.can_challenge] == [
        "Bence",
        "Csilla",
        "Dániel",
    ]
    services.challenge_create(user=user_of(players[3]), ladder_id=ladder.pk, challenged_id=players[2].pk)
    page = selectors.ladder_page_get(user=user_of(players[4]), ladder_id=ladder.pk)
    assert [line.rung.player.name for line in page.lines if line.can_challenge] == ["Bence"]
