from django.apps import AppConfig


class SnapleagueConfig(AppConfig):
    name = "snapleague"
    verbose_name = "snapleague"
