from django.urls import path

from games import api

app_name = "games_api"

urlpatterns = [
    path("snap/stats/<int:user_id>/", api.SnapStatsApi.as_view(), name="snap-stats"),
]
