from django.apps import AppConfig


class SnapleagueConfig(AppConfig):
    name = "snapleague"
    verbose_name = "snapleague"

    def ready(self) -> None:
        # Registers the OpenAPI extension of the throttled Basic authentication.
        from snapleague import login_throttle  # noqa: F401
