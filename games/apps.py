from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games.online.kinds import online_register
        from games.online.snap import SnapOnline
        from games.online.tables import SnapszerOnline

        # Each game's online play, found by kind (games/online/kinds.py): registered here so that
        # the layers below the tables (the services, the replays) never import the tables.
        online_register(SnapszerOnline())
        online_register(SnapOnline())
