"""The downloads (CSV, iCal) and the pages of API tokens and webhooks (joined into
``tournaments/page_urls.py``, namespace ``tournaments``)."""

from django.urls import path

from tournaments.integrations import views
from tournaments.integrations.tokens import views as token_views
from tournaments.integrations.webhooks import views as webhook_views

urlpatterns = [
    # Spreadsheets (docs/exports.md).
    path("tournaments/<int:tournament_id>/results.csv", views.tournament_results_csv, name="results-csv"),
    path("stages/<int:stage_id>/standings.csv", views.stage_standings_csv, name="standings-csv"),
    path("seasons/<int:season_id>/table.csv", views.season_csv, name="season-csv"),
    path("ladders/<int:ladder_id>/ladder.csv", views.ladder_csv, name="ladder-csv"),
    # Calendar feeds (iCal, docs/sessions.md).
    path(
        "tournaments/<int:tournament_id>/calendar.ics", views.tournament_calendar, name="tournament-calendar"
    ),
    path("clubs/<slug:slug>/calendar.ics", views.club_calendar, name="club-calendar"),
    path("calendar/<str:token>.ics", views.player_calendar, name="player-calendar"),
    path(
        "players/<int:player_id>/calendar/replace/",
        views.player_calendar_replace,
        name="player-calendar-replace",
    ),
    # Personal API tokens (tokens/): the account's own, from "My page".
    path("me/tokens/", token_views.api_tokens, name="api-tokens"),
    path("me/tokens/<int:token_id>/revoke/", token_views.api_token_revoke, name="api-token-revoke"),
    path("clubs/<slug:slug>/webhooks/", webhook_views.webhooks, name="webhooks"),
    path("webhooks/<int:endpoint_id>/", webhook_views.webhook, name="webhook"),
    path("webhooks/<int:endpoint_id>/secret/", webhook_views.webhook_secret, name="webhook-secret"),
    path("webhooks/<int:endpoint_id>/test/", webhook_views.webhook_test, name="webhook-test"),
    path("webhooks/<int:endpoint_id>/delete/", webhook_views.webhook_delete, name="webhook-delete"),
    path(
        "webhook-deliveries/<int:delivery_id>/redeliver/",
        webhook_views.webhook_redeliver,
        name="webhook-redeliver",
    ),
]
