"""A ``values()`` query built and compiled by the ORM once per thread, then run with each call's values.

The night's most frequent request, the standings status poll, answers from one row; building its
queryset (two correlated subqueries) and compiling it to SQL cost 0.85 ms of CPU a poll, the
database's work 0.02-0.1 ms (scripts/bench_baseline.py). ``CompiledValues`` builds the queryset with
stand-in integers where each call's values go, compiles it once per thread and database connection
(a thread keeps its connection: the SQL and the converters stay valid), and then only binds the
values, runs the SQL and converts the row as the ORM would (datetimes made aware, booleans). The SQL is
the ORM's own, so the query is written once, in the ORM, where the rule it reads lives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet

# Integers no real id or value ever takes (ids are positive): the places a call's values go.
_FIRST_STAND_IN = -7_300_001


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    names: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]


class CompiledValues:
    """``build(**stand_ins)`` returns the ``values()`` queryset for the given integers; ``first(**values)``
    returns its first row as a dict, or None. Every parameter must be an integer (an id)."""

    _one_row = True

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], *params: str) -> None:
        self._build = build
        self._stand_ins = {name: _FIRST_STAND_IN - n for n, name in enumerate(params)}
        self._local = threading.local()

    def _compiled(self, alias: str) -> _Compiled:
        found: dict[str, _Compiled] = self._local.__dict__.setdefault("by_alias", {})
        if alias not in found:
            queryset = self._build(**self._stand_ins)
            query = (queryset[:1] if self._one_row else queryset).query
            compiler = query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            used = {value for value in params if value in self._stand_ins.values()}
            if used != set(self._stand_ins.values()):
                raise ValueError("every parameter must reach the SQL as a value of its own")
            names = list(query.selected) if query.selected else [
                *query.extra_select, *query.values_select, *query.annotation_select
            ]  # fmt: skip
            converters = compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            )
            found[alias] = _Compiled(
                sql, tuple(params), names, [(pos, convs, expr) for pos, (convs, expr) in converters.items()]
            )
        return found[alias]

    def _params(self, compiled: _Compiled, values: Mapping[str, int | None]) -> list[Any]:
        if values.keys() != self._stand_ins.keys():
            raise TypeError(f"expected values for {sorted(self._stand_ins)}, got {sorted(values)}")
        by_stand_in: Mapping[Any, int | None] = {
            self._stand_ins[name]: value for name, value in values.items()
        }
        return [
            by_stand_in.get(value, value) if isinstance(value, int) else value for value in compiled.params
        ]

    def first(self, *, using: str = "default", **values: int | None) -> dict[str, Any] | None:
        compiled = self._compiled(using)
        params = self._params(compiled, values)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        converted = list(row)
        for pos, convs, expression in compiled.converters:
            for convert in convs:
                converted[pos] = convert(converted[pos], expression, connection)
        return dict(zip(compiled.names, converted, strict=True))


class CompiledRows(CompiledValues):
    """``build(**stand_ins)`` returns a ``values_list()`` queryset; ``raw(**values)`` runs it with the given
    integers and returns its rows as the database sent them (one query), ``converted(rows)`` those rows as
    the ORM would give them (``values_list``'s tuples: datetimes made aware, booleans, decimals)."""

    _one_row = False

    def raw(self, *, using: str = "default", **values: int | None) -> tuple[tuple[Any, ...], ...]:
        compiled = self._compiled(using)
        params = self._params(compiled, values)
        with connections[using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            width = len(compiled.names)  # the ORM's own columns, as results_iter takes them
            return tuple(tuple(row[:width]) for row in cursor.fetchall())

    def converted(self, rows: Iterable[tuple[Any, ...]], *, using: str = "default") -> list[tuple[Any, ...]]:
        compiled = self._compiled(using)
        if not compiled.converters:
            return list(rows)
        connection = connections[using]
        done = []
        for row in rows:
            values = list(row)
            for pos, convs, expression in compiled.converters:
                for convert in convs:
                    values[pos] = convert(values[pos], expression, connection)
            done.append(tuple(values))
        return done
