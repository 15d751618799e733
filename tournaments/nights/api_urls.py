"""The club nights' API routes (joined by tournaments/urls.py)."""

from django.urls import path

from tournaments.nights import api

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/sessions/",
        api.TournamentSessionsApi.as_view(),
        name="tournament-sessions",
    ),
    path("sessions/<int:session_id>/", api.SessionDetailApi.as_view(), name="session-detail"),
    path("sessions/<int:session_id>/rounds/", api.SessionRoundScheduleApi.as_view(), name="session-rounds"),
    path("sessions/<int:session_id>/checkins/", api.SessionCheckInsApi.as_view(), name="session-checkins"),
    path("sessions/<int:session_id>/close/", api.SessionCloseApi.as_view(), name="session-close"),
    path("sessions/<int:session_id>/reopen/", api.SessionReopenApi.as_view(), name="session-reopen"),
    path(
        "players/<int:player_id>/calendar/",
        api.PlayerCalendarReplaceApi.as_view(),
        name="player-calendar-replace",
    ),
]
