"""Snap bots at five levels, and bot games in virtual time (pure: the caller injects a random.Random).

A bot sees only ``observe()`` views (what its seat's screen shows, when the network delivers it)
and acts through the same timing layer as people (``timing.LiveGame``): its presses reach the
server after a simulated network delay and carry the ``seq`` it saw and the reaction time its
"device" measured.

Where the numbers come from (see docs/snap-live.md for the longer version):

- Reaction times are ex-Gaussian (a normal plus an exponential tail), the distribution usually
  fitted to human reaction times because they are skewed to the slow side. The means per level
  (770, 600, 490, 400, 330 ms) are issue 6's starting calibration, set well above simple visual
  reaction (about 190 ms: one light, one key) because spotting a *match* means comparing cards
  across piles, a choice task that takes longer and grows with the number of things to compare.
  They apply to a table showing two piles; every further pile to watch (active face-up piles
  and pools) adds ``PER_PILE_MS`` = 40 ms (issue 6: "about +40 ms per extra pile"), a linear
  set-size cost as in visual search. The shape (``TAU_SHARE``: a quarter of the mean in the
  exponential tail, ``SIGMA_SHARE``: a normal spread of 8 % of the mean) is our modelling choice
  in the range typical of published fits; it is not measured on Snap players.
- Miss rates (15, 8, 4, 2, 1 %) and false calls per flip seen (2, 1, 0.5, 0.3, 0.1 %) are the
  issue's starting calibration, to be refitted once online games record real players.
- Flip cadence (``FLIP_MEAN_MS`` = 800 ms, same shape) is a modelling choice: about one card a
  second around the table, the pace of a relaxed game; it is the same for every level so that
  levels differ only in how they call.

Samples use ``Random.random()`` only (the one generator method whose sequence Python promises
to keep across versions), with Box-Muller for the normal part.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from games.engine.snap.actions import CallKind, CentralClaim, Claim, PairClaim, PoolClaim, SlapClaim
from games.engine.snap.decks import DECKS, JACK
from games.engine.snap.rules import PoolCall, SnapRules
from games.engine.snap.state import Deal
from games.engine.snap.timing import (
    DEFAULT_TIMING,
    Advance,
    LiveGame,
    RoundTrip,
    TimedCall,
    TimedFlip,
    TimedInput,
    TimingRules,
    reveal_delay,
)
from games.engine.snap.view import PlayerView

PER_PILE_MS = 40  # issue 6: slower by about 40 ms per extra pile to watch
BASE_PILES = 2  # the level means are for a table showing two piles
SIGMA_SHARE = 0.08  # normal spread, share of the mean (modelling choice)
TAU_SHARE = 0.25  # exponential tail, share of the mean (modelling choice)
FLIP_MEAN_MS = 800  # the table's flipping pace (modelling choice, all levels)


@dataclass(frozen=True, slots=True)
class BotLevel:
    """One level: mean reaction on a two-pile table, chance to miss a match, chance of a false
    call per flip seen."""

    name: str
    mean_ms: float
    miss: float
    false_per_flip: float


LEVELS: dict[str, BotLevel] = {
    level.name: level
    for level in (
        BotLevel("beginner", 770, 0.15, 0.02),
        BotLevel("casual", 600, 0.08, 0.01),
        BotLevel("club", 490, 0.04, 0.005),
        BotLevel("strong", 400, 0.02, 0.003),
        BotLevel("expert", 330, 0.01, 0.001),
    )
}


def ex_gaussian(rng: random.Random, mu: float, sigma: float, tau: float) -> float:
    """One sample of Normal(mu, sigma) + Exponential(mean tau), from ``rng.random()`` only."""
    u1 = rng.random()
    u2 = rng.random()
    normal = math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
    return mu + sigma * normal - tau * math.log(1.0 - rng.random())


def reaction_ms(level: BotLevel, piles: int, rng: random.Random) -> int:
    """A reaction time (ms, at least 1) for a table showing ``piles`` piles to watch.

    The mean is ``level.mean_ms + PER_PILE_MS * (piles - 2)`` (never below the level's mean); the
    extra search time shifts the normal part, the tail keeps the level's shape.
    """
    tau = TAU_SHARE * level.mean_ms
    mu = level.mean_ms - tau + PER_PILE_MS * max(0, piles - BASE_PILES)
    return max(1, round(ex_gaussian(rng, mu, SIGMA_SHARE * level.mean_ms, tau)))


_FLIP_TAU = TAU_SHARE * FLIP_MEAN_MS
_FLIP_MU = FLIP_MEAN_MS - _FLIP_TAU
_FLIP_SIGMA = SIGMA_SHARE * FLIP_MEAN_MS


def flip_delay_ms(rng: random.Random) -> int:
    """How long a bot takes to flip once it sees it is on turn (ms): ``ex_gaussian`` with the
    flip pace's numbers, written out because a bot game draws one per flip."""
    u1 = rng.random()
    u2 = rng.random()
    normal = math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
    delay = round(_FLIP_MU + _FLIP_SIGMA * normal - _FLIP_TAU * math.log(1.0 - rng.random()))
    return delay if delay > 1 else 1


_new_tuple = tuple.__new__


class Press(NamedTuple):
    """What a bot does at time ``at`` (its own clock = the virtual clock): a flip, or a call.

    A named tuple, not a dataclass: a bot game makes one per flip, and a tuple is cheaper."""

    at: int
    seat: int
    call: tuple[CallKind, Claim | None, int, int] | None = None  # kind, claim, seq seen, reaction


class TableReader:
    """Reads the correct claims off a view (what any player sees), by the ``match`` labels the view
    gives each visible top. Bots of one game share a reader so each view is read once; it keeps
    only the last view read."""

    def __init__(self, rules: SnapRules) -> None:
        deck = DECKS[rules.deck]
        self.rules = rules
        # Slapjack: which faces are Jacks (printed on the card, so public knowledge).
        self.jacks = {name for name, rank in zip(deck.cards, deck.rank, strict=True) if rank == JACK}
        self._view: PlayerView | None = None
        self._found: list[tuple[CallKind, Claim, tuple[object, ...]]] = []

    def matches(self, view: PlayerView) -> list[tuple[CallKind, Claim, tuple[object, ...]]]:
        """Every correct claim in ``view`` (any caller), the most recently flipped first."""
        if view is self._view:
            return self._found
        found: list[tuple[int, CallKind, Claim, tuple[object, ...]]] = []
        if self.rules.single_pile:
            shown = view.central_matches
            if len(shown) == 2 and shown[0] == shown[1]:
                found.append((0, CallKind.SNAP, CentralClaim(), ("central", view.central_size)))
        else:
            pools = view.pools
            if not self.rules.slapjack:
                showing = [p.match for p in view.piles if p.match is not None and p.active]
                labels = set(showing)
                if len(labels) == len(showing) and not (
                    pools and any(pool.match in labels for pool in pools)
                ):
                    # No two tops alike and no top like a pool: nothing to claim (most views).
                    self._view = view
                    self._found = []
                    return self._found
            tops = [(p.seat, p.match, p.top_flip or 0, p.top) for p in view.piles if p.active and p.match]
            for i, (a, ka, fa, _) in enumerate(tops):
                for b, kb, fb, _ in tops[i + 1 :]:
                    if ka == kb:
                        found.append((max(fa, fb), CallKind.SNAP, PairClaim(a, b), ("pair", a, b, fa, fb)))
            for pool in pools:
                for s, ks, fs, _ in tops:
                    if ks == pool.match:
                        ident = ("pool", pool.id, pool.size, s, fs)
                        found.append((fs, CallKind.SNAP_POOL, PoolClaim(pool.id, s), ident))
            if self.rules.slapjack:
                for s, _k, fs, name in tops:
                    if name in self.jacks:
                        found.append((fs, CallKind.SLAP, SlapClaim(s), ("slap", s, fs)))
            found.sort(key=lambda m: -m[0])
        self._view = view
        self._found = [(kind, claim, ident) for _f, kind, claim, ident in found]
        return self._found


class Bot:
    """A bot in one seat. ``on_view`` is all it learns of the game: a view and when it arrived."""

    def __init__(
        self,
        seat: int,
        level: BotLevel,
        rules: SnapRules,
        rng: random.Random,
        reader: TableReader | None = None,
    ) -> None:
        self.seat = seat
        self.level = level
        self.rules = rules
        self.rng = rng
        self._reader = reader if reader is not None else TableReader(rules)
        self._own_pool_only = rules.pool_call is PoolCall.FLIPPER_TAKES_POOL
        self._flipper_barred = not rules.flipper_may_call  # S16
        self._flip_key: tuple[int, int, int] | None = None  # the view a flip was pressed for
        self._seen_seq = -1
        self._handled: set[tuple[object, ...]] = set()
        self.misses = 0
        self.false_calls = 0
        self.false_call_at = self._flips_to_false_call()  # the flip count of the next false call (read-only)

    def _flips_to_false_call(self) -> int:
        """Flips until the next false call: geometric, the same as a chance of ``false_per_flip``
        at every flip, for one draw per false call instead of one per flip."""
        p = self.level.false_per_flip
        if p <= 0:
            return 1 << 62
        if p >= 1:
            return 1
        return 1 + int(math.log(1.0 - self.rng.random()) / math.log(1.0 - p))

    def wants(self, view: PlayerView) -> bool:
        """Whether ``view`` could make this bot act (on turn, a match showing, a false call due).

        ``on_view`` of any other view returns no press and changes nothing, so a simulation may
        skip it (the bot game does: most views need nothing from most seats).
        """
        return self.wants_table(view.turn, view.flips, bool(self._reader.matches(view)))

    def wants_table(self, turn: int | None, flips: int, matching: bool) -> bool:
        """``wants`` from the three things it reads of a view (whose turn, the flip count, whether a
        match shows), for a caller that reads them once per view for every seat."""
        return matching or turn == self.seat or flips >= self.false_call_at

    def on_view(self, view: PlayerView, now: int, resume_at: int | None) -> list[Press]:
        """React to ``view`` arriving at ``now``. ``resume_at`` is when the server said play may
        go on after a decision (S34), None while a decision is pending (no flip then). Returns
        the presses the bot decides to make, at future times."""
        seat = self.seat
        if view.result is not None or not view.piles[seat].active:
            return []
        presses: list[Press] = []
        if view.turn == seat and resume_at is not None:
            flip_key = (view.flips, view.seq, resume_at)
            if flip_key != self._flip_key:
                self._flip_key = flip_key
                at = now + flip_delay_ms(self.rng)
                presses.append(_new_tuple(Press, (at if at > resume_at else resume_at + 1, seat, None)))
        if view.seq == self._seen_seq:
            return presses  # the same table again (a freeze began or ended): nothing new to call
        self._seen_seq = view.seq
        if self._flipper_barred and view.last_flipper == seat:
            return presses
        rng = self.rng
        for kind, claim, ident in self._matches(view):
            if ident in self._handled:
                continue
            self._handled.add(ident)  # one reaction per match: seen (or missed) once
            if rng.random() < self.level.miss:
                self.misses += 1
                continue
            reaction = reaction_ms(self.level, self._piles(view), rng)
            presses.append(Press(now + reaction, seat, (kind, claim, view.seq, reaction)))
            return presses
        if view.flips >= self.false_call_at:
            self.false_call_at = view.flips + self._flips_to_false_call()
            false_claim = self._false_claim(view)
            if false_claim is not None:
                self.false_calls += 1
                reaction = reaction_ms(self.level, self._piles(view), rng)
                presses.append(Press(now + reaction, seat, (CallKind.SNAP, false_claim, view.seq, reaction)))
        return presses

    def _piles(self, view: PlayerView) -> int:
        """Face-up piles and pools on the table (what a player scans for a match)."""
        if self.rules.single_pile:
            return 1
        return sum(1 for p in view.piles if p.active and p.top is not None) + len(view.pools)

    def _matches(self, view: PlayerView) -> list[tuple[CallKind, Claim, tuple[object, ...]]]:
        """Correct claims this bot may make in ``view``, the most recently flipped first (S26)."""
        found = self._reader.matches(view)
        if not found:
            return found
        seat = self.seat
        return [
            (kind, claim, ident)
            for kind, claim, ident in found
            if not (
                (kind is CallKind.SLAP and isinstance(claim, SlapClaim) and claim.seat == seat)
                or (self._own_pool_only and isinstance(claim, PoolClaim) and claim.seat != seat)
            )
        ]

    def _false_claim(self, view: PlayerView) -> Claim | None:
        """A claim that does not hold: what a bot "sees" when it misreads two cards."""
        if self.rules.single_pile:
            shown = view.central_matches
            return CentralClaim() if shown and (len(shown) < 2 or shown[0] != shown[1]) else None
        tops = [(p.seat, p.match) for p in view.piles if p.active and p.match]
        pairs = [(a, b) for i, (a, ka) in enumerate(tops) for b, kb in tops[i + 1 :] if ka != kb]
        if not pairs:
            return None
        a, b = pairs[int(self.rng.random() * len(pairs))]
        return PairClaim.of(a, b)


# --------------------------------------------------------------------------------------------
# Bot games in virtual time


@dataclass(frozen=True, slots=True)
class Link:
    """A player's connection: round trip ``rtt_ms``; each message one way takes ``rtt_ms / 2``
    plus a uniform ``[0, jitter_ms)`` delay."""

    rtt_ms: int = 40
    jitter_ms: int = 10


@dataclass(slots=True)
class BotGame:
    """A finished bot game: the ``LiveGame`` (state, timed log, events) and the bots."""

    game: LiveGame
    bots: list[Bot] = field(default_factory=list)


def play_bot_game(
    rules: SnapRules,
    levels: Sequence[BotLevel],
    deal: Deal,
    dealer: int,
    rng: random.Random,
    *,
    timing: TimingRules = DEFAULT_TIMING,
    links: Sequence[Link] | None = None,
    rtt_every_ms: int = 30_000,
    max_steps: int = 2_000_000,
) -> BotGame:
    """Play one game of bots (one level per seat) to its end in virtual time, from 0 ms.

    The server (``LiveGame``) takes inputs in arrival order; each state change reaches each bot
    after its link's delay as ``observe(state, seat)``; round trips are measured at the start and
    every ``rtt_every_ms``. Raises RuntimeError if the game has not ended after ``max_steps``
    simulation steps (S20 guarantees an end; this is a safety net).
    """
    n = deal.players
    if len(levels) != n:
        raise ValueError(f"{len(levels)} levels for {n} seats")
    links = list(links) if links is not None else [Link()] * n
    game = LiveGame(rules, deal, dealer, timing, 0)
    reader = TableReader(rules)
    bots = [Bot(seat, levels[seat], rules, rng, reader) for seat in range(n)]
    heap: list[tuple[int, int, int, TimedInput]] = []
    counter = 0
    delivered = [0] * n  # per seat: when its latest view arrived (a connection keeps order)
    half_rtt = [link.rtt_ms // 2 for link in links]
    jitter = [link.jitter_ms for link in links]
    random_ = rng.random
    heappush = heapq.heappush
    all_seats = range(n)
    view: PlayerView | None = None

    reveal = timing.reveal_jitter_ms > 0

    def publish(at: int) -> None:
        """Send the new state to every active seat, and the presses it prompts to the server. A
        bot only plans presses for later times from a view, so it can take the view now, stamped
        with its arrival time: the order of one seat's views is kept, which is all that matters
        to it. Each message, either way, takes its link's one-way time plus jitter."""
        nonlocal view, counter
        state = game.state
        # observe(state, seat) differs between seats only in its ``seat`` field (every pile's
        # size and top are public, S5), which a bot does not read: one view serves every seat
        # (tests/games/engine/snap/test_bots.py checks the equality).
        seats: Sequence[int] = all_seats
        if view is None or view.seq != state.seq:
            view = game.view(None)
        elif state.turn is not None:
            # A freeze began or ended on the same table: only the seat on turn can act on that
            # (its flip); any other bot's on_view would return nothing.
            seats = (state.turn,)
        resume_at = None if game.frozen else game.resume_at
        # Bot.wants, read once for the table: a match showing, the seat on turn, a false call due.
        matching = bool(reader.matches(view))
        turn = view.turn
        flips = view.flips
        active = state.active
        for seat in seats:
            bot = bots[seat]
            if active[seat] and bot.wants_table(turn, flips, matching):
                arrival = max(at + half_rtt[seat] + int(random_() * jitter[seat]), delivered[seat])
                delivered[seat] = arrival
                for press_at, _seat, call in bot.on_view(view, arrival, resume_at):
                    sent = press_at + half_rtt[seat] + int(random_() * jitter[seat])
                    counter += 1
                    if call is None:
                        delay = reveal_delay(random_(), timing) if reveal else 0
                        heappush(heap, (sent, counter, seat, TimedFlip(sent, seat, delay)))
                    else:
                        heappush(heap, (sent, counter, seat, TimedCall(sent, seat, *call)))

    for seat in range(n):
        counter += 1
        heappush(heap, (0, counter, seat, RoundTrip(0, seat, links[seat].rtt_ms)))
    publish(0)
    published_seq, published_resume, published_frozen = game.state.seq, game.resume_at, game.frozen
    steps = 0
    due = game.next_due()
    feed = game.feed
    heappop = heapq.heappop
    while game.state.result is None:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("bot game did not end")
        # An input arriving at the same moment as a timer goes first (as in LiveGame.feed).
        if due is not None and (not heap or due < heap[0][0]):
            feed(Advance(due))
        else:
            at, _c, seat, inp = heappop(heap)
            if type(inp) is RoundTrip:
                # S33: the server measures each connection again now and then.
                counter += 1
                again = at + rtt_every_ms
                heappush(heap, (again, counter, seat, RoundTrip(again, seat, inp.rtt_ms)))
            feed(inp)
        due = game.next_due()
        if (
            game.state.seq != published_seq
            or game.resume_at != published_resume
            or game.frozen != published_frozen
        ):
            # A new state, or a decision pending or taken: the clients hear of it.
            published_seq, published_resume, published_frozen = game.state.seq, game.resume_at, game.frozen
            publish(game.now)
    return BotGame(game, bots)
