import os
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")

django_asgi_app = get_asgi_application()

# These need the app registry loaded.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.routing import websocket_urlpatterns as game_urlpatterns  # noqa: E402
from snapleague.sockets import SameOriginOnly  # noqa: E402
from tournaments.live.routing import websocket_urlpatterns as live_urlpatterns  # noqa: E402

websocket_urlpatterns = [*live_urlpatterns, *game_urlpatterns]


async def lifespan(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """The ASGI lifespan (uvicorn runs it once per process): the online games' lease sweeper starts
    with the process and stops with it, its owners' leases released (docs/online.md)."""
    from games.online.owner import owners_stop, sweeper_start, sweeper_stop

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            sweeper_start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await sweeper_stop()
            await owners_stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "lifespan": lifespan,
        # A socket opened by another origin's page (scheme, host and port: snapleague/sockets.py) is
        # refused before any consumer runs; the session cookie says who is asking (drafts stay private).
        "websocket": SameOriginOnly(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
