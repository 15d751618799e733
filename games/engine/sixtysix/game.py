"""A game of Snapszer as a tournament series counts it: one **match** (X32), hand after hand.

A :class:`SixtySixGame` is a value holding the match so far (:class:`MatchState`), the hand being
played (:class:`SixtySixState`), the results of the hands played, and where deals come from: a seed
(hand ``n`` is ``dealing.shuffled(deck, seed, b"hand:%d" % n)``, hands numbered from 1) or the
recorded deck orders, one per hand in order.

:func:`game_apply` plays an action into the current hand. When the action ends the hand, the same
call scores it into the match (X29, X32) and, unless that decided the match, deals the next hand at
once, by the dealer the match names (X32: alternate, or the winner; X29: the same dealer after a
draw): its events end with :class:`MatchScored` and :class:`HandDealt` (or :class:`MatchEnded`).
So a game is never "between hands": every state but the last has a hand in play, and the state
after the deciding hand holds that finished hand. Profiles without a match (`schnapsen-lite`,
single hands) have no game: :func:`new_game` refuses them with the match module's ``match_no_match``
problem, as :func:`~games.engine.sixtysix.match.new_match` does.

A **record** (``record=True``, recorded deals only) is the hands of a match played at a table and
entered card by card (docs/analysis.md, "Hands entered card by card"): it ends after the hand of its
last recorded deal, decided or not, instead of asking for the next deal. Its state is then over
(``is_terminal``) with that hand held, and its ``result`` is None unless that hand decided the match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from games.engine import dealing
from games.engine.errors import ActionCode, IllegalAction, InvalidAction
from games.engine.sixtysix.actions import Action
from games.engine.sixtysix.cards import Card, deck, is_pack, parse_card
from games.engine.sixtysix.engine import apply, legal_actions, new_hand
from games.engine.sixtysix.events import Event
from games.engine.sixtysix.match import MatchResult, MatchState, match_apply, new_match
from games.engine.sixtysix.rules import (
    DEFAULT_PROFILE,
    SixtySixRules,
    options_of,
    rules_from_options,
    unknown_profile,
)
from games.engine.sixtysix.state import HandResult, Seat, SixtySixState
from games.engine.sixtysix.view import PlayerView, TableView, observe, spectate

# --- match events -------------------------------------------------------------------------------


@dataclass(slots=True)
class MatchScored:
    """A hand was scored into the match (X29, X32): the match's scores and pot after ``hand``."""

    hand: int  # 1-based number of the hand just scored
    scores: tuple[int, int]
    games_won: tuple[int, int]
    pot: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "match_scored",
            "hand": self.hand,
            "scores": list(self.scores),
            "games_won": list(self.games_won),
            "pot": self.pot,
        }


@dataclass(slots=True)
class HandDealt:
    """Hand ``hand`` was dealt by ``dealer``; ``trump_card`` lies face up (X5, X6)."""

    hand: int
    dealer: int
    trump_card: Card

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "hand_dealt",
            "hand": self.hand,
            "dealer": self.dealer,
            "trump_card": self.trump_card.name,
        }


@dataclass(slots=True)
class MatchEnded:
    """``winner`` won the match; ``game_scores`` are the final scores of its games (X32)."""

    winner: int
    game_scores: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "match_ended",
            "winner": self.winner,
            "game_scores": [list(g) for g in self.game_scores],
        }


GameEvent = Event | MatchScored | HandDealt | MatchEnded


