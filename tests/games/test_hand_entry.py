"""Hands played at a table, entered card by card (games/hand_entry.py; docs/analysis.md, "Hands
entered card by card"): the deal's checks, the play replayed through the engine at every step,
undo, saving only a finished hand, the tournament link and who may make it, and the analysis of
a tournament game finding its entered hand."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import analysis as web_analysis
from games.analysis import table_game_analysis_request
from games.engine.protocol import GameKind
from games.engine.sixtysix.actions import action_from_dict
from games.engine.sixtysix.analysis import AnalysisBudget
from games.engine.sixtysix.cards import deck, parse_card
from games.engine.sixtysix.engine import apply, new_hand
from games.engine.sixtysix.rules import PROFILES
from games.engine.sixtysix.snapshot import game_to_snapshot, hand_to_snapshot
from games.hand_entry import (
    HandDeal,
    hand_deal_parse,
    hand_entry_save,
    hand_position_get,
)
from games.models import GameAnalysis, GameLogEntry, OnlineGame
from games.online.replay import replay_get
from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from tests.conftest import record_result, snapszer_win

pytestmark = pytest.mark.django_db

# Dealer seat 0, so seat 1 leads. Seat 1 holds the marriage in trumps (hearts: the jack is turned
# up), the ace and ten of hearts: it closes, shows the marriage (40), and takes three tricks.
SEAT_0 = ["9C", "JC", "QC", "KC", "9D", "JD"]
SEAT_1 = ["KH", "QH", "AH", "10H", "AC", "10C"]
QUICK = {"profile": "snapszer", "dealer": 0, "hand_0": SEAT_0, "hand_1": SEAT_1, "trump": "JH", "talon": []}
QUICK_PLAY = [
    {"type": "close", "seat": 1},
    {"type": "marriage", "seat": 1, "card": "KH"},
    {"type": "play", "seat": 0, "card": "9C"},
    {"type": "play", "seat": 1, "card": "AH"},
    {"type": "play", "seat": 0, "card": "JC"},
    {"type": "play", "seat": 1, "card": "10H"},
    {"type": "play", "seat": 0, "card": "QC"},
    {"type": "declare", "seat": 1},
]


def quick_deal(**changes: Any) -> HandDeal:
    return hand_deal_parse(**{**QUICK, **changes})


def field_errors(call: Any) -> dict[str, list[str]]:
    with pytest.raises(ApplicationError) as refused:
        call()
    return {k: [str(m) for m in v] for k, v in refused.value.fields.items()}


def shuffled_deal(seed: int) -> HandDeal:
    """A whole deal (every talon card entered) from a shuffled pack."""
    cards = [c.name for c in deck(24)]
    random.Random(seed).shuffle(cards)
    return hand_deal_parse(
        profile="snapszer",
        dealer=seed % 2,
        hand_0=cards[:6],
        hand_1=cards[6:12],
        trump=cards[12],
        talon=cards[13:],
    )


# --- the deal ---------------------------------------------------------------------------------------


def test_the_deal_goes_into_the_engines_deck_order_X5() -> None:
    deal = quick_deal(talon=["AS", "10S"])
    position = hand_position_get(deal=deal, actions=[])
    hand = position.state
    assert [c.name for c in hand.hands[0]] == SEAT_0  # the dealer's hand, as entered
    assert [c.name for c in hand.hands[1]] == SEAT_1
    assert hand.trump_card.name == "JH" and hand.trump_suit.value == "H"
    assert [c.name for c in hand.stock[:2]] == ["AS", "10S"]  # top first
    assert len(hand.stock) == 11 and position.choices[0].seat == 1  # the non-dealer leads (X6)


def test_a_20_card_deal_too() -> None:
    deal = hand_deal_parse(
        profile="snapszer-hu",
        dealer=1,
        hand_0=["AH", "10H", "KH", "QH", "JH"],
        hand_1=["AC", "10C", "KC", "QC", "JC"],
        trump="AD",
        talon=["10D"],
    )
    hand = hand_position_get(deal=deal, actions=[]).state
    assert [c.name for c in hand.hands[0]] == ["AH", "10H", "KH", "QH", "JH"]
    assert [c.name for c in hand.hands[1]] == ["AC", "10C", "KC", "QC", "JC"]
    assert hand.trump_card.name == "AD" and hand.stock[0].name == "10D" and len(hand.stock) == 9


def test_a_card_twice_is_marked_on_every_field_holding_it() -> None:
    errors = field_errors(lambda: quick_deal(trump="AH"))
    assert set(errors) == {"hand_1", "trump"}
    assert "ace of hearts is chosen more than once" in errors["trump"][0]
    errors = field_errors(lambda: quick_deal(talon=["AS", "AS"]))
    assert list(errors) == ["talon"]


def test_a_missing_card_or_a_wrong_count_is_refused_per_seat() -> None:
    errors = field_errors(lambda: quick_deal(hand_0=SEAT_0[:5]))
    assert errors == {"hand_0": ["Seat 1 holds 6 cards, not 5."]}
    errors = field_errors(lambda: quick_deal(hand_1=[*SEAT_1, "AS"]))
    assert errors == {"hand_1": ["Seat 2 holds 6 cards, not 7."]}
    assert "trump" in field_errors(lambda: quick_deal(trump=""))
    assert "talon" in field_errors(lambda: quick_deal(talon=[c.name for c in deck(24)][:12]))


def test_cards_outside_the_pack_rules_and_dealer_are_refused() -> None:
    errors = field_errors(lambda: quick_deal(profile="snapszer-hu"))  # 9s and 6 cards: the 20-card pack
    assert any("not in the 20-card pack" in m for m in errors["hand_0"])
    errors = field_errors(lambda: quick_deal(profile="no-such", dealer=2, hand_0=["XX", *SEAT_0[1:]]))
    assert {"profile", "dealer", "hand_0"} <= set(errors)


# --- the play ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_hand_gives_the_engines_own_replay(seed: int) -> None:
    deal = shuffled_deal(seed)
    rng = random.Random(seed)
    actions: list[dict[str, Any]] = []
    position = hand_position_get(deal=deal, actions=actions)
    while not position.over:
        mover = [c for c in position.choices if c.seat == position.choices[0].seat]
        actions.append(rng.choice(mover).action)
        position = hand_position_get(deal=deal, actions=actions)
    # The engine's own hand: dealt from the same deck order, the same actions applied.
    state = new_hand(PROFILES["snapszer"], [parse_card(c) for c in deal.deck_order()], deal.dealer)
    for data in actions:
        state, _events = apply(state, action_from_dict(data))
    assert position.state.result == state.result is not None  # who won, the points and tricks
    assert hand_to_snapshot(position.state) == hand_to_snapshot(state)
    assert position.game.is_terminal and position.choices == []


def test_an_illegal_action_is_a_field_error_with_its_step() -> None:
    actions = [*QUICK_PLAY[:2], {"type": "play", "seat": 0, "card": "AH"}]  # seat 0 has no ace of hearts
    with pytest.raises(ApplicationError) as refused:
        hand_position_get(deal=quick_deal(), actions=actions)
    assert refused.value.code == "illegal_action" and refused.value.extra == {"step": 3}
    assert "Step 3 cannot be played here" in str(refused.value.fields["actions"][0])
    with pytest.raises(ApplicationError) as refused:  # not a move at all
        hand_position_get(deal=quick_deal(), actions=[{"type": "fly", "seat": 1}])
    assert refused.value.code == "illegal_action"


def test_a_draw_past_the_talon_entered_is_refused_X11() -> None:
    lead = [{"type": "play", "seat": 1, "card": "AC"}, {"type": "play", "seat": 0, "card": "9D"}]
    with pytest.raises(ApplicationError) as refused:
        hand_position_get(deal=quick_deal(), actions=lead)  # the trick's cards are drawn: none entered
    assert refused.value.code == "talon_unknown" and set(refused.value.fields) == {"actions", "talon"}
    position = hand_position_get(deal=quick_deal(talon=["AS", "10S"]), actions=lead)
    assert [c.name for c in position.state.hands[1]][-1] == "AS"  # the trick's winner draws first


def test_undo_is_the_same_steps_without_the_last() -> None:
    deal = quick_deal()
    before = hand_position_get(deal=deal, actions=QUICK_PLAY[:3])
    after = hand_position_get(deal=deal, actions=QUICK_PLAY[:4])
    undone = hand_position_get(deal=deal, actions=after.actions[:-1])
    assert game_to_snapshot(undone.game) == game_to_snapshot(before.game)


def test_an_early_declaration_ends_the_hand_X24() -> None:
    position = hand_position_get(deal=quick_deal(), actions=QUICK_PLAY)
    assert position.over
    result = position.state.result
    assert result.winner == 1 and result.reason.value == "declared" and result.points[1] == 70


# --- saving -----------------------------------------------------------------------------------------


def test_only_a_finished_hand_is_saved_and_nothing_else_is_stored(make_user: Any) -> None:
    anna = make_user("anna")
    with pytest.raises(Conflict) as refused:
        hand_entry_save(user=anna, deal=quick_deal(), actions=QUICK_PLAY[:-1])
    assert refused.value.code == "hand_not_over"
    with pytest.raises(ApplicationError):
        hand_entry_save(
            user=anna,
            deal=quick_deal(),
            actions=[{"type": "declare", "seat": 0}, {"type": "pass", "seat": 1}],
        )
    assert not OnlineGame.objects.exists() and not GameLogEntry.objects.exists()


def test_a_saved_hand_is_a_finished_game_its_replay_reads(make_user: Any) -> None:
    anna = make_user("anna")
    game = hand_entry_save(
        user=anna, deal=quick_deal(), actions=QUICK_PLAY, names=["Anna", "Béla"], my_seat=1
    )
    assert game.source == OnlineGame.Source.HAND and game.status == OnlineGame.Status.FINISHED
    assert (
        game.server_seed == ""
        and game.setup["record"] is True
        and game.setup["deals"] == [quick_deal().deck_order()]
    )
    assert list(game.log.values_list("action", flat=True)) == QUICK_PLAY
    assert game.seats.get(number=1).user == anna
    _game, replay = replay_get(user=anna, game_id=game.pk, viewer="all")
    assert len(replay.steps) == len(QUICK_PLAY) + 1
    assert "Béla declares 66" in replay.steps[-1].text
    # Private: another user does not find it.
    with pytest.raises(NotFound):
        replay_get(user=make_user("bence"), game_id=game.pk, viewer=None)


def test_entered_hands_are_not_online_games(make_user: Any) -> None:
    anna = make_user("anna")
    game = hand_entry_save(user=anna, deal=quick_deal(), actions=QUICK_PLAY, my_seat=0)
    client = Client()
    client.force_login(anna)
    lobby = client.get(reverse("games:lobby"))
    assert list(lobby.context["entered"]) == [game] and game not in lobby.context["finished"]
    assert game not in list(lobby.context["mine"])
    verify = client.get(reverse("games:verify", args=[game.pk]))
    assert verify.context["entered"] and "no server seed" in verify.content.decode()
    assert client.get(reverse("games:table", args=[game.pk])).url == reverse("games:replay", args=[game.pk])


def test_the_analysis_of_an_entered_hand_runs(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_analysis, "BUDGET", AnalysisBudget(worlds=3, nodes=200))
    anna = make_user("anna")
    game = hand_entry_save(user=anna, deal=quick_deal(), actions=QUICK_PLAY, my_seat=1)
    web_analysis.analysis_request(user=anna, game_id=game.pk)
    assert web_analysis.analysis_run(game_id=game.pk) == GameAnalysis.Status.DONE
    hand = game.analysed_hands.get()
    assert hand.hand == 1 and hand.data["decisions"]  # the close and the leads were choices


# --- the tournament game ------------------------------------------------------------------------------


@pytest.fixture
def table_game(make_series: Any, players: list[Any], referee: Any) -> Any:
    series = make_series(players[:2], game=GameKind.SNAPSZER)
    record_result(
        user=referee, series_id=series.pk, game_number=1, result=snapszer_win(players[0], players[1])
    )
    return series.games.get(number=1)


def test_a_player_of_the_game_attaches_a_hand_and_its_analysis_finds_it(
    table_game: Any,
    player_user: Any,
    players: list[Any],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web_analysis, "_enqueue", lambda game_id: None)
    with pytest.raises(Conflict) as refused:
        table_game_analysis_request(user=player_user, game_id=table_game.pk)
    assert refused.value.code == "cards_unknown"
    game = hand_entry_save(
        user=player_user, deal=quick_deal(), actions=QUICK_PLAY, table_game_id=table_game.pk
    )
    assert game.table_game == table_game and game.seat_labels == ["Anna", "Bence"]
    assert game.seats.get(number=0).user == player_user  # Anna's account, in Anna's seat
    analysis = table_game_analysis_request(user=player_user, game_id=table_game.pk)
    assert analysis.game_id == game.pk


def test_the_organiser_may_attach_a_referee_or_a_stranger_may_not(
    table_game: Any, organiser: Any, referee: Any, make_user: Any
) -> None:
    assert hand_entry_save(user=organiser, deal=quick_deal(), actions=QUICK_PLAY, table_game_id=table_game.pk)
    for who in (referee, make_user("stranger")):
        with pytest.raises(PermissionDenied):
            hand_entry_save(user=who, deal=quick_deal(), actions=QUICK_PLAY, table_game_id=table_game.pk)
    with pytest.raises(NotFound):
        hand_entry_save(user=organiser, deal=quick_deal(), actions=QUICK_PLAY, table_game_id=987654)
    assert OnlineGame.objects.count() == 1


def test_a_snap_game_cannot_have_hands(make_series: Any, players: list[Any], organiser: Any) -> None:
    series = make_series(players[:2], game=GameKind.SNAP)
    game = series.games.create(number=1, seats=[players[0].pk, players[1].pk])
    with pytest.raises(Conflict) as refused:
        hand_entry_save(user=organiser, deal=quick_deal(), actions=QUICK_PLAY, table_game_id=game.pk)
    assert refused.value.code == "not_snapszer"
