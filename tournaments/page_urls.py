from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
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
]
