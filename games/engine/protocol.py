"""The one engine contract: what every game engine offers the layers above, and the registry.

Online play, the result service (``from_engine``) and replays talk to an engine only through
:class:`Engine`; they never import ``games.engine.snap`` or ``games.engine.sixtysix`` for play.
Each engine package has a ``contract`` module with one object that implements it, registered here
by :class:`GameKind`.

A *game* is what one game of a tournament series is: a Snap game, or a Snapszer **match** (hands
to 7 game points, each hand dealt anew). It is ``options + setup + ordered actions``:

- ``new_game(options, seats=…, dealer=…, seed=…)`` deals from a seed (every deck order a documented
  function of it, :mod:`games.engine.dealing`), or from ``deals=`` recorded deck orders (card names,
  one per deal, in the order they are needed);
- ``apply(state, action) -> (state, events)`` never mutates ``state``; it raises
  :class:`~games.engine.errors.InvalidAction` (malformed) or
  :class:`~games.engine.errors.IllegalAction` (not allowed now);
- an action of a seat with nothing to do now is refused (``IllegalAction(not_your_turn)``) or, where
  the rules say so (Snap S16: a call by a seat that may not call is ignored), changes nothing;
- ``observe(state, seat)`` is all ``seat`` may know (``None``: a spectator, who sees what the table
  shows); ``legal_actions``, ``is_terminal`` and ``result`` read a state;
- ``replay(setup, actions)`` folds the actions over ``new_game`` again;
- ``to_snapshot(state)`` is compact JSON (dicts, lists, strings, numbers) whose size does not grow
  with the game's length, and ``from_snapshot`` gives back a state that plays on exactly as the one
  it was taken from. A snapshot is the server's cache: it holds the hidden cards and the seed, and
  is never sent to a player.

The contract is structural (a :class:`typing.Protocol`): the engines do not inherit from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from importlib import import_module
from typing import Any, Protocol, runtime_checkable


class GameKind(StrEnum):
    """The games snapleague runs. Pure: the tournament models use it as their choices."""

    SNAP = "snap"
    SNAPSZER = "snapszer"


JSON = dict[str, Any]


@runtime_checkable
class Engine(Protocol):
    """What every engine offers. States, actions, views and results are the engine's own types;
    each has a ``to_dict`` (actions also an ``action_from_dict``) so that the layers above can store
    and send them without knowing them."""

    kind: GameKind

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise :class:`~games.engine.errors.InvalidRules` (coded problems) unless ``options``
        can be played at a table of ``seats``."""
        ...

    def seat_range(self) -> tuple[int, int]:
        """The fewest and the most seats a game has."""
        ...

    def new_game(
        self,
        options: Mapping[str, Any],
        *,
        seats: int,
        dealer: int,
        seed: bytes | None = None,
        deals: Sequence[Sequence[str]] | None = None,
    ) -> Any:
        """The first state. Exactly one of ``seed`` and ``deals`` is given."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...

    def observe(self, state: Any, seat: int | None) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Any | None:
        """The engine's result of a finished game (``SnapResult``; a Snapszer ``MatchResult``),
        or None while it is being played."""
        ...

    def replay(self, setup: JSON, actions: Sequence[Any]) -> Any:
        """The state after ``actions``, from ``setup`` as ``game_setup`` returns it."""
        ...

    def game_setup(self, state: Any) -> JSON:
        """What ``replay`` needs besides the actions: options, seats, dealer, seed or deals."""
        ...

    def action_from_dict(self, data: Mapping[str, Any]) -> Any:
        """An action from its JSON form; raises InvalidAction("malformed") on a bad shape."""
        ...

    def action_to_dict(self, action: Any) -> JSON: ...

    def to_snapshot(self, state: Any) -> JSON: ...

    def from_snapshot(self, data: Mapping[str, Any]) -> Any: ...


# Where each kind's engine object lives: imported on first use, so that importing the contract does
# not import every engine.
_ENGINES: dict[GameKind, str] = {
    GameKind.SNAP: "games.engine.snap.contract:ENGINE",
    GameKind.SNAPSZER: "games.engine.sixtysix.contract:ENGINE",
}


def engine_for(kind: GameKind | str) -> Engine:
    """The engine of ``kind``. Raises ValueError for a kind that has none."""
    path = _ENGINES[GameKind(kind)]
    module, _, name = path.partition(":")
    engine = getattr(import_module(module), name)
    if not isinstance(engine, Engine):  # pragma: no cover - a registration bug
        raise TypeError(f"{path} does not implement the engine contract")
    return engine
