from django.urls import path

from tournaments import api

app_name = "tournaments_api"
urlpatterns = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path(
        "clubs/<int:club_id>/invitations/",
        api.ClubInvitationCreateApi.as_view(),
        name="club-invitation-create",
    ),
    path("invitations/accept/", api.InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("players/", api.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", api.PlayerDetailApi.as_view(), name="player-detail"),
    path("tournaments/", api.TournamentListCreateApi.as_view(), name="tournament-list"),
    path("tournaments/<int:tournament_id>/", api.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(
        "tournaments/<int:tournament_id>/export/", api.TournamentExportApi.as_view(), name="tournament-export"
    ),
    path(
        "tournaments/<int:tournament_id>/players/",
        api.TournamentPlayersAddApi.as_view(),
        name="tournament-players-add",
    ),
    path("stages/", api.StageListCreateApi.as_view(), name="stage-list"),
    path("stages/<int:stage_id>/", api.StageDetailApi.as_view(), name="stage-detail"),
    path("stages/<int:stage_id>/rounds/", api.StageRoundsPublishApi.as_view(), name="stage-rounds-publish"),
    path("stages/<int:stage_id>/preview/", api.StagePreviewApi.as_view(), name="stage-preview"),
    path("stages/<int:stage_id>/withdrawals/", api.StageWithdrawalsApi.as_view(), name="stage-withdrawals"),
    path("stages/<int:stage_id>/bracket/", api.StageBracketApi.as_view(), name="stage-bracket"),
    path("stages/<int:stage_id>/standings/", api.StageStandingsApi.as_view(), name="stage-standings"),
    path("rounds/", api.RoundListApi.as_view(), name="round-list"),
    path("series/", api.SeriesListApi.as_view(), name="series-list"),
    path("series/<int:series_id>/", api.SeriesDetailApi.as_view(), name="series-detail"),
    path("series/<int:series_id>/results/", api.ResultCreateApi.as_view(), name="result-create"),
    path("series/<int:series_id>/forfeit/", api.SeriesForfeitApi.as_view(), name="series-forfeit"),
    path("games/", api.GameListApi.as_view(), name="game-list"),
    path("results/", api.ResultListApi.as_view(), name="result-list"),
    path("seasons/", api.SeasonListCreateApi.as_view(), name="season-list"),
    path("seasons/<int:season_id>/", api.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<int:season_id>/table/", api.SeasonTableApi.as_view(), name="season-table"),
    path(
        "seasons/<int:season_id>/tournaments/", api.SeasonTournamentsApi.as_view(), name="season-tournaments"
    ),
]
