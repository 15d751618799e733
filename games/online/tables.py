"""What an owner runs, per game kind: the live table (docs/online.md, "One owner, a table per game").

The owner (owner.py) is the same for every game: one task per live game behind the lease, its
inputs in arrival order, the log, the frames. What differs between games lives here, in one
object per :class:`GameKind` (:func:`online_for`), never in ``if kind == …`` branches elsewhere:

- the lobby's choices (rules profiles and variants, bot levels) and the table's own checks;
- what is dealt besides the engine's setup (Snap: the timing numbers, S33–S37);
- :meth:`GameOnline.load`, the in-memory game an owner runs (a :class:`LiveTable`): from the
  setup, the newest snapshot and the log.

A :class:`LiveTable` answers inputs with the log entries they make (:class:`Entry`, numbered by
the table: ``version`` is the number of logged entries), says when it next has something to do
with no input (``wake_in``: a bot's move, Snap's timers) and builds each viewer's frame
(:meth:`LiveTable.frame`, the only place game state is put into a frame).

Snapszer is turn by turn: an act must answer the current version, the engine applies it, the
bots are asked once per state. Snap is real time (games/snap_online.py).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ActionCode, ActionError
from games.engine.protocol import Engine, GameKind, engine_for
from games.engine.sixtysix.bots import BOT_NAMES as SNAPSZER_BOTS
from games.engine.sixtysix.game import deal_for
from games.engine.sixtysix.game import game_rules as snapszer_rules
from games.engine.sixtysix.rules import PROFILES as SNAPSZER_PROFILES
from games.models import OnlineGame
from games.online import services
from games.online.bots import bot_move, bots_make

NOT_YOUR_SEAT = _("You can only play the cards of your own seat.")


def view_frame(
    engine: Engine,
    state: Any,
    version: int,
    seat: int | None,
    *,
    finished: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The one frame that carries game state to a client: ``engine.observe(state, seat)`` and the
    version it is at (and what a real-time table adds about its clock, ``extra``, which names no
    card). Nothing else about the state ever leaves the owner (hidden information)."""
    return {
        "type": "view",
        "version": version,
        "finished": finished,  # True only once the end is stored (the result, the revealed seed)
        "view": engine.observe(state, seat).to_dict(),
        **extra,
    }


def bot_delay() -> float:
    """Seconds a turn-based bot waits before it moves (a human pace; tests use 0)."""
    return float(getattr(settings, "ONLINE_BOT_DELAY", 0.7))


@dataclass(frozen=True)
class Entry:
    """One input to append to the log: number ``seq``, its JSON, who sent it, when it arrived, the
    engine's events, and a snapshot when one is due."""

    seq: int
    action: dict[str, Any]
    sender: services.Sender
    received_at: datetime
    events: list[Any]
    snapshot: dict[str, Any] | None = None


