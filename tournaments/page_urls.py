from django.urls import path

from tournaments import views
from tournaments.clubs import views as people_views
from tournaments.integrations.tokens import views as token_views
from tournaments.integrations.webhooks import views as webhook_views
from tournaments.nights import views as session_views

app_name = "tournaments"
urlpatterns = [
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
    path("clubs/<slug:slug>/ratings/", views.club_ratings, name="club-ratings"),
    path("clubs/<slug:slug>/invitations/", views.club_invitation_create, name="club-invitation"),
    path("clubs/<slug:slug>/players/import/", views.players_import, name="players-import"),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="tournament-create"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/results.csv", views.tournament_results_csv, name="results-csv"),
    path("tournaments/<int:tournament_id>/players/", views.tournament_players_add, name="players-add"),
    path("tournaments/<int:tournament_id>/referees/", views.tournament_referee_add, name="referee-add"),
    path("tournaments/<int:tournament_id>/stages/new/", views.stage_create, name="stage-create"),
    path("tournaments/<int:tournament_id>/audit/", views.tournament_audit, name="audit"),
    path("tournaments/<int:tournament_id>/screen/", views.tournament_screen, name="screen"),
    path(
        "tournaments/<int:tournament_id>/screen/body/", views.tournament_screen_fragment, name="screen-body"
    ),
    path("stages/<int:stage_id>/", views.stage_detail, name="stage"),
    path("stages/<int:stage_id>/body/", views.stage_fragment, name="stage-body"),
    path("stages/<int:stage_id>/preview/", views.stage_preview, name="stage-preview"),
    path("stages/<int:stage_id>/rounds/", views.stage_rounds_generate, name="rounds-generate"),
    path("stages/<int:stage_id>/rounds/<int:number>/", views.stage_round, name="round"),
    path("stages/<int:stage_id>/rounds/<int:number>/sheets/", views.stage_round_sheets, name="round-sheets"),
    path("stages/<int:stage_id>/withdraw/", views.stage_withdraw, name="stage-withdraw"),
    path("stages/<int:stage_id>/online/", views.stage_online, name="stage-online"),
    path("stages/<int:stage_id>/draw/", views.stage_draw, name="stage-draw"),
    path("stages/<int:stage_id>/standings/", views.stage_standings, name="standings"),
    path("stages/<int:stage_id>/standings.csv", views.stage_standings_csv, name="standings-csv"),
    path("stages/<int:stage_id>/standings/table/", views.stage_standings_fragment, name="standings-table"),
    path("stages/<int:stage_id>/version/", views.stage_version, name="stage-version"),
    path("series/<int:series_id>/", views.series_detail, name="series"),
    path("series/<int:series_id>/games/", views.series_fragment, name="series-games"),
    path("series/<int:series_id>/version/", views.series_version, name="series-version"),
    path("series/<int:series_id>/record/", views.result_record, name="record"),
    path("series/<int:series_id>/forfeit/", views.series_forfeit, name="forfeit"),
    path("series/<int:series_id>/games/<int:game_number>/correct/", views.result_correct, name="correct"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    # People (tournaments/clubs/): claiming a player by invitation, unlinking, a person's own page.
    path("players/<int:player_id>/claims/", people_views.player_claim_create, name="player-claim"),
    path("players/<int:player_id>/unlink/", people_views.player_unlink, name="player-unlink"),
    path("claims/<str:token>/", people_views.player_claim_accept, name="claim"),
    path("me/", people_views.person_page, name="me"),
    # Personal API tokens (tournaments/integrations/tokens/): the account's own, from "My page".
    path("me/tokens/", token_views.api_tokens, name="api-tokens"),
    path("me/tokens/<int:token_id>/revoke/", token_views.api_token_revoke, name="api-token-revoke"),
    # The record form's service worker: at the root, so that its scope covers the form pages.
    path("record-sw.js", views.record_service_worker, name="record-sw"),
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
    # Club nights (tournaments/nights/): sessions, tables, check-in, the tonight page.
    path(
        "tournaments/<int:tournament_id>/sessions/new/", session_views.session_create, name="session-create"
    ),
    path("sessions/<int:session_id>/", session_views.session_detail, name="session"),
    path("sessions/<int:session_id>/body/", session_views.session_body, name="session-body"),
    path("sessions/<int:session_id>/version/", session_views.session_version, name="session-version"),
    path("sessions/<int:session_id>/screen/", session_views.session_screen, name="session-screen"),
    path(
        "sessions/<int:session_id>/screen/body/",
        session_views.session_screen_fragment,
        name="session-screen-body",
    ),
    path("sessions/<int:session_id>/desk/", session_views.session_desk, name="session-desk"),
    path("sessions/<int:session_id>/checkins/", session_views.session_check_in, name="session-checkin"),
    path("sessions/<int:session_id>/close/", session_views.session_close, name="session-close"),
    path("sessions/<int:session_id>/reopen/", session_views.session_reopen, name="session-reopen"),
    path("sessions/<int:session_id>/edit/", session_views.session_edit, name="session-edit"),
    path("sessions/<int:session_id>/schedule/", session_views.session_schedule, name="session-schedule"),
    path("sessions/<int:session_id>/stations/", session_views.session_stations, name="session-stations"),
    path("series/<int:series_id>/station/", session_views.series_station, name="series-station"),
    path(
        "tournaments/<int:tournament_id>/calendar.ics",
        session_views.tournament_calendar,
        name="tournament-calendar",
    ),
    path("clubs/<slug:slug>/calendar.ics", session_views.club_calendar, name="club-calendar"),
    path("calendar/<str:token>.ics", session_views.player_calendar, name="player-calendar"),
    path(
        "players/<int:player_id>/calendar/replace/",
        session_views.player_calendar_replace,
        name="player-calendar-replace",
    ),
    path("clubs/<slug:slug>/seasons/", views.club_seasons, name="seasons"),
    path("clubs/<slug:slug>/seasons/new/", views.season_create, name="season-create"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/table.csv", views.season_csv, name="season-csv"),
    path("seasons/<int:season_id>/edit/", views.season_edit, name="season-edit"),
    path("seasons/<int:season_id>/tournaments/", views.season_tournament, name="season-tournament"),
    path("clubs/<slug:slug>/ladders/", views.club_ladders, name="ladders"),
    path("clubs/<slug:slug>/ladders/new/", views.ladder_create, name="ladder-create"),
    path("ladders/<int:ladder_id>/", views.ladder_detail, name="ladder"),
    path("ladders/<int:ladder_id>/edit/", views.ladder_edit, name="ladder-edit"),
    path("ladders/<int:ladder_id>/players/", views.ladder_players, name="ladder-players"),
    path("ladders/<int:ladder_id>/challenge/", views.ladder_challenge, name="ladder-challenge"),
    path(
        "ladders/<int:ladder_id>/challenges/record/",
        views.ladder_challenge_record,
        name="ladder-challenge-record",
    ),
    path("ladders/<int:ladder_id>/mine/", views.ladder_mine, name="ladder-mine"),
    path("ladders/<int:ladder_id>/history/", views.ladder_history, name="ladder-history"),
    path("ladders/<int:ladder_id>/ladder.csv", views.ladder_csv, name="ladder-csv"),
    path("ladder-challenges/<int:challenge_id>/answer/", views.ladder_challenge_answer, name="ladder-answer"),
    path("ladder-challenges/<int:challenge_id>/result/", views.ladder_challenge_result, name="ladder-result"),
]
