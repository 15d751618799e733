from django.urls import path

from tournaments import api

app_name = "tournaments_api"
urlpatterns = [
    path("series/", api.SeriesListApi.as_view(), name="series-list"),
    path("series/<int:series_id>/results/", api.ResultCreateApi.as_view(), name="result-create"),
    path("stages/<int:stage_id>/standings/", api.StageStandingsApi.as_view(), name="stage-standings"),
]
