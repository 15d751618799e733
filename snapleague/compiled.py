"""Reads and writes compiled to SQL once per process (issue 27, docs/web.md "Rendered once per
version"; docs/benchmarks.md "Online play: frames encoded once, log writes compiled").

An anonymous crowd's page comes from the cache once its version is read, so reading the version is
most of what such a request costs; and most of a small read's cost is Django building its SQL
(0.3-1 ms a query on this machine), not running it (0.04 ms on SQLite). A :class:`CompiledRead`
builds its queryset once per process and database with stand-in keys, keeps the SQL, and later
runs it with the request's keys, turning each value as the ORM would (dates, JSON, booleans).

Only the keys change between runs: a read whose SQL depends on the values themselves (``__in`` a
list, a lookup that rewrites its value) is refused when it is compiled, never run wrong.

The online games' log appends are the same kind of work in a hot loop: a :class:`CompiledUpdate`
is a ``queryset.update(...)`` compiled once (0.43 ms of Django's time an update, 0.15 ms once
compiled), a :class:`CompiledInsert` a ``bulk_create`` of plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model, QuerySet
from django.db.models.sql import InsertQuery, UpdateQuery

# Stand-ins for the keys while a statement is compiled: no other parameter of these statements is
# one of them. An int key's is positive and within a 32-bit integer column's range (Django finds
# no row for a value out of a column's range, and leaves the condition out of the SQL).
_INT_STAND_IN = 2_146_000_000
_STR_STAND_IN = "\x1fstand-in:{}\x1f"


def _run(connection: Any, sql: str, params: list[Any], *, fetch: bool = True, many: bool = False) -> Any:
    """The rows of ``sql`` run with ``params`` (``fetch``), or the number of rows it changed; or,
    ``many``, run once for each list of ``params`` (nothing answered)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            if many:
                cursor.executemany(sql, params)
                return None
            cursor.execute(sql, params)
            return list(cursor.fetchall()) if fetch else cursor.rowcount
    # PostgreSQL plans a statement each time it is sent with its values inlined (Django's
    # client-side binding): 0.1-0.9 ms for these reads, more than running them. Sent with its
    # parameters apart and prepared, it is planned once per connection (pooled connections live
    # on). The connection's adapters are Django's, so the values come back as through Django.
    # Several runs of one statement go in one pipeline (psycopg's executemany).
    import psycopg

    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        if many:
            cursor.executemany(sql, params)
            return None
        cursor.execute(sql, params, prepare=True)
        return cursor.fetchall() if fetch else cursor.rowcount


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: Slots
    converters: dict[int, tuple[list[Any], Any]]  # by column, as the ORM's compiler gives them


def _stand_ins(kinds: dict[str, type]) -> dict[str, int | str]:
    for key, kind in kinds.items():
        if kind not in (int, str):
            raise ImproperlyConfigured(f"compiled statement key {key!r}: int or str, not {kind!r}")
    return {
        key: _INT_STAND_IN + n if kind is int else _STR_STAND_IN.format(key)
        for n, (key, kind) in enumerate(kinds.items())
    }


# Where each key goes among the compiled parameters: (position, key, the parameter's type). On
# PostgreSQL an integer column's parameter is wrapped in its size (psycopg's ``Int4``): a key's
# value is wrapped as its stand-in was.
Slots = tuple[tuple[int, str, type], ...]


def _slots(what: str, params: Sequence[Any], stand_ins: dict[str, int | str]) -> Slots:
    """Where each key's stand-in is among the compiled ``params``; every key must be there."""
    slots = tuple(
        (position, key, type(value))
        for position, value in enumerate(params)
        for key, stand_in in stand_ins.items()
        if isinstance(value, type(stand_in)) and value == stand_in
    )
    unused = set(stand_ins) - {key for _, key, _kind in slots}
    if unused:
        raise ImproperlyConfigured(
            f"{what}: the SQL does not carry the key(s) {sorted(unused)} as parameters"
        )
    return slots


def _fill(template: tuple[Any, ...], slots: Slots, keys: dict[str, int | str]) -> list[Any]:
    params = list(template)
    for position, key, kind in slots:
        value = keys[key]
        params[position] = value if type(value) is kind else kind(value)
    return params


