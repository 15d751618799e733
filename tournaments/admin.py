"""The admin for organisers: their clubs' data, searchable and filterable.

An organiser (a staff account in ``Club.organisers``) sees and edits only their own clubs' rows;
superusers see everything. What has a service (results, pairings, standings) is read-only here:
those writes go through the concerns' services (the pages and the API), never round it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import ForeignKey, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest

from tournaments.access import clubs_organised
from tournaments.models import (
    AuditEntry,
    CheckIn,
    Club,
    Entry,
    GameResult,
    Player,
    Series,
    SeriesSeat,
    Session,
    Stage,
    StandingRow,
    Station,
    Tournament,
)


def _organises_any(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff) and (user.is_superuser or clubs_organised(user).exists())


class OrganiserScopedAdmin(admin.ModelAdmin):
    """Rows of the clubs the user organises; ``club_path`` leads from the model to its club."""

    club_path = "club"
    read_only = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        clubs = clubs_organised(request.user).values("pk")
        return queryset.filter(**{f"{self.club_path}__in": clubs})

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _organises_any(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _organises_any(request)  # get_queryset limits the rows

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self.read_only and _organises_any(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not self.read_only and _organises_any(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser) and not self.read_only

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.related_model is Club and not request.user.is_superuser:
            kwargs["queryset"] = clubs_organised(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Club)
class ClubAdmin(OrganiserScopedAdmin):
    club_path = "pk"
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)


@admin.register(Player)
class PlayerAdmin(OrganiserScopedAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "user__username"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "seed", "withdrawn"]
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(OrganiserScopedAdmin):
    list_display = ["name", "club", "game", "series_format", "status", "starts_at"]
    list_filter = ["game", "status", "series_format", "club"]
    search_fields = ["name"]
    date_hierarchy = "starts_at"
    filter_horizontal = ["referees"]
    inlines = [EntryInline]
    # Game and rules are checked by the tournament_create service (the club page and the API).
    readonly_fields = ["game", "rules_profile", "rules_options", "series_format"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Stage)
class StageAdmin(OrganiserScopedAdmin):
    club_path = "tournament__club"
    list_display = [
        "__str__",
        "format",
        "status",
        "results_version",
        "standings_version",
        "standings_computed_at",
    ]
    list_filter = ["format", "status", "tournament__game"]
    search_fields = ["name", "tournament__name"]
    fields = [
        "tournament",
        "name",
        "format",
        "options",
        "tiebreaks",
        "status",
        "online_play",
        "seed",
        "results_version",
        "standings_version",
        "standings_computed_at",
    ]
    readonly_fields = [
        "tournament",
        "format",
        "options",
        "tiebreaks",
        "status",
        "seed",
        "results_version",
        "standings_version",
        "standings_computed_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # stage_create checks the format and options


class SeriesSeatInline(admin.TabularInline):
    model = SeriesSeat
    extra = 0
    fields = ["seat", "player"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Series)
class SeriesAdmin(OrganiserScopedAdmin):
    club_path = "stage__tournament__club"
    read_only = True
    list_display = ["__str__", "stage", "format", "status", "decided_at"]
    list_filter = ["status", "format", "stage__tournament__game", "stage__tournament"]
    search_fields = ["seats__player__name", "stage__tournament__name"]
    inlines = [SeriesSeatInline]


@admin.register(GameResult)
class GameResultAdmin(OrganiserScopedAdmin):
    """Results are appended by result_record only: read here, corrected on the series page."""

    club_path = "game__series__stage__tournament__club"
    read_only = True
    list_display = ["game", "version", "confirmed", "void", "source", "recorded_by", "created_at", "reason"]
    list_filter = ["confirmed", "void", "source", "game__series__stage__tournament"]
    search_fields = ["reason", "recorded_by__username"]
    list_select_related = ["game__series__round", "recorded_by"]


@admin.register(StandingRow)
class StandingRowAdmin(OrganiserScopedAdmin):
    club_path = "stage__tournament__club"
    read_only = True
    list_display = ["stage", "group", "position", "rank", "player", "separated_by"]
    list_filter = ["stage__tournament", "group"]
    list_select_related = ["stage__tournament", "player"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is written by the services (tournaments/audit.py), never by hand."""

    list_display = ("created_at", "action", "user", "username", "tournament", "stage", "series")
    list_filter = ("action",)
    search_fields = ("username", "user__username", "tournament__name")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


# --- Club nights (tournaments/nights/) ----------------------------------------------------------


class StationInline(admin.TabularInline):
    model = Station
    extra = 0
    fields = ["number", "name"]


class CheckInInline(admin.TabularInline):
    model = CheckIn
    extra = 0
    fields = ["player", "checked_in_by", "created_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(OrganiserScopedAdmin):
    """Name, venue and online flag are edited here; sessions are created on the tournament page or
    the API (session_create refuses one in the past), check-in is closed on the session page."""

    club_path = "tournament__club"
    list_display = ["name", "tournament", "starts_at", "venue", "online", "check_in"]
    list_filter = ["check_in", "online", "tournament"]
    search_fields = ["name", "venue", "tournament__name"]
    date_hierarchy = "starts_at"
    fields = ["tournament", "name", "starts_at", "venue", "online", "check_in", "check_in_closed_at"]
    readonly_fields = ["tournament", "starts_at", "check_in", "check_in_closed_at"]
    inlines = [StationInline, CheckInInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Station)
class StationAdmin(OrganiserScopedAdmin):
    """The club's own tables (no session): every session without tables of its own uses them."""

    list_display = ["__str__", "club", "session", "number", "name"]
    list_filter = ["club", "session__tournament"]
    fields = ["club", "number", "name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).filter(session__isnull=True)


@admin.register(CheckIn)
class CheckInAdmin(OrganiserScopedAdmin):
    club_path = "session__tournament__club"
    read_only = True
    list_display = ["player", "session", "checked_in_by", "created_at"]
    list_filter = ["session__tournament", "session"]
    search_fields = ["player__name"]
    list_select_related = ["player", "session", "checked_in_by"]