# --- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class SixtySixGame:
    """One match in progress (or over). A value: :func:`game_apply` returns a new one.

    ``profile`` names the profile ``rules`` were built from (``options_of`` gives the changes);
    ``first_dealer`` dealt hand 1 (X4). Exactly one of ``seed`` and ``deals`` is set.
    ``hands`` are the results of the finished hands in order; ``hand`` is the hand in play, or the
    deciding hand once the match is over. Compare games by :func:`~games.engine.sixtysix.snapshot.
    game_to_snapshot`: hand states compare by identity.
    """

    rules: SixtySixRules
    profile: str
    first_dealer: Seat
    seed: bytes | None
    deals: tuple[tuple[Card, ...], ...] | None
    match: MatchState
    hands: tuple[HandResult, ...]
    hand: SixtySixState
    record: bool = False  # recorded hands of a match: over after the last recorded deal's hand

    @property
    def is_terminal(self) -> bool:
        return self.match.winner is not None or self.record_over

    @property
    def record_over(self) -> bool:
        """A record whose every recorded hand has been played (the match may be undecided)."""
        return self.record and self.deals is not None and len(self.hands) >= len(self.deals)

    @property
    def hand_number(self) -> int:
        """The 1-based number of ``hand``: the hand in play, or the last one once the game is over."""
        return len(self.hands) + (not self.is_terminal)


# --- options and setup --------------------------------------------------------------------------

PROFILE_KEY: Final = "profile"
RECORD_KEY: Final = "record"
SEATS: Final = 2


def game_rules(options: Mapping[str, Any]) -> tuple[str, SixtySixRules]:
    """The profile name and the rules that game ``options`` describe.

    ``options`` is a tournament's rules in one mapping: the profile's name under ``"profile"``
    (missing or None: the default profile) and its ``rules_options`` beside it, e.g.
    ``{"profile": "schnapsen", "match": 11}``. Raises InvalidRules listing every problem the rules
    module finds, and ``match_no_match`` for rules without a match (single hands have no game).
    """
    name = options.get(PROFILE_KEY)
    if name is None:
        name = DEFAULT_PROFILE
    elif not isinstance(name, str):
        raise unknown_profile(name)
    rules = rules_from_options({k: v for k, v in options.items() if k != PROFILE_KEY}, profile=name)
    new_match(rules, 0)  # InvalidRules: the profile plays single hands
    return name, rules


def game_options(game: SixtySixGame) -> dict[str, Any]:
    """The options :func:`game_rules` reads back into the game's rules (plain JSON)."""
    return {PROFILE_KEY: game.profile, **options_of(game.rules, game.profile)}


def game_setup(game: SixtySixGame) -> dict[str, Any]:
    """What :func:`game_from_setup` needs to deal the game again (plain JSON): ``options``,
    ``seats`` (2), ``dealer`` (the first dealer), and ``seed`` (hex) or ``deals`` (card names);
    ``record: true`` only for a record (absent otherwise, so older setups read the same)."""
    setup: dict[str, Any] = {
        "options": game_options(game),
        "seats": SEATS,
        "dealer": game.first_dealer,
        "seed": None if game.seed is None else game.seed.hex(),
        "deals": None if game.deals is None else [[c.name for c in d] for d in game.deals],
    }
    if game.record:
        setup[RECORD_KEY] = True
    return setup


def game_from_setup(setup: Mapping[str, Any]) -> SixtySixGame:
    """The first state of the game ``setup`` describes (:func:`game_setup`'s form; ``seed`` may
    also be bytes). Raises what :func:`game_rules` and :func:`new_game` raise, and ValueError for a
    setup of another shape (a seat count other than 2, a seed that is not hex)."""
    options = setup.get("options")
    if not isinstance(options, Mapping):
        raise ValueError(f"a setup's options are a mapping, not {options!r}")
    check_seats(setup.get("seats"))
    profile, rules = game_rules(options)
    seed = setup.get("seed")
    if isinstance(seed, str):
        seed = bytes.fromhex(seed)
    dealer: Any = setup.get("dealer")  # new_game refuses anything but seat 0 or 1
    record = setup.get(RECORD_KEY, False)
    if not isinstance(record, bool):
        raise ValueError(f"a setup's record is true or false, not {record!r}")
    return new_game(
        rules, profile=profile, first_dealer=dealer, seed=seed, deals=setup.get("deals"), record=record
    )


