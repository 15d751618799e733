"""REST entry points of tournaments: the list (organisers create one), one tournament, entering players."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, validated_input
from tournaments.clubs import selectors as club_selectors
from tournaments.competitions import services as competition_services
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.models import Tournament


class TournamentOutputSerializer(serializers.ModelSerializer[Tournament]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "game",
            "rules_profile",
            "rules_options",
            "series_format",
            "status",
            "starts_at",
            "players",
            "created_at",
        ]

    def get_players(self, tournament: Tournament) -> list[int]:
        return [e.player_id for e in tournament.entries.all()]


class TournamentListCreateApi(ListAPIView[Tournament]):
    """Tournaments you may see (drafts only for their organisers and referees); organisers create one."""

    serializer_class = TournamentOutputSerializer
    filterset_fields = {"club": ["exact"], "game": ["exact"], "status": ["exact"]}

    class InputSerializer(serializers.Serializer[Any]):
        club = serializers.IntegerField(max_value=MAX_ID)
        name = serializers.CharField(max_length=160)
        game = serializers.CharField()
        series_format = serializers.CharField(required=False, default="best_of_3")
        rules_profile = serializers.CharField(required=False, allow_blank=True, default="")
        rules_options = serializers.JSONField(required=False, default=dict)
        starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

        class Meta:
            ref_name = "TournamentCreateInput"

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournament_selectors.tournaments_visible(user=self.request.user).prefetch_related("entries")

    @extend_schema(request=InputSerializer, responses={201: TournamentOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        tournament = competition_services.tournament_create(user=request.user, club=club, **data)
        return Response(TournamentOutputSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(responses=TournamentOutputSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_selectors.tournament_get(user=request.user, tournament_id=tournament_id)
        return Response(TournamentOutputSerializer(tournament).data)


class TournamentPlayersAddApi(APIView):
    """Enter club players into a tournament (organisers)."""

    class InputSerializer(serializers.Serializer[Any]):
        players = serializers.ListField(child=serializers.IntegerField(max_value=MAX_ID), allow_empty=False)

        class Meta:
            ref_name = "TournamentPlayersAddInput"

    @extend_schema(request=InputSerializer, responses={200: TournamentOutputSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        # Who may is decided before the body is read (a refusal does not depend on it).
        tournament = tournament_selectors.tournament_manage_get(
            user=request.user, tournament_id=tournament_id
        )
        data = validated_input(self.InputSerializer, request)
        players = club_selectors.players_by_ids(player_ids=data["players"])
        competition_services.tournament_players_add(user=request.user, tournament=tournament, players=players)
        return Response(TournamentOutputSerializer(tournament).data)
