"""The engine contract (:class:`games.engine.protocol.Engine`) for Snap: ``ENGINE``.

A Snap *game* is one game of a series (S39-S43 live in the tournament layer). Every method is a
thin door onto the engine; the docs of :mod:`games.engine.protocol` say what each promises.

- ``options``: ``{"profile": name, **rule options}`` (a tournament's ``rules_profile`` and
  ``rules_options`` in one mapping; no profile means ``classic``). ``check_options`` raises
  InvalidRules with the rules module's coded problems, for the table size too (S1).
- ``new_game``: from ``seed``, the deck (in ``decks.py`` order) is dealt as
  ``dealing.shuffled(cards, seed, b"deal")``; from ``deals``, the one recorded deck order (S22).
- **Shuffled recycles** (``empty_facedown = recycle_shuffle``, S9/S22): the order of a recycled
  pile is a chance input. In a game dealt from a seed, ``apply`` draws it from the seed itself:
  seat ``s``'s face-up pile (top first) is shuffled with
  ``dealing.shuffled(pile, seed, b"recycle:<flips>:<s>")``, ``<flips>`` being the game's flip count
  before that flip (or tick), so a client never sends an order (one that does is malformed) and
  the log holds plain flips. In a game dealt from a recorded deal the order comes in the input
  (``Flip.order``, ``Tick.orders``) as in the bare engine.
- ``observe(state, None)`` is the spectator's view: the table, never a face-down card.
- ``result`` is a :class:`~games.engine.snap.events.SnapResult` (winner, placings, how it ended,
  wrong calls per seat).
- ``to_snapshot`` / ``from_snapshot``: :mod:`games.engine.snap.snapshot`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.engine import dealing
from games.engine.errors import ActionCode, InvalidAction
from games.engine.protocol import JSON, GameKind
from games.engine.snap.actions import Action, Flip, Tick, action_from_dict, action_to_dict
from games.engine.snap.decks import DECKS
from games.engine.snap.events import Event, SnapResult
from games.engine.snap.flips import recycle_due
from games.engine.snap.game import apply, legal_actions, new_game
from games.engine.snap.rules import (
    DEFAULT_PROFILE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PROFILES,
    EmptyFacedown,
    SnapRules,
    check,
    rules_from_options,
)
from games.engine.snap.snapshot import from_snapshot, to_snapshot
from games.engine.snap.state import Deal, SnapState
from games.engine.snap.view import PlayerView, observe

PROFILE_KEY: Final = "profile"


def game_rules(options: Mapping[str, Any]) -> SnapRules:
    """The rules that game ``options`` describe: the profile named under ``"profile"`` (missing or
    None: ``classic``) with the other options laid over it. Raises InvalidRules (coded problems;
    a profile that is not text is an unknown profile)."""
    name = options.get(PROFILE_KEY)
    profile = DEFAULT_PROFILE if name is None else name if isinstance(name, str) else repr(name)
    return rules_from_options({k: v for k, v in options.items() if k != PROFILE_KEY}, profile=profile)


def game_options(rules: SnapRules) -> dict[str, Any]:
    """Options that ``game_rules`` reads back into ``rules``: the default profile and the fields
    that differ from it (plain JSON)."""
    base = PROFILES[DEFAULT_PROFILE].to_dict()
    return {PROFILE_KEY: DEFAULT_PROFILE, **{k: v for k, v in rules.to_dict().items() if base[k] != v}}


def recycle_order(state: SnapState, seat: int) -> tuple[str, ...]:
    """S22 from the seed: the new face-down pile (top first) when ``seat`` turns its face-up pile
    over in a game dealt from ``state.seed`` (see the module doc)."""
    assert state.seed is not None
    names = state.deck.cards
    pile = [names[c] for c in state.faceup(seat)]
    return dealing.shuffled(pile, state.seed, b"recycle:%d:%d" % (state.flips, seat))


def with_chance(state: SnapState, action: Action) -> Action:
    """``action`` with the recycle orders a seeded ``recycle_shuffle`` game draws from its seed.

    Raises InvalidAction("malformed") for an order sent to such a game: its orders never come from
    a client."""
    rules = state.rules
    if state.seed is None or rules.empty_facedown is not EmptyFacedown.RECYCLE_SHUFFLE or rules.single_pile:
        return action
    if isinstance(action, Flip):
        if action.order is not None:
            raise InvalidAction(ActionCode.MALFORMED, "a seeded game draws its recycle orders (S22)")
        if state.result is None and action.seat == state.turn and recycle_due(state) == [action.seat]:
            return Flip(action.seat, recycle_order(state, action.seat))
    elif isinstance(action, Tick):
        if action.orders:
            raise InvalidAction(ActionCode.MALFORMED, "a seeded game draws its recycle orders (S22)")
        if state.result is None and rules.speed:
            return Tick(tuple((seat, recycle_order(state, seat)) for seat in recycle_due(state)))
    return action


class SnapEngine:
    """Snap games behind the engine contract. Stateless: one shared instance, ``ENGINE``."""

    kind: GameKind = GameKind.SNAP

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise InvalidRules (coded problems) unless ``options`` can be played by ``seats``."""
        check(game_rules(options), seats)

    def seat_range(self) -> tuple[int, int]:
        return (MIN_PLAYERS, MAX_PLAYERS)

    def new_game(
        self,
        options: Mapping[str, Any],
        *,
        seats: int,
        dealer: int,
        seed: bytes | None = None,
        deals: Sequence[Sequence[str]] | None = None,
    ) -> SnapState:
        """The dealt game (S4). Raises InvalidRules, InvalidAction ("no_such_seat", "bad_deal")
        and ValueError unless exactly one of ``seed`` (non-empty bytes) and ``deals`` is given."""
        rules = game_rules(options)
        if (seed is None) == (deals is None):
            raise ValueError("a new game takes a seed or the recorded deals, not both or neither")
        if seed is not None:
            order = dealing.shuffled(DECKS[rules.deck].cards, seed, b"deal")
        else:
            assert deals is not None
            if len(deals) != 1:
                raise InvalidAction(ActionCode.BAD_DEAL, f"a Snap game has one deal, not {len(deals)}")
            order = tuple(deals[0])
        return new_game(rules, Deal(seats, order), dealer, seed=seed)

    def legal_actions(self, state: SnapState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: SnapState, action: Action) -> tuple[SnapState, list[Event]]:
        return apply(state, with_chance(state, action))

    def observe(self, state: SnapState, seat: int | None) -> PlayerView:
        return observe(state, seat)

    def is_terminal(self, state: SnapState) -> bool:
        return state.result is not None

    def result(self, state: SnapState) -> SnapResult | None:
        return state.result

    def replay(self, setup: JSON, actions: Sequence[Action]) -> SnapState:
        seed = setup.get("seed")
        state = self.new_game(
            setup["options"],
            seats=setup["seats"],
            dealer=setup["dealer"],
            seed=bytes.fromhex(seed) if isinstance(seed, str) else seed,
            deals=setup.get("deals"),
        )
        for action in actions:
            state, _events = self.apply(state, action)
        return state

    def game_setup(self, state: SnapState) -> JSON:
        """``options``, ``seats``, ``dealer`` and ``seed`` (hex) or ``deals`` (one deck order)."""
        return {
            "options": game_options(state.rules),
            "seats": state.n,
            "dealer": state.dealer,
            "seed": None if state.seed is None else state.seed.hex(),
            "deals": [list(state.deal.order)] if state.seed is None else None,
        }

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(dict(data))

    def action_to_dict(self, action: Action) -> JSON:
        return action_to_dict(action)

    def to_snapshot(self, state: SnapState) -> JSON:
        return to_snapshot(state)

    def from_snapshot(self, data: Mapping[str, Any]) -> SnapState:
        return from_snapshot(data)


ENGINE: Final = SnapEngine()

__all__ = ["ENGINE", "SnapEngine", "game_options", "game_rules", "recycle_order", "with_chance"]
