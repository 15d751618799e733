"""REST entry point of the tournament export (docs/exports.md): ``tournaments/{id}/export/``."""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.clubs.api import PlayerOutputSerializer
from tournaments.competitions.api.results import GameResultOutputSerializer
from tournaments.competitions.api.rounds import RoundOutputSerializer
from tournaments.competitions.api.series import SeriesOutputSerializer
from tournaments.competitions.api.stages import StageOutputSerializer
from tournaments.competitions.api.standings import StandingsOutputSerializer
from tournaments.competitions.api.tournaments import TournamentOutputSerializer
from tournaments.integrations import exports


class ExportSeriesOutputSerializer(serializers.Serializer[Any]):
    series = SeriesOutputSerializer()
    results = GameResultOutputSerializer(
        many=True, help_text="The confirmed version of each game, in game order (a void one says so)."
    )


class ExportRoundOutputSerializer(serializers.Serializer[Any]):
    round = RoundOutputSerializer()
    series = ExportSeriesOutputSerializer(many=True)


class ExportStageOutputSerializer(serializers.Serializer[Any]):
    stage = StageOutputSerializer()
    rounds = ExportRoundOutputSerializer(many=True)
    standings = StandingsOutputSerializer()


class TournamentExportOutputSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="Always snapleague.tournament.")
    version = serializers.IntegerField(help_text="The export's own version (1); docs/exports.md.")
    tournament = TournamentOutputSerializer()
    players = PlayerOutputSerializer(many=True)
    stages = ExportStageOutputSerializer(many=True)


class TournamentExportApi(APIView):
    """The whole tournament in one document (docs/exports.md): the tournament, its players, and
    each stage with its rounds, series, confirmed results and standings. ``?download=1`` names it
    as a file."""

    permission_classes: list[Any] = []

    @extend_schema(responses=TournamentExportOutputSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        data = exports.tournament_export_data(user=request.user, tournament_id=tournament_id)
        response = Response(TournamentExportOutputSerializer(data).data)
        if request.query_params.get("download"):
            name = slugify(data["tournament"].name) or "tournament"
            response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
