"""One's notifications, under /notifications/ (snapleague/urls.py; the service worker is at /sw.js)."""

from django.urls import path

from tournaments.notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("<int:notification_id>/", views.notification_open, name="open"),
    path("settings/", views.notification_settings, name="settings"),
    path("push/subscription/", views.push_subscription, name="push-subscription"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
