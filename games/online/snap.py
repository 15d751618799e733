"""Snap online, in real time: the owner runs the timing layer (rules/snap.md S32–S38).

The timing layer (``games.engine.snap.timing.LiveGame``) reads no clock: the owner reads it and
puts the time into every input, in milliseconds since the game's clock started (``started_at``,
set when the first owner starts the game, so that nobody's turn times out before a page has
loaded). So:

- **The log is the timed log** (S38): every input fed to the layer is one log row, ``seq`` 1, 2,
  3 …, its JSON ``timed_input_to_dict`` (``at`` is the server arrival time in game milliseconds;
  ``received_at`` the same moment as a date): a person's flip or call, a bot's, a round trip the
  server measured, and ``advance`` when one of the layer's own timers was due (auto-flip after
  ``turn_timeout_ms``, a decision after the tie window, a flip's reveal delay, the time cap).
  The game is ``replay_timed`` of the setup and the log, exactly; the owner of a takeover
  replays the whole log (a game lasts at most ``max_game_seconds``, a few thousand rows that
  replay in milliseconds), so Snap keeps no snapshots beyond the deal's.
- **Timers**: ``wake_in`` is the earlier of the layer's ``next_due`` and the next bot press; the
  owner sleeps until then, and ``due`` feeds ``Advance(now)`` or the bot's press.
- **Bots** are :class:`games.engine.snap.bots.Bot` at their level: each sees the spectator view
  (the same table every seat sees, S5) when the table changes, and plans presses at future times,
  which the owner feeds when they fall due, as a person's input. Their presses are logged with
  the bot's level as sender.
- **Lag** (S33): each seated socket is pinged by the server every ``PING_SECONDS``; the measured
  round trip is fed as ``RoundTrip`` (logged), and bounds the compensation of that seat's calls.
  A call carries the ``seq`` its player had on screen and the device's reaction time.
- **Reveal jitter** (S36): every flip press gets a delay drawn here (``secrets``) in
  ``[0, reveal_jitter_ms]`` and recorded in the log row.
- **Frames**: ``observe`` of the seat plus ``live`` (the layer's clock, whether flips are frozen
  and for how long play is paused) and ``events``: what happened since the previous frame, as
  plain facts without card names (who called, who won how many cards, a tie, a wrong call and its
  penalty, a late call, a refused press and why, an auto-flip, who is out).

A Snap act does not answer a version: a call says which state it answers (its ``seq``) and the
layer judges it on that state; a flip is the press of the seat on turn whatever the player saw.
"""

from __future__ import annotations

import heapq
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Final

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import dealing
from games.engine.errors import ActionCode, InvalidAction
from games.engine.protocol import GameKind, engine_for
from games.engine.snap.bots import LEVELS, Bot, Press, TableReader
from games.engine.snap.contract import game_rules
from games.engine.snap.decks import DECKS
from games.engine.snap.rules import EmptyFacedown
from games.engine.snap.timing import (
    Advance,
    LiveGame,
    RoundTrip,
    TimedCall,
    TimedFlip,
    TimedInput,
    TimingRules,
    reveal_delay,
    timed_input_from_dict,
    timed_input_to_dict,
)
from games.models import OnlineGame
from games.online import services
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
    several,
)
from games.online.tables import (
    ABANDON,
    NOT_YOUR_SEAT,
    STAND_IN,
    Entry,
    Refusal,
    Seating,
    engine_options,
    is_control,
    view_frame,
)
from snapleague.errors import ApplicationError

ENGINE = engine_for(GameKind.SNAP)

PING_SECONDS: Final = 5.0  # how often the server measures a seated socket's round trip (S33)
MAX_RTT_MS: Final = 10_000  # a longer measured round trip is recorded as this (the bound caps it anyway)
MAX_PRESSES_PER_WAKE: Final = 500  # a safety net for one wake's loop

# S33 "casual play may raise it to 500"; S36's reveal jitter on, so a flipper cannot time the card.
CASUAL_TIMING: Final = TimingRules(max_lag_compensation_ms=500, reveal_jitter_ms=100)
SERIES_TIMING: Final = TimingRules(reveal_jitter_ms=100)

NO_RECYCLE_SHUFFLE = gettext_lazy(
    "Online Snap cannot shuffle a turned-over pile (a timed-out flip would need a new order nobody "
    "sent): choose another rule for empty face-down piles."
)

