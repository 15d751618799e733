"""Players' reports over the API (issue 26, docs/results.md "Who records results"): a seated
player reports a game and another confirms it; the officials list and decide disputes. The same
service as the pages (``tournaments/competitions/results/reporting.py``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_NUMBER
from tournaments.competitions.api.results import (
    GameResultOutputSerializer,
    ResultField,
    _game_number,
    _result_input,
)
from tournaments.competitions.results import disputes as dispute_reads
from tournaments.competitions.results import reporting
from tournaments.competitions.results.payload import result_payload
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.models import ResultDispute, ResultReport


class ReportOutputSerializer(serializers.ModelSerializer[ResultReport]):
    game = serializers.IntegerField(source="game_number")
    result = serializers.SerializerMethodField()
    reported_by = serializers.CharField(source="reported_by.username")
    confirmed_by = serializers.CharField(source="confirmed_by.username", default=None, allow_null=True)
    result_version = serializers.IntegerField(
        source="result.version", default=None, allow_null=True, help_text="The confirmed version it became."
    )

    class Meta:
        model = ResultReport
        fields = [
            "id",
            "series",
            "game",
            "status",
            "result",
            "reported_by",
            "confirmed_by",
            "auto_confirm_at",
            "dispute",
            "result_version",
            "created_at",
        ]

    def get_result(self, report: ResultReport) -> dict[str, Any]:
        return result_payload(report.value)


class ReportsApi(APIView):
    """GET: the players' reports of a series that still wait (pending or disputed), for anyone who
    sees the series. POST: report a game of one's own series (a seated player, in a tournament
    where players report).

    The report waits for another seated player's confirmation (``outcome`` "pending"); the same
    result already reported by another seat confirms it ("confirmed"); a different one opens a
    dispute for the officials ("disputed")."""

    class InputSerializer(serializers.Serializer[Any]):
        game = serializers.IntegerField(
            min_value=1, max_value=MAX_NUMBER, help_text=_("The game's number in the series.")
        )
        result = ResultField(help_text=_("The outcome: a Snap game or a Snapszer match."))
        expected_version = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)

        class Meta:
            ref_name = "ReportCreateInput"

    class OutputSerializer(ReportOutputSerializer):
        outcome = serializers.CharField(help_text="pending, confirmed or disputed")

        class Meta(ReportOutputSerializer.Meta):
            fields = [*ReportOutputSerializer.Meta.fields, "outcome"]
            ref_name = "ReportCreateOutput"

    @extend_schema(responses={200: ReportOutputSerializer(many=True)})
    def get(self, request: Request, series_id: int) -> Response:
        series = tournament_selectors.series_get(user=request.user, series_id=series_id)
        reports = ResultReport.objects.filter(
            series=series, status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]
        ).select_related("reported_by", "confirmed_by", "result")
        return Response(ReportOutputSerializer(reports, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, series_id: int) -> Response:
        # Who may report is decided before the body is read.
        series = tournament_selectors.series_get(user=request.user, series_id=series_id)
        reporting.seated_check(user=request.user, series=series)
        target = result_target_get(
            user=request.user, series_id=series_id, game_number=_game_number(request.data)
        )
        data = _result_input(self.InputSerializer(data=request.data, context={"result_target": target}))
        reported = reporting.report_submit(
            user=request.user,
            series_id=series_id,
            game_number=data["game"],
            result=data["result"],
            expected_version=data["expected_version"],
        )
        body = {**ReportOutputSerializer(reported.report).data, "outcome": reported.outcome}
        return Response(body, status=status.HTTP_201_CREATED)


class ReportConfirmApi(APIView):
    """Confirm another seated player's report: it becomes the game's confirmed result (confirming
    one already confirmed answers it again)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameResultOutputSerializer})
    def post(self, request: Request, report_id: int) -> Response:
        report = reporting.report_confirm(user=request.user, report_id=report_id)
        assert report.result is not None
        return Response(GameResultOutputSerializer(report.result).data)


class DisputeOutputSerializer(serializers.ModelSerializer[ResultDispute]):
    game = serializers.IntegerField(source="game_number")
    reports = ReportOutputSerializer(many=True, read_only=True)
    decided_by = serializers.CharField(source="decided_by.username", default=None, allow_null=True)

    class Meta:
        model = ResultDispute
        fields = [
            "id",
            "series",
            "game",
            "kind",
            "status",
            "opened_at",
            "due_at",
            "decided_by",
            "decided_at",
            "note",
            "reports",
        ]


class DisputeListApi(APIView):
    """A tournament's open disputes, oldest deadline first (its referees and organisers)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DisputeOutputSerializer(many=True)})
    def get(self, request: Request, tournament_id: int) -> Response:
        _tournament, open_rows, _decided = dispute_reads.disputes_get(
            user=request.user, tournament_id=tournament_id
        )
        return Response(DisputeOutputSerializer([row.dispute for row in open_rows], many=True).data)


class DisputeDecideApi(APIView):
    """Decide a dispute with one of its reports (``report``) or another result (``result``), with
    an optional note kept in the history. A correction request is decided by an organiser."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        report = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
        result = ResultField(required=False)
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)

        class Meta:
            ref_name = "DisputeDecideInput"

    @extend_schema(request=InputSerializer, responses={200: DisputeOutputSerializer})
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = reporting.dispute_for_official(user=request.user, dispute_id=dispute_id)
        target = result_target_get(
            user=request.user, series_id=dispute.series_id, game_number=dispute.game_number
        )
        data = _result_input(self.InputSerializer(data=request.data, context={"result_target": target}))
        decided = reporting.dispute_decide(
            user=request.user,
            dispute_id=dispute_id,
            report_id=data.get("report"),
            result=data.get("result"),
            note=data["note"],
        )
        return Response(DisputeOutputSerializer(decided).data)
