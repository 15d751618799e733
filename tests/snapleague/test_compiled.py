"""snapleague/compiled.py: a read built once per process gives what the ORM gives, for any keys."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from snapleague.compiled import CompiledRead
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
