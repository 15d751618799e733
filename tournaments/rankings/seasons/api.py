"""REST entry points of seasons (docs/seasons.md): the list (organisers create one), one season,
its table, and which tournaments count."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, MAX_NUMBER, validated_input
from tournaments.clubs import selectors as club_selectors
from tournaments.models import Season
from tournaments.rankings.seasons import selectors as season_selectors
from tournaments.rankings.seasons import services as season_services


class SeasonOutputSerializer(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "name",
            "starts_on",
            "ends_on",
            "game",
            "points_scale",
            "best_results",
            "created_at",
        ]


class SeasonInputSerializer(serializers.Serializer[Any]):
    """A season's fields. Whether they make a season (dates in order, a scale that falls from 1st
    place, best results ≥ 1, a free name) is the service's check: a 400 naming the field."""

    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    game = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="snap, snapszer or blank: both"
    )
    points_scale = serializers.ListField(
        child=serializers.IntegerField(min_value=-MAX_NUMBER, max_value=MAX_NUMBER),
        required=False,
        help_text="Points for 1st, 2nd, … place; default 25, 18, 15, 12, 10, 8, 6, 4, 2, 1.",
    )
    best_results = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=-MAX_NUMBER,
        max_value=MAX_NUMBER,
        help_text="How many of a player's best results count; null: all.",
    )

    class Meta:
        ref_name = "SeasonInput"


class SeasonListCreateApi(ListAPIView[Season]):
    """Seasons (``?club=``); a club's organisers create one with POST."""

    serializer_class = SeasonOutputSerializer
    filterset_fields = {"club": ["exact"]}

    class InputSerializer(SeasonInputSerializer):
        club = serializers.IntegerField(max_value=MAX_ID)

        class Meta:
            ref_name = "SeasonCreateInput"

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.order_by("club_id", "-starts_on", "name")

    @extend_schema(request=InputSerializer, responses={201: SeasonOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        season = season_services.season_create(user=request.user, club=club, **data)
        return Response(SeasonOutputSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailApi(APIView):
    """A season; its club's organisers change it with PATCH (the fields sent; the others stay)."""

    class InputSerializer(SeasonInputSerializer):
        class Meta:
            ref_name = "SeasonUpdateInput"

    @extend_schema(responses=SeasonOutputSerializer)
    def get(self, request: Request, season_id: int) -> Response:
        return Response(SeasonOutputSerializer(season_selectors.season_by_id(season_id=season_id)).data)

    @extend_schema(request=InputSerializer, responses={200: SeasonOutputSerializer})
    def patch(self, request: Request, season_id: int) -> Response:
        # Who may is decided before the body is read (a refusal does not depend on it).
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        data = validated_input(self.InputSerializer, request, partial=True)
        current = season_selectors.season_fields(season)
        sent = {k: v for k, v in data.items() if k in request.data}
        season = season_services.season_update(user=request.user, season_id=season.pk, **{**current, **sent})
        return Response(SeasonOutputSerializer(season).data)


class SeasonResultOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the player's best results.")
    provisional = serializers.BooleanField(help_text="The tournament has not finished.")


class SeasonRowOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(source="row.rank")
    position = serializers.IntegerField(source="row.position")
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    points = serializers.IntegerField(source="row.points")
    counted = serializers.IntegerField(source="row.counted")
    played = serializers.IntegerField(source="row.played")
    wins = serializers.IntegerField(source="row.wins")
    countback = serializers.ListField(
        child=serializers.IntegerField(),
        source="row.countback",
        help_text="Counted results placed 1st, 2nd, …",
    )
    head_to_head = serializers.IntegerField(source="row.head_to_head", allow_null=True)
    separated_by = serializers.CharField(
        source="row.separated_by",
        help_text="points, places_<n>, head_to_head; empty: first row or shared rank.",
    )
    provisional = serializers.BooleanField(source="row.provisional")
    results = SeasonResultOutputSerializer(many=True, source="row.results")


class SeasonColumnOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    day = serializers.DateField()
    provisional = serializers.BooleanField()


class SeasonTableOutputSerializer(serializers.Serializer[Any]):
    season = SeasonOutputSerializer()
    provisional = serializers.BooleanField()
    tournaments = SeasonColumnOutputSerializer(many=True, source="columns")
    rows = SeasonRowOutputSerializer(many=True, source="lines")


class SeasonTableApi(APIView):
    """The season table, worked out from the tournaments' stored standings when asked."""

    permission_classes: list[Any] = []

    @extend_schema(responses=SeasonTableOutputSerializer)
    def get(self, request: Request, season_id: int) -> Response:
        page = season_selectors.season_page_get(user=request.user, season_id=season_id)
        return Response(SeasonTableOutputSerializer(page).data)


class SeasonCandidateOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    day = serializers.DateField()
    by_date = serializers.BooleanField()
    choice = serializers.CharField(source="choice_value", help_text="auto (by date), in or out")
    included = serializers.BooleanField()


class SeasonTournamentsApi(APIView):
    """The club's tournaments and whether each is in the season (organisers), and the organiser's
    choice for one: ``in`` whatever its date, ``out``, or ``auto`` (by date)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        tournament = serializers.IntegerField(max_value=MAX_ID)
        choice = serializers.ChoiceField(choices=["auto", "in", "out"])

        class Meta:
            ref_name = "SeasonTournamentInput"

    @extend_schema(responses=SeasonCandidateOutputSerializer(many=True))
    def get(self, request: Request, season_id: int) -> Response:
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        candidates = season_selectors.season_candidates(season=season)
        return Response(SeasonCandidateOutputSerializer(candidates, many=True).data)

    @extend_schema(request=InputSerializer, responses={200: SeasonCandidateOutputSerializer(many=True)})
    def post(self, request: Request, season_id: int) -> Response:
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        data = validated_input(self.InputSerializer, request)
        season = season_services.season_tournament_set(
            user=request.user, season_id=season.pk, tournament_id=data["tournament"], choice=data["choice"]
        )
        candidates = season_selectors.season_candidates(season=season)
        return Response(SeasonCandidateOutputSerializer(candidates, many=True).data)
