"""Reads compiled to SQL once per process (issue 27, docs/web.md "Rendered once per version").

An anonymous crowd's page comes from the cache once its version is read, so reading the version is
most of what such a request costs; and most of a small read's cost is Django building its SQL
(0.3-1 ms a query on this machine), not running it (0.04 ms on SQLite). A :class:`CompiledRead`
builds its queryset once per process and database with stand-in keys, keeps the SQL, and later
runs it with the request's keys, turning each value as the ORM would (dates, JSON, booleans).

Only the keys change between runs: a read whose SQL depends on the values themselves (``__in`` a
list, a lookup that rewrites its value) is refused when it is compiled, never run wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

# Real ids are positive and real slugs are printable: no parameter of a read is one of these.
_INT_STAND_IN = -7_318_993_000_000
_STR_STAND_IN = "\x1fstand-in:{}\x1f"


def _run(connection: Any, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    # PostgreSQL plans a statement each time it is sent with its values inlined (Django's
    # client-side binding): 0.1-0.9 ms for these reads, more than running them. Sent with its
    # parameters apart and prepared, it is planned once per connection (pooled connections live
    # on). The connection's adapters are Django's, so the values come back as through Django.
    import psycopg

    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        return cursor.fetchall()


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  # (position in params, key)
    converters: dict[int, tuple[list[Any], Any]]  # by column, as the ORM's compiler gives them


class CompiledRead:
    """``build(**keys)`` gives a queryset (usually ``values_list``); :meth:`rows` runs its SQL with
    ``keys`` (each an ``int`` or a ``str``, as ``kinds`` says) without building it again."""

    def __init__(self, build: Callable[..., QuerySet[Any]], **kinds: type) -> None:
        for key, kind in kinds.items():
            if kind not in (int, str):
                raise ImproperlyConfigured(f"CompiledRead key {key!r}: int or str, not {kind!r}")
        self._build = build
        self._kinds = kinds
        self._compiled: dict[str, _Compiled] = {}  # by database alias and vendor

    def rows(self, **keys: int | str) -> list[tuple[Any, ...]]:
        if keys.keys() != self._kinds.keys():
            raise TypeError(f"CompiledRead.rows needs exactly {sorted(self._kinds)}, got {sorted(keys)}")
        for key, value in keys.items():
            if type(value) is not self._kinds[key]:
                raise TypeError(f"CompiledRead key {key!r} must be {self._kinds[key].__name__}")
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(connection.vendor) or self._compile(connection.vendor)
        params = list(compiled.params)
        for position, key in compiled.slots:
            params[position] = keys[key]
        rows = _run(connection, compiled.sql, params)
        if not compiled.converters:
            return [tuple(row) for row in rows]
        converted = []
        for row in rows:
            values = list(row)
            for column, (functions, expression) in compiled.converters.items():
                value = values[column]
                for convert in functions:
                    value = convert(value, expression, connection)
                values[column] = value
            converted.append(tuple(values))
        return converted

    def _compile(self, vendor: str) -> _Compiled:
        stand_ins: dict[str, int | str] = {
            key: _INT_STAND_IN - n if kind is int else _STR_STAND_IN.format(key)
            for n, (key, kind) in enumerate(self._kinds.items())
        }
        queryset = self._build(**stand_ins)
        compiler = queryset.query.get_compiler(using=DEFAULT_DB_ALIAS)
        sql, params = compiler.as_sql()
        slots = tuple(
            (position, key)
            for position, value in enumerate(params)
            for key, stand_in in stand_ins.items()
            if type(value) is type(stand_in) and value == stand_in
        )
        unused = set(stand_ins) - {key for _, key in slots}
        if unused:
            raise ImproperlyConfigured(
                f"CompiledRead: the SQL does not carry the key(s) {sorted(unused)} as parameters"
            )
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        compiled = _Compiled(
            sql=sql, params=tuple(params), slots=slots, converters=compiler.get_converters(columns)
        )
        self._compiled[vendor] = compiled
        return compiled
