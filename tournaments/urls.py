from django.urls import path

from tournaments import api
from tournaments.clubs import api as people_api
from tournaments.integrations.tokens import api as tokens_api
from tournaments.integrations.webhooks import api as webhooks_api
from tournaments.nights import api as session_api

app_name = "tournaments_api"
urlpatterns = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path(
        "clubs/<int:club_id>/invitations/",
        api.ClubInvitationCreateApi.as_view(),
        name="club-invitation-create",
    ),
    path("clubs/<int:club_id>/ratings/", api.ClubRatingsApi.as_view(), name="club-ratings"),
    path("clubs/<int:club_id>/players/", people_api.ClubPlayersCreateApi.as_view(), name="club-players"),
    path(
        "clubs/<int:club_id>/players/import/",
        people_api.ClubPlayersImportApi.as_view(),
        name="club-players-import",
    ),
    path("invitations/accept/", api.InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("players/", api.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", api.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:player_id>/ratings/", api.PlayerRatingsApi.as_view(), name="player-ratings"),
    path("players/<int:player_id>/claims/", people_api.PlayerClaimCreateApi.as_view(), name="player-claim"),
    path("players/<int:player_id>/unlink/", people_api.PlayerUnlinkApi.as_view(), name="player-unlink"),
    path("claims/accept/", people_api.PlayerClaimAcceptApi.as_view(), name="claim-accept"),
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
    path(
        "tournaments/<int:tournament_id>/sessions/",
        session_api.TournamentSessionsApi.as_view(),
        name="tournament-sessions",
    ),
    path("sessions/<int:session_id>/", session_api.SessionDetailApi.as_view(), name="session-detail"),
    path(
        "sessions/<int:session_id>/rounds/",
        session_api.SessionRoundScheduleApi.as_view(),
        name="session-rounds",
    ),
    path(
        "sessions/<int:session_id>/checkins/",
        session_api.SessionCheckInsApi.as_view(),
        name="session-checkins",
    ),
    path("sessions/<int:session_id>/close/", session_api.SessionCloseApi.as_view(), name="session-close"),
    path("sessions/<int:session_id>/reopen/", session_api.SessionReopenApi.as_view(), name="session-reopen"),
    path(
        "players/<int:player_id>/calendar/",
        session_api.PlayerCalendarReplaceApi.as_view(),
        name="player-calendar-replace",
    ),
    path("tokens/", tokens_api.ApiTokenListApi.as_view(), name="api-token-list"),
    path("tokens/<int:token_id>/", tokens_api.ApiTokenDetailApi.as_view(), name="api-token-detail"),
    path("games/", api.GameListApi.as_view(), name="game-list"),
    path("results/", api.ResultListApi.as_view(), name="result-list"),
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
    path("seasons/", api.SeasonListCreateApi.as_view(), name="season-list"),
    path("seasons/<int:season_id>/", api.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<int:season_id>/table/", api.SeasonTableApi.as_view(), name="season-table"),
    path(
        "seasons/<int:season_id>/tournaments/", api.SeasonTournamentsApi.as_view(), name="season-tournaments"
    ),
    path("ladders/", api.LadderListCreateApi.as_view(), name="ladder-list"),
    path("ladders/<int:ladder_id>/", api.LadderDetailApi.as_view(), name="ladder-detail"),
    path("ladders/<int:ladder_id>/players/", api.LadderPlayersApi.as_view(), name="ladder-players"),
    path("ladders/<int:ladder_id>/challenges/", api.LadderChallengesApi.as_view(), name="ladder-challenges"),
    path(
        "ladder-challenges/<int:challenge_id>/answer/",
        api.LadderChallengeAnswerApi.as_view(),
        name="ladder-answer",
    ),
    path(
        "ladder-challenges/<int:challenge_id>/result/",
        api.LadderChallengeResultApi.as_view(),
        name="ladder-result",
    ),
]
