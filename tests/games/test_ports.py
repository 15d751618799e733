"""The port games asks tournaments through (games/ports.py, issue 24 item 2): tournaments registers its
implementation when its app is ready, nothing registered is a clear error, and games' questions go
through whatever is registered; and the registry of each game's online play (games/online/kinds.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import ports
from games.engine.protocol import GameKind
from games.models import OnlineGame
from games.online import kinds
from games.online.replay import hand_visible
from games.online.services import series_absent_forfeit
from games.online.snap import SnapOnline
from games.online.tables import SnapszerOnline
from games.ports import PortNotRegistered, TableGame, register_tournament_port, tournament_port
from snapleague.errors import Conflict
from tournaments.competitions.online_port import CompetitionsPort


class FakePort:
    """Records what games asks; answers as told."""

    def __init__(self, *, refuse: bool = False, table_game: TableGame | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.refuse = refuse
        self.table_game = table_game

    def series_game_abandoned(self, *, series_id: int, player_ids: Sequence[int], reason: str) -> None:
        self.calls.append(
            ("abandoned", {"series_id": series_id, "player_ids": list(player_ids), "reason": reason})
        )
        if self.refuse:
            raise Conflict(code="already_played", message="no")

    def table_game_get(self, *, user: Any, table_game_id: int) -> TableGame | None:
        self.calls.append(("table_game", {"table_game_id": table_game_id}))
        return self.table_game


@pytest.fixture
def registered() -> Iterator[list[Any]]:
    """The port registry, restored to tournaments' port after the test."""
    saved = list(ports._PORT)
    yield ports._PORT
    ports._PORT[:] = saved


def test_tournaments_registers_its_implementation_when_the_app_is_ready() -> None:
    assert isinstance(tournament_port(), CompetitionsPort)


def test_a_registered_port_replaces_the_previous_one(registered: list[Any]) -> None:
    fake = FakePort()
    register_tournament_port(fake)  # type: ignore[arg-type]
    assert tournament_port() is fake
    register_tournament_port(CompetitionsPort())
    assert isinstance(tournament_port(), CompetitionsPort)


def test_nothing_registered_is_a_clear_error(registered: list[Any]) -> None:
    registered.clear()
    with pytest.raises(PortNotRegistered, match=r"TournamentsConfig\.ready"):
        tournament_port()


def test_a_casual_game_never_asks_the_port(registered: list[Any]) -> None:
    registered.clear()  # asking would raise PortNotRegistered
    assert series_absent_forfeit(OnlineGame(series_id=None, players=[]), [0]) is False
    user = AnonymousUser()
    assert hand_visible(user=user, game=OnlineGame(table_game_id=None)) is False


@pytest.mark.django_db
def test_an_abandoned_series_game_reports_the_absent_players_through_the_port(registered: list[Any]) -> None:
    fake = FakePort()
    register_tournament_port(fake)  # type: ignore[arg-type]
    game = OnlineGame(series_id=7, game_number=2, players=[30, 40, 50])
    assert series_absent_forfeit(game, [1, 2]) is True
    assert fake.calls == [
        (
            "abandoned",
            {
                "series_id": 7,
                "player_ids": [40, 50],
                "reason": "Away from online game 2 longer than the table allows.",
            },
        )
    ]


@pytest.mark.django_db
def test_a_forfeit_the_tournament_refuses_is_not_recorded(registered: list[Any]) -> None:
    register_tournament_port(FakePort(refuse=True))  # type: ignore[arg-type]
    assert series_absent_forfeit(OnlineGame(series_id=7, game_number=3, players=[30, 40]), [0]) is False


def test_who_may_see_an_entered_hand_of_a_table_game_is_the_ports_answer(registered: list[Any]) -> None:
    user = AnonymousUser()
    game = OnlineGame(table_game_id=12)
    hidden = FakePort(table_game=None)
    register_tournament_port(hidden)  # type: ignore[arg-type]
    assert hand_visible(user=user, game=game) is False
    assert hidden.calls == [("table_game", {"table_game_id": 12})]
    seen = TableGame(
        pk=12,
        series_id=3,
        number=1,
        game=GameKind.SNAPSZER,
        seats=(1, 2),
        seat_names=("Anna", "Bence"),
        seat_users=(None, None),
        engine_game=None,
        may_enter_hands=False,
    )
    register_tournament_port(FakePort(table_game=seen))  # type: ignore[arg-type]
    assert hand_visible(user=user, game=game) is True


def test_each_kind_s_online_play_is_registered_when_the_app_is_ready() -> None:
    assert isinstance(kinds.online_for(GameKind.SNAPSZER), SnapszerOnline)
    assert isinstance(kinds.online_for("snap"), SnapOnline)


def test_a_kind_without_online_play_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kinds, "_ONLINE", {GameKind.SNAP: SnapOnline()})
    with pytest.raises(KeyError, match=r"games/apps\.py"):
        kinds.online_for(GameKind.SNAPSZER)
    with pytest.raises(ValueError):
        kinds.online_for("chess")
