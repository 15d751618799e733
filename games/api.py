"""Online play's REST API: Snap statistics (docs/snap-stats.md) and hands entered card by card
(docs/analysis.md)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.hand_entry import hand_actions_parse, hand_deal_parse, hand_entry_save, hand_position_get
from games.snap_stats.selectors import person_stats_get


class SnapChancesSerializer(serializers.Serializer[Any]):
    """How a player's chances to call went, counted the same way over all their games (the
    summary) and in one game (a game's line)."""

    chances = serializers.IntegerField()
    won = serializers.IntegerField(help_text="chances won")
    tied = serializers.IntegerField()
    late = serializers.IntegerField()
    not_called = serializers.IntegerField()
    missed = serializers.IntegerField()
    false_calls = serializers.IntegerField()
    flagged = serializers.IntegerField()


class SnapSummarySerializer(SnapChancesSerializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    calls_timed = serializers.IntegerField()
    median_reaction_ms = serializers.FloatField(allow_null=True)
    p90_reaction_ms = serializers.IntegerField(allow_null=True)


class SnapCallSerializer(serializers.Serializer[Any]):
    arrival_ms = serializers.IntegerField()
    effective_ms = serializers.IntegerField()
    revealed_ms = serializers.IntegerField()
    reaction_ms = serializers.IntegerField()
    device_ms = serializers.IntegerField()
    outcome = serializers.CharField()


class SnapGameLineSerializer(SnapChancesSerializer):
    game = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    tournament = serializers.BooleanField()
    seat = serializers.IntegerField()
    won_game = serializers.BooleanField()
    placing = serializers.IntegerField(allow_null=True)
    calls = SnapCallSerializer(many=True)
    stood_in = serializers.BooleanField()


class SnapStatsOutputSerializer(serializers.Serializer[Any]):
    user = serializers.IntegerField()
    username = serializers.CharField()
    summary = SnapSummarySerializer()
    games = SnapGameLineSerializer(many=True)


class SnapStatsApi(APIView):
    """A player's Snap statistics (reaction times, chances, missed and false calls) over their
    finished online Snap games that the caller may see; every game's calls with their times."""

    permission_classes: list[Any] = []

    @extend_schema(responses=SnapStatsOutputSerializer)
    def get(self, request: Request, user_id: int) -> Response:
        stats = person_stats_get(user=request.user, person_id=user_id)
        return Response(SnapStatsOutputSerializer(stats.to_dict()).data)


# --- A hand played at a table, entered card by card (games/hand_entry.py; docs/analysis.md) ---------


class HandDealInputSerializer(serializers.Serializer[Any]):
    """The deal as entered: card names (``AH``, ``10C``, ``9S`` …). The engine's checks (every
    card once, each hand's size, the pack of the rules) are the service's: its field errors name
    these fields."""

    profile = serializers.CharField(help_text="Rules with a match: snapszer, snapszer-hu, schnapsen …")
    dealer = serializers.IntegerField(help_text="The seat that dealt: 0 or 1.")
    hand_0 = serializers.ListField(child=serializers.CharField(), help_text="Seat 0's cards.")
    hand_1 = serializers.ListField(child=serializers.CharField(), help_text="Seat 1's cards.")
    trump = serializers.CharField(help_text="The card turned up as trump.")
    talon = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        default=list,
        help_text="The stock under the trump card, top first, as far as known; the rest in any order.",
    )
    actions = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        default=list,
        help_text='The moves so far, in the engine\'s form: {"type": "play", "seat": 0, "card": "AH"} …',
    )


class HandPositionOutputSerializer(serializers.Serializer[Any]):
    deal = serializers.DictField()
    actions = serializers.ListField(child=serializers.DictField())
    over = serializers.BooleanField(help_text="The hand is over: it can be saved.")
    phase = serializers.CharField()
    to_move = serializers.IntegerField(allow_null=True)
    trump_suit = serializers.CharField()
    trump_card = serializers.CharField(allow_null=True)
    stock = serializers.ListField(child=serializers.CharField())
    closed = serializers.BooleanField()
    lead_card = serializers.CharField(allow_null=True)
    seats = serializers.ListField(child=serializers.DictField())
    legal = serializers.ListField(
        child=serializers.DictField(), help_text="Every legal action of each seat, with its words."
    )
    last = serializers.CharField(help_text="What the last action did, in words.")
    result = serializers.DictField(allow_null=True)


def _hand_input(request: Request, serializer_class: type[serializers.Serializer[Any]]) -> dict[str, Any]:
    """The request's body as ``serializer_class`` reads it, a new dict the caller may change.
    Raises ValidationError: a 400 with field errors (as the tournaments API reads its input)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class HandPositionApi(APIView):
    """Check a deal and the moves so far: the position after them and every legal action (all
    cards known: a record of a hand played at a table). Nothing is stored. 400 with field errors
    for a bad deal or a move the engine refuses."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=HandDealInputSerializer, responses={200: HandPositionOutputSerializer})
    def post(self, request: Request) -> Response:
        data = _hand_input(request, HandDealInputSerializer)
        actions = hand_actions_parse(data.pop("actions"))
        deal = hand_deal_parse(**data)
        position = hand_position_get(deal=deal, actions=actions)
        return Response(HandPositionOutputSerializer(position.to_dict()).data)


class HandEntryCreateApi(APIView):
    """Save a finished hand (the deal and every move): a finished Snapszer game entered by hand,
    whose replay and analysis work as for online games. ``table_game``: the tournament game it was
    a hand of (its club's organisers and its players only: 403; 404 for a game not visible)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(HandDealInputSerializer):
        table_game = serializers.IntegerField(required=False, allow_null=True, default=None)
        names = serializers.ListField(
            child=serializers.CharField(max_length=40, allow_blank=True), required=False, default=list
        )
        my_seat = serializers.IntegerField(required=False, allow_null=True, default=None)

        class Meta:
            ref_name = "HandEntryCreateInput"

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        replay = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        data = _hand_input(request, self.InputSerializer)
        table_game, names, my_seat = data.pop("table_game"), data.pop("names"), data.pop("my_seat")
        actions = hand_actions_parse(data.pop("actions"))
        game = hand_entry_save(
            user=request.user,
            deal=hand_deal_parse(**data),
            actions=actions,
            table_game_id=table_game,
            names=names,
            my_seat=my_seat,
        )
        return Response(
            {"id": game.pk, "replay": reverse("games:replay", args=[game.pk])}, status=status.HTTP_201_CREATED
        )
