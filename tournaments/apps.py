from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.ports import register_tournament_port
        from tournaments import signals  # noqa: F401  (sign-ins into the audit log)
        from tournaments.competitions.online_port import CompetitionsPort

        # games asks tournaments through its port (games/ports.py), never by importing tournaments.
        register_tournament_port(CompetitionsPort())

        # The live socket carries these stage fragments in its "changed" frames (tournaments/live).
        from tournaments.competitions.views.stages import LIVE_FRAGMENTS, live_fragment_html
        from tournaments.live.fragments import register_stage_fragments

        register_stage_fragments(frozenset(LIVE_FRAGMENTS), live_fragment_html)
