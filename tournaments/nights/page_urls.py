"""The pages of club nights: sessions, tables, check-in, the tonight page (joined into
``tournaments/page_urls.py``, namespace ``tournaments``)."""

from django.urls import path

from tournaments.nights import views

urlpatterns = [
    path("tournaments/<int:tournament_id>/sessions/new/", views.session_create, name="session-create"),
    path("sessions/<int:session_id>/", views.session_detail, name="session"),
    path("sessions/<int:session_id>/body/", views.session_body, name="session-body"),
    path("sessions/<int:session_id>/version/", views.session_version, name="session-version"),
    path("sessions/<int:session_id>/screen/", views.session_screen, name="session-screen"),
    path("sessions/<int:session_id>/screen/body/", views.session_screen_fragment, name="session-screen-body"),
    path("sessions/<int:session_id>/desk/", views.session_desk, name="session-desk"),
    path("sessions/<int:session_id>/checkins/", views.session_check_in, name="session-checkin"),
    path("sessions/<int:session_id>/close/", views.session_close, name="session-close"),
    path("sessions/<int:session_id>/reopen/", views.session_reopen, name="session-reopen"),
    path("sessions/<int:session_id>/edit/", views.session_edit, name="session-edit"),
    path("sessions/<int:session_id>/schedule/", views.session_schedule, name="session-schedule"),
    path("sessions/<int:session_id>/stations/", views.session_stations, name="session-stations"),
    path("series/<int:series_id>/station/", views.series_station, name="series-station"),
]
