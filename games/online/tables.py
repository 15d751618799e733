"""What an owner runs, per game kind: the live table (docs/online.md, "One owner, a table per game").

The owner (owner.py) is the same for every game: one task per live game behind the lease, its
inputs in arrival order, the log, the frames. What differs between games lives here, in one
object per :class:`GameKind` (a ``GameOnline``: games/online/kinds.py ``online_for``), never in
``if kind == …`` branches elsewhere:

- the lobby's choices (rules profiles and variants, bot levels) and the table's own checks;
- what is dealt besides the engine's setup (Snap: the timing numbers, S33–S37);
- ``GameOnline.load``, the in-memory game an owner runs (a :class:`LiveTable`): from the
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
import weakref
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.errors import ActionCode, ActionError
from games.engine.protocol import Engine, GameKind, engine_for
from games.engine.sixtysix.bots import BOT_NAMES as SNAPSZER_BOTS
from games.engine.sixtysix.game import deal_for
from games.engine.sixtysix.game import game_rules as snapszer_rules
from games.engine.sixtysix.rules import PROFILES as SNAPSZER_PROFILES
from games.models import OnlineGame
from games.online import services
from games.online.bots import bot_move, bots_make
from games.online.replay import (
    ALL,
    LogRows,
    Replay,
    Step,
    Viewer,
    card_words,
    describe,
    named,
    result_of,
    suit_words,
)

NOT_YOUR_SEAT = gettext_lazy("You can only play the cards of your own seat.")

ABANDON, CONTROL_ROWS, STAND_IN = services.ABANDON, services.CONTROL_ROWS, services.STAND_IN


def is_control(action: Mapping[str, Any]) -> bool:
    return action.get("type") in CONTROL_ROWS


class Seating:
    """Who plays which seat beyond the seats themselves: the stand-in bots (seat -> level) and the
    seats whose absence abandoned the game, from the control rows of the log."""

    def __init__(self, rows: Sequence[Mapping[str, Any]] = ()) -> None:
        self.stand_ins: dict[int, str] = {}
        self.abandoned: list[int] | None = None
        for row in rows:
            self.apply(row)

    def apply(self, action: Mapping[str, Any]) -> None:
        if action.get("type") == STAND_IN:
            if action.get("bot"):
                self.stand_ins[int(action["seat"])] = str(action["bot"])
            else:
                self.stand_ins.pop(int(action["seat"]), None)
        elif action.get("type") == ABANDON:
            self.abandoned = [int(s) for s in action.get("seats", [])]

    def frame_extra(self) -> dict[str, Any]:
        """What a frame says about it (names no card): only when there is something to say."""
        extra: dict[str, Any] = {}
        if self.stand_ins:
            extra["stand_ins"] = {str(seat): level for seat, level in sorted(self.stand_ins.items())}
        if self.abandoned is not None:
            extra["abandoned"] = {"absent": self.abandoned}
        return extra


def control_rows(game: OnlineGame) -> list[dict[str, Any]]:
    """The game's control rows, in log order."""
    return list(
        game.log.filter(action__type__in=sorted(CONTROL_ROWS))
        .order_by("seq")
        .values_list("action", flat=True)
    )


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options without the table's own (``absent_seconds``), which no engine reads."""
    return {k: v for k, v in options.items() if k not in services.TABLE_OPTIONS}


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


# One input to append to the log (services.LogRow): number ``seq``, its JSON, who sent it, when it
# arrived, the engine's events, and a snapshot when one is due.
Entry = services.LogRow


def entries_append(game_id: int, entries: Sequence[Entry]) -> None:
    """Append a table's entries to the game's log, in order (each moving the version by one).
    Raises StaleWrite when another owner wrote first (games/online/services.py)."""
    if services.log_append_many([(game_id, entries)]):
        raise services.StaleWrite.at(game_id, entries[0].seq)


