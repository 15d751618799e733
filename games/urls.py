from django.urls import path

from games.views import analysis, stats, tables

app_name = "games"

urlpatterns = [
    path("", tables.lobby, name="lobby"),
    path("new/", tables.table_new, name="new"),
    path("fairness/", tables.fairness, name="fairness"),
    path("join/<str:token>/", tables.join, name="join"),
    path("<int:game_id>/", tables.table, name="table"),
    path("<int:game_id>/verify/", tables.verify, name="verify"),
    path("<int:game_id>/replay/", tables.replay, name="replay"),
    path("<int:game_id>/stats/", stats.game_stats, name="game_stats"),
    path("stats/", stats.my_stats, name="my_stats"),
    path("stats/<int:user_id>/", stats.person_stats, name="person_stats"),
    path("practice/", tables.practice, name="practice"),
    path("<int:game_id>/analysis/", analysis.analysis, name="analysis"),
    path(
        "table-game/<int:table_game_id>/analysis/", analysis.table_game_analysis, name="table_game_analysis"
    ),
    path("hands/new/", analysis.hand_entry, name="hand_entry"),
    path("<int:game_id>/bots/", tables.fill_with_bots, name="fill"),
    path("series/<int:series_id>/", tables.series_play, name="series_play"),
]
