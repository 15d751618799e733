"""The clubs' API routes: clubs, organiser invitations, players and their claims (joined by tournaments/urls.py)."""

from django.urls import path

from tournaments.clubs import api

urlpatterns = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path(
        "clubs/<int:club_id>/invitations/",
        api.ClubInvitationCreateApi.as_view(),
        name="club-invitation-create",
    ),
    path("clubs/<int:club_id>/players/", api.ClubPlayersCreateApi.as_view(), name="club-players"),
    path(
        "clubs/<int:club_id>/players/import/",
        api.ClubPlayersImportApi.as_view(),
        name="club-players-import",
    ),
    path("invitations/accept/", api.InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("players/", api.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", api.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:player_id>/claims/", api.PlayerClaimCreateApi.as_view(), name="player-claim"),
    path("players/<int:player_id>/unlink/", api.PlayerUnlinkApi.as_view(), name="player-unlink"),
    path("claims/accept/", api.PlayerClaimAcceptApi.as_view(), name="claim-accept"),
]
