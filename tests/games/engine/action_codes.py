"""An input that makes an engine refuse with each :class:`~games.engine.errors.ActionCode`.

Every example is a real call of an engine's public API (Snap, its online timing layer, a Snapszer
hand or match). Where both engines refuse for the same reason, both are here: that is the point of
one vocabulary. The message tests (tests/games/test_engine_messages.py) check that the
examples cover every code, so a new code needs an example here (or a reason in ``UNREACHABLE``) as
well as a message.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import sixtysix, snap
from games.engine.errors import ActionCode, ActionError
from games.engine.sixtysix import (
    HandResult,
    PlayCard,
    Reason,
    SixtySixState,
    match_apply,
    match_fold,
    new_match,
)
from games.engine.snap import DECKS, CallKind, Deal, EmptyFacedown, Flip, SnapRules, SnapState, Tick
from games.engine.snap.timing import LiveGame, TimedFlip, TimingRules

A = ActionCode
CLASSIC = SnapRules()
PACK = DECKS[CLASSIC.deck].cards


def _snap(rules: SnapRules = CLASSIC, deal: tuple[str, ...] = PACK, dealer: int = 1) -> SnapState:
    """A two-seat Snap game dealt from the pack in order; seat 0 flips first."""
    return snap.new_game(rules, Deal(2, deal), dealer)


def _snap_recycle_due() -> SnapState:
    """A game whose shuffled recycle is due (S9, S22): 52 flips and no call, both piles face up."""
    state = _snap(SnapRules(empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE))
    while not snap.recycle_due(state):
        assert state.turn is not None and state.result is None
        state, _ = snap.apply(state, Flip(state.turn))
    return state


def _snap_after_flips(flips: int) -> SnapState:
    """A game after ``flips`` flips and no call (the pack in order: no two tops match)."""
    state = _snap()
    for _ in range(flips):
        assert state.turn is not None and state.result is None
        state, _ = snap.apply(state, Flip(state.turn))
    return state


def _snap_over() -> SnapState:
    """A game ended by its flip limit (S20): one flip and the round it starts."""
    state = _snap(SnapRules(max_flips=1, extra_rounds=0))
    while state.result is None:
        assert state.turn is not None and state.seq < 10
        state, _ = snap.apply(state, Flip(state.turn))
    return state


def _snap_timed() -> LiveGame:
    """The online layer after seat 0's flip at 1000 ms."""
    game = LiveGame(CLASSIC, Deal(2, PACK), 1, TimingRules())
    game.feed(TimedFlip(1000, 0))
    return game


SCHNAPSEN = sixtysix.PROFILES["schnapsen"]


def _hand() -> SixtySixState:
    """A schnapsen hand dealt from the pack in order, seat 1 dealing: seat 0 leads."""
    return sixtysix.new_hand(SCHNAPSEN, sixtysix.deck(SCHNAPSEN.deck_size), dealer=1)


def _hand_over() -> SixtySixState:
    """The same hand played to its end, each seat taking its first legal action."""
    state = _hand()
    while state.result is None:
        seat = sixtysix.seats_to_act(state)[0]
        state, _ = sixtysix.apply(state, sixtysix.legal_actions(state, seat)[0])
    return state


def _won(seat: int, points: int = 3) -> HandResult:
    return HandResult(seat, points, Reason.DECLARED, "", (66, 0), (66, 0), (1, 0))


EXAMPLES: list[tuple[ActionCode, Callable[[], object]]] = [
    (A.MALFORMED, lambda: snap.action_from_dict({"type": "jump"})),
    (A.MALFORMED, lambda: snap.apply(_snap(), snap.Call(0, CallKind.SLAP, None, 0))),  # no slapjack
    (A.NO_SUCH_SEAT, lambda: _snap(dealer=2)),
    (A.NO_SUCH_SEAT, lambda: sixtysix.apply(_hand(), sixtysix.Pass(2))),
    (A.NO_SUCH_STATE, lambda: snap.apply(_snap(), snap.Call(0, CallKind.SNAP, None, 99))),
    (A.BAD_DEAL, lambda: _snap(deal=PACK[:-1])),
    (A.BAD_ORDER, lambda: snap.apply(state := _snap_recycle_due(), Flip(state.turn or 0, ("AC",)))),
    (A.GAME_OVER, lambda: snap.apply(_snap_over(), Flip(1))),
    (A.GAME_OVER, lambda: sixtysix.apply(_hand_over(), PlayCard(0, sixtysix.deck(SCHNAPSEN.deck_size)[0]))),
    (A.GAME_OVER, lambda: match_apply(match_fold(SCHNAPSEN, 0, [_won(0)] * 3), _won(1))),
    (A.NOT_YOUR_TURN, lambda: snap.apply(_snap(), Flip(1))),
    (A.NOT_YOUR_TURN, lambda: sixtysix.apply(_hand(), PlayCard(1, _hand().hands[1][0]))),
    (A.NOT_LEGAL, lambda: sixtysix.apply(_hand(), PlayCard(0, _hand().hands[1][0]))),  # not its card
    (
        A.NOT_LEGAL,
        lambda: match_apply(
            new_match(SCHNAPSEN, 0), HandResult(None, 0, Reason.TIE_POT, "", (0, 0), (0, 0), (0, 0))
        ),
    ),
    (A.NOT_TURN_BASED, lambda: snap.apply(_snap(SnapRules(speed=True)), Flip(0))),
    (A.NOT_SPEED, lambda: snap.apply(_snap(), Tick())),
    (A.ORDER_REQUIRED, lambda: snap.apply(state := _snap_recycle_due(), Flip(state.turn or 0))),
    (A.ORDER_NOT_DUE, lambda: snap.apply(_snap(), Flip(0, ("AC",)))),
    (A.TIME_BACKWARDS, lambda: _snap_timed().feed(TimedFlip(500, 1))),
    (A.STALE, lambda: snap.apply(_snap_after_flips(40), snap.Call(0, CallKind.SNAP, None, 0))),
]

# Codes no public engine call reports yet, and why.
UNREACHABLE: dict[ActionCode, str] = {}


def example_errors() -> list[tuple[ActionCode, ActionError]]:
    """``(code, error)`` for each example: the error its call raised, which has that code."""
    found = []
    for code, call in EXAMPLES:
        try:
            call()
        except ActionError as exc:
            assert exc.code is code, f"{code}: the example raised {exc!r}"
            found.append((code, exc))
        else:
            raise AssertionError(f"{code}: the example raised nothing")
    return found
