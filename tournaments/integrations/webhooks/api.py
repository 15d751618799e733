"""The webhook API (organisers of the club): endpoints, their secret, a test event, the delivery
log and redelivery. Thin: parse -> one service or selector -> serialise (docs/webhooks.md)."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import validated_input
from snapleague.api_schema import refusals
from tournaments.clubs.selectors import club_get_by_id
from tournaments.integrations.webhooks import selectors, services
from tournaments.integrations.webhooks.models import (
    SUBSCRIBABLE_EVENTS,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)


class WebhookEndpointOutputSerializer(serializers.ModelSerializer[WebhookEndpoint]):
    events = serializers.ListField(child=serializers.ChoiceField(choices=SUBSCRIBABLE_EVENTS))

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "club", "url", "description", "events", "active", "created_at", "secret_created_at"]


class WebhookEndpointSecretOutputSerializer(WebhookEndpointOutputSerializer):
    secret = serializers.CharField(
        help_text="The signing secret: shown in this answer only (create, or a new secret)."
    )

    class Meta(WebhookEndpointOutputSerializer.Meta):
        fields = [*WebhookEndpointOutputSerializer.Meta.fields, "secret"]


class WebhookAttemptOutputSerializer(serializers.ModelSerializer[WebhookAttempt]):
    class Meta:
        model = WebhookAttempt
        fields = [
            "number",
            "started_at",
            "duration_ms",
            "status_code",
            "failure",
            "error",
            "response_excerpt",
            "next_attempt_at",
            "manual",
        ]


class WebhookDeliveryOutputSerializer(serializers.ModelSerializer[WebhookDelivery]):
    attempt_log = WebhookAttemptOutputSerializer(many=True, read_only=True)
    payload = serializers.SerializerMethodField(help_text="The body posted (docs/webhooks.md).")

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "endpoint",
            "event_id",
            "event",
            "status",
            "attempts",
            "next_attempt_at",
            "delivered_at",
            "created_at",
            "payload",
            "attempt_log",
        ]

    def get_payload(self, delivery: WebhookDelivery) -> dict[str, Any]:
        return json.loads(delivery.body)  # type: ignore[no-any-return]


class _EndpointInput(serializers.Serializer[Any]):
    url = serializers.CharField(max_length=2000)
    events = serializers.ListField(child=serializers.CharField(max_length=40), max_length=10)
    description = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")
    active = serializers.BooleanField(required=False, default=True)


class WebhookEndpointListApi(APIView):
    """A club's webhook endpoints (its organisers). POST registers one: the answer holds its
    signing secret, this once."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(_EndpointInput):
        class Meta:
            ref_name = "WebhookEndpointCreateInput"

    @extend_schema(
        responses={200: WebhookEndpointOutputSerializer(many=True), **refusals(s403="not_organiser")}
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = club_get_by_id(club_id=club_id)
        _club, endpoints = selectors.club_webhooks_get(user=request.user, slug=club.slug)
        return Response(WebhookEndpointOutputSerializer(endpoints, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: WebhookEndpointSecretOutputSerializer,
            **refusals(s400="invalid (fields url, events), too_many_webhooks", s403="not_organiser"),
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_get_by_id(club_id=club_id)
        selectors.club_webhooks_get(user=request.user, slug=club.slug)  # who asks, before the body
        data = validated_input(self.InputSerializer, request)
        endpoint, secret = services.webhook_endpoint_create(user=request.user, club=club, **data)
        body = {**WebhookEndpointOutputSerializer(endpoint).data, "secret": secret}
        return Response(body, status=status.HTTP_201_CREATED)


class WebhookEndpointDetailApi(APIView):
    """One endpoint: read, change (any of its fields), delete (with its delivery log)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(_EndpointInput):
        url = serializers.CharField(max_length=2000, required=False)
        events = serializers.ListField(
            child=serializers.CharField(max_length=40), max_length=10, required=False
        )
        description = serializers.CharField(max_length=1000, required=False, allow_blank=True)
        active = serializers.BooleanField(required=False)

        class Meta:
            ref_name = "WebhookEndpointUpdateInput"

    @extend_schema(responses={200: WebhookEndpointOutputSerializer, **refusals(s404="webhook_not_found")})
    def get(self, request: Request, endpoint_id: int) -> Response:
        endpoint = selectors.webhook_endpoint_by_id(user=request.user, endpoint_id=endpoint_id)
        return Response(WebhookEndpointOutputSerializer(endpoint).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: WebhookEndpointOutputSerializer,
            **refusals(s400="invalid", s403="not_organiser", s404="webhook_not_found"),
        },
    )
    def patch(self, request: Request, endpoint_id: int) -> Response:
        selectors.webhook_endpoint_by_id(user=request.user, endpoint_id=endpoint_id)
        data = validated_input(self.InputSerializer, request, partial=True)
        endpoint = services.webhook_endpoint_update(user=request.user, endpoint_id=endpoint_id, **data)
        return Response(WebhookEndpointOutputSerializer(endpoint).data)

    @extend_schema(responses={204: None, **refusals(s403="not_organiser", s404="webhook_not_found")})
    def delete(self, request: Request, endpoint_id: int) -> Response:
        services.webhook_endpoint_delete(user=request.user, endpoint_id=endpoint_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookEndpointSecretApi(APIView):
    """A new signing secret, at once (the old one stops signing): in this answer only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: WebhookEndpointSecretOutputSerializer,
            **refusals(s403="not_organiser", s404="webhook_not_found"),
        },
    )
    def post(self, request: Request, endpoint_id: int) -> Response:
        endpoint, secret = services.webhook_endpoint_secret_regenerate(
            user=request.user, endpoint_id=endpoint_id
        )
        return Response({**WebhookEndpointOutputSerializer(endpoint).data, "secret": secret})


class WebhookEndpointTestApi(APIView):
    """Send a ``ping`` event to this endpoint now (queued; its attempts show in the log)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: WebhookDeliveryOutputSerializer,
            **refusals(s403="not_organiser", s404="webhook_not_found"),
        },
    )
    def post(self, request: Request, endpoint_id: int) -> Response:
        delivery = services.webhook_endpoint_test(user=request.user, endpoint_id=endpoint_id)
        return Response(WebhookDeliveryOutputSerializer(delivery).data, status=status.HTTP_201_CREATED)


class WebhookDeliveryListApi(APIView):
    """The endpoint's delivery log: its newest 50 deliveries, each with every attempt."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: WebhookDeliveryOutputSerializer(many=True),
            **refusals(s403="not_organiser", s404="webhook_not_found"),
        }
    )
    def get(self, request: Request, endpoint_id: int) -> Response:
        page = selectors.webhook_endpoint_page_get(user=request.user, endpoint_id=endpoint_id)
        return Response(WebhookDeliveryOutputSerializer(page.deliveries, many=True).data)


class WebhookDeliveryRedeliverApi(APIView):
    """Send a delivered or failed delivery again (the same event id and body). 409 while it is
    still waiting to be sent."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            202: WebhookDeliveryOutputSerializer,
            **refusals(s403="not_organiser", s404="webhook_delivery_not_found", s409="delivery_pending"),
        },
    )
    def post(self, request: Request, delivery_id: int) -> Response:
        delivery = services.webhook_delivery_redeliver(user=request.user, delivery_id=delivery_id)
        return Response(WebhookDeliveryOutputSerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