class LogWriter:
    """One event loop's owners' log appends, written together (group commit).

    Every owner waits for its entries to be stored before any frame shows them (an acknowledged
    action is in the log), and the owners of a process share one database thread (Channels'
    ``database_sync_to_async``). One transaction per action each filled that thread at a few dozen
    live games (docs/benchmarks.md, "Online play"): here the appends that arrive while a write is
    running wait for it and then go together, in one transaction on one connection. A game
    another owner has written is refused alone (StaleWrite for its owner); a failed write fails
    the appends it carried, whose owners stop (another takes the game over from the log)."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, Sequence[Entry], asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.writes = 0  # transactions so far (tests, and the benchmark's notes)

    async def append(self, game_id: int, entries: Sequence[Entry]) -> None:
        if not entries:
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self.pending.append((game_id, entries, done))
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._run())
        await done

    async def _run(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                stale = await database_sync_to_async(services.log_append_many)(
                    [(game_id, entries) for game_id, entries, _done in batch]
                )
            except Exception as error:
                stale, failure = set(), error
            else:
                failure = None
            self.writes += 1
            for game_id, entries, done in batch:
                if done.done():  # its owner was cancelled meanwhile
                    continue
                if failure is not None:
                    done.set_exception(failure)
                elif game_id in stale:
                    done.set_exception(services.StaleWrite.at(game_id, entries[0].seq))
                else:
                    done.set_result(None)


_WRITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LogWriter] = weakref.WeakKeyDictionary()


def log_writer() -> LogWriter:
    """The running event loop's writer (tests run several loops, one after another)."""
    loop = asyncio.get_running_loop()
    writer = _WRITERS.get(loop)
    if writer is None:
        writer = _WRITERS[loop] = LogWriter()
    return writer


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

    def waiting_for(self, seats: Iterable[int]) -> list[int]:
        """Which of ``seats`` the game waits for (turn by turn: whose move it is; a real-time game
        waits for nobody in particular)."""
        ...

    def wake_in(self, now: datetime) -> float | None:
        """Seconds until :meth:`due` has something to do (None: nothing without an input)."""
        ...

    async def due(self, now: datetime) -> list[Entry]:
        """What is due now with no input: a bot's move, a timer."""
        ...

    def stand_in(self, seat: int, level: str | None, sender: services.Sender, now: datetime) -> list[Entry]:
        """A bot of ``level`` plays ``seat`` from now on (None: its player is back): one control
        row (docs/online.md, "Absent players")."""
        ...

    def abandon(self, seats: list[int], now: datetime) -> Entry:
        """The control row that ends the game because ``seats`` were absent (a tournament's forfeit)."""
        ...

    seating: Seating


# --------------------------------------------------------------------------------------------
# Snapszer: turn by turn


class SnapszerTable:
    """A Snapszer match: an act answers the current version; bots are asked once per state."""

    def __init__(
        self,
        game: OnlineGame,
        state: Any,
        version: int,
        levels: dict[int, str],
        seating: Seating | None = None,
    ) -> None:
        self.engine: Engine = engine_for(game.kind)
        self.state = state
        self.version = version
        self.seating = seating or Seating()
        self.options = engine_options(game.options)
        self.levels = {**levels, **self.seating.stand_ins}
        self.bots = bots_make(game.kind, self.options, self.levels, random.Random())
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
        return view_frame(
            self.engine, self.state, self.version, seat, finished=finished, **self.seating.frame_extra()
        )

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

    def waiting_for(self, seats: Iterable[int]) -> list[int]:
        if self.is_terminal():
            return []
        return [
            s for s in seats if s not in self.seating.stand_ins and self.engine.legal_actions(self.state, s)
        ]

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

    def stand_in(self, seat: int, level: str | None, sender: services.Sender, now: datetime) -> list[Entry]:
        action = {"type": STAND_IN, "seat": seat, "bot": level}
        self.seating.apply(action)
        if level is None:
            self.levels.pop(seat, None)
            self.bots.pop(seat, None)
        else:
            self.levels[seat] = level
            self.bots.update(bots_make(self.engine.kind, self.options, {seat: level}, random.Random()))
        self.changed_at, self.ask_bots = now, bool(self.bots)
        return [self._control(action, sender, now)]

    def abandon(self, seats: list[int], now: datetime) -> Entry:
        action = {"type": ABANDON, "seats": sorted(seats)}
        self.seating.apply(action)
        self.ask_bots = False
        return self._control(action, services.Sender(None), now)

    def _control(self, action: dict[str, Any], sender: services.Sender, now: datetime) -> Entry:
        self.version += 1
        snapshot = (
            self.engine.to_snapshot(self.state) if self.version % services.SNAPSHOT_EVERY == 0 else None
        )
        return Entry(self.version, action, sender, now, [], snapshot)

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
        _profile, rules = snapszer_rules(engine_options(game.options))
        hands = len((game.result or {}).get("hands", [])) or 1
        return [(n, [c.name for c in deal_for(rules, seed, n)]) for n in range(1, hands + 1)]

    def load(self, game: OnlineGame) -> SnapszerTable:
        state, version = services.state_load(game)
        levels = {s.number: s.bot_level for s in game.seats.all() if s.bot_level}
        return SnapszerTable(game, state, version, levels, Seating(control_rows(game)))

    def replay(self, setup: Mapping[str, Any], rows: LogRows, viewer: Viewer, names: Sequence[str]) -> Replay:
        engine = engine_for(self.kind)
        state = engine.replay(dict(setup), [])
        first = state.hand
        deal = _("Hand %(number)s, dealt by %(dealer)s; the trump card is %(card)s.") % {
            "number": 1,
            "dealer": named(names, first.dealer),
            "card": card_words(first.trump_card.name, GameKind.SNAPSZER) if first.trump_card else "—",
        }
        steps = [Step(0, deal, snapszer_frame(engine, state, 0, viewer), state)]
        for row in rows:
            if is_control(row["action"]):  # a stand-in bot or an abandon: who plays, not a move
                continue
            action = engine.action_from_dict(row["action"])
            state, events = engine.apply(state, action)
            text = describe([snapszer_event_words(e.to_dict(), names) for e in events])
            steps.append(Step(row["seq"], text, snapszer_frame(engine, state, row["seq"], viewer), state))
        return Replay(viewer, steps, result_of(engine.result(state)))


