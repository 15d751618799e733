"""Snapshots: a hand or a whole match as compact JSON, and back (the engine contract's cache).

A snapshot holds only plain JSON (dicts, lists, strings, whole numbers, booleans, None), cards by
name. ``from_snapshot(to_snapshot(s))`` plays on exactly as ``s`` does. It holds the hidden cards
and the seed: the server's cache, never sent to a player.

**What it holds, and its bound.**

- The hand in play (:func:`hand_to_snapshot`): every field of :class:`SixtySixState` but the rules.
  Each card of the pack is in exactly one place (hands, stock, trump card, card led, tricks), at
  most 12 tricks are played, at most 4 marriages shown (one per suit) and 1 trump exchange made:
  bounded by the pack, whatever the actions.
- The match's setup (:func:`~games.engine.sixtysix.game.game_setup`): the options as changes to the
  profile, the first dealer, the seed (or the recorded deals, which are the game's input: their
  size is fixed when the game starts).
- The results of the finished hands, one short list each (:func:`result_to_list`), because the
  match's result (:class:`~games.engine.sixtysix.match.MatchResult`) is made of them and the result
  service records them. The match state (scores, pot, games won, dealer) is *not* stored: it is the
  fold of those results (``match_fold``), recomputed on reading, so it cannot disagree with them.

The hand list is the only part that grows, by one entry per hand, never per action. A hand with a
winner gives at least 1 game point and a game ends when a seat reaches the target ``T``, so a game
has at most ``2T - 1`` such hands and a match won by ``G`` games at most ``(2G - 1)(2T - 1)``: 13 for
`snapszer`, `schnapsen` and `sixty-six`, 21 for `santase` (to 11), 39 for `snapszer-hu` (two games
of 7). Only a tied hand gives nobody a point (X29: the pot in `snapszer`, a redeal in `sixty-six` and
`santase`); ties need exactly equal points and are rare (measured in the property tests), so the
bound in practice is those numbers plus a few ties. docs/sixtysix-engine.md gives the byte sizes.

Reading checks the shape and that the hand holds each card of the pack once, and raises
:class:`InvalidSnapshot` (a ValueError) otherwise: a damaged cache is rebuilt from the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from games.engine.cards import Suit
from games.engine.errors import ActionError, InvalidRules, InvalidSnapshot
from games.engine.sixtysix.cards import Card, is_pack, parse_card
from games.engine.sixtysix.game import SixtySixGame, game_from_setup, game_setup
from games.engine.sixtysix.match import match_fold
from games.engine.sixtysix.rules import SixtySixRules
from games.engine.sixtysix.state import (
    ClosingSnapshot,
    ExchangeRecord,
    HandResult,
    MarriageRecord,
    Phase,
    Reason,
    SixtySixState,
    Trick,
)

VERSION: Final = 1


# --- writing ------------------------------------------------------------------------------------


def _name(card: Card | None) -> str | None:
    return None if card is None else card.name


def _names(cards: tuple[Card, ...]) -> list[str]:
    return [c.name for c in cards]


def result_to_list(result: HandResult) -> list[Any]:
    """A hand's result as ``[winner, game_points, reason, detail, points0, points1, card_points0,
    card_points1, tricks0, tricks1]``."""
    return [
        result.winner,
        result.game_points,
        result.reason.value,
        result.detail,
        *result.points,
        *result.card_points,
        *result.tricks,
    ]


def hand_to_snapshot(state: SixtySixState) -> dict[str, Any]:
    """One hand as compact JSON (its rules are not included: the caller knows them)."""
    closing = state.closing
    return {
        "dealer": state.dealer,
        "trump_suit": state.trump_suit.value,
        "hands": [_names(state.hands[0]), _names(state.hands[1])],
        "stock": _names(state.stock),
        "trump_card": _name(state.trump_card),
        "closing": None if closing is None else list(closing),
        "phase": state.phase.value,
        "leader": state.leader,
        "lead_card": _name(state.lead_card),
        "lead_marriage": state.lead_marriage,
        "tricks": [[t.leader, t.lead.name, t.follow.name, t.winner] for t in state.tricks],
        "card_points": list(state.card_points),
        "trick_counts": list(state.trick_counts),
        "marriage_points": list(state.marriage_points),
        "pending_marriage": list(state.pending_marriage),
        "marriages": [[m.seat, m.suit.value, m.points, m.trick] for m in state.marriages],
        "exchanges": [[e.seat, e.given.name, e.taken.name, e.trick] for e in state.exchanges],
        "bonus": list(state.bonus),
        "bidder": state.bidder,
        "bid_turn": state.bid_turn,
        "passed": list(state.passed),
        "result": None if state.result is None else result_to_list(state.result),
    }


def game_to_snapshot(game: SixtySixGame) -> dict[str, Any]:
    """A match as compact JSON: version, setup, the finished hands' results, the hand in play."""
    return {
        "v": VERSION,
        "setup": game_setup(game),
        "hands": [result_to_list(r) for r in game.hands],
        "hand": hand_to_snapshot(game.hand),
    }


