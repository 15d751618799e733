"""A club's data as one JSON file, and back (``manage.py club_export`` / ``club_import``).

What a file holds: the club, its players, tournaments (entries, referees), their sessions (tables,
check-ins) and the club's tables, seasons (with their tournament choices), stages, rounds, series
(seats, bracket slots, withdrawals, forfeits), games and every result version, the stored
standings, the tournaments' audit log, and the online games of its series (seats, log, snapshots;
not the owner's lease, which is a running process's). Not its open organiser invitations: their
links are signed with the exporting install's ``SECRET_KEY`` and mean nothing elsewhere; nor
players' calendar tokens (private addresses: the new install hands out its own); nor
sign-in entries of the audit log, which belong to no club. People are carried **by username** (name, e-mail, password hash, active),
never as staff or superusers: an account that exists already in the install is used as it is.

**Ids are kept.** Results, series, stages and standings refer to players by id inside their JSON
(a result's eliminated players, a series' placings, a round's pairing inputs), so an import keeps
every id rather than rewriting JSON it does not own. It therefore goes into a fresh install
(``manage.py migrate`` without the demo data), or one whose rows do not use those ids; anything
else is refused before a row is written, naming the clash. The file names the schema it was
written at (the latest migration of each app); an install at another schema refuses it, since
the rows would not mean the same there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import GameLogEntry, GameSnapshot, OnlineGame, OnlineSeat
from snapleague.errors import ApplicationError
from tournaments.models import (
    AuditEntry,
    BracketSlot,
    CheckIn,
    Club,
    Entry,
    Forfeit,
    Game,
    GameResult,
    Player,
    Round,
    Season,
    SeasonTournament,
    Series,
    SeriesSeat,
    Session,
    Stage,
    StandingRow,
    Station,
    Tournament,
    Withdrawal,
)

FORMAT = "snapleague.club"
VERSION = 1
APPS = ("tournaments", "games")


@dataclass(frozen=True)
class ImportReport:
    club: Club
    rows: int
    users_created: list[str]
    users_existing: list[str]


def _schema() -> dict[str, str]:
    """The latest applied migration of each app whose rows a file holds."""
    loader = MigrationLoader(connection)
    return {app: max(name for a, name in loader.applied_migrations if a == app) for app in APPS}


def _club_querysets(club: Club) -> list[models.QuerySet[Any]]:
    """Every row of ``club``, parents before children (the import saves them in this order)."""
    series = Series.objects.filter(stage__tournament__club=club)
    # Online games of its series, and hands entered card by card for its table games.
    online = OnlineGame.objects.filter(Q(series__in=series) | Q(table_game__series__in=series))
    return [
        Club.objects.filter(pk=club.pk),
        Player.objects.filter(club=club),
        Tournament.objects.filter(club=club),
        Entry.objects.filter(tournament__club=club),
        Session.objects.filter(tournament__club=club),
        Station.objects.filter(club=club),
        CheckIn.objects.filter(session__tournament__club=club),
        Season.objects.filter(club=club),
        SeasonTournament.objects.filter(season__club=club),
        Stage.objects.filter(tournament__club=club),
        Round.objects.filter(stage__tournament__club=club),
        series,
        SeriesSeat.objects.filter(series__in=series),
        BracketSlot.objects.filter(series__in=series),
        Withdrawal.objects.filter(stage__tournament__club=club),
        Forfeit.objects.filter(series__in=series),
        Game.objects.filter(series__in=series),  # before the hands entered for them
        online,
        OnlineSeat.objects.filter(game__in=online),
        GameLogEntry.objects.filter(game__in=online),
        GameSnapshot.objects.filter(game__in=online),
        GameResult.objects.filter(game__series__in=series),
        StandingRow.objects.filter(stage__tournament__club=club),
        AuditEntry.objects.filter(tournament__club=club),
    ]


def _users_of(club: Club) -> list[Any]:
    """Every account a row of the club names: organisers, referees, players' accounts, whoever
    recorded a result, a withdrawal or a forfeit, created or sat at an online game."""
    series = Series.objects.filter(stage__tournament__club=club)
    online = OnlineGame.objects.filter(Q(series__in=series) | Q(table_game__series__in=series))
    named = [
        club.organisers.values_list("pk", flat=True),
        Tournament.referees.through.objects.filter(tournament__club=club).values_list("user_id", flat=True),
        Player.objects.filter(club=club).values_list("user_id", flat=True),
        GameResult.objects.filter(game__series__in=series).values_list("recorded_by_id", flat=True),
        Withdrawal.objects.filter(stage__tournament__club=club).values_list("recorded_by_id", flat=True),
        Forfeit.objects.filter(series__in=series).values_list("recorded_by_id", flat=True),
        online.values_list("created_by_id", flat=True),
        OnlineSeat.objects.filter(game__in=online).values_list("user_id", flat=True),
        GameLogEntry.objects.filter(game__in=online).values_list("user_id", flat=True),
        AuditEntry.objects.filter(tournament__club=club).values_list("user_id", flat=True),
        CheckIn.objects.filter(session__tournament__club=club).values_list("checked_in_by_id", flat=True),
        Season.objects.filter(club=club).values_list("created_by_id", flat=True),
    ]
    ids = {pk for values in named for pk in values if pk is not None}
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def club_export(*, slug: str, passwords: bool = True) -> dict[str, Any]:
    """The club ``slug`` as a JSON-ready dict (see the module's docstring). Raises ApplicationError
    (404) for an unknown slug."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise ApplicationError(
            code="not_found", message=_("There is no club %(slug)s.") % {"slug": slug}, status=404
        )
    with transaction.atomic():  # one consistent snapshot of every table
        objects: list[Any] = []
        for queryset in _club_querysets(club):
            objects += serializers.serialize(
                "python",
                queryset.order_by("pk"),
                use_natural_foreign_keys=True,
                use_natural_primary_keys=False,
            )
        users = [
            {
                "username": user.username,
                "first_name": user.first_name,
                "last_name": user.last_name,
                "email": user.email,
                "is_active": user.is_active,
                "password": user.password if passwords else "",
            }
            for user in _users_of(club)
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": _schema(),
        "club": club.slug,
        "users": users,
        "objects": _jsonable(objects),
    }