def snapszer_frame(engine: Engine, state: Any, version: int, viewer: Viewer) -> dict[str, Any]:
    """A replay step's frame: the live table's frame of the seat; for ALL the spectator's frame and
    what no seat saw: both hands and the stock (the engine's ``observe`` of each seat gives the hands)."""
    if viewer != ALL:
        return view_frame(engine, state, version, int(viewer), finished=True)
    hands = [list(engine.observe(state, seat).hand.hand) for seat in (0, 1)]
    stock = [c.name for c in state.hand.stock]
    return view_frame(engine, state, version, None, finished=True, hands=hands, stock=stock)


def snapszer_event_words(e: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Snapszer event in words ("" for one the engine adds later and nobody has described yet)."""
    who = named(names, e.get("seat"))
    match e["type"]:
        case "card_played":
            return _("%(who)s plays %(card)s") % {
                "who": who,
                "card": card_words(e["card"], GameKind.SNAPSZER),
            }
        case "trick_won":
            return _("%(who)s wins the trick (%(points)s)") % {"who": who, "points": e["points"]}
        case "marriage_shown":
            return _("%(who)s shows the marriage in %(suit)s (%(points)s)") % {
                "who": who,
                "suit": suit_words(e["suit"], GameKind.SNAPSZER),
                "points": e["points"],
            }
        case "trump_exchanged":
            return _("%(who)s exchanges %(given)s for the trump card, %(taken)s") % {
                "who": who,
                "given": card_words(e["given"], GameKind.SNAPSZER),
                "taken": card_words(e["taken"], GameKind.SNAPSZER),
            }
        case "talon_closed":
            return _("%(who)s closes the stock (%(left)s cards left)") % {"who": who, "left": e["talon_size"]}
        case "declared":
            if e["correct"]:
                return _("%(who)s declares 66 with %(points)s") % {"who": who, "points": e["points"]}
            return _("%(who)s declares 66 wrongly, with %(points)s") % {"who": who, "points": e["points"]}
        case "bid_made":
            return _("%(who)s bids Snapszer") % {"who": who}
        case "passed":
            return _("%(who)s passes") % {"who": who}
        case "cards_drawn":
            return _("%(first)s and %(second)s draw (%(left)s left in the stock)") % {
                "first": named(names, e["first"]),
                "second": named(names, e["second"]),
                "left": e["talon_size"],
            }
        case "trump_card_taken":
            return _("%(who)s takes the trump card, %(card)s") % {
                "who": who,
                "card": card_words(e["card"], GameKind.SNAPSZER),
            }
        case "last_trick_bonus":
            return _("%(who)s: %(points)s for the last trick") % {"who": who, "points": e["points"]}
        case "hand_ended":
            result = e["result"]
            if result["winner"] is None:
                return _("The hand is a tie (%(points)s)") % {
                    "points": " – ".join(map(str, result["points"]))
                }
            return _("%(who)s wins the hand: %(game_points)s game points (%(points)s)") % {
                "who": named(names, result["winner"]),
                "game_points": result["game_points"],
                "points": " – ".join(map(str, result["points"])),
            }
        case "match_scored":
            return _("Match %(scores)s") % {"scores": " – ".join(map(str, e["scores"]))}
        case "hand_dealt":
            return _("Hand %(number)s, dealt by %(dealer)s; the trump card is %(card)s.") % {
                "number": e["hand"],
                "dealer": named(names, e["dealer"]),
                "card": card_words(e["trump_card"], GameKind.SNAPSZER),
            }
        case "match_ended":
            final = e["game_scores"][-1] if e["game_scores"] else []
            return _("%(who)s wins the match %(scores)s") % {
                "who": named(names, e["winner"]),
                "scores": " – ".join(map(str, final)),
            }
    return ""
