"""The engine contract (:class:`games.engine.protocol.Engine`) for Snapszer: ``ENGINE``.

A Snapszer *game* is one match (:mod:`games.engine.sixtysix.game`): the options name a profile
with a match, and the game deals its hands one after another. Every method is a thin door onto the
game module; the docs of :mod:`games.engine.protocol` say what each promises.

- ``options``: ``{"profile": name, **rule options}`` (a tournament's ``rules_profile`` and
  ``rules_options`` in one mapping; no profile means the default). ``check_options`` raises
  InvalidRules with the rules module's coded problems, and ``match_no_match`` for a profile that
  plays single hands (`schnapsen-lite`): a tournament series counts matches.
- ``seats``: always 2 (``seat_range``); another number is the caller's bug (ValueError).
- ``observe(state, None)`` is the spectator's view: the table, never a hand card or the stock.
- ``result`` is a :class:`~games.engine.sixtysix.match.MatchResult`.
- ``to_snapshot`` / ``from_snapshot``: :mod:`games.engine.sixtysix.snapshot`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.engine.protocol import JSON, GameKind
from games.engine.sixtysix.actions import Action, action_from_dict, action_to_dict
from games.engine.sixtysix.game import (
    SEATS,
    GameEvent,
    GameView,
    SixtySixGame,
    check_seats,
    game_apply,
    game_from_setup,
    game_legal_actions,
    game_observe,
    game_result,
    game_rules,
    game_setup,
    new_game,
)
from games.engine.sixtysix.match import MatchResult
from games.engine.sixtysix.snapshot import game_from_snapshot, game_to_snapshot


class SixtySixEngine:
    """Snapszer matches behind the engine contract. Stateless: one shared instance, ``ENGINE``."""

    kind: GameKind = GameKind.SNAPSZER

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise InvalidRules (coded problems) unless ``options`` describe a match; ValueError
        unless ``seats`` is 2."""
        check_seats(seats)
        game_rules(options)

    def seat_range(self) -> tuple[int, int]:
        return (SEATS, SEATS)

    def new_game(
        self,
        options: Mapping[str, Any],
        *,
        seats: int,
        dealer: int,
        seed: bytes | None = None,
        deals: Sequence[Sequence[str]] | None = None,
    ) -> SixtySixGame:
        """Hand 1 of a match dealt by ``dealer`` (X4), from ``seed`` or the recorded ``deals``
        (one deck order per hand, card names). See :func:`games.engine.sixtysix.game.new_game`."""
        check_seats(seats)
        profile, rules = game_rules(options)
        return new_game(rules, profile=profile, first_dealer=dealer, seed=seed, deals=deals)

    def legal_actions(self, state: SixtySixGame, seat: int) -> list[Action]:
        return game_legal_actions(state, seat)

    def apply(self, state: SixtySixGame, action: Action) -> tuple[SixtySixGame, list[GameEvent]]:
        return game_apply(state, action)

    def observe(self, state: SixtySixGame, seat: int | None) -> GameView:
        return game_observe(state, seat)

    def is_terminal(self, state: SixtySixGame) -> bool:
        return state.is_terminal

    def result(self, state: SixtySixGame) -> MatchResult | None:
        return game_result(state)

    def replay(self, setup: JSON, actions: Sequence[Action]) -> SixtySixGame:
        state = game_from_setup(setup)
        for action in actions:
            state, _events = game_apply(state, action)
        return state

    def game_setup(self, state: SixtySixGame) -> JSON:
        return game_setup(state)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(data)

    def action_to_dict(self, action: Action) -> JSON:
        return action_to_dict(action)

    def to_snapshot(self, state: SixtySixGame) -> JSON:
        return game_to_snapshot(state)

    def from_snapshot(self, data: Mapping[str, Any]) -> SixtySixGame:
        return game_from_snapshot(data)


ENGINE: Final = SixtySixEngine()

__all__ = ["ENGINE", "SixtySixEngine"]