# The tables the lobby offers: a name and the engine options (rules/snap.md's variants table).
VARIANTS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "double": {"double": True},
    "slapjack": {"slapjack": True},
    "speed": {"speed": True},
    "single_pile": {"single_pile": True},
    "animals": {"picture": True, "deck": "animals", "match_key": "picture_id"},
    "shapes": {"picture": True, "deck": "shapes", "match_key": "picture_id"},  # 12 cards: short
    "silent": {"silent": True},  # a hand slap instead of the word: online, the same button
    "animal": {"animal": True},  # each seat calls with its own animal's sound
}

# The animal variant: seat n's sound is ANIMAL_SOUNDS[n] (the engine knows a sound by its seat,
# ``Call.sound``); the page shows a player their own on the call button and sends it with a call.
ANIMAL_SOUNDS: Final = (
    ("🐄", _("Moo!")),
    ("🐕", _("Woof!")),
    ("🐈", _("Meow!")),
    ("🦆", _("Quack!")),
    ("🐖", _("Oink!")),
    ("🐑", _("Baa!")),
)


def feedback(stamped: list[tuple[int, Any]]) -> list[dict[str, Any]]:
    """What the table shows of the layer's and the engine's events: who did what, never a card
    (a frame's only card names are the tops its ``observe`` view shows). Flips, recycles and pools
    are in the view itself; a reaction flagged for review (S37) is not shown."""
    out: list[dict[str, Any]] = []
    for at, e in stamped:
        match e.type:
            case "call_queued":
                out.append({"type": "call", "at": at, "seat": e.caller})
            case "call_refused":
                out.append({"type": "call_refused", "at": at, "seat": e.caller, "reason": e.reason})
            case "flip_refused":
                out.append({"type": "flip_refused", "at": at, "seat": e.seat, "reason": e.reason})
            case "turn_timeout":
                out.append({"type": "timeout", "at": at, "seat": e.seat})
            case "decided":
                out.append({"type": "decided", "at": at, "seats": list(e.callers), "tie": e.tie})
            case "capture":
                out.append({"type": "capture", "at": at, "seat": e.seat, "cards": e.cards})
            case "tie":
                out.append({"type": "tie", "at": at, "seats": list(e.callers)})
            case "wrong_call":
                out.append({"type": "wrong_call", "at": at, "seat": e.caller, "penalty": e.penalty})
            case "ignored_call":
                out.append({"type": "late", "at": at, "seat": e.caller, "reason": e.reason})
            case "eliminated":
                out.append({"type": "eliminated", "at": at, "seats": list(e.seats)})
            case "cap":
                out.append({"type": "cap", "at": at})
            case "end":
                out.append({"type": "end", "at": at, "reason": str(e.reason)})
    return out


def _int(value: Any) -> int:
    if type(value) is not int:
        raise InvalidAction(ActionCode.MALFORMED, f"not a whole number: {value!r}")
    return value


