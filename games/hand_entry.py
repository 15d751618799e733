"""A Snapszer hand played at a table, entered card by card (issue 17; docs/analysis.md, "Hands
entered card by card").

The entry is a fold, like every game here: a **deal** (profile, dealer, each seat's cards, the
trump card turned up, the talon's order as far as it is known) and the **actions** so far. Nothing
is kept on the server while it is entered: the page (a hidden field) and the API client send the
deal and the actions with every step, and :func:`hand_position_get` replays them through the
engine from the start, so every step is validated as a whole and nothing half-valid is stored.
:func:`hand_entry_save` stores a finished hand as a finished ``OnlineGame`` (``source`` HAND, the
deal as its recorded setup, the actions as its log), which the replay and the analysis read like
any online game.

The talon's order: the cards drawn, top first, as far as the user knows them; the cards not
entered are put under them in the pack's order ("the rest, in any order"). A hand whose talon was
closed (or that ended) before those cards were drawn does not depend on their order (after a close
nobody draws: X19); a draw that would reach a card not entered is refused with a field error on
the talon, so a record never depends on a made-up order.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.errors import ActionError
from games.engine.protocol import GameKind
from games.engine.sixtysix.actions import Action, action_from_dict
from games.engine.sixtysix.cards import deck, parse_card
from games.engine.sixtysix.game import (
    SixtySixGame,
    game_apply,
    game_from_setup,
    game_legal_actions,
    game_setup,
)
from games.engine.sixtysix.rules import PROFILES
from games.engine.sixtysix.state import Phase
from games.models import GameLogEntry, OnlineGame, OnlineSeat
from games.online.replay import card_words, describe, named
from games.online.tables import snapszer_event_words
from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied

# The profiles a hand can be entered in: those with a match (the online lobby's).
ENTRY_PROFILES: Final[tuple[str, ...]] = tuple(name for name, rules in PROFILES.items() if rules.match)
MAX_ACTIONS: Final = 80  # far more than a hand has (12 tricks, a few declarations): a bound on input

BAD_DEAL = gettext_lazy("The deal is not right: see the fields marked.")
ILLEGAL = gettext_lazy("Step %(step)s cannot be played here: %(reason)s")
TALON_UNKNOWN = gettext_lazy(
    "Step %(step)s draws a card of the talon you have not entered: enter the talon's order further "
    "(change the deal) to go on."
)
NOT_OVER = gettext_lazy("The hand is not over yet: only a finished hand can be saved.")
NO_SUCH_TABLE_GAME = gettext_lazy("There is no such game.")
NOT_SNAPSZER = gettext_lazy("Hands can only be entered for Snapszer games.")
PLAYED_ONLINE = gettext_lazy("This game was played online: its replay already has every card.")
NOT_ALLOWED = gettext_lazy("Only an organiser of the club or the game's players may enter its hands.")
TOO_MANY_ACTIONS = gettext_lazy("A hand has fewer steps than that.")

# A button's words for each action type (the card's words for a card).
BUTTONS: Final[dict[str, Promise]] = {
    "play": gettext_lazy("Play %(card)s"),
    "marriage": gettext_lazy("Show the marriage, lead %(card)s"),
    "exchange": gettext_lazy("Exchange the trump card"),
    "close": gettext_lazy("Close the stock"),
    "draw": gettext_lazy("Draw"),
    "declare": gettext_lazy("Declare 66"),
    "bid": gettext_lazy("Bid Snapszer"),
    "pass": gettext_lazy("Pass"),
}


@dataclass(frozen=True)
class HandDeal:
    """A deal as entered: card names, ``talon`` the stock's cards from the top as far as known."""

    profile: str
    dealer: int
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    trump: str
    talon: tuple[str, ...] = ()

    @property
    def rules(self) -> Any:
        return PROFILES[self.profile]

    def deck_order(self) -> list[str]:
        """The pack in the engine's dealing order (``new_hand``: 24 cards 3 to the non-dealer, 3 to
        the dealer, 3 and 3 again, the trump card, the stock top first; 20 cards 3, 3, the trump
        card, 2, 2, the stock), the talon's unknown cards under the entered ones in pack order."""
        size = self.rules.deck_size
        nd, d = self.hands[1 - self.dealer], self.hands[self.dealer]
        placed = {*self.hands[0], *self.hands[1], self.trump, *self.talon}
        rest = [c.name for c in deck(size) if c.name not in placed]
        stock = [*self.talon, *rest]
        if size == 24:
            return [*nd[:3], *d[:3], *nd[3:], *d[3:], self.trump, *stock]
        return [*nd[:3], *d[:3], self.trump, *nd[3:], *d[3:], *stock]

    def setup(self) -> dict[str, Any]:
        return {
            "options": {"profile": self.profile},
            "seats": 2,
            "dealer": self.dealer,
            "seed": None,
            "deals": [self.deck_order()],
            "record": True,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "dealer": self.dealer,
            "hand_0": list(self.hands[0]),
            "hand_1": list(self.hands[1]),
            "trump": self.trump,
            "talon": list(self.talon),
        }


