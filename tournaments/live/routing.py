"""The live-pages websocket's URL (snapleague/asgi.py routes websockets here)."""

from __future__ import annotations

from django.urls import path

from tournaments.live.consumers import LiveConsumer

websocket_urlpatterns = [path("ws/live/", LiveConsumer.as_asgi())]
