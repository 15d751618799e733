"""The pages of clubs and their people (joined into ``tournaments/page_urls.py``, namespace ``tournaments``)."""

from django.urls import path

from tournaments.clubs import views

urlpatterns = [
    # Before "clubs/<slug:slug>/", which "new" would match.
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
    path("clubs/<slug:slug>/invitations/", views.club_invitation_create, name="club-invitation"),
    path("clubs/<slug:slug>/players/import/", views.players_import, name="players-import"),
    # Join requests: a person asks from the club page; organisers decide on the list.
    path("clubs/<slug:slug>/join/", views.club_join_request_create, name="club-join"),
    path("clubs/<slug:slug>/join-requests/", views.club_join_requests, name="club-join-requests"),
    path(
        "join-requests/<int:request_id>/approve/",
        views.join_request_decide,
        {"decision": "approve"},
        name="join-request-approve",
    ),
    path(
        "join-requests/<int:request_id>/refuse/",
        views.join_request_decide,
        {"decision": "refuse"},
        name="join-request-refuse",
    ),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    # Claiming a player by invitation, unlinking, a person's own page.
    path("players/<int:player_id>/claims/", views.player_claim_create, name="player-claim"),
    path("players/<int:player_id>/unlink/", views.player_unlink, name="player-unlink"),
    path("claims/<str:token>/", views.player_claim_accept, name="claim"),
    path("me/", views.person_page, name="me"),
]