class SnapTable:
    """A Snap game in real time: the timing layer, its timers and the bots (see the module doc)."""

    def __init__(
        self, game: OnlineGame, rows: list[dict[str, Any]], levels: dict[int, str], rng: random.Random
    ) -> None:
        setup = game.setup or {}
        dealt = ENGINE.new_game(
            setup["options"], seats=setup["seats"], dealer=setup["dealer"], seed=bytes.fromhex(setup["seed"])
        )
        self.engine = ENGINE
        self.timing = TimingRules(**setup.get("timing", {}))
        self.live = LiveGame(dealt.rules, dealt.deal, setup["dealer"], self.timing, 0)
        self.seating = Seating()  # who plays a seat (a stand-in bot): the log's control rows
        self.version = 0
        self.events: list[dict[str, Any]] = []  # what the next frames tell (the latest batch)
        for row in rows:
            self.feed_logged(row)
        assert game.started_at is not None
        self.origin = game.started_at
        # Game milliseconds per real millisecond: 1, but for tests that play whole games (a
        # faster clock changes nothing in the game, whose times are all inputs).
        self.scale = float(getattr(settings, "ONLINE_SNAP_CLOCK_SCALE", 1.0))
        self.rng = rng  # the server's draws: reveal delays (recorded in the log)
        self.levels = {**levels, **self.seating.stand_ins}
        self.reader = TableReader(dealt.rules)
        # The bots' own randomness is not part of the game: their presses are logged as inputs.
        self.bots = {
            seat: Bot(seat, LEVELS[level], dealt.rules, random.Random(), self.reader)
            for seat, level in self.levels.items()
        }
        self.presses: list[tuple[int, int, Press]] = []
        self._pressed = 0
        self._published: tuple[int, int, bool] | None = None
        self.events = []
        self._publish()

    # Reading -----------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.live.state

    def is_terminal(self) -> bool:
        return self.live.state.result is not None

    def result(self) -> Any | None:
        return self.live.state.result

    def frame(self, seat: int | None, *, finished: bool = False) -> dict[str, Any]:
        live = self.live
        return view_frame(
            self.engine,
            live.state,
            self.version,
            seat,
            finished=finished,
            live={
                "now": live.now,
                "frozen": live.frozen,
                "paused_ms": max(0, live.resume_at - live.now),
                "cap_at": self.live.rules.max_game_seconds * 1000,
            },
            events=self.events,
            **self.seating.frame_extra(),
        )

    def now_ms(self, now: datetime) -> int:
        """The game clock at ``now``: milliseconds since the clock started, never backwards."""
        return max(self.live.now, int((now - self.origin).total_seconds() * 1000 * self.scale))

    # Inputs ------------------------------------------------------------------------------------

    def feed_logged(self, action: Mapping[str, Any]) -> list[tuple[int, Any]]:
        """Feed one logged row again (a takeover, a replay): the layer's stamped events; the next
        frame's ``events`` tell them. A control row (a stand-in bot, docs/online.md "Absent
        players") changes who plays a seat, not the game: no events."""
        self.version += 1
        if is_control(action):
            self.seating.apply(action)
            self.events = []
            return []
        stamped = self.live.feed(timed_input_from_dict(action))
        self.events = feedback(stamped)
        return stamped

    def act(
        self, seat: int, user_id: int | None, version: Any, action: Mapping[str, Any], now: datetime
    ) -> list[Entry]:
        if ("seat" in action and action["seat"] != seat) or ("caller" in action and action["caller"] != seat):
            raise Refusal("not_your_seat", NOT_YOUR_SEAT)
        at = self.now_ms(now)
        inp: TimedInput
        match action.get("type"):
            case "flip":
                inp = TimedFlip(at, seat, reveal_delay(self.rng.random(), self.timing))
            case "call":
                sound = action.get("sound")
                inp = timed_input_from_dict(
                    {
                        "type": "call",
                        "at": at,
                        "caller": seat,
                        "kind": action.get("kind", "snap"),
                        "claim": action.get("claim"),
                        "seq": _int(action.get("seq")),
                        "reaction_ms": _int(action.get("reaction_ms")),
                        "sound": None if sound is None else _int(sound),
                    }
                )
            case _:
                raise InvalidAction(ActionCode.MALFORMED, f"not a Snap press: {action!r}")
        self.events = []
        return [self._feed(inp, services.Sender(seat, user_id), now)]

    def waiting_for(self, seats: Iterable[int]) -> list[int]:
        return []  # real time: the game goes on whoever is there

    def round_trip(self, seat: int, user_id: int | None, rtt_ms: int, now: datetime) -> list[Entry]:
        if self.is_terminal():
            return []
        self.events = []
        inp = RoundTrip(self.now_ms(now), seat, max(0, min(rtt_ms, MAX_RTT_MS)))
        return [self._feed(inp, services.Sender(seat, user_id), now)]

    def wake_in(self, now: datetime) -> float | None:
        if self.is_terminal():
            return None
        due = self.live.next_due()
        if self.presses and (due is None or self.presses[0][0] < due):
            due = self.presses[0][0]
        if due is None:
            return None
        return max(0.0, (due - self.now_ms(now)) / 1000 / self.scale)

    async def due(self, now: datetime) -> list[Entry]:
        """Feed what is due at ``now``: the layer's timers (one ``Advance``) and the bots' presses,
        in time order; a timer and a press due at the same moment: the press first (as the
        layer orders an input before its own timers)."""
        at = self.now_ms(now)
        self.events = []
        entries: list[Entry] = []
        for _round in range(MAX_PRESSES_PER_WAKE):
            if self.is_terminal():
                break
            timer = self.live.next_due()
            press = self.presses[0][0] if self.presses else None
            if press is not None and press <= at and (timer is None or press <= timer):
                _at, _n, p = heapq.heappop(self.presses)
                if not self.live.state.active[p.seat]:
                    continue
                entry = self._feed(
                    self._bot_input(p, at), services.Sender(p.seat, None, self.levels[p.seat]), now
                )
            elif timer is not None and timer <= at:
                entry = self._feed(Advance(at), services.Sender(None), now)
            else:
                break
            entries.append(entry)
        return entries

    def stand_in(self, seat: int, level: str | None, sender: services.Sender, now: datetime) -> list[Entry]:
        action = {"type": STAND_IN, "seat": seat, "bot": level}
        self.seating.apply(action)
        self.presses = [p for p in self.presses if p[2].seat != seat]
        heapq.heapify(self.presses)
        if level is None:
            self.levels.pop(seat, None)
            self.bots.pop(seat, None)
        else:
            self.levels[seat] = level
            self.bots[seat] = Bot(seat, LEVELS[level], self.live.rules, random.Random(), self.reader)
        self.events = []
        self._published = None  # the new bot sees the table as it is now
        self._publish()
        return [self._control(action, sender, now)]

    def abandon(self, seats: list[int], now: datetime) -> Entry:
        action = {"type": ABANDON, "seats": sorted(seats)}
        self.seating.apply(action)
        self.presses = []
        return self._control(action, services.Sender(None), now)

    def _control(self, action: dict[str, Any], sender: services.Sender, now: datetime) -> Entry:
        self.version += 1
        return Entry(self.version, action, sender, now, [])

    def _bot_input(self, press: Press, at: int) -> TimedInput:
        if press.call is None:
            return TimedFlip(at, press.seat, reveal_delay(self.rng.random(), self.timing))
        kind, claim, seq, reaction = press.call
        return TimedCall(at, press.seat, kind, claim, seq, reaction)

    def _feed(self, inp: TimedInput, sender: services.Sender, now: datetime) -> Entry:
        """Feed one input (the layer raises, changing nothing, on an input it cannot take)."""
        stamped = self.live.feed(inp)
        self.version += 1
        self.events.extend(feedback(stamped))
        self._publish()
        return Entry(
            self.version,
            timed_input_to_dict(inp),
            sender,
            now,
            [{"at": at, **event.to_dict()} for at, event in stamped],
        )

    def _publish(self) -> None:
        """Show the bots a new table (a new state, or a decision pending or taken), as a client is
        shown it; they plan their presses."""
        live = self.live
        key = (live.state.seq, live.resume_at, live.frozen)
        if key == self._published or not self.bots or self.is_terminal():
            return
        self._published = key
        view = live.view(None)
        resume_at = None if live.frozen else live.resume_at
        for seat, bot in self.bots.items():
            if live.state.active[seat] and bot.wants(view):
                for press in bot.on_view(view, live.now, resume_at):
                    self._pressed += 1
                    heapq.heappush(self.presses, (press.at, self._pressed, press))


