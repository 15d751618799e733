import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")

django_asgi_app = get_asgi_application()

# These need the app registry loaded.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns as game_urlpatterns  # noqa: E402
from tournaments.live.routing import websocket_urlpatterns as live_urlpatterns  # noqa: E402

websocket_urlpatterns = [*live_urlpatterns, *game_urlpatterns]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A socket opened by another site's page (its Origin is not one of ALLOWED_HOSTS) is refused
        # before any consumer runs; the session cookie says who is asking (drafts stay private).
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