def _names(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [v for v in value.replace(",", " ").split() if v]
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return [v for v in value if v]
    return None


def hand_deal_parse(
    *,
    profile: object,
    dealer: object,
    hand_0: object,
    hand_1: object,
    trump: object,
    talon: object = (),
) -> HandDeal:
    """The deal the fields describe (card names as lists, or one string of names). Raises
    ApplicationError ``bad_deal`` (400) with an error on every field that is wrong: an unknown
    profile or dealer, a card that is not in the profile's pack, a seat without exactly its hand's
    number of cards, no trump card, a talon longer than the stock, and every card chosen twice."""
    fields: dict[str, list[str]] = {}

    def wrong(name: str, message: str) -> None:
        fields.setdefault(name, []).append(message)

    if not isinstance(profile, str) or profile not in ENTRY_PROFILES:
        wrong("profile", _("Choose one of the rules offered."))
        profile = ENTRY_PROFILES[0]  # to check the cards anyway
    if isinstance(dealer, str) and dealer.isdigit():
        dealer = int(dealer)
    if dealer not in (0, 1) or isinstance(dealer, bool):
        wrong("dealer", _("Choose the seat that dealt."))
        dealer = 0
    rules = PROFILES[profile]
    pack = {c.name for c in deck(rules.deck_size)}
    given: dict[str, list[str]] = {}
    cards: dict[str, list[str]] = {}
    for name, value in (("hand_0", hand_0), ("hand_1", hand_1), ("trump", trump), ("talon", talon)):
        names = _names([] if value is None else value)
        if names is None:
            wrong(name, _("Choose cards from the list."))
            names = []
        checked = []
        for card_name in names:
            try:
                card = parse_card(card_name).name
            except ValueError:
                wrong(name, _("%(card)s is not a card.") % {"card": card_name})
                continue
            if card not in pack:
                wrong(
                    name,
                    _("%(card)s is not in the %(size)s-card pack.")
                    % {"card": card_words(card, GameKind.SNAPSZER), "size": rules.deck_size},
                )
                continue
            checked.append(card)
            given.setdefault(card, []).append(name)
        cards[name] = checked
    for seat, name in enumerate(("hand_0", "hand_1")):
        if len(cards[name]) != rules.hand_size and name not in fields:
            wrong(
                name,
                _("Seat %(seat)s holds %(size)s cards, not %(count)s.")
                % {"seat": seat + 1, "size": rules.hand_size, "count": len(cards[name])},
            )
    if len(cards["trump"]) != 1 and "trump" not in fields:
        wrong("trump", _("Choose the one card turned up as trump."))
    stock = rules.deck_size - 2 * rules.hand_size - 1
    if len(cards["talon"]) > stock:
        wrong("talon", _("The talon has %(size)s cards under the trump card.") % {"size": stock})
    for card, places in given.items():
        if len(places) > 1:
            for place in dict.fromkeys(places):
                wrong(
                    place,
                    _("%(card)s is chosen more than once: each card is dealt once.")
                    % {"card": card_words(card, GameKind.SNAPSZER)},
                )
    if fields:
        raise ApplicationError(code="bad_deal", message=BAD_DEAL, fields=fields)
    assert isinstance(dealer, int)
    return HandDeal(
        profile=profile,
        dealer=dealer,
        hands=(tuple(cards["hand_0"]), tuple(cards["hand_1"])),
        trump=cards["trump"][0],
        talon=tuple(cards["talon"]),
    )


def hand_deal_from_dict(data: Mapping[str, Any]) -> HandDeal:
    """A deal from its ``to_dict()`` form (the page's hidden field, the API's fields)."""
    return hand_deal_parse(
        profile=data.get("profile"),
        dealer=data.get("dealer"),
        hand_0=data.get("hand_0"),
        hand_1=data.get("hand_1"),
        trump=data.get("trump"),
        talon=data.get("talon") or [],
    )


def hand_actions_parse(value: object) -> list[dict[str, Any]]:
    """The actions so far: a list of the engine's action forms (or its JSON text). Raises
    ApplicationError ``bad_actions`` (400, field ``actions``) for anything else."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except ValueError:
            value = None
    if not isinstance(value, list) or not all(isinstance(a, Mapping) for a in value):
        raise ApplicationError(
            code="bad_actions",
            message=_("The steps sent are not a list of moves."),
            fields={"actions": [_("Start the play again.")]},
        )
    if len(value) > MAX_ACTIONS:
        raise ApplicationError(
            code="bad_actions", message=TOO_MANY_ACTIONS, fields={"actions": [TOO_MANY_ACTIONS]}
        )
    return [dict(a) for a in value]


# --- the position ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A legal action of a seat, as the page's button shows it."""

    seat: int
    action: dict[str, Any]
    label: str

    @property
    def value(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))


