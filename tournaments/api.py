"""REST entry points: parse input -> one service or selector -> serialise."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.access import access_stage_by_id
from tournaments.models import GameResult, Series
from tournaments.selectors import stage_standings_list
from tournaments.services import result_record


class GameResultOutputSerializer(serializers.ModelSerializer[GameResult]):
    game = serializers.IntegerField(source="game.number")
    series = serializers.IntegerField(source="game.series_id")
    sudden_death = serializers.BooleanField(source="game.sudden_death")
    series_status = serializers.CharField(source="game.series.status")

    class Meta:
        model = GameResult
        fields = [
            "id",
            "series",
            "game",
            "sudden_death",
            "version",
            "confirmed",
            "data",
            "source",
            "reason",
            "created_at",
            "series_status",
        ]


class ResultCreateApi(APIView):
    """Record the result of a game of a series (referees and organisers).

    Send an ``Idempotency-Key`` header: the same key again returns the first response and records
    nothing new. ``expected_version`` is the version you saw (0 for a new result; a correction by an
    organiser sends the current version and a reason). A stale version answers 409 with the current one.
    """

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        game = serializers.IntegerField(min_value=1, help_text=_("The game's number in the series."))
        result = serializers.JSONField(help_text=_("The outcome; see the docs for Snap and Snapszer shapes."))
        expected_version = serializers.IntegerField(min_value=0, default=0)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
        client_key = serializers.CharField(required=False, allow_blank=True, max_length=80)

    @extend_schema(
        request=InputSerializer,
        responses={201: GameResultOutputSerializer, 200: GameResultOutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, series_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = request.headers.get("Idempotency-Key") or data.get("client_key") or None
        record, created = result_record(
            user=request.user,
            series_id=series_id,
            game_number=data["game"],
            result=data["result"],
            expected_version=data["expected_version"],
            reason=data["reason"],
            client_key=key,
        )
        response = Response(GameResultOutputSerializer(record).data, status=status.HTTP_201_CREATED)
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


class StandingRowOutputSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    rank = serializers.IntegerField()
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    values = serializers.JSONField()
    separated_by = serializers.CharField()


class StandingsOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    results_version = serializers.IntegerField()
    standings_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    stale = serializers.BooleanField()
    rows = StandingRowOutputSerializer(many=True)


class StageStandingsApi(APIView):
    """A stage's standings as last computed, with the results version they reflect."""

    permission_classes: list[Any] = []

    @extend_schema(responses=StandingsOutputSerializer)
    def get(self, request: Request, stage_id: int) -> Response:
        stage = access_stage_by_id(stage_id=stage_id)
        body = {
            "stage": stage.pk,
            "results_version": stage.results_version,
            "standings_version": stage.standings_version,
            "computed_at": stage.standings_computed_at,
            "stale": stage.standings_stale,
            "rows": stage_standings_list(stage=stage),
        }
        return Response(StandingsOutputSerializer(body).data)


class SeriesSeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class SeriesOutputSerializer(serializers.ModelSerializer[Series]):
    stage = serializers.IntegerField(source="stage_id")
    round = serializers.IntegerField(source="round.number")
    game = serializers.CharField(source="stage.tournament.game")
    seats = SeriesSeatOutputSerializer(many=True)

    class Meta:
        model = Series
        fields = [
            "id",
            "stage",
            "round",
            "table",
            "game",
            "format",
            "status",
            "seed_hash",
            "placings",
            "seats",
        ]


class SeriesListApi(ListAPIView[Series]):
    """Series, filterable by stage, status and game (``?status=pending&game=snap``)."""

    serializer_class = SeriesOutputSerializer
    permission_classes: list[Any] = []
    filterset_fields = {"stage": ["exact"], "status": ["exact"], "stage__tournament__game": ["exact"]}

    def get_queryset(self) -> QuerySet[Series]:
        queryset = Series.objects.select_related("round", "stage__tournament").prefetch_related(
            "seats__player"
        )
        if game := self.request.query_params.get("game"):
            queryset = queryset.filter(stage__tournament__game=game)
        return queryset.order_by("stage_id", "round__number", "table")
