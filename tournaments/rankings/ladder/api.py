"""REST entry points of ladders (docs/ladder.md): the list (organisers create one), one ladder with
its places, its players, challenges, their answers and results."""

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
from tournaments.models import Ladder, LadderChallenge
from tournaments.rankings.ladder import selectors as ladder_selectors
from tournaments.rankings.ladder import services as ladder_services


class LadderOutputSerializer(serializers.ModelSerializer[Ladder]):
    class Meta:
        model = Ladder
        fields = [
            "id",
            "club",
            "season",
            "name",
            "game",
            "reach",
            "reply_days",
            "best_of",
            "rematch_days",
            "created_at",
        ]


class LadderInputSerializer(serializers.Serializer[Any]):
    """A ladder's settings; whether they make a ladder is the service's check (a 400 naming the field)."""

    name = serializers.CharField(max_length=120)
    game = serializers.CharField(help_text="snap or snapszer")
    season = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=MAX_ID)
    reach = serializers.IntegerField(required=False, default=3, min_value=-MAX_NUMBER, max_value=MAX_NUMBER)
    reply_days = serializers.IntegerField(
        required=False, default=7, min_value=-MAX_NUMBER, max_value=MAX_NUMBER
    )
    best_of = serializers.IntegerField(required=False, default=3, min_value=-MAX_NUMBER, max_value=MAX_NUMBER)
    rematch_days = serializers.IntegerField(
        required=False, default=7, min_value=-MAX_NUMBER, max_value=MAX_NUMBER
    )

    class Meta:
        ref_name = "LadderInput"


