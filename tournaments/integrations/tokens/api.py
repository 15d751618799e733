"""The API tokens API (the signed-in account's own tokens): list, create, read, revoke.
Thin: parse -> one service or selector -> serialise (docs/api-tokens.md).

A token may list and revoke the account's tokens (revoking needs the write scope, as any write),
but not make one: a leaked token must not be able to mint itself a successor, so a new token needs
a session or the password (HTTP Basic).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import validated_input
from snapleague.api_schema import refusals
from snapleague.errors import PermissionDenied
from snapleague.login_throttle import client_ip
from tournaments.integrations.tokens import keys, selectors, services
from tournaments.integrations.tokens.models import ApiToken


class ApiTokenOutputSerializer(serializers.ModelSerializer[ApiToken]):
    prefix = serializers.CharField(
        read_only=True, help_text="The token's first 12 characters, to tell which one is which."
    )
    usable = serializers.BooleanField(read_only=True, help_text="Neither expired nor revoked.")

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "name",
            "scope",
            "prefix",
            "created_at",
            "expires_at",
            "last_used_at",
            "revoked_at",
            "usable",
        ]


class ApiTokenCreatedOutputSerializer(ApiTokenOutputSerializer):
    token = serializers.CharField(
        help_text="The token: shown in this answer only (only its SHA-256 is kept). "
        "Send it as Authorization: Bearer <token>."
    )

    class Meta(ApiTokenOutputSerializer.Meta):
        fields = [*ApiTokenOutputSerializer.Meta.fields, "token"]


class ApiTokenListApi(APIView):
    """The signed-in account's tokens, newest first (usable, expired and revoked). POST makes one:
    the answer holds the token itself, this once."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=100, help_text="What will use it, e.g. “results script”.")
        scope = serializers.ChoiceField(choices=ApiToken.Scope.choices, default=ApiToken.Scope.READ)
        expires_in_days = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=keys.MAX_DAYS,
            help_text="Its life in days (1 to 365). Give this or expires_on; neither: 90 days.",
        )
        expires_on = serializers.DateField(
            required=False,
            help_text="The last day it works (up to a year ahead), instead of expires_in_days.",
        )

        class Meta:
            ref_name = "ApiTokenCreateInput"

    @extend_schema(responses={200: ApiTokenOutputSerializer(many=True), **refusals(s403="not_authenticated")})
    def get(self, request: Request) -> Response:
        tokens = selectors.api_tokens_list(user=request.user)
        return Response(ApiTokenOutputSerializer(tokens, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: ApiTokenCreatedOutputSerializer,
            **refusals(
                s400="invalid (fields name, scope, expires_in_days, expires_on), too_many_tokens",
                s403="not_authenticated, token_cannot_create_tokens (sent with a token), token_read_only",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            raise PermissionDenied(
                code="token_cannot_create_tokens",
                message=_(
                    "An API token cannot make API tokens: sign in on the API tokens page, or send "
                    "your user name and password (HTTP Basic), to make one."
                ),
            )
        data = validated_input(self.InputSerializer, request)
        token, raw = services.api_token_create(user=request.user, ip=client_ip(request), **data)
        body = {**ApiTokenOutputSerializer(token).data, "token": raw}
        return Response(body, status=status.HTTP_201_CREATED)


class ApiTokenDetailApi(APIView):
    """One of the account's tokens. DELETE revokes it: refused from then on, still listed."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: ApiTokenOutputSerializer,
            **refusals(s404="api_token_not_found (or another account's)"),
        }
    )
    def get(self, request: Request, token_id: int) -> Response:
        token = selectors.api_token_by_id(user=request.user, token_id=token_id)
        return Response(ApiTokenOutputSerializer(token).data)

    @extend_schema(
        request=None,
        responses={
            200: ApiTokenOutputSerializer,
            **refusals(s404="api_token_not_found (or another account's)", s403="token_read_only"),
        },
    )
    def delete(self, request: Request, token_id: int) -> Response:
        token = services.api_token_revoke(user=request.user, token_id=token_id, ip=client_ip(request))
        return Response(ApiTokenOutputSerializer(token).data)