def check_seats(seats: object) -> None:
    """Raises ValueError unless ``seats`` is 2: the 66 family is a game for two (the callers ask
    the contract's ``seat_range``; no user chooses this number)."""
    if seats != SEATS or isinstance(seats, bool):
        raise ValueError(f"Snapszer is played by {SEATS} seats, not {seats!r}")


def deal_for(rules: SixtySixRules, seed: bytes, number: int) -> tuple[Card, ...]:
    """The deck order of hand ``number`` (from 1) dealt from ``seed``: the pack in :func:`deck`
    order shuffled by :func:`games.engine.dealing.shuffled` with context ``b"hand:<number>"``."""
    return dealing.shuffled(deck(rules.deck_size), seed, b"hand:%d" % number)


def parse_deal(rules: SixtySixRules, names: object, number: int) -> tuple[Card, ...]:
    """A recorded deal (card names) as cards. Raises InvalidAction("bad_deal") unless it is the
    profile's whole pack, each card once."""
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise InvalidAction(ActionCode.BAD_DEAL, f"deal {number} is not a list of card names")
    try:
        cards = tuple(parse_card(name) if isinstance(name, str) else _not_a_name(name) for name in names)
    except ValueError as exc:
        raise InvalidAction(ActionCode.BAD_DEAL, f"deal {number}: {exc}") from None
    if not is_pack(cards, rules.deck_size):
        raise InvalidAction(
            ActionCode.BAD_DEAL, f"deal {number} is not the {rules.deck_size}-card pack, each card once"
        )
    return cards


def _not_a_name(value: object) -> Card:
    raise ValueError(f"{value!r} is not a card name")


def new_game(
    rules: SixtySixRules,
    *,
    profile: str,
    first_dealer: Seat,
    seed: bytes | None = None,
    deals: Sequence[Sequence[str]] | None = None,
    record: bool = False,
) -> SixtySixGame:
    """A match at 0-0 with hand 1 dealt by ``first_dealer`` (X4), from ``seed`` or the first of
    ``deals`` (exactly one is given). ``record``: the game is a record of ``deals``' hands (the
    module doc); it needs ``deals`` (ValueError otherwise).

    Raises InvalidRules (``match_no_match``) for a profile without a match, InvalidAction
    (``no_such_seat``) for a dealer other than 0 or 1, InvalidAction (``bad_deal``) unless every
    recorded deal is the profile's pack, and ValueError for a missing, doubled or empty deal source.
    """
    match = new_match(rules, 0)  # InvalidRules for single-hand profiles, before anything else
    if first_dealer not in (0, 1) or isinstance(first_dealer, bool):
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"dealer must be seat 0 or 1, not {first_dealer!r}")
    match = replace(match, dealer=first_dealer)
    if (seed is None) == (deals is None):
        raise ValueError("give exactly one of seed and deals")
    if record and deals is None:
        raise ValueError("a record is made of recorded deals, not a seed")
    recorded: tuple[tuple[Card, ...], ...] | None = None
    if deals is not None:
        recorded = tuple(parse_deal(rules, names, number) for number, names in enumerate(deals, 1))
        if not recorded:
            raise InvalidAction(ActionCode.BAD_DEAL, "no recorded deal for hand 1")
        first = recorded[0]
    else:
        if not isinstance(seed, bytes) or not seed:
            raise ValueError("a seed is non-empty bytes")
        first = deal_for(rules, seed, 1)
    return SixtySixGame(
        rules=rules,
        profile=profile,
        first_dealer=first_dealer,
        seed=seed,
        deals=recorded,
        match=match,
        hands=(),
        hand=new_hand(rules, first, first_dealer),
        record=record,
    )


def game_legal_actions(game: SixtySixGame, seat: Seat) -> list[Action]:
    """The legal actions of ``seat`` in the hand in play (none once the match is over).
    Raises InvalidAction("no_such_seat")."""
    return legal_actions(game.hand, seat)


