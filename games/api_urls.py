from django.urls import path

from games import api

app_name = "games_api"

urlpatterns = [
    path("snap/stats/<int:user_id>/", api.SnapStatsApi.as_view(), name="snap-stats"),
    path("hands/position/", api.HandPositionApi.as_view(), name="hand-position"),
    path("hands/", api.HandEntryCreateApi.as_view(), name="hand-create"),
]