def _jsonable(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``python`` serializer's output with datetimes and the like as the ``json`` serializer
    writes them."""
    from django.core.serializers.json import DjangoJSONEncoder

    return json.loads(json.dumps(objects, cls=DjangoJSONEncoder))


def _refuse(message: str, **params: Any) -> ApplicationError:
    return ApplicationError(code="club_import_refused", message=message % params if params else message)


def _check(data: dict[str, Any]) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(_("This is not a snapleague club export."))
    if data.get("version") != VERSION:
        raise _refuse(
            _("This club export is of version %(version)s; this install reads version %(ours)s."),
            version=data.get("version"),
            ours=VERSION,
        )
    ours = _schema()
    if data.get("schema") != ours:
        raise _refuse(
            _(
                "This club was exported at database schema %(theirs)s; this install is at %(ours)s. "
                "Export it again from an install of the same version."
            ),
            theirs=data.get("schema"),
            ours=ours,
        )
    if Club.objects.filter(slug=data.get("club")).exists():
        raise _refuse(_("A club %(slug)s exists already in this install."), slug=data.get("club"))
    taken: list[str] = []
    by_model: dict[str, set[Any]] = {}
    for row in data["objects"]:
        by_model.setdefault(row["model"], set()).add(row["pk"])
    for label, pks in by_model.items():
        model = _model(label)
        clash = model.objects.filter(pk__in=pks).count()
        if clash:
            taken.append(f"{model._meta.verbose_name_plural}: {clash}")
    if taken:
        raise _refuse(
            _(
                "Rows of this install use the ids the club's rows keep (%(taken)s). Import it into a "
                "fresh install (manage.py migrate, without the demo data)."
            ),
            taken=", ".join(taken),
        )


def _model(label: str) -> type[models.Model]:
    from django.apps import apps

    model = apps.get_model(label)
    allowed = {m._meta.label_lower for m in _MODELS}
    if model._meta.label_lower not in allowed:
        raise _refuse(_("A club export holds no %(label)s rows."), label=label)
    return model


_MODELS: tuple[type[models.Model], ...] = (
    Club,
    Player,
    Tournament,
    Entry,
    Session,
    Station,
    CheckIn,
    Season,
    SeasonTournament,
    Stage,
    Round,
    Series,
    SeriesSeat,
    BracketSlot,
    Withdrawal,
    Forfeit,
    OnlineGame,
    OnlineSeat,
    GameLogEntry,
    GameSnapshot,
    Game,
    GameResult,
    StandingRow,
    AuditEntry,
)


@transaction.atomic
def club_import(*, data: dict[str, Any]) -> ImportReport:
    """Write the club of ``data`` (what :func:`club_export` made) into this install, all or nothing.
    Raises ApplicationError when the file is not an export, is of another schema, or its club or
    ids are taken here (nothing is written then)."""
    _check(data)
    user_model = get_user_model()
    created: list[str] = []
    existing: list[str] = []
    for person in data["users"]:
        user = user_model.objects.filter(username=person["username"]).first()
        if user is not None:
            existing.append(user.username)
            continue
        user = user_model(
            username=person["username"],
            first_name=person.get("first_name", ""),
            last_name=person.get("last_name", ""),
            email=person.get("email", ""),
            is_active=bool(person.get("is_active", True)),
        )
        if person.get("password"):
            user.password = person["password"]
        else:
            user.set_unusable_password()  # exported without passwords: a reset sets one
        user.save()
        created.append(user.username)
    rows = 0
    for obj in serializers.deserialize("json", json.dumps(data["objects"]), handle_forward_references=False):
        _model(obj.object._meta.label)
        obj.save()
        rows += 1
    _reset_sequences()
    return ImportReport(
        club=Club.objects.get(slug=data["club"]), rows=rows, users_created=created, users_existing=existing
    )


def _reset_sequences() -> None:
    """PostgreSQL: the next id of each table follows the ids written (SQLite needs nothing)."""
    statements: Iterable[str] = connection.ops.sequence_reset_sql(no_style(), list(_MODELS))
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