class SnapOnline:
    """Snap's online play (games/online/tables.py ``GameOnline``)."""

    kind = GameKind.SNAP
    bot_levels: tuple[str, ...] = tuple(LEVELS)
    default_level = "casual"
    ping_seconds: float | None = PING_SECONDS

    def variants(self) -> dict[str, dict[str, Any]]:
        return {name: {"profile": "classic", **options} for name, options in VARIANTS.items()}

    def extra_rounds(self) -> int:
        """S20.3/S30: the rounds a game goes on for once its time is up (the lobby says so with the
        time limit); the same in every variant offered."""
        (rounds,) = {game_rules(engine_options(o)).extra_rounds for o in self.variants().values()}
        return rounds

    def page_context(self, game: OnlineGame, seat: int | None) -> dict[str, Any]:
        """The animal variant: every seat's sound, in seat order (the page's call button shows
        the player's own, and its calls carry it)."""
        if not game_rules(engine_options(game.options)).animal:
            return {}
        return {"animals": [f"{icon} {word}" for icon, word in ANIMAL_SOUNDS[: game.seat_count]]}

    def check_table(self, options: Mapping[str, Any], seats: int) -> None:
        rules = game_rules(options)
        if rules.empty_facedown is EmptyFacedown.RECYCLE_SHUFFLE and not rules.single_pile:
            raise ApplicationError(code="rules_invalid", message=NO_RECYCLE_SHUFFLE)

    def setup_extra(self, game: OnlineGame) -> dict[str, Any]:
        return {"timing": asdict(SERIES_TIMING if game.series_id else CASUAL_TIMING)}

    def deck_orders(self, game: OnlineGame, seed: bytes) -> list[tuple[int, list[str]]]:
        """A Snap game has one deal: the deck shuffled with the deal seed (games/engine/snap/contract.py)."""
        deck = DECKS[game_rules(engine_options(game.options)).deck].cards
        return [(1, list(dealing.shuffled(deck, seed, b"deal")))]

    def load(self, game: OnlineGame) -> SnapTable:
        if game.status == OnlineGame.Status.PLAYING and game.version == 0:
            # The clock starts when the first owner does (a page is open): nobody's turn times out
            # while the players are still loading the table. Nothing is logged yet to re-time.
            game.started_at = timezone.now()
            OnlineGame.objects.filter(pk=game.pk, version=0).update(started_at=game.started_at)
        rows = list(game.log.order_by("seq").values_list("action", flat=True))
        levels = {s.number: s.bot_level for s in game.seats.all() if s.bot_level}
        return SnapTable(game, rows, levels, secrets.SystemRandom())

    def replay(self, setup: Mapping[str, Any], rows: LogRows, viewer: Viewer, names: Sequence[str]) -> Replay:
        """One step per log row that changed the table or told something (a round trip, a timer
        with nothing due, a refused flip: no step); the frame is the live table's frame
        (``SnapTable.frame``), and for ALL every face-down pile besides."""
        # The table needs no clock to be fed: the log's times are in its rows.
        table = SnapTable(
            OnlineGame(kind=self.kind, setup=dict(setup), started_at=REPLAY_ORIGIN), [], {}, random.Random(0)
        )
        state = table.live.state
        deal = _("%(seats)s piles dealt; %(who)s flips first.") % {
            "seats": state.n,
            "who": named(names, state.turn),
        }
        steps = [Step(0, deal, snap_frame(table, viewer), state)]
        for row in rows:
            stamped = table.feed_logged(row["action"])
            text = describe([snap_event_words(e.to_dict(), row["action"], names) for _at, e in stamped])
            if text:
                steps.append(Step(row["seq"], text, snap_frame(table, viewer), table.live.state))
        return Replay(viewer, steps, result_of(table.result()))