@dataclass
class HandPosition:
    """The deal and the actions replayed: the engine's game, what the last step did, every legal
    action of each seat (the seat to move, and a declaration off move), and whether the hand is over."""

    deal: HandDeal
    actions: list[dict[str, Any]]
    game: SixtySixGame
    last: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.game.is_terminal

    @property
    def state(self) -> Any:
        return self.game.hand

    def to_dict(self, names: Sequence[str] = ()) -> dict[str, Any]:
        hand = self.state
        result = hand.result
        return {
            "deal": self.deal.to_dict(),
            "actions": self.actions,
            "over": self.over,
            "phase": hand.phase.value,
            "to_move": None if self.over else _to_move(hand),
            "trump_suit": hand.trump_suit.value,
            "trump_card": hand.trump_card.name if hand.trump_card else None,
            "stock": [c.name for c in hand.stock],
            "closed": hand.closing is not None,
            "lead_card": hand.lead_card.name if hand.lead_card else None,
            "seats": [
                {
                    "seat": seat,
                    "name": named(list(names), seat) if names else "",
                    "hand": [c.name for c in hand.hands[seat]],
                    "points": hand.card_points[seat] + hand.marriage_points[seat],
                    "tricks": hand.trick_counts[seat],
                }
                for seat in (0, 1)
            ],
            "legal": [{"seat": c.seat, "action": c.action, "label": c.label} for c in self.choices],
            "last": self.last,
            "result": None if result is None else result.to_dict(),
        }


def _to_move(hand: Any) -> int | None:
    if hand.phase is Phase.BIDDING:
        return int(hand.bid_turn) if hand.bid_turn is not None else None
    if hand.phase is Phase.FOLLOW:
        return 1 - int(hand.leader)
    if hand.phase is Phase.OVER:
        return None
    return int(hand.leader)


def button_words(action: Mapping[str, Any]) -> str:
    card = action.get("card")
    return str(BUTTONS[action["type"]]) % {"card": card_words(card, GameKind.SNAPSZER) if card else ""}


def hand_position_get(
    *, deal: HandDeal, actions: Sequence[Mapping[str, Any]], names: Sequence[str] = ()
) -> HandPosition:
    """Replay ``deal`` and ``actions`` through the engine. Raises ApplicationError (400, field
    ``actions``, ``extra.step`` the 1-based step) for the first action the engine refuses
    (``illegal_action``) or that draws a talon card not entered (``talon_unknown``, field
    ``talon`` too)."""
    labels = list(names) or [_("Seat 1"), _("Seat 2")]
    game = game_from_setup(deal.setup())  # hand_deal_parse checked every card: an error is a bug
    known = len(deal.talon)
    stock = len(game.hand.stock)
    last, events = "", []
    for step, data in enumerate(actions, 1):
        try:
            action: Action = action_from_dict(data)
            game, happened = game_apply(game, action)
        except ActionError as exc:
            from games.engine_messages import action_error_message

            message = ILLEGAL % {"step": step, "reason": action_error_message(exc)}
            raise ApplicationError(
                code="illegal_action", message=message, fields={"actions": [message]}, extra={"step": step}
            ) from None
        if stock - len(game.hand.stock) > known:
            message = TALON_UNKNOWN % {"step": step}
            raise ApplicationError(
                code="talon_unknown",
                message=message,
                fields={"actions": [message], "talon": [message]},
                extra={"step": step},
            )
        events = [e.to_dict() for e in happened]
        last = describe([snapszer_event_words(e, labels) for e in events])
    choices = []
    if not game.is_terminal:
        mover = _to_move(game.hand)
        for seat in sorted((0, 1), key=lambda s: s != mover):  # the seat to move first
            for legal in game_legal_actions(game, seat):
                form = legal.to_dict()
                choices.append(Choice(seat=seat, action=form, label=button_words(form)))
    return HandPosition(
        deal=deal, actions=[dict(a) for a in actions], game=game, last=last, events=events, choices=choices
    )


# --- the tournament game --------------------------------------------------------------------------


