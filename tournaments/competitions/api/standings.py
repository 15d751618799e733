"""REST entry point of a stage's standings (``stages/{id}/standings/``), with each group's own table."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.competitions.selectors import standings as standings_selectors


class StandingRowOutputSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    rank = serializers.IntegerField()
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    values = serializers.JSONField()
    separated_by = serializers.CharField()


class GroupTableRowOutputSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    values = serializers.JSONField(help_text="By tiebreak name (the group's ``chain``), with series_played.")
    separated_by = serializers.CharField(
        help_text="The first tiebreak that puts the row below the one above."
    )
    qualified = serializers.BooleanField(
        help_text="Goes to the playoff (while the group plays: would, if it ended now; see ``complete``)."
    )
    withdrawn = serializers.BooleanField(
        help_text="Withdrawn by the playoff: does not qualify, the next does."
    )
    reason = serializers.CharField(
        help_text="Why (translated): “Through: top 2 of group A.”, in place of a player who withdrew, "
        "in line so far, withdrawn; empty for the others."
    )


class GroupTableOutputSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(help_text="A, B, …")
    advance = serializers.IntegerField(help_text="How many of each group go to the playoff (the top k).")
    complete = serializers.BooleanField(help_text="Every group series is decided: the qualifiers are final.")
    chain = serializers.ListField(
        child=serializers.CharField(), help_text="The group's tiebreaks, in order (the format's own)."
    )
    qualifiers = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids who go on from this group, best first."
    )
    rows = GroupTableRowOutputSerializer(many=True)


class StandingsOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    results_version = serializers.IntegerField()
    standings_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    stale = serializers.BooleanField()
    rows = StandingRowOutputSerializer(many=True, help_text="The stage's table(s) as last computed.")
    groups = GroupTableOutputSerializer(
        many=True,
        help_text="Groups → playoff: each group's own table with who goes to the playoff and why, "
        "from the results now (empty for the other formats and before round 1).",
    )


class StageStandingsApi(APIView):
    """A stage's standings as last computed, with the results version they reflect; for groups →
    playoff also each group's own table (``groups``) with its qualifiers."""

    permission_classes: list[Any] = []

    @extend_schema(responses=StandingsOutputSerializer)
    def get(self, request: Request, stage_id: int) -> Response:
        page = standings_selectors.stage_standings_page_get(user=request.user, stage_id=stage_id)
        return Response(StandingsOutputSerializer(standings_selectors.standings_body(page)).data)
