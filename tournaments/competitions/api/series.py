"""REST entry points of series: the list, one series, a forfeit; and the one shape of a series'
seats every API answer and export uses."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, validated_input
from snapleague.api_schema import refusals
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.selectors.tournaments import series_visible
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.models import Series


class SeriesSeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


# The one shape of a series' seats, wherever the API or an export gives them (docs/formats.md,
# "Empty seats"): ``seat_count`` entries by seat index, null for an empty one.
SEATS_HELP = (
    "Every seat by its index (seat 0 deals first), ``seat_count`` of them; null: an empty seat "
    "(a bye in a bracket, or nobody through yet). The same shape in series/, bracket/, the publish "
    "answer, the export and the webhooks."
)


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "nullable": True,
            "properties": {
                "seat": {"type": "integer"},
                "player": {"type": "integer"},
                "name": {"type": "string"},
            },
            "required": ["seat", "player", "name"],
        },
    }
)
class SeatsField(serializers.ListField):
    """A series' seats by index, ``null`` for an empty one (the schema says each item may be null;
    drf-spectacular leaves ``nullable`` off a list's child serializer)."""


def seats_field(**kwargs: Any) -> serializers.ListField:
    return SeatsField(child=SeriesSeatOutputSerializer(allow_null=True), help_text=SEATS_HELP, **kwargs)


class SeriesOutputSerializer(serializers.ModelSerializer[Series]):
    stage = serializers.IntegerField(source="stage_id")
    round = serializers.IntegerField(source="round.number")
    game = serializers.CharField(source="stage.tournament.game")
    seats = seats_field(source="seats_in_order")

    class Meta:
        model = Series
        fields = [
            "id",
            "stage",
            "round",
            "table",
            "key",
            "phase",
            "phase_round",
            "group",
            "game",
            "format",
            "status",
            "walkover",
            "flagged",
            "seed_hash",
            "placings",
            "seat_count",
            "seats",
        ]
        extra_kwargs = {
            "key": {"help_text": "Stable within the stage: R3-2, W2-1, L4-1, GF1, 3P …"},
            "seat_count": {"help_text": "How many seats the series has, empty ones included."},
            "walkover": {"help_text": "Not played: its players are no more than those who go on (a bye)."},
            "flagged": {
                "help_text": "A correction changed a result this series was paired from; it stays as published."
            },
        }


class SeriesListApi(ListAPIView[Series]):
    """Series, filterable by stage, status and game (``?status=pending&game=snap``)."""

    serializer_class = SeriesOutputSerializer
    permission_classes: list[Any] = []
    filterset_fields = {"stage": ["exact"], "status": ["exact"], "stage__tournament__game": ["exact"]}

    def get_queryset(self) -> QuerySet[Series]:
        queryset = series_visible(user=self.request.user)
        if game := self.request.query_params.get("game"):
            queryset = queryset.filter(stage__tournament__game=game)
        return queryset.order_by("stage_id", "round__number", "table")


class SeriesForfeitApi(APIView):
    """Record that ``players`` did not come to a series (organisers), while none of its games is
    recorded and when it decides the series (the players who came are no more than those who go
    on: two seats, the opponent wins; everyone away, a double forfeit). Answers the series."""

    class InputSerializer(serializers.Serializer[Any]):
        players = serializers.ListField(
            child=serializers.IntegerField(max_value=MAX_ID),
            allow_empty=False,
            help_text=_("The ids of the players who did not come."),
        )
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

        class Meta:
            ref_name = "SeriesForfeitInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            201: SeriesOutputSerializer,
            **refusals(
                s400="invalid, forfeit_not_deciding (field ``players``)",
                s403="not_organiser",
                s404="series_not_found",
                s409="series_started",
            ),
        },
    )
    def post(self, request: Request, series_id: int) -> Response:
        series = tournament_selectors.series_manage_get(
            user=request.user, series_id=series_id
        )  # before the body
        data = validated_input(self.InputSerializer, request)
        stages_withdrawals.series_forfeit(
            user=request.user,
            series_id=series.pk,
            player_ids=data["players"],
            reason=data["reason"],
        )
        return Response(
            SeriesOutputSerializer(
                tournament_selectors.series_get(user=request.user, series_id=series.pk)
            ).data,
            status=status.HTTP_201_CREATED,
        )


class SeriesDetailApi(APIView):
    @extend_schema(responses=SeriesOutputSerializer)
    def get(self, request: Request, series_id: int) -> Response:
        return Response(
            SeriesOutputSerializer(
                tournament_selectors.series_get(user=request.user, series_id=series_id)
            ).data
        )
