"""Online play's REST API: Snap statistics (docs/snap-stats.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

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