def _ladder_fields(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    data["season_id"] = data.pop("season", None)
    return data


class LadderRungOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(source="rung.place")
    player = serializers.IntegerField(source="rung.player_id")
    player_name = serializers.CharField(source="rung.player.name")
    open_challenge = serializers.IntegerField(source="busy.pk", allow_null=True, default=None)
    can_challenge = serializers.BooleanField(
        help_text="The requesting user's player may challenge this one now."
    )


class LadderDetailOutputSerializer(serializers.Serializer[Any]):
    ladder = LadderOutputSerializer()
    my_place = serializers.IntegerField(allow_null=True)
    rungs = LadderRungOutputSerializer(many=True, source="lines")


class LadderChallengeOutputSerializer(serializers.ModelSerializer[LadderChallenge]):
    class Meta:
        model = LadderChallenge
        fields = [
            "id",
            "ladder",
            "challenger",
            "challenged",
            "status",
            "how",
            "challenger_place",
            "challenged_place",
            "challenger_won",
            "challenger_wins",
            "challenged_wins",
            "due_at",
            "created_at",
            "accepted_at",
            "decided_at",
        ]


class LadderListCreateApi(ListAPIView[Ladder]):
    """Ladders (``?club=``); a club's organisers create one with POST."""

    serializer_class = LadderOutputSerializer
    filterset_fields = {"club": ["exact"]}

    class InputSerializer(LadderInputSerializer):
        club = serializers.IntegerField(max_value=MAX_ID)

        class Meta:
            ref_name = "LadderCreateInput"

    def get_queryset(self) -> QuerySet[Ladder]:
        return Ladder.objects.order_by("club_id", "name")

    @extend_schema(request=InputSerializer, responses={201: LadderOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        ladder = ladder_services.ladder_create(user=request.user, club=club, **_ladder_fields(data))
        return Response(LadderOutputSerializer(ladder).data, status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    """The ladder with its places (and whom the requesting user may challenge); its club's
    organisers change the settings with PATCH (the fields sent; the others stay)."""

    class InputSerializer(LadderInputSerializer):
        class Meta:
            ref_name = "LadderUpdateInput"

    @extend_schema(responses=LadderDetailOutputSerializer)
    def get(self, request: Request, ladder_id: int) -> Response:
        page = ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder_id)
        return Response(LadderDetailOutputSerializer(page).data)

    @extend_schema(request=InputSerializer, responses={200: LadderOutputSerializer})
    def patch(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
        data = validated_input(self.InputSerializer, request, partial=True)
        current = ladder_selectors.ladder_fields(ladder)
        sent = {k: v for k, v in data.items() if k in request.data}
        ladder = ladder_services.ladder_update(
            user=request.user, ladder_id=ladder.pk, **_ladder_fields({**current, **sent})
        )
        return Response(LadderOutputSerializer(ladder).data)


class LadderPlayersApi(APIView):
    """Organisers: a club player joins at the bottom (``add``) or leaves (``remove``)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(max_value=MAX_ID)
        action = serializers.ChoiceField(choices=["add", "remove"], default="add")

        class Meta:
            ref_name = "LadderPlayersInput"

    @extend_schema(request=InputSerializer, responses={200: LadderDetailOutputSerializer})
    def post(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
        data = validated_input(self.InputSerializer, request)
        service = (
            ladder_services.ladder_player_remove
            if data["action"] == "remove"
            else ladder_services.ladder_player_add
        )
        service(user=request.user, ladder_id=ladder.pk, player_id=data["player"])
        page = ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder.pk)
        return Response(LadderDetailOutputSerializer(page).data)


class LadderChallengesApi(APIView):
    """The ladder's challenges, newest first; POST: the requesting user's player challenges
    ``challenged`` (an organiser may name the ``challenger``)."""

    class InputSerializer(serializers.Serializer[Any]):
        challenged = serializers.IntegerField(max_value=MAX_ID)
        challenger = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=MAX_ID)

        class Meta:
            ref_name = "LadderChallengeInput"

    @extend_schema(responses=LadderChallengeOutputSerializer(many=True))
    def get(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_by_id(ladder_id=ladder_id)
        return Response(
            LadderChallengeOutputSerializer(ladder_selectors.challenges_list(ladder=ladder), many=True).data
        )

    @extend_schema(request=InputSerializer, responses={201: LadderChallengeOutputSerializer})
    def post(self, request: Request, ladder_id: int) -> Response:
        if not request.user.is_authenticated:
            self.permission_denied(request)
        ladder_selectors.challenger_check(
            user=request.user, ladder=ladder_selectors.ladder_by_id(ladder_id=ladder_id)
        )
        data = validated_input(self.InputSerializer, request)
        challenge = ladder_services.challenge_create(
            user=request.user,
            ladder_id=ladder_id,
            challenged_id=data["challenged"],
            challenger_id=data["challenger"],
        )
        return Response(LadderChallengeOutputSerializer(challenge).data, status=status.HTTP_201_CREATED)


class LadderChallengeAnswerApi(APIView):
    """The challenged accepts or declines (a forfeit); the challenger withdraws an open one."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        action = serializers.ChoiceField(choices=["accept", "decline", "withdraw"])

        class Meta:
            ref_name = "LadderAnswerInput"

    @extend_schema(request=InputSerializer, responses={200: LadderChallengeOutputSerializer})
    def post(self, request: Request, challenge_id: int) -> Response:
        ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
        data = validated_input(self.InputSerializer, request)
        service = {
            "accept": ladder_services.challenge_accept,
            "decline": ladder_services.challenge_decline,
            "withdraw": ladder_services.challenge_withdraw,
        }[data["action"]]
        challenge = service(user=request.user, challenge_id=challenge_id)
        return Response(LadderChallengeOutputSerializer(challenge).data)


class LadderChallengeResultApi(APIView):
    """The match's score: recorded by an organiser, or reported by each player (recorded when the
    two reports agree)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        challenger_wins = serializers.IntegerField(min_value=0, max_value=99)
        challenged_wins = serializers.IntegerField(min_value=0, max_value=99)

        class Meta:
            ref_name = "LadderResultInput"

    @extend_schema(request=InputSerializer, responses={200: LadderChallengeOutputSerializer})
    def post(self, request: Request, challenge_id: int) -> Response:
        ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
        data = validated_input(self.InputSerializer, request)
        challenge = ladder_services.challenge_result(user=request.user, challenge_id=challenge_id, **data)
        return Response(LadderChallengeOutputSerializer(challenge).data)