# --- reading ------------------------------------------------------------------------------------


def _fail(where: str, what: str, value: object) -> InvalidSnapshot:
    return InvalidSnapshot(f"snapshot {where}: {what}, not {value!r}")


def _int(value: object, where: str, low: int = 0, high: int = 1 << 20) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(where, f"a whole number from {low} to {high}", value)
    return value


def _seat(value: object, where: str) -> int:
    return _int(value, where, 0, 1)


def _seat_or_none(value: object, where: str) -> int | None:
    return None if value is None else _seat(value, where)


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, "text", value)
    return value


def _list(value: object, where: str, size: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _fail(where, "a list" if size is None else f"a list of {size}", value)
    return value


def _pair(value: object, where: str) -> tuple[int, int]:
    a, b = _list(value, where, 2)
    return (_int(a, where), _int(b, where))


def _card(value: object, where: str) -> Card:
    try:
        return parse_card(_str(value, where))
    except ValueError:
        raise _fail(where, "a card name", value) from None


def _card_or_none(value: object, where: str) -> Card | None:
    return None if value is None else _card(value, where)


def _cards(value: object, where: str) -> tuple[Card, ...]:
    return tuple(_card(v, where) for v in _list(value, where))


def _enum[E: (Phase, Reason, Suit)](kind: type[E], value: object, where: str) -> E:
    try:
        return kind(_str(value, where))
    except ValueError:
        raise _fail(where, f"one of {', '.join(m.value for m in kind)}", value) from None


def result_from_list(value: object, where: str = "result") -> HandResult:
    """The hand result :func:`result_to_list` wrote. Raises InvalidSnapshot."""
    winner, game_points, reason, detail, p0, p1, c0, c1, t0, t1 = _list(value, where, 10)
    return HandResult(
        winner=_seat_or_none(winner, where),
        game_points=_int(game_points, where),
        reason=_enum(Reason, reason, where),
        detail=_str(detail, where),
        points=(_int(p0, where), _int(p1, where)),
        card_points=(_int(c0, where), _int(c1, where)),
        tricks=(_int(t0, where), _int(t1, where)),
    )


def _get(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise InvalidSnapshot(f"snapshot {where}: {key!r} is missing")
    return data[key]


def hand_from_snapshot(rules: SixtySixRules, data: object) -> SixtySixState:
    """The hand :func:`hand_to_snapshot` wrote, under ``rules``. Raises InvalidSnapshot."""
    if not isinstance(data, Mapping):
        raise _fail("hand", "a mapping", data)

    def get(key: str) -> Any:
        return _get(data, key, "hand")

    closing = get("closing")
    hands = _list(get("hands"), "hands", 2)
    state = SixtySixState(
        rules=rules,
        dealer=_seat(get("dealer"), "dealer"),
        trump_suit=_enum(Suit, get("trump_suit"), "trump_suit"),
        hands=(_cards(hands[0], "hands"), _cards(hands[1], "hands")),
        stock=_cards(get("stock"), "stock"),
        trump_card=_card_or_none(get("trump_card"), "trump_card"),
        closing=None if closing is None else _closing(closing),
        phase=_enum(Phase, get("phase"), "phase"),
        leader=_seat(get("leader"), "leader"),
        lead_card=_card_or_none(get("lead_card"), "lead_card"),
        lead_marriage=_bool(get("lead_marriage"), "lead_marriage"),
        tricks=tuple(_trick(t) for t in _list(get("tricks"), "tricks")),
        card_points=_pair(get("card_points"), "card_points"),
        trick_counts=_pair(get("trick_counts"), "trick_counts"),
        marriage_points=_pair(get("marriage_points"), "marriage_points"),
        pending_marriage=_pair(get("pending_marriage"), "pending_marriage"),
        marriages=tuple(_marriage(m) for m in _list(get("marriages"), "marriages")),
        exchanges=tuple(_exchange(e) for e in _list(get("exchanges"), "exchanges")),
        bonus=_pair(get("bonus"), "bonus"),
        bidder=_seat_or_none(get("bidder"), "bidder"),
        bid_turn=_seat_or_none(get("bid_turn"), "bid_turn"),
        passed=_passed(get("passed")),
        result=None if get("result") is None else result_from_list(get("result")),
    )
    if not is_pack(state.all_cards(), rules.deck_size):
        raise InvalidSnapshot(f"snapshot hand: the cards are not the {rules.deck_size}-card pack, each once")
    if (state.phase is Phase.OVER) != (state.result is not None):
        raise InvalidSnapshot("snapshot hand: a result exactly when the hand is over")
    return state


def _closing(value: object) -> ClosingSnapshot:
    closer, played, tricks, measure = _list(value, "closing", 4)
    return ClosingSnapshot(
        _seat(closer, "closing"), _int(played, "closing"), _int(tricks, "closing"), _int(measure, "closing")
    )


def _trick(value: object) -> Trick:
    leader, lead, follow, winner = _list(value, "tricks", 4)
    return Trick(
        _seat(leader, "tricks"), _card(lead, "tricks"), _card(follow, "tricks"), _seat(winner, "tricks")
    )


def _marriage(value: object) -> MarriageRecord:
    seat, suit, points, trick = _list(value, "marriages", 4)
    return MarriageRecord(
        _seat(seat, "marriages"),
        _enum(Suit, suit, "marriages"),
        _int(points, "marriages"),
        _int(trick, "marriages"),
    )


def _exchange(value: object) -> ExchangeRecord:
    seat, given, taken, trick = _list(value, "exchanges", 4)
    return ExchangeRecord(
        _seat(seat, "exchanges"),
        _card(given, "exchanges"),
        _card(taken, "exchanges"),
        _int(trick, "exchanges"),
    )


def _passed(value: object) -> tuple[bool, bool]:
    a, b = _list(value, "passed", 2)
    return (_bool(a, "passed"), _bool(b, "passed"))


def game_from_snapshot(data: object) -> SixtySixGame:
    """The match :func:`game_to_snapshot` wrote. Raises InvalidSnapshot."""
    if not isinstance(data, Mapping):
        raise _fail("", "a mapping", data)
    if data.get("v") != VERSION:
        raise InvalidSnapshot(f"snapshot version {data.get('v')!r}: this engine reads version {VERSION}")
    setup = _get(data, "setup", "")
    if not isinstance(setup, Mapping):
        raise _fail("setup", "a mapping", setup)
    try:
        start = game_from_setup(setup)
    except (InvalidRules, ActionError, ValueError) as exc:
        raise InvalidSnapshot(f"snapshot setup: {exc}") from None
    hands = tuple(result_from_list(r, "hands") for r in _list(_get(data, "hands", ""), "hands"))
    try:
        match = match_fold(start.rules, start.first_dealer, hands)
    except ActionError as exc:
        raise InvalidSnapshot(f"snapshot hands: not a match ({exc})") from None
    hand = hand_from_snapshot(start.rules, _get(data, "hand", ""))
    over = match.winner is not None or (start.record and len(hands) >= len(start.deals or ()))
    if not over:
        if hand.result is not None or hand.dealer != match.dealer:
            raise InvalidSnapshot("snapshot hand: the hand in play is over, or dealt by the wrong seat")
    elif hand.result != hands[-1]:
        raise InvalidSnapshot("snapshot hand: the game is over, but its last hand is not the one held")
    game = SixtySixGame(
        rules=start.rules,
        profile=start.profile,
        first_dealer=start.first_dealer,
        seed=start.seed,
        deals=start.deals,
        match=match,
        hands=hands,
        hand=hand,
        record=start.record,
    )
    if game.deals is not None and len(game.deals) < game.hand_number:
        raise InvalidSnapshot(f"snapshot setup: {len(game.deals)} recorded deals for hand {game.hand_number}")
    return game


__all__ = [
    "VERSION",
    "InvalidSnapshot",
    "game_from_snapshot",
    "game_to_snapshot",
    "hand_from_snapshot",
    "hand_to_snapshot",
    "result_from_list",
    "result_to_list",
]
