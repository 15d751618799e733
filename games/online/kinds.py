"""Each game's online play, found by its kind (docs/online.md, "One owner, a table per game").

What differs between games (the lobby's choices, the table's checks, what is dealt besides the
engine's setup, the live table an owner runs, the replay) lives in one object per
:class:`GameKind`, a :class:`GameOnline`: Snapszer's in games/online/tables.py, Snap's in
games/online/snap.py. Every layer of online play looks it up here with :func:`online_for`, never
with ``if kind == …`` branches; the objects are registered when the games app is ready
(games/apps.py), so this registry, at the bottom of online play, imports none of them (issue 24:
games.online runs one way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from games.engine.protocol import GameKind
from games.models import OnlineGame


class GameOnline(Protocol):
    """One game's online play: the lobby's choices, checks, and its live table."""

    kind: GameKind
    bot_levels: tuple[str, ...]
    default_level: str
    ping_seconds: float | None  # how often the server measures a seat's round trip (None: never)

    def variants(self) -> dict[str, dict[str, Any]]:
        """The table options the lobby offers, by name (options the engine's ``check_options`` takes)."""
        ...

    def check_table(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise InvalidRules for options the engine takes but this online table cannot play."""
        ...

    def page_context(self, game: OnlineGame, seat: int | None) -> dict[str, Any]:
        """What the table page shows besides the common (Snap's animal variant: the sounds)."""
        ...

    def setup_extra(self, game: OnlineGame) -> dict[str, Any]:
        """What is stored in the setup next to the engine's (a game replays from it exactly)."""
        ...

    def load(self, game: OnlineGame) -> Any:
        """The game as an owner runs it, from setup, snapshot and log (database access): a
        games/online/tables.py ``LiveTable``."""
        ...

    def deck_orders(self, game: OnlineGame, seed: bytes) -> list[tuple[int, list[str]]]:
        """Every deal's deck order from the deal seed (the verify page), numbered from 1."""
        ...

    def replay(
        self,
        setup: Mapping[str, Any],
        rows: Sequence[Mapping[str, Any]],
        viewer: int | str,
        names: Sequence[str],
    ) -> Any:
        """The game's steps rebuilt from the setup and the log rows (``seq``, ``action``), no
        snapshot, no database: what happened at each, and the frame ``viewer`` (a seat, or ``all``:
        every card) sees then, a games/online/replay.py ``Replay``. Raises the engine's errors on a
        log that does not replay."""
        ...


_ONLINE: dict[GameKind, GameOnline] = {}


def online_register(online: GameOnline) -> None:
    """Make ``online`` the online play of its kind (games/apps.py, when the app is ready)."""
    _ONLINE[GameKind(online.kind)] = online


def online_for(kind: GameKind | str) -> GameOnline:
    """The online play of ``kind``. Raises ValueError for a string that is no kind, and KeyError
    for a kind whose online play is not registered."""
    game_kind = GameKind(kind)
    try:
        return _ONLINE[game_kind]
    except KeyError:
        raise KeyError(
            f"no online play is registered for {game_kind.value!r}: games/apps.py registers each "
            "kind's when the app is ready"
        ) from None
