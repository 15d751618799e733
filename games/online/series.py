"""Tournament series played online: a game of a series is an online game of its seated players,
and its result is recorded by the result service with the engine as the source (docs/online.md)."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.engine.protocol import GameKind
from games.models import OnlineGame, OnlineSeat
from games.online.services import (
    ABSENT_SECONDS_RANGE,
    absent_seconds_of,
    client_seed_clean,
    game_start,
    seat_take,
    server_seed_commit,
    table_check,
)
from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.results.services import EngineSource, result_record
from tournaments.competitions.results.values import result_from_engine
from tournaments.competitions.stages.withdrawals import series_forfeit_absent
from tournaments.models import Player, Series

logger = logging.getLogger(__name__)


def series_game_play(*, user: Any, series_id: int, client_seed: str = "") -> OnlineGame:
    """``user`` takes their seat, with ``client_seed``, at the online game of the series' next
    game (created by the first of its players to press "Play"); the game is dealt when every
    seated player has pressed it, so every one of them contributes a seed (docs/online.md, "Fair
    dealing"). Pressing again returns the same game. Seat order is the series' seat order; seat 0
    deals game 1, and the deal passes on game by game (Snap: 2–6 seats, the tournament's rules;
    Snapszer: a match). The tournament's rules must be playable online (Snap: no shuffled recycle).
    Raises ApplicationError (a seed refused, not an online stage, not seated, the series over)."""
    seed = client_seed_clean(client_seed)
    with transaction.atomic():
        series = (
            Series.objects.select_for_update()
            .select_related("stage__tournament")
            .filter(pk=series_id)
            .first()
        )
        if series is None:
            raise NotFound(code="series_not_found", message=_("There is no such series."))
        tournament = series.stage.tournament
        if not series.stage.online_play or tournament.game not in (GameKind.SNAPSZER, GameKind.SNAP):
            raise Conflict(code="not_online", message=_("This series is not played online."))
        game = OnlineGame.objects.filter(series=series).exclude(status=OnlineGame.Status.FINISHED).first()
        if game is None:
            game = _series_game_create(user=user, series=series)
        users = _users(game.players)
        if user.pk not in users:
            raise PermissionDenied(
                code="not_seated", message=_("Only the players of this series can start its game.")
            )
        seat = game.seats.get(number=users.index(user.pk))
        if seat.user_id is None:
            seat_take(seat, user=user, client_seed=seed)
        game.refresh_from_db()
        return game


def _users(players: list[int]) -> list[int | None]:
    """The user of each player, in seat order."""
    users = dict(Player.objects.filter(pk__in=players).values_list("pk", "user_id"))
    return [users.get(p) for p in players]


def _series_game_create(*, user: Any, series: Series) -> OnlineGame:
    """The open game of the series' next game, its seats reserved for its players (nobody sits
    until they press "Play"), its server seed committed."""
    tournament = series.stage.tournament
    target = result_target_get(user=user, series_id=series.pk)
    players = list(target.table.players)
    if not players:
        raise Conflict(code="series_over", message=_("This series has no game to play now."))
    users = _users(players)
    if user.pk not in users:
        raise PermissionDenied(
            code="not_seated", message=_("Only the players of this series can start its game.")
        )
    if None in users:
        raise Conflict(
            code="player_without_account", message=_("Every player needs an account to play online.")
        )
    options = {"profile": tournament.rules_profile, **tournament.rules_options}
    table_check(tournament.game, options, len(players))
    game = OnlineGame.objects.create(
        kind=GameKind(tournament.game).value,
        options=options,
        seat_count=len(players),
        dealer=(target.game_number - 1) % len(players),
        invite_token=secrets.token_urlsafe(24),
        created_by=user,
        series=series,
        game_number=target.game_number,
        players=players,
        **server_seed_commit(),
    )
    for seat in range(len(players)):
        OnlineSeat.objects.create(game=game, number=seat)
    return game


def play_deadline(game: OnlineGame) -> datetime:
    """Until when an open series game waits for its players to press "Play" (the table's absence
    allowance from the first press): then :func:`series_game_deal_overdue` deals it."""
    return game.created_at + timedelta(seconds=absent_seconds_of(game))


def series_games_overdue(now: datetime) -> list[int]:
    """Open series games past their :func:`play_deadline` (the lease sweeper asks every round)."""
    soonest = now - timedelta(seconds=ABSENT_SECONDS_RANGE[0])
    games = OnlineGame.objects.filter(
        status=OnlineGame.Status.OPEN, series__isnull=False, created_at__lte=soonest
    ).order_by("pk")
    return [game.pk for game in games if play_deadline(game) <= now]


def series_game_deal_overdue(game_id: int, now: datetime) -> bool:
    """Deal an open series game whose players have not all pressed "Play" by its deadline: the
    missing players are seated without a seed (the deal is still the committed server seed and
    the seeds given: nobody who pressed can be cheated by it) and are absent at the table, where
    the owner gives them the allowance once more and then applies the forfeit rule (docs/online.md
    "Absent players"). A player who arrives meanwhile plays. False when there was nothing to do
    (dealt meanwhile, or another process did it)."""
    with transaction.atomic():
        series_id = OnlineGame.objects.filter(pk=game_id).values_list("series_id", flat=True).first()
        if series_id is None:
            return False
        Series.objects.select_for_update().filter(pk=series_id).first()  # series_game_play's lock
        game = OnlineGame.objects.select_for_update().get(pk=game_id)
        if game.status != OnlineGame.Status.OPEN or play_deadline(game) > now:
            return False
        users = _users(game.players)
        for seat in game.seats.filter(user__isnull=True, bot_level=""):
            seat.user_id = users[seat.number]
            seat.client_seed = ""
            seat.save(update_fields=["user", "client_seed"])
            logger.info(
                "online game %s: seat %s did not press Play in time, dealt without it", game_id, seat.number
            )
        game_start(game_id=game_id)
    return True


def series_result_record(game: OnlineGame, engine_result: Any) -> None:
    """Record a finished series game through the result service (idempotent by the game's id)."""
    if game.series_id is None or game.game_number is None or engine_result is None:
        return
    result_record(
        source=EngineSource(game.pk),
        series_id=game.series_id,
        game_number=game.game_number,
        result=result_from_engine(engine_result, game.players),
    )


def series_absent_forfeit(game: OnlineGame, seats: list[int]) -> bool:
    """A series game abandoned because ``seats`` were away (rules/tournaments.md "Byes,
    withdrawals, forfeits": a no-show is a forfeit; everyone away, a double forfeit): the forfeit
    is recorded by :func:`tournaments.competitions.stages.withdrawals.series_forfeit_absent`, whose rule decides when it
    may be (no game of the series recorded yet, and no more players left than go on); the
    standings and the next round follow by the stage's Celery path. When the rule does not allow
    it (a later game of the series, a Snap table where more players stay), nothing is recorded:
    the organiser decides (the game is shown abandoned). True when the forfeit was recorded."""
    if game.series_id is None:
        return False
    players = [game.players[s] for s in seats if s < len(game.players)]
    reason = str(
        _("Away from online game %(number)s longer than the table allows.") % {"number": game.game_number}
    )
    try:
        with transaction.atomic():  # a refusal rolls back only this, not the game's end
            series_forfeit_absent(series_id=game.series_id, player_ids=players, reason=reason)
    except ApplicationError as refused:
        logger.warning(
            "online game %s: the absent players' forfeit was not recorded (%s): the organiser decides",
            game.pk,
            refused.code,
        )
        return False
    return True