class Refusal(Exception):
    """An input the table refuses before the engine sees it: ``code`` and a lazy message, or an
    engine refusal (an ActionError or an ActionCode) whose translated message the owner sends."""

    def __init__(self, code: str, message: Any = None, error: ActionError | ActionCode | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.error = error


class LiveTable(Protocol):
    """The in-memory game one owner runs."""

    version: int

    def is_terminal(self) -> bool: ...

    def result(self) -> Any | None: ...

    def frame(self, seat: int | None, *, finished: bool = False) -> dict[str, Any]: ...

    def act(
        self, seat: int, user_id: int | None, version: Any, action: Mapping[str, Any], now: datetime
    ) -> list[Entry]:
        """The entries an input makes (empty: it changed nothing worth logging). Raises Refusal,
        or the engine's ActionError."""
        ...

    def round_trip(self, seat: int, user_id: int | None, rtt_ms: int, now: datetime) -> list[Entry]: ...

    def wake_in(self, now: datetime) -> float | None:
        """Seconds until :meth:`due` has something to do (None: nothing without an input)."""
        ...

    async def due(self, now: datetime) -> list[Entry]:
        """What is due now with no input: a bot's move, a timer."""
        ...


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

    def load(self, game: OnlineGame) -> LiveTable:
        """The game as an owner runs it, from setup, snapshot and log (database access)."""
        ...

    def deck_orders(self, game: OnlineGame, seed: bytes) -> list[tuple[int, list[str]]]:
        """Every deal's deck order from the deal seed (the verify page), numbered from 1."""
        ...


# --------------------------------------------------------------------------------------------
# Snapszer: turn by turn


class SnapszerTable:
    """A Snapszer match: an act answers the current version; bots are asked once per state."""

    def __init__(self, game: OnlineGame, state: Any, version: int, levels: dict[int, str]) -> None:
        self.engine: Engine = engine_for(game.kind)
        self.state = state
        self.version = version
        self.levels = levels
        self.bots = bots_make(game.kind, game.options, levels, random.Random())
        self.bot_delay = bot_delay()
        # A bot is asked once per state (its answer only changes when the state does), a bot delay
        # after the state changed (``changed_at``); ``ask_bots`` is False once asked in this state.
        self.changed_at = timezone.now()
        self.ask_bots = bool(self.bots)

    def is_terminal(self) -> bool:
        return self.engine.is_terminal(self.state)

    def result(self) -> Any | None:
        return self.engine.result(self.state)

    def frame(self, seat: int | None, *, finished: bool = False) -> dict[str, Any]:
        return view_frame(self.engine, self.state, self.version, seat, finished=finished)

    def act(
        self, seat: int, user_id: int | None, version: Any, action: Mapping[str, Any], now: datetime
    ) -> list[Entry]:
        if version != self.version:
            raise Refusal(ActionCode.STALE.value, error=ActionCode.STALE)
        parsed = self.engine.action_from_dict(action)
        if getattr(parsed, "seat", seat) != seat:
            raise Refusal("not_your_seat", NOT_YOUR_SEAT)
        return [self._commit(parsed, services.Sender(seat, user_id), now)]

    def round_trip(self, seat: int, user_id: int | None, rtt_ms: int, now: datetime) -> list[Entry]:
        return []  # turn by turn: nothing depends on a connection's lag

    def wake_in(self, now: datetime) -> float | None:
        if not self.ask_bots:
            return None
        return max(0.0, self.bot_delay - (now - self.changed_at).total_seconds())

    async def due(self, now: datetime) -> list[Entry]:
        self.ask_bots = False
        # Searching levels think in a thread, so the event loop keeps serving other games.
        move = await asyncio.to_thread(bot_move, self.engine, self.state, self.bots)
        if move is None:
            return []
        seat, action = move
        return [self._commit(action, services.Sender(seat, None, self.levels[seat]), now)]

    def _commit(self, action: Any, sender: services.Sender, now: datetime) -> Entry:
        state, events = self.engine.apply(self.state, action)
        seq = self.version + 1
        snapshot = self.engine.to_snapshot(state) if seq % services.SNAPSHOT_EVERY == 0 else None
        self.state, self.version = state, seq
        self.changed_at, self.ask_bots = now, bool(self.bots)
        return Entry(
            seq, self.engine.action_to_dict(action), sender, now, [e.to_dict() for e in events], snapshot
        )


class SnapszerOnline:
    kind = GameKind.SNAPSZER
    bot_levels: tuple[str, ...] = SNAPSZER_BOTS
    default_level = "casual"
    ping_seconds: float | None = None  # turn by turn: lag changes nothing

    def variants(self) -> dict[str, dict[str, Any]]:
        return {
            name: {"profile": name} for name, rules in SNAPSZER_PROFILES.items() if rules.match is not None
        }

    def check_table(self, options: Mapping[str, Any], seats: int) -> None:
        return None

    def page_context(self, game: OnlineGame, seat: int | None) -> dict[str, Any]:
        return {}

    def setup_extra(self, game: OnlineGame) -> dict[str, Any]:
        return {}

    def deck_orders(self, game: OnlineGame, seed: bytes) -> list[tuple[int, list[str]]]:
        _profile, rules = snapszer_rules(game.options)
        hands = len((game.result or {}).get("hands", [])) or 1
        return [(n, [c.name for c in deal_for(rules, seed, n)]) for n in range(1, hands + 1)]

    def load(self, game: OnlineGame) -> SnapszerTable:
        state, version = services.state_load(game)
        levels = {s.number: s.bot_level for s in game.seats.all() if s.bot_level}
        return SnapszerTable(game, state, version, levels)


def _registry() -> dict[GameKind, GameOnline]:
    from games.online.snap import SnapOnline  # imports this module

    return {GameKind.SNAPSZER: SnapszerOnline(), GameKind.SNAP: SnapOnline()}


_ONLINE: dict[GameKind, GameOnline] = {}


def online_for(kind: GameKind | str) -> GameOnline:
    """The online play of ``kind``. Raises ValueError for a kind that has none."""
    if not _ONLINE:
        _ONLINE.update(_registry())
    return _ONLINE[GameKind(kind)]


def online_kinds() -> Sequence[GameOnline]:
    online_for(GameKind.SNAP)
    return list(_ONLINE.values())
