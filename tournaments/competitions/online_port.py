"""Tournaments' side of the games port (games/ports.py): what online play and the games pages ask of
a tournament, answered by the competitions' services and selectors. Registered when the app is
ready (tournaments/apps.py); games never imports this module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from games.ports import SeriesNextGame, SeriesPlay, TableGame
from snapleague.users import AnyUser
from tournaments.access import user_is_organiser
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.results.services import EngineSource, result_record
from tournaments.competitions.results.values import result_from_engine
from tournaments.competitions.selectors.tournaments import games_visible, series_visible
from tournaments.competitions.stages.withdrawals import series_forfeit_absent
from tournaments.models import Player, Series


class CompetitionsPort:
    """The :class:`games.ports.TournamentPort` of this project."""

    def series_play_lock(self, *, series_id: int) -> SeriesPlay | None:
        series = (
            Series.objects.select_for_update()
            .select_related("stage__tournament")
            .filter(pk=series_id)
            .first()
        )
        if series is None:
            return None
        tournament = series.stage.tournament
        return SeriesPlay(
            series_id=series.pk,
            online=series.stage.online_play,
            game=tournament.game,
            options={"profile": tournament.rules_profile, **tournament.rules_options},
        )

    def series_next_game(self, *, user: AnyUser, series_id: int) -> SeriesNextGame:
        target = result_target_get(user=user, series_id=series_id)
        return SeriesNextGame(number=target.game_number, players=tuple(target.table.players))

    def player_users(self, *, player_ids: Sequence[int]) -> dict[int, int | None]:
        return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "user_id"))

    def series_game_finished(
        self, *, game_id: int, series_id: int, game_number: int, players: Sequence[int], result: Any
    ) -> None:
        result_record(
            source=EngineSource(game_id),
            series_id=series_id,
            game_number=game_number,
            result=result_from_engine(result, players),
        )

    def series_game_abandoned(self, *, series_id: int, player_ids: Sequence[int], reason: str) -> None:
        series_forfeit_absent(series_id=series_id, player_ids=player_ids, reason=reason)

    def series_visible(self, *, user: AnyUser, series_id: int) -> bool:
        return series_visible(user=user).filter(pk=series_id).exists()

    def series_visible_ids(self, *, user: AnyUser) -> QuerySet[Series]:
        return series_visible(user=user).values("pk")

    def table_game_get(self, *, user: AnyUser, table_game_id: int) -> TableGame | None:
        game = (
            games_visible(user=user)
            .select_related("series__stage__tournament__club")
            .filter(pk=table_game_id)
            .first()
        )
        if game is None:
            return None
        seats = tuple(int(p) for p in game.seats)
        players = {
            pk: (name, user_id)
            for pk, name, user_id in Player.objects.filter(pk__in=seats).values_list("pk", "name", "user_id")
        }
        engine_game = (
            game.results.filter(confirmed=True, engine_game__isnull=False)
            .values_list("engine_game", flat=True)
            .first()
        )
        tournament = game.series.stage.tournament
        seated = user.is_authenticated and game.series.seats.filter(player__user_id=user.pk).exists()
        return TableGame(
            pk=game.pk,
            series_id=game.series_id,
            number=game.number,
            game=tournament.game,
            seats=seats,
            seat_names=tuple(players.get(p, ("", None))[0] for p in seats),
            seat_users=tuple(players.get(p, ("", None))[1] for p in seats),
            engine_game=engine_game,
            may_enter_hands=bool(seated or user_is_organiser(user, tournament.club)),
        )

    def player_to_move(self, *, user_id: int, game_id: int, turn: int, opponents: Sequence[str]) -> None:
        from tournaments.notifications import senders

        with transaction.atomic():
            senders.your_move(user_id=user_id, game_id=game_id, turn=turn, opponents=opponents)
