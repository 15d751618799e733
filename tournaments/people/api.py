"""REST entry points of people and their players (docs/people.md): parse -> one service -> serialise.

``players/{id}/claims/`` (an organiser makes a claim link), ``claims/accept/`` (the signed-in
person takes the player), ``players/{id}/unlink/`` (an organiser unlinks the account).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import _refusals, validated_input
from tournaments.models import Player
from tournaments.people import services


class PlayerLinkOutputSerializer(serializers.ModelSerializer[Player]):
    username = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "username"]

    def get_username(self, player: Player) -> str:
        return player.user.get_username() if player.user is not None else ""


class ClaimOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    token = serializers.CharField()
    url = serializers.CharField(help_text="The page that accepts it (sign in first).")
    expires_at = serializers.DateTimeField()


class PlayerClaimCreateApi(APIView):
    """An organiser invites a person to claim the player: a link, valid once, until it expires
    (earlier open links for the player stop working)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: ClaimOutputSerializer,
            **_refusals(s403="not_organiser", s404="player_not_found", s409="player_claimed"),
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        claim, token = services.player_claim_create(user=request.user, player_id=player_id)
        body = {
            "player": claim.player_id,
            "token": token,
            "url": request.build_absolute_uri(reverse("tournaments:claim", args=[token])),
            "expires_at": claim.expires_at,
        }
        return Response(ClaimOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class PlayerClaimAcceptApi(APIView):
    """The signed-in user takes the player a claim link names."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField(max_length=500)

        class Meta:
            ref_name = "PlayerClaimAcceptInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PlayerLinkOutputSerializer,
            **_refusals(
                s400="claim_invalid, invalid (no token)",
                s409="claim_used, claim_withdrawn, already_yours, player_claimed, one_player_per_club",
                s410="claim_expired",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        player = services.player_claim_accept(user=request.user, token=data["token"])
        return Response(PlayerLinkOutputSerializer(player).data)


class PlayerUnlinkApi(APIView):
    """An organiser unlinks the player from its account (results and ratings stay the player's)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: PlayerLinkOutputSerializer,
            **_refusals(s403="not_organiser", s404="player_not_found", s409="not_linked"),
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = services.player_unlink(user=request.user, player_id=player_id)
        return Response(PlayerLinkOutputSerializer(player).data)
