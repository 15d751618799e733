"""The competitions' API routes: tournaments, stages, rounds, series, results, games (joined by
tournaments/urls.py)."""

from django.urls import path

from tournaments.competitions.api import (
    brackets,
    reports,
    results,
    rounds,
    series,
    stages,
    standings,
    tournaments,
)

urlpatterns = [
    path("tournaments/", tournaments.TournamentListCreateApi.as_view(), name="tournament-list"),
    path(
        "tournaments/<int:tournament_id>/",
        tournaments.TournamentDetailApi.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/players/",
        tournaments.TournamentPlayersAddApi.as_view(),
        name="tournament-players-add",
    ),
    path("stages/", stages.StageListCreateApi.as_view(), name="stage-list"),
    path("stages/<int:stage_id>/", stages.StageDetailApi.as_view(), name="stage-detail"),
    path(
        "stages/<int:stage_id>/rounds/", rounds.StageRoundsPublishApi.as_view(), name="stage-rounds-publish"
    ),
    path("stages/<int:stage_id>/preview/", stages.StagePreviewApi.as_view(), name="stage-preview"),
    path(
        "stages/<int:stage_id>/withdrawals/", stages.StageWithdrawalsApi.as_view(), name="stage-withdrawals"
    ),
    path("stages/<int:stage_id>/bracket/", brackets.StageBracketApi.as_view(), name="stage-bracket"),
    path("stages/<int:stage_id>/standings/", standings.StageStandingsApi.as_view(), name="stage-standings"),
    path("rounds/", rounds.RoundListApi.as_view(), name="round-list"),
    path("series/", series.SeriesListApi.as_view(), name="series-list"),
    path("series/<int:series_id>/", series.SeriesDetailApi.as_view(), name="series-detail"),
    path("series/<int:series_id>/results/", results.ResultCreateApi.as_view(), name="result-create"),
    # Players' reports (docs/results.md, "Who records results").
    path("series/<int:series_id>/reports/", reports.ReportsApi.as_view(), name="reports"),
    path("reports/<int:report_id>/confirm/", reports.ReportConfirmApi.as_view(), name="report-confirm"),
    path("tournaments/<int:tournament_id>/disputes/", reports.DisputeListApi.as_view(), name="dispute-list"),
    path("disputes/<int:dispute_id>/decide/", reports.DisputeDecideApi.as_view(), name="dispute-decide"),
    path("series/<int:series_id>/forfeit/", series.SeriesForfeitApi.as_view(), name="series-forfeit"),
    path("games/", results.GameListApi.as_view(), name="game-list"),
    path("results/", results.ResultListApi.as_view(), name="result-list"),
]
