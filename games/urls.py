from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="new"),
    path("fairness/", views.fairness, name="fairness"),
    path("join/<str:token>/", views.join, name="join"),
    path("<int:game_id>/", views.table, name="table"),
    path("<int:game_id>/verify/", views.verify, name="verify"),
    path("<int:game_id>/replay/", views.replay, name="replay"),
    path("<int:game_id>/stats/", views.game_stats, name="game_stats"),
    path("stats/", views.my_stats, name="my_stats"),
    path("stats/<int:user_id>/", views.person_stats, name="person_stats"),
    path("practice/", views.practice, name="practice"),
    path("<int:game_id>/analysis/", views.analysis, name="analysis"),
    path("table-game/<int:table_game_id>/analysis/", views.table_game_analysis, name="table_game_analysis"),
    path("hands/new/", views.hand_entry, name="hand_entry"),
    path("<int:game_id>/bots/", views.fill_with_bots, name="fill"),
    path("series/<int:series_id>/", views.series_play, name="series_play"),
]