def table_game_for_entry(*, user: Any, table_game_id: int) -> Any:
    """Tournament game ``table_game_id``, if ``user`` may enter its hands: a Snapszer game that was
    played at a table (not online), and ``user`` an organiser of its club or linked to one of its
    series' players. Raises NotFound (no such game, or one ``user`` may not see), Conflict (not
    Snapszer, played online) or PermissionDenied."""
    from tournaments.access import user_is_organiser
    from tournaments.competitions.selectors.tournaments import games_visible

    game = (
        games_visible(user=user)
        .select_related("series__stage__tournament__club")
        .filter(pk=table_game_id)
        .first()
    )
    if game is None:
        raise NotFound(code="game_not_found", message=NO_SUCH_TABLE_GAME)
    tournament = game.series.stage.tournament
    if tournament.game != GameKind.SNAPSZER:
        raise Conflict(code="not_snapszer", message=NOT_SNAPSZER)
    if (
        game.results.filter(confirmed=True, engine_game__isnull=False).exists()
        or game.series.online_games.filter(game_number=game.number).exists()
    ):
        raise Conflict(code="played_online", message=PLAYED_ONLINE)
    player = user.is_authenticated and game.series.seats.filter(player__user_id=user.pk).exists()
    if not (player or user_is_organiser(user, tournament.club)):
        raise PermissionDenied(code="not_allowed", message=NOT_ALLOWED)
    return game


def table_game_seat_names(game: Any) -> list[str]:
    """A tournament game's players' names, seat by seat (its ``seats``: player ids in order)."""
    from tournaments.models import Player

    names = dict(Player.objects.filter(pk__in=game.seats).values_list("pk", "name"))
    return [names.get(int(p), "") for p in game.seats][:2]


# --- saving ---------------------------------------------------------------------------------------


def hand_entry_save(
    *,
    user: Any,
    deal: HandDeal,
    actions: Sequence[Mapping[str, Any]],
    table_game_id: int | None = None,
    names: Sequence[str] = (),
    my_seat: int | None = None,
) -> OnlineGame:
    """Store a finished hand as a finished ``OnlineGame`` entered by hand: the deal as a recorded
    setup, the actions as its log (the author's, arriving now), the seats' names, the tournament
    game when given (checked: :func:`table_game_for_entry`), and the author in ``my_seat`` when
    they played it. One transaction; raises what :func:`hand_position_get` raises, and Conflict
    ``hand_not_over`` for a hand not finished."""
    table_game = table_game_for_entry(user=user, table_game_id=table_game_id) if table_game_id else None
    labels = [str(n).strip()[:40] for n in names][:2]
    if table_game is not None:
        labels = table_game_seat_names(table_game)
    position = hand_position_get(deal=deal, actions=actions, names=labels)
    if not position.over:
        raise Conflict(code="hand_not_over", message=NOT_OVER, fields={"actions": [NOT_OVER]})
    if my_seat not in (None, 0, 1):
        raise ApplicationError(
            code="bad_seat",
            message=_("Choose your seat, or nobody."),
            fields={"my_seat": [_("Choose 1, 2 or nobody.")]},
        )
    users: dict[int, Any] = {}
    if table_game is not None:
        from tournaments.models import Player

        linked = dict(Player.objects.filter(pk__in=table_game.seats).values_list("pk", "user_id"))
        for seat, player in enumerate(table_game.seats[:2]):
            if linked.get(int(player)):
                users[seat] = linked[int(player)]
    elif my_seat is not None:
        users[my_seat] = user.pk
    result = position.game.hands[-1]
    now = timezone.now()
    with transaction.atomic():
        game = OnlineGame.objects.create(
            kind=GameKind.SNAPSZER,
            source=OnlineGame.Source.HAND,
            options={"profile": deal.profile},
            seat_count=2,
            dealer=deal.dealer,
            status=OnlineGame.Status.FINISHED,
            invite_token=secrets.token_urlsafe(32),  # never shown: nobody joins an entered hand
            created_by=user,
            table_game=table_game,
            seat_labels=labels,
            players=list(table_game.seats[:2]) if table_game is not None else [],
            setup=game_setup(position.game),
            version=len(actions),
            result={"hands": [result.to_dict()], "entered": True},
            started_at=now,
            finished_at=now,
        )
        OnlineSeat.objects.bulk_create(
            [OnlineSeat(game=game, number=seat, user_id=users.get(seat)) for seat in (0, 1)]
        )
        rows = []
        replayed = game_from_setup(deal.setup())
        for seq, data in enumerate(actions, 1):
            action = action_from_dict(data)
            replayed, events = game_apply(replayed, action)
            rows.append(
                GameLogEntry(
                    game=game,
                    seq=seq,
                    action=action.to_dict(),
                    seat=action.seat,
                    user=user,
                    received_at=now,
                    events=[e.to_dict() for e in events],
                )
            )
        GameLogEntry.objects.bulk_create(rows)
    return game
