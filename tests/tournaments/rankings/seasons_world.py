"""Played tournaments for the season tests: real stages through the services, results recorded as a
referee does (tasks run eagerly)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence

from django.test import TestCase
from django.utils import timezone

from snapleague.users import Account
from tests.conftest import play_open_series
from tournaments.competitions.services import tournament_create, tournament_players_add
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.models import GameKind, Player, Series, Stage, Tournament


def on_commit() -> object:
    """Run what the services hand on at commit (the stage and standings tasks, eagerly) as the
    test's transaction never commits."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def played_tournament(
    *,
    organiser: Account,
    name: str,
    day: datetime.date,
    order: Sequence[Player],
    format: str = "round_robin",
    finish: bool = True,
) -> Tournament:
    """A Snapszer tournament on ``day`` of the players in ``order`` (entered in the order they were
    made), whose every series the player earlier in ``order`` wins (``finish``: played to the end;
    otherwise only the first round)."""
    players = sorted(order, key=lambda p: p.pk)
    club = players[0].club
    tournament = tournament_create(
        user=organiser,
        club=club,
        name=name,
        game=GameKind.SNAPSZER,
        starts_at=timezone.make_aware(datetime.datetime.combine(day, datetime.time(19))),
    )
    tournament_players_add(user=organiser, tournament=tournament, players=players)
    stage = stages_create.stage_create(user=organiser, tournament=tournament, name="Main", format=format)
    with on_commit():
        stages_publish.stage_round_publish(user=organiser, stage_id=stage.pk)
    rank = {p.pk: i for i, p in enumerate(order)}
    best: Callable[[Series, list[Player]], Player] = lambda _s, seated: min(seated, key=lambda p: rank[p.pk])  # noqa: E731
    if finish:
        for _round in range(20):
            with on_commit():
                if not play_open_series(stage.pk, organiser, best):
                    break
    else:
        first = Series.objects.filter(stage=stage, round__number=1, walkover=False).first()
        assert first is not None
        with on_commit():
            play_open_series_one(first, organiser, best)
    stage.refresh_from_db()
    assert (stage.status == Stage.Status.FINISHED) == finish
    return tournament


def play_open_series_one(
    series: Series, user: Account, best: Callable[[Series, list[Player]], Player]
) -> None:
    from tests.conftest import record_result, snapszer_win

    seated = [s.player for s in series.seats.select_related("player")]
    winner = best(series, seated)
    loser = next(p for p in seated if p != winner)
    number = 0
    while series.status != Series.Status.DECIDED:
        number += 1
        record_result(user=user, series_id=series.pk, game_number=number, result=snapszer_win(winner, loser))
        series.refresh_from_db()
