"""The pages of tournaments, stages, series and results (joined into ``tournaments/page_urls.py``,
namespace ``tournaments``)."""

from django.urls import path

from tournaments.competitions.views import registration, reports, results, screen, series, stages, tournaments

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/new/", tournaments.tournament_create, name="tournament-create"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/players/", tournaments.tournament_players_add, name="players-add"),
    path("tournaments/<int:tournament_id>/referees/", tournaments.tournament_referee_add, name="referee-add"),
    path("tournaments/<int:tournament_id>/stages/new/", stages.stage_create, name="stage-create"),
    path("tournaments/<int:tournament_id>/audit/", tournaments.tournament_audit, name="audit"),
    # Registration: the page, signing up, withdrawing, the organisers' window and decisions.
    path(
        "tournaments/<int:tournament_id>/registration/", registration.registration_page, name="registration"
    ),
    path(
        "tournaments/<int:tournament_id>/registration/register/",
        registration.registration_register,
        name="registration-register",
    ),
    path(
        "tournaments/<int:tournament_id>/registration/withdraw/",
        registration.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/registration/window/",
        registration.registration_window,
        name="registration-window",
    ),
    path(
        "registrations/<int:registration_id>/approve/",
        registration.registration_decide,
        {"decision": "approve"},
        name="registration-approve",
    ),
    path(
        "registrations/<int:registration_id>/refuse/",
        registration.registration_decide,
        {"decision": "refuse"},
        name="registration-refuse",
    ),
    path("tournaments/<int:tournament_id>/screen/", screen.tournament_screen, name="screen"),
    path(
        "tournaments/<int:tournament_id>/screen/body/", screen.tournament_screen_fragment, name="screen-body"
    ),
    path("stages/<int:stage_id>/", stages.stage_detail, name="stage"),
    path("stages/<int:stage_id>/body/", stages.stage_fragment, name="stage-body"),
    path("stages/<int:stage_id>/preview/", stages.stage_preview, name="stage-preview"),
    path("stages/<int:stage_id>/rounds/", stages.stage_rounds_generate, name="rounds-generate"),
    path("stages/<int:stage_id>/rounds/<int:number>/", stages.stage_round, name="round"),
    path("stages/<int:stage_id>/rounds/<int:number>/sheets/", stages.stage_round_sheets, name="round-sheets"),
    path("stages/<int:stage_id>/withdraw/", stages.stage_withdraw, name="stage-withdraw"),
    path("stages/<int:stage_id>/online/", stages.stage_online, name="stage-online"),
    path("stages/<int:stage_id>/draw/", stages.stage_draw, name="stage-draw"),
    path("stages/<int:stage_id>/standings/", stages.stage_standings, name="standings"),
    path("stages/<int:stage_id>/standings/table/", stages.stage_standings_fragment, name="standings-table"),
    path("stages/<int:stage_id>/version/", stages.stage_version, name="stage-version"),
    path("series/<int:series_id>/", series.series_detail, name="series"),
    path("series/<int:series_id>/games/", series.series_fragment, name="series-games"),
    path("series/<int:series_id>/version/", series.series_version, name="series-version"),
    path("series/<int:series_id>/forfeit/", series.series_forfeit, name="forfeit"),
    # Players' reports (docs/results.md, "Who records results").
    path("series/<int:series_id>/report/", reports.series_report, name="report"),
    path("reports/<int:report_id>/confirm/", reports.report_confirm, name="report-confirm"),
    path(
        "series/<int:series_id>/games/<int:game_number>/ask-correction/",
        reports.correction_ask,
        name="correction-ask",
    ),
    path("tournaments/<int:tournament_id>/disputes/", reports.disputes, name="disputes"),
    path("tournaments/<int:tournament_id>/result-mode/", reports.result_mode_set, name="result-mode"),
    path("disputes/<int:dispute_id>/decide/", reports.dispute_decide, name="dispute-decide"),
    path(
        "disputes/<int:dispute_id>/decide/other/", reports.dispute_decide_other, name="dispute-decide-other"
    ),
    path("series/<int:series_id>/record/", results.result_record, name="record"),
    path("series/<int:series_id>/games/<int:game_number>/correct/", results.result_correct, name="correct"),
    # The record form's service worker: at the root, so that its scope covers the form pages.
    path("record-sw.js", results.record_service_worker, name="record-sw"),
]
