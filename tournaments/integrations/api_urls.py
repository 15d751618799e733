"""The integrations' API routes: the tournament export, API tokens, webhooks (joined by
tournaments/urls.py)."""

from django.urls import path

from tournaments.integrations import api
from tournaments.integrations.tokens import api as tokens_api
from tournaments.integrations.webhooks import api as webhooks_api

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/export/", api.TournamentExportApi.as_view(), name="tournament-export"
    ),
    path("tokens/", tokens_api.ApiTokenListApi.as_view(), name="api-token-list"),
    path("tokens/<int:token_id>/", tokens_api.ApiTokenDetailApi.as_view(), name="api-token-detail"),
    path("clubs/<int:club_id>/webhooks/", webhooks_api.WebhookEndpointListApi.as_view(), name="webhook-list"),
    path(
        "webhooks/<int:endpoint_id>/", webhooks_api.WebhookEndpointDetailApi.as_view(), name="webhook-detail"
    ),
    path(
        "webhooks/<int:endpoint_id>/secret/",
        webhooks_api.WebhookEndpointSecretApi.as_view(),
        name="webhook-secret",
    ),
    path(
        "webhooks/<int:endpoint_id>/test/", webhooks_api.WebhookEndpointTestApi.as_view(), name="webhook-test"
    ),
    path(
        "webhooks/<int:endpoint_id>/deliveries/",
        webhooks_api.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "webhook-deliveries/<int:delivery_id>/redeliver/",
        webhooks_api.WebhookDeliveryRedeliverApi.as_view(),
        name="webhook-redeliver",
    ),
]
