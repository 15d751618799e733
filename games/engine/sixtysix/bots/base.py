"""What every 66 bot shares: the protocol, and reading legal actions and duties from a view.

A bot is asked :meth:`Bot.act` with the :class:`PlayerView` of its seat (``observe(state, seat)``)
whenever that seat has a legal action. It returns one of the view's legal actions, or None when
it may wait: the seat is not otherwise on move and its only legal action is a declaration
(`snapszer` lets a seat declare at any moment, X25). Every bot declares 66 as soon as it may and
holds 66 points (X24): waiting never improves the game points of a declaration (the loser's state
can only grow) and risks the opponent declaring first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from games.engine.sixtysix.actions import Action, Declare, Pass, action_from_dict
from games.engine.sixtysix.engine import legal_actions, seats_to_act
from games.engine.sixtysix.state import SixtySixState
from games.engine.sixtysix.view import PlayerView, observe

TARGET: Final = 66


class Bot(Protocol):
    """A 66 player that only sees views. ``name`` is its level or kind (for the arena)."""

    name: str

    def act(self, view: PlayerView) -> Action | None:
        """One of ``view.legal_actions``, or None when the seat may wait (see the module doc).

        Never returns None when the seat must move (it has a legal action other than Declare).
        """
        ...


def legal(view: PlayerView) -> list[Action]:
    """The view's legal actions as action values, in a canonical order (by kind, then card), so
    that a decision never depends on the order of the cards in hand."""
    actions = [action_from_dict(d) for d in view.legal_actions]
    actions.sort(key=_canonical)
    return actions


def _canonical(action: Action) -> tuple[str, int]:
    card = getattr(action, "card", None)
    return (type(action).__name__, -1 if card is None else card.index)


def must_move(actions: list[Action]) -> bool:
    """Whether the seat has to act now (anything other than a declaration is legal)."""
    return any(not isinstance(a, Declare) for a in actions)


def duty(view: PlayerView, actions: list[Action]) -> Action | None:
    """The action every bot takes without thinking: declare with 66 (X24); after the last trick
    (X24a), pass when short of 66 (a wrong declaration would give the hand away)."""
    me = view.seat
    declare = next((a for a in actions if isinstance(a, Declare)), None)
    if declare is not None and view.points[me] >= TARGET:
        return declare
    if view.phase == "after_last":
        return next(a for a in actions if isinstance(a, Pass))
    return None


def without_declare(actions: list[Action]) -> list[Action]:
    return [a for a in actions if not isinstance(a, Declare)]


class Decide(Protocol):
    def __call__(self, bot: Bot, view: PlayerView) -> Action | None: ...


def _ask(bot: Bot, view: PlayerView) -> Action | None:
    return bot.act(view)


def next_action(
    state: SixtySixState, bots: Mapping[int, Bot] | Sequence[Bot], decide: Decide = _ask
) -> Action:
    """Whose action comes next, and what it is, when ``bots[seat]`` plays each seat.

    X25: a seat whose only legal actions are declarations (``snapszer`` lets the player not on
    move declare) is asked first and may wait (``None``); then the seat on move must act.
    ``decide(bot, view)`` makes the on-move decision (a caller may wrap it, e.g. to time it).
    Raises RuntimeError when the seat on move returns nothing.
    """
    seats = seats_to_act(state)
    for seat in seats[1:]:
        if all(isinstance(a, Declare) for a in legal_actions(state, seat)):
            action = bots[seat].act(observe(state, seat))
            if action is not None:
                return action
    seat = seats[0]
    action = decide(bots[seat], observe(state, seat))
    if action is None:
        raise RuntimeError(f"{bots[seat].name} returned no action where seat {seat} must act")
    return action
