"""The game sockets' URLs (snapleague/asgi.py routes websockets here)."""

from __future__ import annotations

from django.urls import path

from games.online.consumers import GameConsumer

websocket_urlpatterns = [path("ws/games/<int:game_id>/", GameConsumer.as_asgi())]
