"""REST entry point of a stage's bracket (``stages/{id}/bracket/``): every series as a bracket draws it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_schema import refusals
from tournaments.competitions.api.series import seats_field
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.models import BracketSlot


class BracketSlotOutputSerializer(serializers.ModelSerializer[BracketSlot]):
    class Meta:
        model = BracketSlot
        fields = ["place", "to_key", "to_seat"]


class BracketSeriesOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="series.pk")
    key = serializers.CharField(source="series.key")
    phase = serializers.CharField(source="series.phase")
    phase_round = serializers.IntegerField(source="series.phase_round")
    group = serializers.CharField(source="series.group")
    round = serializers.IntegerField(source="series.round.number")
    table = serializers.IntegerField(source="series.table")
    seats = seats_field()
    advance = serializers.IntegerField(source="series.advance", help_text="How many of its players go on.")
    walkover = serializers.BooleanField(source="series.walkover")
    flagged = serializers.BooleanField(source="series.flagged")
    status = serializers.CharField(source="series.status")
    placings = serializers.JSONField(source="series.placings", help_text="By player id, once decided.")
    score = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Games won so far by seat; None before the first game and for a walkover.",
    )
    slots = BracketSlotOutputSerializer(
        many=True, help_text="Where the player finishing ``place``-th goes: seat ``to_seat`` of ``to_key``."
    )


class ChampionOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class StageBracketOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField(source="stage.pk")
    format = serializers.CharField(source="stage.format")
    status = serializers.CharField(source="stage.status")
    results_version = serializers.IntegerField(source="stage.results_version")
    series = BracketSeriesOutputSerializer(source="lines", many=True)
    champion = ChampionOutputSerializer(
        allow_null=True,
        help_text="Once the stage is finished: the final's winner, or the top of the standings "
        "(Swiss, round robin) once they follow every result.",
    )


class StageBracketApi(APIView):
    """Every series of a stage as a bracket draws it (any format), in round and table order, and
    the champion once the stage is finished."""

    @extend_schema(responses={200: StageBracketOutputSerializer, **refusals(s404="stage_not_found")})
    def get(self, request: Request, stage_id: int) -> Response:
        bracket = stage_selectors.stage_bracket_get(user=request.user, stage_id=stage_id)
        return Response(StageBracketOutputSerializer(bracket).data)