def game_apply(game: SixtySixGame, action: Action) -> tuple[SixtySixGame, list[GameEvent]]:
    """The game after ``action`` and what happened; ``game`` is not changed.

    An action that ends a hand also scores it into the match and deals the next hand (see the
    module doc). Raises InvalidAction ("no_such_seat"; "bad_deal" when the recorded deals run out
    before the match is decided) and IllegalAction ("game_over" once the match is over, and the
    hand's own "not_your_turn", "not_legal").
    """
    if game.is_terminal:
        legal_actions(game.hand, action.seat)  # InvalidAction for a seat outside the table first
        raise IllegalAction(ActionCode.GAME_OVER, f"{action} after the match (or the record) ended")
    hand, hand_events = apply(game.hand, action)
    events: list[GameEvent] = list(hand_events)
    result = hand.result
    if result is None:
        return replace(game, hand=hand), events
    match = match_apply(game.match, result)
    hands = (*game.hands, result)
    number = len(hands)
    events.append(MatchScored(number, match.scores, match.games_won, match.pot))
    if match.winner is not None:
        events.append(MatchEnded(match.winner, match.game_scores))
        return replace(game, match=match, hands=hands, hand=hand), events
    if game.record and game.deals is not None and number >= len(game.deals):
        return replace(game, match=match, hands=hands, hand=hand), events  # the record ends here
    nxt = new_hand(game.rules, _deal(game, number + 1), match.dealer)
    assert nxt.trump_card is not None  # a new hand always shows its trump card
    events.append(HandDealt(number + 1, match.dealer, nxt.trump_card))
    return replace(game, match=match, hands=hands, hand=nxt), events


def _deal(game: SixtySixGame, number: int) -> tuple[Card, ...]:
    if game.seed is not None:
        return deal_for(game.rules, game.seed, number)
    assert game.deals is not None
    if number > len(game.deals):
        raise InvalidAction(
            ActionCode.BAD_DEAL, f"no recorded deal for hand {number} ({len(game.deals)} deals recorded)"
        )
    return game.deals[number - 1]


def game_result(game: SixtySixGame) -> MatchResult | None:
    """The finished match (every hand and the winner), or None while it is being played."""
    if game.match.winner is None:
        return None
    return MatchResult.of(game.rules, game.first_dealer, game.hands)


# --- views --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameView:
    """What ``seat`` (None: a spectator) sees of a match: the match score, every finished hand's
    result (all public), and the view of the hand in play. ``to_dict()`` is the form sent to clients."""

    seat: Seat | None
    hand_number: int
    match: MatchState
    hands: tuple[HandResult, ...]
    hand: PlayerView | TableView

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand_number": self.hand_number,
            "match": self.match.to_dict(),
            "hands": [h.to_dict() for h in self.hands],
            "hand": self.hand.to_dict(),
        }


def game_observe(game: SixtySixGame, seat: Seat | None) -> GameView:
    """Everything ``seat`` may know (None: what the table shows a spectator), nothing more.
    Raises InvalidAction("no_such_seat") for a seat other than 0, 1 or None."""
    if seat is None:
        hand_view: PlayerView | TableView = spectate(game.hand)
    elif seat in (0, 1) and not isinstance(seat, bool):
        hand_view = observe(game.hand, seat)
    else:
        raise InvalidAction(ActionCode.NO_SUCH_SEAT, f"seat must be 0, 1 or None, not {seat!r}")
    return GameView(seat, game.hand_number, game.match, game.hands, hand_view)


__all__ = [
    "PROFILE_KEY",
    "RECORD_KEY",
    "SEATS",
    "GameEvent",
    "GameView",
    "HandDealt",
    "MatchEnded",
    "MatchScored",
    "SixtySixGame",
    "check_seats",
    "deal_for",
    "game_apply",
    "game_from_setup",
    "game_legal_actions",
    "game_observe",
    "game_options",
    "game_result",
    "game_rules",
    "game_setup",
    "new_game",
    "parse_deal",
]
