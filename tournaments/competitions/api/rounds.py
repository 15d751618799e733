"""REST entry points of rounds: publishing the rounds due (``stages/{id}/rounds/``) and the list."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_NUMBER, validated_input
from snapleague.api_schema import refusals
from tournaments.competitions.api.series import SeriesOutputSerializer
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.stages import publish as stages_publish
from tournaments.models import Round, Series


class RoundOutputSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "stage", "number", "starts_at", "published_at", "bye"]


class PublishedRoundOutputSerializer(serializers.ModelSerializer[Round]):
    series = SeriesOutputSerializer(many=True)

    class Meta:
        model = Round
        fields = ["id", "stage", "number", "starts_at", "published_at", "bye", "series"]


class StageRoundsPublishApi(APIView):
    """Publish the rounds due (organisers): a round robin all at once, the other formats the first
    round, and later rounds of a stage set to "review before publishing" (an automatic stage
    publishes them itself after the last result). ``round`` asks for that round."""

    class InputSerializer(serializers.Serializer[Any]):
        round = serializers.IntegerField(
            min_value=1,
            max_value=MAX_NUMBER,
            required=False,
            allow_null=True,
            default=None,
            help_text=_("The round to publish; empty: whatever is due."),
        )

        class Meta:
            ref_name = "StageRoundsPublishInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            201: PublishedRoundOutputSerializer(many=True),
            **refusals(
                s400="round_not_next (``extra.next``), or the stage's players cannot fill it "
                "(not_enough_entrants …)",
                s403="not_organiser",
                s404="stage_not_found",
                s409="round_already_generated; round_not_due (``extra.waiting``: the series keys "
                "still to be decided); no_more_rounds; no_pairing_without_rematch; stage_finished",
            ),
        },
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)  # before the body
        data = validated_input(self.InputSerializer, request)
        rounds = stages_publish.stage_round_publish(
            user=request.user, stage_id=stage.pk, round_number=data["round"]
        )
        published = (
            Round.objects.filter(pk__in=[r.pk for r in rounds])
            .prefetch_related(
                Prefetch(
                    "series",
                    queryset=Series.objects.select_related("round", "stage__tournament")
                    .prefetch_related("seats__player")
                    .order_by("table"),
                )
            )
            .order_by("number")
        )
        return Response(
            PublishedRoundOutputSerializer(published, many=True).data, status=status.HTTP_201_CREATED
        )


class RoundListApi(ListAPIView[Round]):
    serializer_class = RoundOutputSerializer
    filterset_fields = {"stage": ["exact"], "stage__tournament": ["exact"], "number": ["exact"]}

    def get_queryset(self) -> QuerySet[Round]:
        return tournament_selectors.rounds_visible(user=self.request.user).order_by("stage_id", "number")
