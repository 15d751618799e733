"""A person's own account pages, under /accounts/ beside allauth's (snapleague/urls.py)."""

from django.urls import path

from tournaments.accounts import views

app_name = "accounts"

urlpatterns = [
    path("settings/", views.account_settings, name="settings"),
    path("data/", views.account_data, name="data"),
    path("delete/", views.account_delete, name="delete"),
]