def _keys_check(what: str, kinds: dict[str, type], keys: dict[str, int | str]) -> None:
    if keys.keys() != kinds.keys():
        raise TypeError(f"{what} needs exactly {sorted(kinds)}, got {sorted(keys)}")
    for key, value in keys.items():
        if type(value) is not kinds[key]:
            raise TypeError(f"{what} key {key!r} must be {kinds[key].__name__}")


class CompiledRead:
    """``build(**keys)`` gives a queryset (usually ``values_list``); :meth:`rows` runs its SQL with
    ``keys`` (each an ``int`` or a ``str``, as ``kinds`` says) without building it again."""

    def __init__(self, build: Callable[..., QuerySet[Any]], **kinds: type) -> None:
        _stand_ins(kinds)
        self._build = build
        self._kinds = kinds
        self._compiled: dict[str, _Compiled] = {}  # by database alias and vendor

    def rows(self, **keys: int | str) -> list[tuple[Any, ...]]:
        _keys_check("CompiledRead.rows", self._kinds, keys)
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(connection.vendor) or self._compile(connection.vendor)
        params = _fill(compiled.params, compiled.slots, keys)
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
        stand_ins = _stand_ins(self._kinds)
        queryset = self._build(**stand_ins)
        compiler = queryset.query.get_compiler(using=DEFAULT_DB_ALIAS)
        sql, params = compiler.as_sql()
        slots = _slots("CompiledRead", params, stand_ins)
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        compiled = _Compiled(
            sql=sql, params=tuple(params), slots=slots, converters=compiler.get_converters(columns)
        )
        self._compiled[vendor] = compiled
        return compiled


class CompiledUpdate:
    """``build(**keys)`` gives ``(queryset, values)``; :meth:`run` runs ``queryset.update(**values)``
    with ``keys`` without building it again, and answers how many rows it changed. Only plain
    values: an update that needs Django's per-row work (signals, ``auto_now``, expressions over
    other tables) is not one of these."""

    def __init__(self, build: Callable[..., tuple[QuerySet[Any], dict[str, Any]]], **kinds: type) -> None:
        _stand_ins(kinds)
        self._build = build
        self._kinds = kinds
        self._compiled: dict[str, tuple[str, tuple[Any, ...], Slots]] = {}

    def run(self, **keys: int | str) -> int:
        _keys_check("CompiledUpdate.run", self._kinds, keys)
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(connection.vendor)
        if compiled is None:
            stand_ins = _stand_ins(self._kinds)
            queryset, values = self._build(**stand_ins)
            query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
            query.add_update_values(values)
            sql, params = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
            compiled = sql, tuple(params), _slots("CompiledUpdate", params, stand_ins)
            self._compiled[connection.vendor] = compiled
        sql, template, slots = compiled
        params = _fill(template, slots, keys)
        return int(_run(connection, sql, params, fetch=False))


class CompiledInsert:
    """``model.objects.bulk_create`` of rows of plain values for ``fields`` (in that order): the
    one-row INSERT built once, run once a row (on PostgreSQL, several rows go in one pipeline:
    psycopg's ``executemany``). Each value is prepared for the database as the ORM prepares it
    (JSON, dates and times). No signals, no defaults filled in, no primary keys returned."""

    def __init__(self, model: type[Model], *fields: str) -> None:
        self._model = model
        self._fields: list[Field[Any, Any]] = []
        for name in fields:
            field = model._meta.get_field(name)
            if not isinstance(field, Field) or not field.concrete:
                raise ImproperlyConfigured(f"CompiledInsert: {model.__name__}.{name} is not a column")
            self._fields.append(field)
        self._sql: dict[str, str] = {}  # by vendor

    def run(self, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        sql = self._sql.get(connection.vendor)
        if sql is None:
            query = InsertQuery(self._model)
            query.insert_values(self._fields, [self._model()])
            statements = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
            if len(statements) != 1 or len(statements[0][1]) != len(self._fields):
                raise ImproperlyConfigured(f"CompiledInsert: {self._model.__name__} is not one plain INSERT")
            sql = self._sql[connection.vendor] = statements[0][0]
        params = []
        for row in rows:
            if len(row) != len(self._fields):
                raise TypeError(f"CompiledInsert: {len(self._fields)} values a row, not {len(row)}")
            params.append(
                [
                    field.get_db_prep_save(value, connection)
                    for field, value in zip(self._fields, row, strict=True)
                ]
            )
        if len(params) == 1:
            _run(connection, sql, params[0], fetch=False)
        else:
            _run(connection, sql, params, many=True)
