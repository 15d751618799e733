"""snapleague/compiled.py: a read, an update or an insert built once per process does what the ORM
does, for any keys."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from games.models import GameLogEntry, OnlineGame
from games.online.services import table_create
from snapleague.compiled import CompiledInsert, CompiledRead, CompiledUpdate
from tournaments.models import Club, Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def _tournaments_of(club: int) -> Any:
    return (
        Tournament.objects.filter(club_id=club)
        .order_by("pk")
        .values_list("pk", "name", "starts_at", "rules_options", "club__slug", "registration_window__pk")
    )


def test_a_compiled_read_gives_what_the_orm_gives_for_each_key(
    club: Club, make_tournament: Callable[..., Any]
) -> None:
    other = Club.objects.create(name="Érd Kártyakör", slug="erd")
    make_tournament(starts_at=timezone.now() + timedelta(days=3), rules_options={"marriage": True})
    Tournament.objects.create(club=other, name="Tavaszi Kupa", game="snap", rules_profile="classic")
    read = CompiledRead(_tournaments_of, club=int)

    for key in (club.pk, other.pk, club.pk, 10**9):
        assert read.rows(club=key) == list(_tournaments_of(key))
    rows = read.rows(club=club.pk)
    assert len(rows) == 2  # make_tournament makes one for the other referee too
    # Values are turned as the ORM turns them: an aware datetime, a dict, not the database's text.
    starts_at, options = rows[0][2], rows[0][3]
    assert starts_at is not None and starts_at.tzinfo is not None
    assert options == {"marriage": True}


def test_a_compiled_read_takes_text_keys_and_aggregates(club: Club, players: list[Player]) -> None:
    tournament = Tournament.objects.create(club=club, name="Hétfő", game="snap", rules_profile="classic")
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, player=p, withdrawn=n % 3 == 0) for n, p in enumerate(players)]
    )
    by_slug = CompiledRead(lambda slug: Club.objects.filter(slug=slug).values_list("pk", "name"), slug=str)
    assert by_slug.rows(slug="hatvan") == [(club.pk, "Hatvan Card Club")]
    assert by_slug.rows(slug="nowhere") == []

    def counts(club: int) -> Any:
        return (
            Entry.objects.filter(tournament__club_id=club)
            .order_by()
            .values("withdrawn")
            .annotate(n=Count("pk"))
            .order_by("withdrawn")
            .values_list("withdrawn", "n")
        )

    assert CompiledRead(counts, club=int).rows(club=club.pk) == [(False, 5), (True, 3)]


def test_the_sql_is_built_once_then_only_run(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    read = CompiledRead(lambda slug: Club.objects.filter(slug=slug).values_list("name"), slug=str)
    assert read.rows(slug="hatvan") == [("Hatvan Card Club",)]

    def no_building(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the SQL was built again")

    monkeypatch.setattr(SQLCompiler, "as_sql", no_building)
    Club.objects.create(name="Pécs", slug="pecs")
    assert read.rows(slug="pecs") == [("Pécs",)]


def test_a_read_whose_sql_does_not_carry_its_key_is_refused_when_built(club: Club) -> None:
    # icontains rewrites its value ("%hat%"): the compiled SQL could not take another key.
    rewritten = CompiledRead(
        lambda slug: Club.objects.filter(slug__icontains=slug).values_list("pk"), slug=str
    )
    with pytest.raises(ImproperlyConfigured, match="slug"):
        rewritten.rows(slug="hat")
    unused = CompiledRead(lambda club: Club.objects.values_list("pk"), club=int)
    with pytest.raises(ImproperlyConfigured, match="club"):
        unused.rows(club=club.pk)


def test_keys_are_checked_before_anything_runs(club: Club) -> None:
    read = CompiledRead(lambda club: Player.objects.filter(club_id=club).values_list("pk"), club=int)
    with pytest.raises(TypeError):
        read.rows()
    with pytest.raises(TypeError):
        read.rows(club=str(club.pk))
    with pytest.raises(TypeError):
        read.rows(club=club.pk, other=1)
    with pytest.raises(ImproperlyConfigured):
        CompiledRead(lambda when: Player.objects.filter(created_at=when), when=float)


def test_on_postgresql_the_read_is_a_statement_prepared_once_per_connection(club: Club) -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    read = CompiledRead(lambda slug: Club.objects.filter(slug=slug).values_list("name"), slug=str)

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall() if "tournaments_club" in row[0]]

    before = prepared()
    assert read.rows(slug="hatvan") == [("Hatvan Card Club",)]
    assert read.rows(slug="nowhere") == []
    assert len(prepared()) == len(before) + 1  # one statement, for both keys


# --- writes: the online games' log appends (games/online/services.py) ---------------------------


def _moves(game: int, was: int, now: int) -> Any:
    return OnlineGame.objects.filter(pk=game, version=was), {"version": now}


def test_a_compiled_update_changes_what_the_orm_would_and_counts_the_rows(
    make_user: Callable[..., Any],
) -> None:
    one = table_create(user=make_user("ada"), kind="snapszer", options={}, seats=2)
    two = table_create(user=make_user("bea"), kind="snapszer", options={}, seats=2)
    move = CompiledUpdate(_moves, game=int, was=int, now=int)

    assert move.run(game=one.pk, was=0, now=3) == 1
    assert move.run(game=one.pk, was=0, now=4) == 0  # no longer at 0: nothing changed (a stale write)
    assert move.run(game=two.pk, was=0, now=1) == 1  # the same SQL, another game's keys
    assert move.run(game=10**9, was=0, now=1) == 0
    versions = dict(OnlineGame.objects.filter(pk__in=[one.pk, two.pk]).values_list("pk", "version"))
    assert versions == {one.pk: 3, two.pk: 1}
    with pytest.raises(TypeError):
        move.run(game=one.pk, was=3)
    with pytest.raises(ImproperlyConfigured):  # "now" is not in the SQL: refused, not run wrong
        CompiledUpdate(lambda game, now: _moves(game, 0, 1), game=int, now=int).run(game=one.pk, now=2)


def test_a_compiled_insert_stores_what_bulk_create_stores(make_user: Callable[..., Any]) -> None:
    game = table_create(user=make_user("ada"), kind="snapszer", options={}, seats=2)
    user = make_user("bea")
    at = timezone.now()
    insert = CompiledInsert(
        GameLogEntry, "game", "seq", "action", "seat", "user", "bot_level", "received_at", "events"
    )
    insert.run(
        [(game.pk, 1, {"type": "play", "card": "AH", "note": "Zoë ő"}, 0, user.pk, "", at, [{"t": 1}])]
    )
    insert.run(
        [
            (game.pk, 2, {"type": "stand_in"}, None, None, "strong", at + timedelta(seconds=1), []),
            (game.pk, 3, {"type": "close"}, 1, None, "", at + timedelta(seconds=2), [None, True, 2.5]),
        ]
    )
    insert.run([])
    GameLogEntry.objects.bulk_create(
        [
            GameLogEntry(
                game=game,
                seq=4,
                action={"type": "play", "card": "AH", "note": "Zoë ő"},
                seat=0,
                user=user,
                bot_level="",
                received_at=at,
                events=[{"t": 1}],
            )
        ]
    )
    fields = ("seq", "action", "seat", "user_id", "bot_level", "received_at", "events")
    stored = {row[0]: row[1:] for row in GameLogEntry.objects.filter(game=game).values_list(*fields)}
    assert stored[1] == stored[4]  # the same values as the ORM's own insert
    assert stored[2] == ({"type": "stand_in"}, None, None, "strong", at + timedelta(seconds=1), [])
    assert stored[3] == ({"type": "close"}, 1, None, "", at + timedelta(seconds=2), [None, True, 2.5])
    with pytest.raises(TypeError):
        insert.run([(game.pk, 5)])
