"""Online games in the admin: read-only (every write goes through games/online/services.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import GameLogEntry, OnlineGame, OnlineSeat


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = OnlineSeat
    extra = 0
    can_delete = False
    fields = ["number", "user", "bot_level", "client_seed"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(OnlineGame)
class OnlineGameAdmin(ReadOnly):
    list_display = ["id", "kind", "source", "status", "version", "created_at", "finished_at"]
    list_filter = ["kind", "source", "status"]
    exclude = ["sealed_seed"]
    inlines = [SeatInline]


@admin.register(GameLogEntry)
class GameLogEntryAdmin(ReadOnly):
    list_display = ["game", "seq", "seat", "user", "bot_level", "received_at"]
    list_filter = ["game__kind"]