REPLAY_ORIGIN: Final = datetime(2000, 1, 1, tzinfo=UTC)  # any instant: a replay reads no clock

CALL_WORDS: Final = {
    "snap": gettext_lazy("Snap!"),
    "snap_pool": gettext_lazy("Snap pool!"),
    "slap": gettext_lazy("Slap!"),
}


def snap_frame(table: SnapTable, viewer: Viewer) -> dict[str, Any]:
    """A replay step's frame: the live table's frame of the seat; for ALL the spectator's frame and
    every face-down card (each seat's pile, top first, and the single_pile centre's hidden bottom)."""
    if viewer != ALL:
        return table.frame(int(viewer), finished=True)
    state = table.live.state
    names = state.deck.cards
    facedown = [[names[c] for c in state.facedown(seat)] for seat in range(state.n)]
    hidden = state.central[len(state.central) - state.central_hidden :] if state.central_hidden else ()
    return {
        **table.frame(None, finished=True),
        "facedown": facedown,
        "central_hidden": [names[c] for c in hidden],
    }


def snap_event_words(e: Mapping[str, Any], action: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Snap event in words ("" for one the table does not tell: a decision, a flagged reaction)."""
    match e["type"]:
        case "flip":
            return _("%(who)s flips %(card)s") % {
                "who": named(names, e["seat"]),
                "card": card_words(e["card"], GameKind.SNAP),
            }
        case "recycle":
            return _("%(who)s turns the face-up pile over (%(cards)s cards)") % {
                "who": named(names, e["seat"]),
                "cards": e["cards"],
            }
        case "call_queued":
            call = CALL_WORDS.get(str(action.get("kind")), CALL_WORDS["snap"])
            return _("%(who)s calls %(call)s") % {"who": named(names, e["caller"]), "call": call}
        case "capture":
            return _("%(who)s wins the pile: %(cards)s cards") % {
                "who": named(names, e["seat"]),
                "cards": e["cards"],
            }
        case "pool" | "pool_grown":
            return _("%(cards)s cards go to a pool") % {"cards": e.get("added", e["cards"])}
        case "tie":
            return _("A tie between %(who)s") % {"who": several(names, e["callers"])}
        case "wrong_call":
            return _("%(who)s called wrongly (penalty: %(penalty)s)") % {
                "who": named(names, e["caller"]),
                "penalty": e["penalty"],
            }
        case "ignored_call":
            return _("%(who)s called too late") % {"who": named(names, e["caller"])}
        case "call_refused":
            return _("%(who)s's call is not taken (%(reason)s)") % {
                "who": named(names, e["caller"]),
                "reason": e["reason"],
            }
        case "turn_timeout":
            return _("%(who)s is too slow: the card is flipped for them") % {"who": named(names, e["seat"])}
        case "eliminated":
            return _("%(who)s: out") % {"who": several(names, e["seats"])}
        case "cap":
            return _("Time is up: the last rounds")
        case "end":
            if e["winner"] is None:
                return _("The game ends in a draw")
            return _("%(who)s wins the game (cards held: %(cards)s)") % {
                "who": named(names, e["winner"]),
                "cards": " – ".join(map(str, e["cards"])),
            }
    return ""
